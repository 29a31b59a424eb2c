"""Results files: long runs stream to disk and resume.

A **results file** is JSON Lines: a settings line (``{KIND: settings,
"version": N}``), then one line per finished task, flushed as it ends.
A run killed while writing leaves a last line without its newline; reading
leaves it out (and a resuming run cuts it off), so a ``kill -9`` loses at
most the tasks in flight. A resumed run must have the same settings, except
for the ones that only say how much to do (the number of deals).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kozyri.core import InvalidInput, load_json


class ResultsFile:
    """One run's JSON Lines file (see the module docstring).

    ``kind`` names the run in the settings line and in messages
    (``"arena"``: "a results file of kozyri arena")."""

    def __init__(self, path, kind: str, version: int = 1):
        self.path = Path(path)
        self.kind, self.version = kind, version
        self._sink = None

    @property
    def what(self) -> str:
        return f"a results file of kozyri {self.kind}"

    def header(self, settings: dict) -> str:
        return json.dumps({self.kind: settings, "version": self.version}) + "\n"

    # --- reading ---------------------------------------------------------------
    def read(self, *, repair: bool = False) -> tuple[dict, list[tuple[int, dict]]]:
        """The settings and the records ``(line number, object)`` of the file.
        A last line without its newline is left out, and with ``repair`` cut
        from the file."""
        try:
            raw = self.path.read_bytes()
        except OSError as exc:
            raise InvalidInput(f"cannot read {self.path}: {exc.strerror or exc}") from None
        cut = raw.rfind(b"\n") + 1  # the end of the last whole line
        if cut < len(raw) and repair:
            with self.path.open("r+b") as fh:
                fh.truncate(cut)
        lines = self._decode(raw[:cut]).split("\n")[:-1]
        if not lines:
            raise InvalidInput(f"{self.path} is not {self.what} (it has no settings line)")
        settings = self._settings(lines[0])
        records = []
        for number, line in enumerate(lines[1:], 2):
            if not line.strip():
                continue
            try:
                record = load_json(line)
            except InvalidInput as exc:
                raise InvalidInput(f"{self.path}, line {number}: not a line of {self.what} ({exc})") from None
            if not isinstance(record, dict):
                raise InvalidInput(f"{self.path}, line {number}: not a JSON object")
            records.append((number, record))
        return settings, records

    def read_settings(self) -> dict:
        """The settings line alone."""
        try:
            with self.path.open("rb") as fh:
                first = fh.readline()
        except OSError as exc:
            raise InvalidInput(f"cannot read {self.path}: {exc.strerror or exc}") from None
        if not first.endswith(b"\n"):
            raise InvalidInput(f"{self.path} is not {self.what} (it has no settings line)")
        return self._settings(self._decode(first))

    def _decode(self, raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput(f"{self.path} is not {self.what} (not UTF-8 text)") from None

    def _settings(self, line: str) -> dict:
        try:
            header = load_json(line)
        except InvalidInput as exc:
            raise InvalidInput(f"{self.path} is not {self.what} (line 1: {exc})") from None
        if not isinstance(header, dict) or not isinstance(header.get(self.kind), dict):
            raise InvalidInput(f"{self.path} is not {self.what} (its first line is not the settings)")
        version = header.get("version", self.version)
        if version != self.version:
            raise InvalidInput(f"{self.path} is {self.what} of format version {version!r}; this kozyri reads "
                               f"version {self.version}")
        return header[self.kind]

    # --- writing ---------------------------------------------------------------
    def open(self, settings: dict, *, resume: bool, may_differ: Sequence[str] = (),
             check: Callable[[dict], Any] | None = None) -> list[tuple[int, dict]]:
        """:meth:`_open`, before any work: a file that cannot be written (no
        room, no permission, not a file) is one :class:`InvalidInput` line."""
        try:
            return self._open(settings, resume=resume, may_differ=may_differ, check=check)
        except OSError as exc:
            raise InvalidInput(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def _open(self, settings: dict, *, resume: bool, may_differ: Sequence[str] = (),
              check: Callable[[dict], Any] | None = None) -> list[tuple[int, dict]]:
        """Start the file with ``settings``, or with ``resume`` continue it:
        its records are returned (checked by ``check(settings found)``
        first) and new ones are appended after them. Settings other than
        ``may_differ`` must be the same; when those differ the settings
        line is rewritten (atomically)."""
        path = self.path
        if path.is_dir():
            raise InvalidInput(f"{path} is a directory, not a results file")
        header = self.header(settings).encode()
        if resume and path.exists() and header.startswith(path.read_bytes()):
            path.write_bytes(b"")  # (the start of) this run's settings line alone: a run killed at once
        records: list[tuple[int, dict]] = []
        if path.exists() and path.stat().st_size > 0:
            if not resume:
                raise InvalidInput(f"{path} exists: continue its run with --resume, or give another file")
            found, records = self.read(repair=True)
            if check is not None:
                check(found)
            for key in settings:
                if key not in may_differ and found.get(key) != settings[key]:
                    theirs, ours = json.dumps(found.get(key)), json.dumps(settings[key])
                    raise InvalidInput(f"{path} holds a run with other settings ({key}: {theirs} there, {ours} "
                                       f"here): give the same settings (only {', '.join(may_differ) or 'nothing'} "
                                       "may change), or another file")
            if found != settings:
                self._replace_header(header)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(header)
        self._sink = path.open("a", encoding="utf-8")
        return records

    def append(self, record: dict) -> None:
        """Write one record and flush it to disk (a full disk is one :class:`InvalidInput` line)."""
        try:
            self._sink.write(json.dumps(record) + "\n")
            self._sink.flush()
        except OSError as exc:
            raise InvalidInput(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def close(self) -> None:
        sink, self._sink = self._sink, None
        if sink is not None:
            try:
                sink.close()
            except OSError:  # what could not be flushed was reported by append
                pass

    def _replace_header(self, header: bytes) -> None:
        """A new settings line, written atomically (the records stay)."""
        body = self.path.read_bytes().split(b"\n", 1)[1]
        write_atomically(self.path, lambda fh: fh.write(header + body))


def holds_a_run(path) -> bool:
    """Whether ``path`` is a file with something in it: a run that ``--resume`` can continue."""
    path = Path(path)
    return path.is_file() and path.stat().st_size > 0


def nothing_to_resume(path) -> str:
    """The message for ``--resume`` of a file that holds no run (missing, empty, a directory):
    a typo in the name must not start a new run of the default settings."""
    path = Path(path)
    why = "does not exist" if not path.exists() else "is a directory" if path.is_dir() else "is empty"
    return (f"nothing to resume: {path} {why} (start a new run without --resume, or give the file of the run "
            "to continue)")


def check_writable(path) -> None:
    """Refuse at once, before any work, an output file that cannot be
    written: a directory, a file that cannot be opened for writing, a
    missing or unwritable directory. Nothing is left behind: an existing
    file is opened to append and closed, a new one is only tried as a
    temporary file beside it."""
    path = Path(path)
    if path.is_dir():
        raise InvalidInput(f"{path} is a directory, not a file")
    try:
        if path.exists():
            with path.open("ab"):
                pass
        else:
            with tempfile.TemporaryFile(dir=path.parent):
                pass
    except OSError as exc:
        raise InvalidInput(f"cannot write {path}: {exc.strerror or exc}") from None


def write_atomically(path, write: Callable[[Any], Any]) -> None:
    """Write ``path`` through ``write(binary file)`` so that it is whole or
    absent after a crash: a temporary file beside it, then a rename. The
    file gets the usual permissions (as ``open`` would give it)."""
    path = Path(path)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


