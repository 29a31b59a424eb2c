"""What every command shares: the one door for errors and exit codes,
reading input, time options, progress lines and JSON output.

Exit codes: 0 done; 2 bad input (a usage error, malformed text or JSON, an
impossible position, an illegal move); 3 a limit that left no answer (a
table too big for its bound); 130 interrupted by Ctrl-C and 143 by SIGTERM
(128 + the signal's number, after printing what was proven); 141 standard
output closed (a pipe into ``head``, quietly; standard output closed before
the start, with a line saying so); 1 an internal error. Nothing ever prints a
traceback. Standard output that cannot be written for another reason (a
full disk: ``> /dev/full``) is one line and exit code 2, as an output file
that cannot be written.
"""

from __future__ import annotations

import errno
import functools
import io
import json
import math
import os
import shutil
import signal
import sys
import time
from contextlib import contextmanager

import click

from kozyri.checks import MOST_SEED, whole_text
from kozyri.core import (INTERRUPTED, MOST_MEMORY_MB, MOST_NODES, MOST_SECONDS, InvalidInput, KozyriError,
                         LimitReached)
from kozyri.search.control import last_signal
from kozyri_cli.signals import EXIT_INTERRUPTED, EXIT_TERMINATED, received_signal

EXIT_INTERNAL, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_CLOSED_PIPE = 1, 2, 3, 141

_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class KozyriGroup(click.Group):
    """A click group whose :meth:`main` is the one door for every error:
    each becomes one line on standard error and an exit code (above)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if sys.stdout is None or not _is_open(sys.stdout):
            # Every command writes its answer there: nothing is worth starting.
            code = _error("standard output is closed: nothing could be written", EXIT_CLOSED_PIPE)
            if standalone_mode:
                sys.exit(code)
            return code
        real_stdout = sys.stdout
        sys.stdout = _GuardedOutput(real_stdout)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            code = code if isinstance(code, int) else 0
            sys.stdout.flush()  # a write that fails now still leaves through this door
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
        except OutputFailed as exc:
            _silence_stdout(real_stdout)
            if exc.closed:
                code = EXIT_CLOSED_PIPE
            else:
                code = _error(f"cannot write to standard output: {exc.reason}", EXIT_BAD_INPUT)
        except BrokenPipeError:  # a protocol's own binary output (kozyri engine) was closed
            _silence_stdout(real_stdout)
            code = EXIT_CLOSED_PIPE
        except MemoryError:
            code = _error("out of memory: ask for less (a smaller --memory, deck or budget)", EXIT_LIMIT)
        except Exception as exc:  # pragma: no cover - a bug: still one line, no traceback
            code = _error(f"internal error: {type(exc).__name__}: {exc}", EXIT_INTERNAL, prefix="")
        finally:
            if isinstance(sys.stdout, _GuardedOutput):
                try:
                    sys.stdout.restore()
                except (OSError, ValueError):  # nothing left to write: it failed above already
                    pass
                sys.stdout = real_stdout
        if code == EXIT_INTERRUPTED and signal.SIGTERM in (last_signal(), received_signal()):
            code = EXIT_TERMINATED  # every command's interrupted exit, whichever way it ended
        if standalone_mode:
            sys.exit(code)
        return code


def _error(message: str, code: int, prefix: str = "error: ") -> int:
    """Print ``message`` on one line of standard error; return ``code``."""
    try:
        click.echo(prefix + " ".join(str(message).split()), err=True)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - standard error closed or full too
        pass
    return code


#: The errors of a write that mean the reader went away or the stream was closed.
_CLOSED_ERRNOS = (errno.EPIPE, errno.EBADF, errno.ECONNRESET)


class OutputFailed(Exception):
    """Standard output could not be written: ``closed`` (the reader went
    away: exit 141, quietly) or another ``reason`` (a full disk: one line,
    exit 2). Not an :class:`OSError`, so that click's own handling of a
    broken pipe (exit 1) does not take it."""

    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))
        self.closed = isinstance(error, BrokenPipeError) or error.errno in _CLOSED_ERRNOS
        self.reason = error.strerror or str(error)


class _GuardedOutput:
    """Standard output for the duration of a command: every write and flush
    of every command passes here (``click.echo``, ``print``), and a failed
    one becomes :class:`OutputFailed` for the door above. Everything else is
    the real stream's.

    Whatever the size of a write, it is written whole or it fails: when
    Python runs unbuffered (``PYTHONUNBUFFERED``, ``python -u``) the text
    stream writes straight to the file and ignores a short write (a pipe
    whose reader went away takes 64 KiB and the rest is silently dropped,
    exit 0), so the text then goes through a buffered writer of the same
    file, flushed after every write (still unbuffered for the reader), which
    writes everything or raises."""

    def __init__(self, stream):
        self._stream = stream
        self._replaced = _whole_writes(stream)
        if self._replaced is not None:
            self._stream = self._replaced

    def restore(self) -> None:
        """Flush the buffered writer put in place of an unbuffered file, if any."""
        if self._replaced is not None:
            self._replaced.flush()

    def write(self, text):
        try:
            written = self._stream.write(text)
            if self._replaced is not None:
                self._replaced.flush()
            return written
        except OSError as exc:
            raise OutputFailed(exc) from None

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        try:
            return self._stream.flush()
        except OSError as exc:
            raise OutputFailed(exc) from None
        except ValueError:  # flushing a stream closed under us (a test runner's buffer)
            return None

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _whole_writes(stream):
    """A text stream over a buffered writer of ``stream``'s file when
    ``stream`` writes to its file unbuffered (a raw file ignores a short
    write: see :class:`_GuardedOutput`), else None."""
    binary = getattr(stream, "buffer", None)
    if not isinstance(binary, io.RawIOBase):
        return None
    try:
        same_file = io.FileIO(binary.fileno(), "w", closefd=False)  # closing it leaves the descriptor open
        return io.TextIOWrapper(io.BufferedWriter(same_file), encoding=stream.encoding, errors=stream.errors,
                                write_through=True)
    except (AttributeError, ValueError, OSError):  # pragma: no cover - an unusual stream: left as it is
        return None


def _is_open(stream) -> bool:
    """Is ``stream`` open on a file descriptor that exists (``>&-`` closes it)?"""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):  # not a real file (a test runner's buffer): open
        return not getattr(stream, "closed", False)
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _silence_stdout(stream) -> None:
    """Point standard output at /dev/null and drop what is buffered, so that
    the flush at exit does not fail again on the closed pipe or full disk."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
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
        if seconds > MOST_SECONDS:
            self.fail(f"{value!r} is more than a year ({MOST_SECONDS:,} seconds, the most any budget may be)",
                      param, ctx)
        return seconds


SECONDS = Seconds()


class WholeNumber(click.ParamType):
    """A whole number from ``least`` to ``most`` (a node budget, megabytes, a
    depth, a seat): anything else is refused naming the bounds. The text is
    read by :func:`kozyri.checks.whole_text`, the one reading of every door
    (ASCII digits after at most one sign: ``+-1`` and ``--1`` are refused)."""

    name = "integer"

    def __init__(self, least: int, most: int, unit: str = ""):
        self.least, self.most, self.unit = least, most, unit

    def convert(self, value, param, ctx):
        number = value if isinstance(value, int) and not isinstance(value, bool) else whole_text(str(value))
        if number is None:
            self.fail(f"{value!r} is not a whole number{self._bounds()}", param, ctx)
        if not self.least <= number <= self.most:
            self.fail(f"{number} is not{self._bounds()}", param, ctx)
        return number

    def _bounds(self) -> str:
        return f" from {self.least:,} to {self.most:,}{' ' + self.unit if self.unit else ''}"


class FiniteNumber(click.FloatRange):
    """A finite number from ``least`` to ``most`` (None: no bound; with
    ``least_open`` above ``least``): a time, a rate or a budget. ``nan`` and
    ``inf``, which click's :class:`click.FloatRange` lets through (``nan``
    compares false with every bound), are refused, and every refusal names
    the bounds. The range shows in ``--help`` as click shows a FloatRange's."""

    name = "number"

    def __init__(self, least: float | None = None, most: float | None = None, unit: str = "", *,
                 least_open: bool = False):
        super().__init__(least, most, min_open=least_open)
        self.unit = unit

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number{self._rule(' ({})')}", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number{self._rule(' ({})')}", param, ctx)
        below = self.min is not None and (number <= self.min if self.min_open else number < self.min)
        if below or self.max is not None and number > self.max:
            self.fail(f"{_number_shown(number)} is not{self._rule(' {}')}", param, ctx)
        return number

    def _rule(self, form: str) -> str:
        """The bounds in words (``from 0 to 10 seconds``, ``at least 1 second``) put in ``form``; "" without any."""
        least, most = self.min, self.max
        if least is not None and most is not None and not self.min_open:
            words, last = f"from {_number_shown(least)} to {_number_shown(most)}", most
        elif least is not None:
            words, last = f"{'more than' if self.min_open else 'at least'} {_number_shown(least)}", least
            if most is not None:
                words, last = f"{words} and at most {_number_shown(most)}", most
        elif most is not None:
            words, last = f"at most {_number_shown(most)}", most
        else:
            return ""
        if self.unit:
            words += " " + (self.unit[:-1] if last == 1 and self.unit.endswith("s") else self.unit)
        return form.format(words)


def _number_shown(number: float) -> str:
    """A bound or a value in a message: 31,536,000, 0.01, 1e+300."""
    return f"{int(number):,}" if float(number).is_integer() and abs(number) < 1e16 else repr(float(number))


#: A node budget (iterations of a search), within :data:`kozyri.core.MOST_NODES`.
NODES = WholeNumber(1, MOST_NODES)
#: Megabytes for a search's tables, within :data:`kozyri.core.MOST_MEMORY_MB`.
MEGABYTES = WholeNumber(1, MOST_MEMORY_MB, "MB")
#: A seed (deal, bestmove, play, arena, winrates): the one seed rule of every door, 0 to
#: :data:`kozyri.checks.MOST_SEED` (2**63 - 1); a negative seed is refused everywhere.
SEED = WholeNumber(0, MOST_SEED)
#: A seat or a leader given before the players are known (0 to 3; the command then checks it against them).
SEAT_NUMBER = WholeNumber(0, 3)


def one_budget(ctx: click.Context, time_param: str = "seconds", nodes_param: str = "nodes") -> None:
    """Refuse ``--time`` and ``--nodes`` given together: ``--nodes``
    replaces the time limit (the same result on every machine), so one of
    them would be silently ignored."""
    given = [ctx.get_parameter_source(name) for name in (time_param, nodes_param)]
    explicit = [source not in (None, click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP)
                for source in given]
    if all(explicit) and ctx.params.get(nodes_param) is not None:
        fail("give --time or --nodes, not both (--nodes replaces the time limit: the same result on every machine)")


# --- the rule options ----------------------------------------------------------
def rule_flags(*, given_only: bool = False, note: str = ""):
    """The Own Trumps rule options as flags, one ``--NAME/--no-NAME`` per
    option of :data:`Rules.OPTIONS <kozyri.owntrumps.rules.Rules.OPTIONS>`
    (its name, default and meaning from there), handed to the command as
    one argument instead of one per option:

    - ``rules``, a :class:`~kozyri.owntrumps.rules.Rules`: each flag
      defaults to its option's default (shown in ``--help``);
    - with ``given_only``, ``rule_changes``: a dict of the options given on
      the command line only (name: True or False; ``{}`` when none), for
      the command to lay over the rules its input names (or the defaults).
      ``--help`` says each option's default.

    ``note`` ends every flag's help (``"Overrides a JSON position's rules."``).
    Put it among the command's options, where the flags belong in ``--help``."""
    from kozyri.owntrumps.rules import OPTION_NAMES, Rules  # each command module loads it anyway

    def decorate(command):
        @functools.wraps(command)
        def run(*args, **kwargs):
            values = {name: kwargs.pop(name) for name in OPTION_NAMES}
            if given_only:
                kwargs["rule_changes"] = {name: value for name, value in values.items() if value is not None}
            else:
                kwargs["rules"] = Rules(**values)
            return command(*args, **kwargs)

        for option in reversed(Rules.OPTIONS):  # click lists the options bottom up
            meaning = option.help[:1].upper() + option.help[1:]
            if given_only:
                default = f"[default: {'on' if option.default else 'off'}]"  # as click shows its own
                flag = click.option(f"--{option.flag}/--no-{option.flag}", option.name, default=None,
                                    help=f"{meaning}. {note}".strip() + "  " + default)
            else:
                flag = click.option(f"--{option.flag}/--no-{option.flag}", option.name, default=option.default,
                                    show_default=True, help=f"{meaning}. {note}".strip())
            run = flag(run)
        return run

    return decorate


# --- input ---------------------------------------------------------------------
class _NoInput(io.BytesIO):
    """What a server reads from a closed standard input: nothing, at once (the end of its input)."""

    def isatty(self) -> bool:
        return False


def standard_input(*, binary: bool = False, closed_ends: bool = False):
    """Standard input, for every command that reads it (``-`` for a
    position or record, ``kozyri play``'s moves, the engines' protocols):
    its text stream, or with ``binary`` the bytes under it.

    A closed standard input (``<&-``: Python then has no ``sys.stdin``) is
    one line and exit code 2, "standard input is closed", before anything
    is read; with ``closed_ends`` (a server: ``kozyri engine``, ``kozyri
    reversi gtp``) it is an input that ends at once instead, as ``<
    /dev/null`` would be, and the server ends quietly (exit code 0)."""
    stream = sys.stdin
    if stream is None or not _is_open(stream):
        if closed_ends:
            return _NoInput() if binary else io.TextIOWrapper(_NoInput(), encoding="utf-8")
        fail("standard input is closed: nothing can be read")
    return getattr(stream, "buffer", stream) if binary else stream


def standard_input_is_terminal() -> bool:
    """Is a person typing on standard input (False when it is closed)?"""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (OSError, ValueError):  # closed under us
        return False


#: The most bytes read from a POSITION/RECORD file or standard input (a record of 200,000 moves is 1.2 MB).
MAX_INPUT_BYTES = 64 * 2**20


def read_input(arg: str, what: str = "position") -> tuple[str, str]:
    """``(content, source)`` of ``-`` (standard input) or a file path, with a
    one-line error for a missing, unreadable, non-text or oversized
    (:data:`MAX_INPUT_BYTES`) file."""
    if arg == "-":
        data, source = standard_input(binary=True).read(MAX_INPUT_BYTES + 1), "standard input"
    else:
        if not os.path.exists(arg):
            fail(f"no such file: {arg} ({what.upper()} is a deal like \"QS KH AS | KS QH AH\", a JSON file, "
                 "or - for standard input)")
        if os.path.isdir(arg):
            fail(f"{arg} is a directory, not a {what} file")
        try:
            with open(arg, "rb") as fh:
                data, source = fh.read(MAX_INPUT_BYTES + 1), arg
        except OSError as exc:
            fail(f"cannot read {arg}: {exc.strerror or exc}")
    if len(data) > MAX_INPUT_BYTES:
        fail(f"{source} holds more than {MAX_INPUT_BYTES // 2**20} MiB: not a {what}")
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
    if not arg.strip():
        fail(f"the {what} is empty: give a deal like \"QS KH AS | KS QH AH\", a JSON file, or - for standard input")
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
        text = self.text(control)
        width = shutil.get_terminal_size((100, 20)).columns - 1
        click.echo("\r" + text[:width] + "\x1b[K", err=True, nl=False)
        self.shown = True

    def text(self, control) -> str:
        """The line for ``control``: seconds, nodes, what each search says it has proven."""
        return f"  {control.root.elapsed:7.1f} s  {control.total_nodes:>15,} nodes  " + " | ".join(control.statuses())

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
    from kozyri.owntrumps.table_store import MAX_CARDS

    if searched and seconds > 2 and position.n_players == 2 and position.deck.size <= MAX_CARDS:
        rule = "" if position.rules.must_beat else " --no-must-beat"
        click.echo(f"tip: `kozyri tables build --deck {position.deck.spec()}{rule}` (once) answers every position "
                   "of this deck at once", err=True)


def exit_interrupted_if(result) -> None:
    """After printing a result: exit 130 if Ctrl-C stopped its computation
    (143 if SIGTERM did: the door above tells them apart)."""
    if result.stopped == INTERRUPTED:
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
