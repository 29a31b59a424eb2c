"""The ``kozyri`` command line: thin doors over the :mod:`kozyri` API.

The program starts in :mod:`kozyri_cli.start` (signals first), the group
of commands is :data:`kozyri_cli.commands.main` (also ``kozyri_cli.main``)
and each game's commands live in their own module, imported when one of
them runs; every error leaves through :class:`kozyri_cli.common.KozyriGroup`.
This package imports nothing itself: ``python -m kozyri_cli`` and the
console script reach :mod:`kozyri_cli.start` before click or the solvers load.
"""


def __getattr__(name: str):
    if name == "main":  # the click group, for `from kozyri_cli import main` (command modules, tests)
        from kozyri_cli.commands import main

        globals()["main"] = main
        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
