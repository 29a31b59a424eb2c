"""The ``kozyri`` command line: thin doors over the :mod:`kozyri` API.

Each game's commands live in their own module and register on :func:`main`;
every error leaves through :class:`kozyri_cli.common.KozyriGroup`.
"""

from __future__ import annotations

import click

from kozyri_cli.common import KozyriGroup


@click.group(cls=KozyriGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kozyri")
def main():
    """Exact analysis of Own Trumps (Svoi Kozyri) and Reversi.

    \b
    Own Trumps:
      kozyri deal --deck 4x3 --seed 1    a random deal to look at
      kozyri solve --example             solve a built-in deal exactly
      kozyri trumps DEAL                 how the choice of trumps changes a deal
      kozyri replay RECORD [--seat N]    a game move by move, as one player saw it
      kozyri bestmove POSITION|RECORD    a strong move for the real game (2-4 players)
      kozyri analyze RECORD              a game reviewed move by move: mistakes, turning points
      kozyri arena mcts greedy           agents against each other, duplicate deals
      kozyri winrates --deck 4x3 --all-deals   trump-choice win rates over many deals
      kozyri tables build --deck 4x3     every 12-card position solved once, kept on disk
      kozyri serve                       the engine over HTTP, online tables (kozyri[serve])
    \b
    Reversi:
      kozyri reversi --help
    \b
    Ctrl-C stops a long computation and prints what it proved so far.
    """


from kozyri_cli import arena, bestmove, owntrumps, play, reversi, tables, trumps, winrates  # noqa: E402,F401  (register the commands)
from kozyri_cli import analyze  # noqa: E402,F401  (register kozyri analyze)
from kozyri_cli import engine  # noqa: E402,F401  (register kozyri engine)
from kozyri_cli import serve  # noqa: E402,F401  (register kozyri serve)
