"""``kozyri reversi ...``: the Reversi commands."""

from __future__ import annotations

import click

from kozyri.cli import main
from kozyri.cli.common import KozyriGroup


@main.group(cls=KozyriGroup)
def reversi():
    """Reversi: perft, exact endgame solving and a playing engine."""
