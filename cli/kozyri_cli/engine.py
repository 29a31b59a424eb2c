"""``kozyri engine``: the Own Trumps engine on standard input and output
(the protocol is :mod:`kozyri.protocols.engine`, docs/engine-protocol.md)."""

from __future__ import annotations

import sys

import click

from kozyri import __version__
from kozyri.search.control import interrupts_end_run
from kozyri_cli import main
from kozyri_cli.common import OutputFailed, standard_input

ENGINE_EPILOG = """
\b
Text protocol (GTP framing: "[id] command args", answered by "=[id] ..." or
"?[id] message" and an empty line):
  newgame deck=36 players=3 seed=5 seats=1      the engine deals, plays seat 1
  newgame players=4 seat=2 hand=6S,7H,...        the engine knows its hand only
  play QS | genmove | analyze | stop | undo | showboard [SEAT] | state [SEAT]
  setoption level=5 | time_settings 300 0 0 | time_left 1 120 | quit
\b
--jsonl: one JSON request a line, one JSON reply a line, nothing kept between
them: {"id": 1, "type": "bestmove", "game": RECORD|OBSERVATION, "level": 5}.
Types: engine, legal_moves, bestmove, analyze, solve."""


@main.command(epilog=ENGINE_EPILOG)
@click.option("--jsonl", is_flag=True,
              help="Stateless JSON Lines requests (a game server's form) instead of the text protocol.")
@click.option("--level", default=None, metavar="N|NAME",
              help="Strength level 1-8 or its name (default 7, master); setoption or a request may change it.")
def engine(jsonl, level):
    """The Own Trumps engine behind a line protocol, for GUIs and servers.

    Reads commands on standard input and answers on standard output until
    'quit' or the end of the input (exit code 0). Bad input of any kind gets
    an error reply and the engine goes on; Ctrl-C ends it (exit code 130),
    SIGTERM too (143), the search in progress answering first.
    With three or four players the engine uses only what its own seat may
    know. See docs/engine-protocol.md.
    """
    from kozyri.owntrumps.table_store import TableStore
    from kozyri.protocols.analysis import Strength
    from kozyri.protocols.engine import Engine
    from kozyri.protocols.messages import JsonRequests
    from kozyri.protocols.transport import serve, serve_jsonl

    strength = Strength() if level is None else Strength(level=level)
    tables = TableStore()  # stored retrograde tables answer small decks exactly
    sys.stdout.flush()
    source, sink = standard_input(binary=True, closed_ends=True), sys.stdout.buffer  # closed: no request, exit 0
    try:
        if jsonl:
            serve_jsonl(JsonRequests(strength, version=__version__, tables=tables), source, sink)
        else:
            # SIGTERM as Ctrl-C: the search in progress stops and answers, then the engine ends (143).
            with interrupts_end_run():
                serve(Engine(strength, version=__version__, tables=tables), source, sink)
    except OSError as exc:  # a reply could not be written: 141 when the reader went away, else one line
        raise OutputFailed(exc) from None
