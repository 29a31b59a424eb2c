"""Shared pieces of the command line: error handling and JSON output."""

from __future__ import annotations

import json
import os
import sys

import click

from kozyri.errors import KozyriError

#: Exit code for bad input (malformed text, impossible positions, illegal moves).
EXIT_BAD_INPUT = 2


class KozyriGroup(click.Group):
    """A click group that turns library errors into one-line messages.

    No traceback ever reaches the user: a :class:`KozyriError` (bad input) and
    any unexpected exception print ``error: ...`` and exit with code 2 (1 for an
    internal error).
    """

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KozyriError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)
        except RecursionError as exc:  # pragma: no cover - defensive
            click.echo(f"internal error: {exc}", err=True)
            ctx.exit(1)
        except Exception as exc:  # pragma: no cover - defensive
            click.echo(f"internal error: {type(exc).__name__}: {exc}", err=True)
            ctx.exit(1)


def emit_json(obj) -> None:
    """Print one JSON object on one line (for scripts)."""
    click.echo(json.dumps(obj, ensure_ascii=False))


def fail(message: str) -> None:
    """Stop the command with a one-line error and exit code 2."""
    raise KozyriError(message)


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def read_input(arg: str, what: str = "position") -> tuple[str, str]:
    """``(content, source)`` of ``-`` (standard input) or a file path, with a
    one-line error for a missing, unreadable or non-text file."""
    if arg == "-":
        return sys.stdin.read(), "standard input"
    if not os.path.exists(arg):
        fail(f"no such file: {arg} ({what.upper()} is a deal like \"QS KH AS | KS QH AH\", a JSON file, "
             "or - for standard input)")
    if os.path.isdir(arg):
        fail(f"{arg} is a directory, not a {what} file")
    try:
        with open(arg, encoding="utf-8") as fh:
            return fh.read(), arg
    except UnicodeDecodeError:
        fail(f"{arg} is not a UTF-8 text file")
    except OSError as exc:
        fail(f"cannot read {arg}: {exc.strerror or exc}")
