"""The ``kozyri`` group: every command by name, its module imported only
when the command runs (or its own ``--help`` is asked for).

``kozyri --help`` lists the commands from :data:`COMMANDS` without
importing any of them, and ``kozyri deal`` imports only the module of
``deal``: a command loads the solvers' Numba and NumPy when it computes
with them, not because another command does. Each command module
registers its commands on :data:`main` (``@main.command()``) when imported.
"""

from __future__ import annotations

import importlib

import click

from kozyri_cli.common import KozyriGroup

#: Every command of ``kozyri``: the module that defines it and its short help
#: (the first sentence of its docstring, as ``kozyri --help`` shows it;
#: ``tests/test_startup_imports.py`` checks that the two agree).
COMMANDS: dict[str, tuple[str, str]] = {
    "analyze": ("kozyri_cli.analyze", "A review of a finished or running game, move by move."),
    "arena": ("kozyri_cli.arena", "Play agents against each other over duplicate deals."),
    "bestmove": ("kozyri_cli.bestmove", "The move a playing agent chooses for the player to move."),
    "cache": ("kozyri_cli.cache", "Where the compiled kernels are cached, and clearing them."),
    "deal": ("kozyri_cli.owntrumps", "Deal a random Own Trumps position."),
    "engine": ("kozyri_cli.engine", "The Own Trumps engine behind a line protocol, for GUIs and servers."),
    "play": ("kozyri_cli.play", "Play Own Trumps against the computer in the terminal."),
    "replay": ("kozyri_cli.owntrumps", "Replay a game record move by move."),
    "reversi": ("kozyri_cli.reversi", "Reversi: perft, exact endgame solving and a playing engine."),
    "serve": ("kozyri_cli.serve", "The engine over HTTP and online tables over WebSockets."),
    "solve": ("kozyri_cli.owntrumps", "Solve an Own Trumps position exactly."),
    "tables": ("kozyri_cli.tables", "Retrograde tables: every position of a small deck, solved once."),
    "trumps": ("kozyri_cli.trumps", "How the choice of trumps decides a two-player deal."),
    "verify": ("kozyri_cli.verify", "Check a certificate of an Own Trumps value with the rules alone."),
    "winrates": ("kozyri_cli.winrates", "How good each trump choice is, over many deals."),
}


class LazyGroup(KozyriGroup):
    """A :class:`~kozyri_cli.common.KozyriGroup` whose commands are named in
    :data:`COMMANDS` and imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(COMMANDS[cmd_name][0])  # the module registers its commands on `main`
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands with their short help, from :data:`COMMANDS`
        for those not imported (the same text click would make from their
        docstrings): ``kozyri --help`` imports no command."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            command = self.commands.get(name)
            if command is not None:
                if not command.hidden:
                    rows.append((name, command.get_short_help_str(limit)))
            else:
                rows.append((name, unloaded_short_help(name, limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def unloaded_short_help(name: str, limit: int) -> str:
    """The short help of a command not imported, as click makes it from the
    command's docstring (a stand-in command: click's own helper for it is
    deprecated)."""
    return click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
      kozyri serve                       the engine over HTTP, online tables (extra serve)
    \b
    Reversi:
      kozyri reversi --help
    \b
    Ctrl-C stops a long computation and prints what it proved so far.
    """
