"""Where the ``kozyri`` program starts: Ctrl-C and SIGTERM are taken care
of before anything else loads.

The console script (``kozyri = "kozyri_cli.start:run"``) and ``python -m
kozyri_cli`` begin here. The handlers (:mod:`kozyri_cli.signals`, which
needs only what the interpreter has loaded already) are installed first,
then the commands load, so that a signal that comes while click, the
command and the solvers load ends the program as one that comes later
does: one line ``interrupted``, exit code 130 (143 for SIGTERM), no
traceback.
"""

from __future__ import annotations

import signal
import sys

from kozyri_cli.signals import (EXIT_INTERRUPTED, EXIT_TERMINATED, catch_stop_signals, received_signal,
                                set_starting, stop_at_once)


def run() -> None:
    """Run the ``kozyri`` command line (the arguments of ``sys.argv``) and exit."""
    try:
        set_starting(True)
        catch_stop_signals()
        from kozyri_cli.commands import main

        set_starting(False)
        main(prog_name="kozyri")
    except KeyboardInterrupt:  # while the commands loaded, before the door in `main` opened
        try:
            sys.stderr.write("interrupted\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):  # standard error closed too
            pass
        sys.exit(EXIT_TERMINATED if received_signal() == signal.SIGTERM else EXIT_INTERRUPTED)
    finally:
        # The command has answered and its output is flushed: a signal now ends the
        # process at once, quietly, whatever the interpreter is tearing down.
        stop_at_once()
