"""What every command shares: the one door for errors and exit codes,
reading input, time options, progress lines and JSON output.

Exit codes: 0 done; 2 bad input (a usage error, malformed text or JSON, an
impossible position, an illegal move); 3 a limit that left no answer (a
table too big for its bound); 130 interrupted by Ctrl-C and 143 by SIGTERM
(128 + the signal's number, after printing what was proven); 141 standard
output closed (a pipe into ``head``), quietly; 1 an internal error. Nothing
ever prints a traceback.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import sys
import time
from contextlib import contextmanager

import click

from kozyri.core import INTERRUPTED, InvalidInput, KozyriError, LimitReached
from kozyri.search.control import last_signal

EXIT_INTERNAL, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_INTERRUPTED, EXIT_CLOSED_PIPE = 1, 2, 3, 130, 141
#: The exit code after SIGTERM stopped a command (128 + 15, as a shell reports a process it ended).
EXIT_TERMINATED = 128 + signal.SIGTERM

_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class KozyriGroup(click.Group):
    """A click group whose :meth:`main` is the one door for every error:
    each becomes one line on standard error and an exit code (above)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            code = code if isinstance(code, int) else 0
        except _NO_ARGS_IS_HELP as exc:
            click.echo(exc.ctx.get_help())
            code = 0
        except click.UsageError as exc:
            where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            code = _error(exc.format_message().rstrip(".") + where, EXIT_BAD_INPUT)
        except click.ClickException as exc:
            code = _error(exc.format_message(), exc.exit_code)
        except LimitReached as exc:
            code = _error(str(exc), EXIT_LIMIT)
        except KozyriError as exc:
            code = _error(str(exc), EXIT_BAD_INPUT)
        except (click.Abort, KeyboardInterrupt):
            code = _error("interrupted", EXIT_INTERRUPTED, prefix="")
        except BrokenPipeError:
            _silence_stdout()
            code = EXIT_CLOSED_PIPE
        except Exception as exc:  # pragma: no cover - a bug: still one line, no traceback
            code = _error(f"internal error: {type(exc).__name__}: {exc}", EXIT_INTERNAL, prefix="")
        if code == EXIT_INTERRUPTED and last_signal() == signal.SIGTERM:
            code = EXIT_TERMINATED  # every command's interrupted exit, whichever way it ended
        if standalone_mode:
            sys.exit(code)
        return code


def _error(message: str, code: int, prefix: str = "error: ") -> int:
    """Print ``message`` on one line of standard error; return ``code``."""
    try:
        click.echo(prefix + " ".join(str(message).split()), err=True)
    except BrokenPipeError:  # pragma: no cover - standard error closed too
        pass
    return code


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the flush at exit does
    not fail again on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test runner's buffer)
        pass


def fail(message: str) -> None:
    """Stop the command with a one-line error and exit code 2."""
    raise InvalidInput(message)


def emit_json(obj) -> None:
    """Print one JSON object on one line (for scripts)."""
    click.echo(json.dumps(obj, ensure_ascii=False))


class Seconds(click.ParamType):
    """A positive, finite number of seconds (``nan`` and ``inf`` are refused)."""

    name = "seconds"

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            seconds = float(value)
        else:
            try:
                seconds = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a positive, finite number of seconds", param, ctx)
        return seconds


SECONDS = Seconds()


# --- input ---------------------------------------------------------------------
def read_input(arg: str, what: str = "position") -> tuple[str, str]:
    """``(content, source)`` of ``-`` (standard input) or a file path, with a
    one-line error for a missing, unreadable or non-text file."""
    if arg == "-":
        stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
        data, source = stream.read(), "standard input"
    else:
        if not os.path.exists(arg):
            fail(f"no such file: {arg} ({what.upper()} is a deal like \"QS KH AS | KS QH AH\", a JSON file, "
                 "or - for standard input)")
        if os.path.isdir(arg):
            fail(f"{arg} is a directory, not a {what} file")
        try:
            with open(arg, "rb") as fh:
                data, source = fh.read(), arg
        except OSError as exc:
            fail(f"cannot read {arg}: {exc.strerror or exc}")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            fail(f"{source} is not UTF-8 text" if source != arg else f"{arg} is not a UTF-8 text file")
    return data, source


def argument_text(arg: str, what: str = "position") -> tuple[str, str | None]:
    """``(content, source)`` of a POSITION argument: the argument itself when
    it is inline (a deal with '|' or a JSON object), else a file or ``-``."""
    if "|" in arg or arg.lstrip().startswith("{"):
        return arg, None
    if arg != "-" and not os.path.exists(arg) and len(arg.split()) > 1:
        fail(f"a deal needs at least two hands separated by '|', e.g. \"QS KH AS | KS QH AH\" (got {arg!r})")
    return read_input(arg, what)


# --- progress ------------------------------------------------------------------
class ProgressLine:
    """A progress line on standard error, redrawn in place, only when standard
    error is a terminal: elapsed time, nodes and what is proven so far."""

    def __init__(self, enabled: bool | None = None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.shown = False

    def __call__(self, control) -> None:
        if not self.enabled:
            return
        root = control.root
        text = f"  {root.elapsed:7.1f} s  {control.total_nodes:>15,} nodes  " + " | ".join(control.statuses())
        width = shutil.get_terminal_size((100, 20)).columns - 1
        click.echo("\r" + text[:width] + "\x1b[K", err=True, nl=False)
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            click.echo("\r\x1b[K", err=True, nl=False)
            self.shown = False


class CountProgress(ProgressLine):
    """Work done of planned, the pace, the time left and a note (a running
    result), on standard error when it is a terminal."""

    def __init__(self, unit: str, enabled: bool | None = None):
        super().__init__(enabled)
        self.unit = unit
        self.started = time.monotonic()
        self.first_done: int | None = None

    def update(self, done: int, planned: int, note: str = "") -> None:
        if not self.enabled:
            return
        if self.first_done is None:
            self.first_done = done - 1  # the work found already done (a resumed run) is not the pace
        rate = (done - self.first_done) / max(1e-9, time.monotonic() - self.started)
        eta = (planned - done) / rate if rate > 0 else 0.0
        text = (f"  {done:,}/{planned:,} {self.unit}  {note}{'  ' if note else ''}{rate * 60:.1f} {self.unit}/min  "
                f"ETA {duration(eta)}")
        width = shutil.get_terminal_size((100, 20)).columns - 1
        click.echo("\r" + text[:width] + "\x1b[K", err=True, nl=False)
        self.shown = True


def duration(seconds: float) -> str:
    """Seconds for people: 42 s, 17 min, 3.5 h."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


@contextmanager
def progress_line():
    """A :class:`ProgressLine` that is cleared when the block ends."""
    line = ProgressLine()
    try:
        yield line
    finally:
        line.clear()


def suggest_tables(position, seconds: float, searched: bool) -> None:
    """After a slow search of a small two-player deck: say that a stored table would answer at once."""
    from kozyri.owntrumps.tables import MAX_CARDS

    if searched and seconds > 2 and position.n_players == 2 and position.deck.size <= MAX_CARDS:
        rule = "" if position.rules.must_beat else " --no-must-beat"
        click.echo(f"tip: `kozyri tables build --deck {position.deck.spec()}{rule}` (once) answers every position "
                   "of this deck at once", err=True)


def exit_interrupted_if(result) -> None:
    """After printing a result: exit 130 if Ctrl-C stopped its computation
    (143 if SIGTERM did: the door above tells them apart)."""
    if result.stopped == INTERRUPTED:
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
