"""``kozyri verify``: check a certificate of an Own Trumps value with the rules alone."""

from __future__ import annotations

import os

import click

from kozyri_cli import main
from kozyri_cli.common import emit_json, fail

#: The exit code of a refused certificate (a checked file that proves nothing): not 1, which is
#: every command's internal error, so that a script tells a bad proof from a bug.
EXIT_REFUSED = 4
#: The most moves of a refusal's line printed in the text output (--json has them all).
SHOWN_MOVES = 40

VERIFY_EPILOG = """\b
A certificate proves the exact value of a two-player Own Trumps position:
a header (the position, its value for the player to move) and lemmas, each
a strategy of one player from one position: "win" (it forces a win) or
"hold" (it never loses; playing for ever is a draw). A win needs a win
lemma of the player to move, a loss one of the other player, a draw hold
lemmas of both. See docs/certificates.md for the format.
\b
Getting one (the exact solver writes it while it proves the value):
  kozyri solve POSITION --offline --store FILE --certificate FILE
\b
The check uses kozyri.owntrumps.rules alone (legal moves, playing a move,
the end of the game): no solver, no Numba, no stored table. Every move the
other player could make is followed, every chosen move is played, every
end of a game is checked against the claim.
\b
Exit codes:
  0  the certificate is accepted: the value is proven
  4  the certificate is refused: the first wrong node is printed (the lemma,
     the moves from its position to the node, the reason)
  2  the file cannot be read (missing, a directory, no permission)"""


@main.command("verify", epilog=VERIFY_EPILOG)
@click.argument("certificate", metavar="CERT")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: ok, value, to_move, position, lemmas, positions, game_ends, "
                   "seconds, checker; on a refusal lemma, line (the moves), node and reason.")
def verify(certificate, as_json):
    """Check a certificate of an Own Trumps value with the rules alone.

    CERT is a certificate file (gzip, or the same text uncompressed).
    The command reads it, walks every lemma's strategy with the plain
    rules and says whether the value it states is proven.

    \b
    Examples:
      kozyri verify deal.cert.gz
      kozyri verify deal.cert.gz --json
    """
    if not os.path.exists(certificate):
        fail(f"no such file: {certificate}")
    if os.path.isdir(certificate):
        fail(f"{certificate} is a directory, not a certificate file")
    from kozyri.owntrumps.verify import CHECKER, verify_certificate

    report = verify_certificate(certificate)  # a file that cannot be read: InvalidInput, exit code 2
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo(report_text(report, CHECKER))
    if not report.ok:
        raise click.exceptions.Exit(EXIT_REFUSED)


def report_text(report, checker: str) -> str:
    """The text of a report: what was proven and checked, or the first wrong node."""
    lines = [f"certificate: {report.path}"]
    if report.position is not None:
        pos = report.position
        rules = ", ".join(f"{name} {'on' if on else 'off'}" for name, on in pos.rules.to_json().items())
        lines.append(f"position: {pos.text()} (deck {pos.deck.spec()}, trumps {' '.join(pos.trumps)}, {rules}, "
                     f"player {pos.to_move} to move)")
    checked = (f"checked: {report.lemmas:,} lemma{'s' if report.lemmas != 1 else ''}, {report.positions:,} "
               f"positions, {report.game_ends:,} game ends in {report.seconds:.2f} s")
    if report.ok:
        lines.append(f"value: {report.value} for player {report.to_move} (the player to move): proven")
        lines.append(checked)
        lines.append(checker)
        return "\n".join(lines)
    if report.value is not None:
        lines.append(f"claimed value: {report.value} for player {report.to_move} (the player to move)")
    where = f"lemma {report.lemma}" if report.lemma is not None else "the certificate"
    lines.append(f"REFUSED: {where}")
    if report.lemma is not None:
        moves = report.line
        shown = " ".join(moves) if len(moves) <= SHOWN_MOVES else (
            f"... ({len(moves) - SHOWN_MOVES:,} moves) " + " ".join(moves[-SHOWN_MOVES:]))
        lines.append(f"  moves from the lemma's position: {shown or '(none: the position itself)'}")
    if report.node is not None:
        lines.append(f"  at: {report.node}")
    lines.append(f"  reason: {report.reason}")
    lines.append(checker)
    return "\n".join(lines)
