"""Every Python example of docs/rl.md runs, and prints what the page shows.

The ```` ```python ```` blocks of the page run in order, in one namespace (a
later example may use what an earlier one made), in a temporary directory.
A ```` ```text ```` block right after a Python block (nothing but blank lines
between) is that example's output: the example must print exactly it
(trailing spaces and blank lines aside). A Python block followed by anything
else just has to run."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="docs/rl.md's examples need the rl extra: pip install -e '.[rl]'")
pytest.importorskip("gymnasium", reason="docs/rl.md's examples need the rl extra: pip install -e '.[rl]'")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)


def examples(text: str) -> list[tuple[str, str | None]]:
    """``(code, shown output or None)`` of each Python block of ``text``, in order."""
    blocks = [(m.group(1), m.group(2), m.start(), m.end()) for m in BLOCK.finditer(text)]
    found = []
    for index, (kind, body, _, end) in enumerate(blocks):
        if kind != "python":
            continue
        shown = None
        if index + 1 < len(blocks):
            next_kind, next_body, next_start, _ = blocks[index + 1]
            if next_kind == "text" and not text[end:next_start].strip():
                shown = next_body
        found.append((body, shown))
    return found


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip().splitlines()]


def test_the_page_has_examples_with_output():
    found = examples(PAGE.read_text(encoding="utf-8"))
    assert len(found) >= 3 and sum(shown is not None for _, shown in found) >= 3


def test_every_example_runs_and_prints_what_is_shown(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs_rl__"}
    for number, (code, shown) in enumerate(examples(PAGE.read_text(encoding="utf-8")), 1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"docs/rl.md example {number}", "exec"), namespace)  # noqa: S102 - the page's own code
        if shown is not None:
            assert lines(printed.getvalue()) == lines(shown), f"example {number} of docs/rl.md"
