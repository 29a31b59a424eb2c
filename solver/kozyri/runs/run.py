"""One way to run many tasks into a results file, shared by the arena and
the studies: the settings line, resume, every record read back checked,
the tasks on a pool, Ctrl-C keeping what is written.

A run's *format* (:class:`RunFormat`) says what its file holds: the kind
(the settings line's key, ``"arena"``), the version, how to read the
settings and a record (each checked against the settings), and what
identifies a record's task (the first record of a task is kept). A
resumed run keeps the records of the tasks it still plans and runs the
others.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from kozyri.core import INTERRUPTED, InvalidInput, KozyriError, whole_step
from kozyri.runs.files import ResultsFile
from kozyri.runs.pools import check_workers, run_tasks


@dataclass(frozen=True)
class RunFormat:
    """What a kind of run writes (see the module docstring)."""

    #: The settings line's key and the command's name (``"arena"``: "a results file of kozyri arena").
    kind: str
    version: int
    #: Settings from their JSON form (raises a KozyriError).
    settings: Callable[[dict], Any]
    #: A record from its JSON form, checked against the settings (raises a KozyriError).
    record: Callable[[Any, dict], Any]
    #: What identifies a record's task.
    key: Callable[[Any], Hashable]
    #: Settings a resumed run may change (how much to do).
    may_differ: tuple[str, ...] = ("deals",)

    def file(self, path) -> ResultsFile:
        return ResultsFile(path, self.kind, self.version)

    def read_settings(self, path):
        """The settings of a results file (its first line alone)."""
        results = self.file(path)
        return self._settings(results, results.read_settings())

    def resumed_settings(self, path, **changes):
        """The settings of the run in ``path``, with ``changes`` (only the
        settings a resumed run may change, :attr:`may_differ`)."""
        settings = self.read_settings(path)
        refused = sorted(set(changes) - set(self.may_differ))
        if refused:
            key = refused[0]
            theirs, ours = json.dumps(settings.to_json().get(key)), json.dumps(changes[key])
            raise InvalidInput(f"{path} holds a run with other settings ({key}: {theirs} there, {ours} here): a "
                               f"resumed run keeps its settings; only {', '.join(self.may_differ)} may change")
        return self.settings({**settings.to_json(), **changes}) if changes else settings

    def read(self, path, *, repair: bool = False) -> tuple[Any, list]:
        """The settings and the records of a results file, every record
        checked, one per task, by task. A last line without its newline (a
        run killed while writing it) is left out, and with ``repair`` cut
        from the file."""
        results = self.file(path)
        found, lines = results.read(repair=repair)
        settings = self._settings(results, found)
        return settings, self._records(results, settings, lines)

    def _settings(self, results: ResultsFile, found: dict):
        try:
            return self.settings(found)
        except KozyriError as exc:
            raise InvalidInput(f"{results.path}, line 1: {exc}") from None

    def _records(self, results: ResultsFile, settings, lines) -> list:
        by_task: dict = {}
        for number, line in lines:
            try:
                record = self.record(settings, line)
            except KozyriError as exc:
                raise InvalidInput(f"{results.path}, line {number}: {exc}") from None
            by_task.setdefault(self.key(record), record)
        return [by_task[key] for key in sorted(by_task)]

    def run(self, settings, planned: Sequence[Hashable], task: Callable, out=None, *, resume: bool = False,
            workers: int | None = None, backend: str = "local", address: str | None = None,
            initializer: Callable | None = None, initargs: tuple = (),
            on_record: Callable[[Any, list], None] | None = None) -> tuple[list, str | None]:
        """Run ``task(key)`` for every planned task the file does not hold
        yet; return the records of every planned task done (by task) and
        why the run stopped early (``"interrupted"``) or None.

        ``planned`` is only iterated and asked ``key in planned`` (a ``range``
        or another lazy sequence): the tasks are planned as they are handed
        out, so that a run of a hundred million tasks starts at once and
        holds in memory only the records it made.

        ``out``: the results file (each record is appended as it comes; an
        existing file is continued only with ``resume``). Records are
        written with their ``to_json()`` when they have one.
        ``on_record(record, records so far)`` after each is written.
        Ctrl-C stops the run: the records written stay (the file is the
        truth; ``resume`` continues), the tasks in flight are dropped."""
        workers = check_workers(workers)
        records: list = []
        results = None
        if out is not None:
            results = self.file(out)
            lines = results.open(settings.to_json(), resume=resume, may_differ=self.may_differ,
                                 check=lambda found: self._settings(results, found))
            records = [r for r in self._records(results, settings, lines) if self.key(r) in planned]
        done = {self.key(r) for r in records}
        todo = (key for key in planned if key not in done)

        def finished(record) -> None:
            with whole_step():  # a record written is a record counted: a stop waits for both
                if results is not None:
                    results.append(record.to_json() if hasattr(record, "to_json") else record)
                records.append(record)
                if on_record is not None:
                    on_record(record, records)

        stopped = None
        try:
            run_tasks(task, todo, finished, workers=workers, initializer=initializer, initargs=initargs,
                      backend=backend, address=address)
        except KeyboardInterrupt:
            stopped = INTERRUPTED
        finally:
            if results is not None:
                results.close()
        records.sort(key=self.key)
        return records, stopped
