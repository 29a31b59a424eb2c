"""Every example with shown output in README.md and docs/ is run, and its output compared.

**What is run.** Two kinds of fenced blocks (the format is described for writers in
docs/contributing.md):

- ```` ```console ````: lines starting with ``$ `` are shell commands, the lines after one (up to
  the next ``$ `` line) are its output, standard output and standard error together, as a
  terminal shows them. A command may go on over lines ending in ``\\``, and may carry a
  here-document (``<<'EOF'`` ... ``EOF``). A command ending in ``&`` is started in the background
  (it must send its output elsewhere, so it shows none) and stopped when the page is done.
- ```` ```pycon ````: Python doctest examples (``>>>``), run with ``ELLIPSIS`` and
  ``NORMALIZE_WHITESPACE``.

Each page runs in a temporary directory of its own, its blocks in order, so an example can use
the files an earlier example of the same page made (``kozyri deal ... > game.txt``, then
``kozyri analyze game.txt``): every file an example needs must be made by an example before it.
The one thing the directory holds at the start is ``benchmarks``, a link to the repository's
benchmarks/ (the results files that docs/results.md reads, as from a clone's root).
The pages show the server on port 8765 (:data:`SHOWN_PORT`); each page's commands run with a
free port of this machine in its place, and a ``kozyri serve`` started in the background must
answer on that port (its own process, checked) before the next command runs: another server on
8765 can neither answer the examples nor fail them.
Each command runs in its own ``bash -c`` (variables and ``cd`` do not carry over), with standard
input closed, Python unbuffered (standard output and error interleave as on a terminal),
``kozyri`` from this interpreter's environment, ``KOZYRI_TABLES`` pointing into the
page's directory (so no table stored elsewhere changes an answer), ``COLUMNS=80`` and no colour.

**Compared modulo what varies.** :data:`VARYING` lists every rewrite applied to both the shown
and the real output before they are compared, each for one kind of number that changes from run
to run or machine to machine: seconds, node and playout counts, nodes a second, dates. Runs of
spaces count as one (columns widen with a longer time). Nothing else is forgiven: a changed
move, value, word or line fails the test.

**Markers.** An HTML comment on the line before a block changes how it is treated:

- ``<!-- docs-test: output varies: WHY -->``: the commands are run and must succeed (exit status
  0), their output is not compared (a search stopped by ``stop`` a moment after it started);
- ``<!-- docs-test: not run: WHY -->``: the block is a record of a run that needs what a test
  cannot have (a PostgreSQL server, minutes of work); shown as ```` ```text ````.

Any other block that shows a ``$ kozyri`` command with output must be a console block: the quick
test :func:`test_shown_commands_are_in_console_blocks` says so.

**Regenerating the shown output** after a change of the commands' output::

    python tests/test_docs_examples.py --update               # every page
    python tests/test_docs_examples.py --update docs/cli/solve.md README.md

rewrites the output of every console command whose output no longer matches, from a real run
(doctests are fixed by hand: the failure shows the expected and the real text).
"""

from __future__ import annotations

import difflib
import doctest
import os
import re
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

try:
    import pytest
except ImportError:  # --update needs no pytest
    pytest = None

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
COMMAND_TIMEOUT = 600
#: The port the pages show for ``kozyri serve``; replaced by a free port when the commands run.
SHOWN_PORT = 8765
#: Seconds a page's server may take to answer (a hang guard: a fresh clone compiles the kernels first).
SERVER_START_SECONDS = 300

#: (pattern, replacement): what may differ between the shown and the real output. Each rule is one
#: kind of number that varies between runs; they apply, in order, to both texts.
VARYING = [
    # seconds written as a decimal number: "time: 0.21 s", "in 0.197 s", "0.31 s,"
    (re.compile(r"\b\d+\.\d+ ?s\b"), "#.# s"),
    # kozyri solve adds "(the value in S s)" only when the value took a visible part of the time
    (re.compile(r"(?m)(time: #\.# s) \(the value in #\.# s\)$"), r"\1"),
    # JSON fields of times, counts of search and clocks: "seconds": 0.199298, "nodes": 367643
    (re.compile(r'"(\w*seconds\w*|nodes|playouts|nodes_per_second|total_time)": ?-?[\d.]+(?:e-?\d+)?'), r'"\1": #'),
    (re.compile(r'"clocks": ?\[[^\]]*\]'), '"clocks": [#]'),
    # key=value fields of the engine protocol: seconds=0.0265 nodes=400 playouts=400
    (re.compile(r"\b(seconds|nodes|playouts)=[\d.]+\b"), r"\1=#"),
    # node counts in text: "Nodes: 367,643", "nodes: 38381", "7,498 iterations, 7,498 playouts"
    (re.compile(r"\b([Nn]odes): [\d,]+"), r"\1: #"),
    (re.compile(r"(?<![\w.=])[\d,]+ (nodes|iterations|playouts)\b(?!=)"), r"# \1"),
    # speeds: "(125.0 M nodes/s)", "(2.9 M nodes/s)"
    (re.compile(r"\b[\d.]+ M nodes/s\b"), "# M nodes/s"),
    # seconds a move, the last column of a row of the arena's table (a row starts with an agent,
    # level3#2 in a mirror match)
    (re.compile(r"(?m)^((?:random|greedy|mcts|pimc|ismcts|level\d|openspiel-\w+)(?:#\d+)?\s.*\s)\d+\.\d+$"), r"\1#"),
    # dates and times of day
    (re.compile(r"\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?\b"), "<date>"),
]
_SPACES = re.compile(r"[ \t]+")
_MARKER = re.compile(r"^<!--\s*docs-test:\s*(output varies|not run)\s*:\s*(.+?)\s*-->$")
_FENCE = re.compile(r"^(`{3,})\s*([\w-]*)")
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1")


def normalise(text: str) -> str:
    """The text as compared: each rule of :data:`VARYING` applied, runs of spaces as one, no
    trailing spaces or blank lines."""
    for pattern, replacement in VARYING:
        text = pattern.sub(replacement, text)
    lines = [_SPACES.sub(" ", line).rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


@dataclass
class Command:
    """One ``$`` command of a console block, with the lines of its shown output."""

    text: str  # the command as bash gets it (continuations and here-document included)
    line: int  # its first line in the page, from 1
    output_start: int  # index (from 0) of the first output line in the page's lines
    output: list[str] = field(default_factory=list)

    @property
    def background(self) -> bool:
        return self.text.rstrip().endswith("&") and not self.text.rstrip().endswith("&&")


@dataclass
class Block:
    """A fenced block of a page that the test runs."""

    kind: str  # "console" or "pycon"
    line: int  # the fence's line, from 1
    marker: str | None  # "output varies", "not run" or None
    reason: str | None
    body: list[str]
    commands: list[Command] = field(default_factory=list)


def fenced_blocks(lines: list[str]):
    """Every fenced block: (info word, fence line index, body lines, marker match or None)."""
    index = 0
    while index < len(lines):
        match = _FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        fence, info = match.group(1), match.group(2)
        start = index
        index += 1
        body = []
        while index < len(lines) and not lines[index].startswith(fence):
            body.append(lines[index])
            index += 1
        index += 1
        previous = start - 1
        while previous >= 0 and not lines[previous].strip():
            previous -= 1
        marker = _MARKER.match(lines[previous].strip()) if previous >= 0 else None
        yield info, start, body, marker


def parse_console(body: list[str], first: int) -> list[Command]:
    """The commands of a console block whose body starts at page line index ``first``."""
    commands: list[Command] = []
    index = 0
    while index < len(body):
        line = body[index]
        if not line.startswith("$ "):
            if not commands:
                raise ValueError(f"line {first + index + 1}: a console block must start with a '$ ' command")
            commands[-1].output.append(line)
            index += 1
            continue
        start = index
        parts = [line[2:]]
        while parts[-1].endswith("\\") and index + 1 < len(body):
            index += 1
            parts.append(body[index])
        heredoc = _HEREDOC.search(" ".join(parts))
        if heredoc:
            end_word = heredoc.group(2)
            while index + 1 < len(body):
                index += 1
                parts.append(body[index])
                if body[index] == end_word:
                    break
            else:
                raise ValueError(f"line {first + start + 1}: the here-document never ends ({end_word})")
        index += 1
        commands.append(Command("\n".join(parts), first + start + 1, first + index))
    return commands


def parse_page(path: Path) -> list[Block]:
    """The console and pycon blocks of a page, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    for info, start, body, marker in fenced_blocks(lines):
        if info not in ("console", "pycon"):
            continue
        block = Block(info, start + 1, marker.group(1) if marker else None, marker.group(2) if marker else None, body)
        if block.marker == "not run":
            raise ValueError(f"{path.name}:{block.line}: a 'not run' block is shown as ```text, not ```{info}")
        if info == "console":
            block.commands = parse_console(body, start + 1)
        blocks.append(block)
    return blocks


def environment(directory: Path) -> dict[str, str]:
    """The environment of the examples: this interpreter's ``kozyri`` first on the path, the
    stored tables inside the page's directory, a terminal of 80 columns, no colour."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KOZYRI_", "PYTEST_"))}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
               KOZYRI_TABLES=str(directory / ".tables"), COLUMNS="80", NO_COLOR="1", TERM="dumb",
               PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1", LC_ALL="C.UTF-8")
    return env


@dataclass
class Outcome:
    """What running a page found: one entry per command or doctest that did not match."""

    page: Path
    text: str = ""  # the page as it was read, before its examples ran
    failures: list[str] = field(default_factory=list)
    updates: dict[int, tuple[int, list[str]]] = field(default_factory=dict)  # output start -> (old length, new lines)
    ran: int = 0


def run_page(path: Path, *, update: bool = False) -> Outcome:
    """Run every block of one page in a fresh directory; collect mismatches (and, with
    ``update``, the real output to write back)."""
    outcome = Outcome(path, text=path.read_text(encoding="utf-8"))
    blocks = parse_page(path)
    if not blocks:
        return outcome
    name = path.relative_to(ROOT)
    port = free_port()
    background: list[subprocess.Popen] = []
    globs: dict = {}
    with tempfile.TemporaryDirectory(prefix="kozyri-docs-") as tmp:
        directory = Path(tmp)
        (directory / "benchmarks").symlink_to(ROOT / "benchmarks")  # the results files, as in a clone
        env = environment(directory)
        try:
            for block in blocks:
                if block.kind == "pycon":
                    outcome.failures += run_doctest(block, name, directory, globs)
                    outcome.ran += 1
                    continue
                for command in block.commands:
                    outcome.ran += 1
                    where = f"{name}:{command.line}: $ {command.text.splitlines()[0]}"
                    text = on_port(command.text, port)
                    if command.background:
                        process = subprocess.Popen(
                            ["bash", "-c", text.rstrip().rstrip("&")], cwd=directory, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
                        background.append(process)
                        if command.output:
                            outcome.failures.append(f"{where}\n  a background command shows no output")
                        if "kozyri serve" in text and not server_answers(process, port):
                            outcome.failures.append(f"{where}\n  the page's own server did not answer on "
                                                    f"port {port} (exit status {process.poll()})")
                            break
                        continue
                    try:
                        run = subprocess.run(["bash", "-c", text], cwd=directory, env=env,
                                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                             stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT)
                    except subprocess.TimeoutExpired:
                        outcome.failures.append(f"{where}\n  took more than {COMMAND_TIMEOUT} s")
                        continue
                    real = run.stdout.decode("utf-8", errors="replace")
                    real = real.replace(str(directory), ".")
                    if block.marker == "output varies":
                        if run.returncode != 0:
                            outcome.failures.append(f"{where}\n  exit status {run.returncode}:\n{real}")
                        elif update and not command.output and real.strip():  # shown once, from a real run
                            outcome.updates[command.output_start] = (0, real.rstrip("\n").splitlines())
                        continue
                    shown = "\n".join(command.output)
                    if normalise(shown) != normalise(real):
                        diff = difflib.unified_diff(normalise(shown).splitlines(), normalise(real).splitlines(),
                                                    "shown", "real", lineterm="", n=2)
                        outcome.failures.append(f"{where}\n" + "\n".join("  " + line for line in diff))
                        if update:
                            new = real.rstrip("\n").splitlines() if real.strip() else []
                            outcome.updates[command.output_start] = (len(command.output), new)
        finally:
            for process in background:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(timeout=20)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
    return outcome


def free_port() -> int:
    """A TCP port of 127.0.0.1 free at this moment."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def on_port(text: str, port: int) -> str:
    """A command as it runs: the shown server port (:data:`SHOWN_PORT`) replaced by ``port``."""
    return re.sub(rf"(?<![\d]){SHOWN_PORT}(?![\d])", str(port), text)


def server_answers(process: subprocess.Popen, port: int) -> bool:
    """Whether the page's ``kozyri serve`` (``process``, still running) answers on ``port``."""
    import time
    import urllib.request

    deadline = time.monotonic() + SERVER_START_SECONDS
    while process.poll() is None and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as reply:
                if reply.status == 200:
                    return process.poll() is None
        except OSError:
            pass
        time.sleep(0.2)
    return False


def run_doctest(block: Block, name: Path, directory: Path, globs: dict) -> list[str]:
    """Run one pycon block as a doctest in the page's directory, with the page's names."""
    test = doctest.DocTestParser().get_doctest("\n".join(block.body), globs, f"{name}:{block.line}",
                                               str(name), block.line)
    globs.update(test.globs)
    test.globs = globs
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    previous = os.getcwd()
    os.chdir(directory)
    try:
        runner.run(test, out=report.append, clear_globs=False)
    finally:
        os.chdir(previous)
    return ["".join(report)] if runner.failures else []


def apply_updates(outcome: Outcome) -> bool:
    """Write the real output in place of every shown output that did not match (unless the page
    changed while its examples ran: then nothing is written, and False says so)."""
    text = outcome.page.read_text(encoding="utf-8")
    if text != outcome.text:
        return False
    lines = text.split("\n")
    for start in sorted(outcome.updates, reverse=True):
        length, new = outcome.updates[start]
        lines[start:start + length] = new
    outcome.page.write_text("\n".join(lines), encoding="utf-8")
    return True


# ---- the tests ----------------------------------------------------------------------------------

RUNNABLE = [page for page in PAGES if parse_page(page)]


def test_shown_commands_are_in_console_blocks():
    """A ``$ kozyri`` command shown with its output outside a console block would never be run:
    every one is in a console block or under a 'not run' marker; every page parses."""
    stray = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        parse_page(page)
        for info, start, body, marker in fenced_blocks(lines):
            if info in ("console", "pycon") or (marker and marker.group(1) == "not run"):
                continue
            shown = [line for line in body if line.lstrip().startswith("$ kozyri")]
            if shown:
                stray.append(f"{page.relative_to(ROOT)}:{start + 1}: {shown[0].strip()}")
        for number, line in enumerate(lines, 1):  # indented (unfenced) examples
            if line.startswith("    $ kozyri") and not any(
                    start < number - 1 <= start + len(body) for _, start, body, _ in fenced_blocks(lines)):
                stray.append(f"{page.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not stray, "shown commands outside console blocks (make them ```console):\n" + "\n".join(stray)


def test_normalisation_is_narrow():
    """Times and counts are forgiven; moves, values and words are not."""
    assert normalise("Nodes: 367,643   time: 0.21 s (the value in 0.02 s)") == normalise(
        "Nodes: 12   time: 10.5 s (the value in 9.99 s)")
    assert normalise('{"value": "win", "nodes": 351, "seconds": 0.004714}') == normalise(
        '{"value": "win", "nodes": 9, "seconds": 1e-05}')
    assert normalise("=3 9S+AC ply=1 nodes=400 seconds=0.0265") == normalise("=3 9S+AC ply=1 nodes=401 seconds=1.5")
    assert normalise('{"value":"win","seconds":0.1}') == normalise('{"value":"win","seconds":0.25}')
    assert normalise("Nodes: 127   time: 0.03 s (the value in 0.01 s)") == normalise("Nodes: 127   time: 0.02 s")
    assert normalise('{"value": "win"}') != normalise('{"value": "draw"}')
    assert normalise("Best moves: QS, KH") != normalise("Best moves: QS")
    assert normalise("=3 9S+AC ply=1") != normalise("=3 9S+AD ply=1")
    assert normalise("deals 70 in 3 s") != normalise("deals 71 in 3 s")
    assert normalise("estimate=0.3669 nodes=400") != normalise("estimate=0.4 nodes=400")


def test_the_shown_server_port_is_replaced_by_a_free_one():
    assert on_port("kozyri serve --port 8765 --db s.db 2> s.log &", 4321) == "kozyri serve --port 4321 --db s.db 2> s.log &"
    assert on_port("curl -s localhost:8765/api/health", 4321) == "curl -s localhost:4321/api/health"
    assert on_port('{"seed": 987654321987}', 4321) == '{"seed": 987654321987}'  # not inside another number


def test_the_readme_test_command_is_what_ci_runs():
    """The quick start's second command is .ci/run's: installing the test extras, then pytest."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = 'pip install ".[test]" && python -m pytest -q -n auto'
    assert command in readme
    install, run = command.split(" && ")
    assert install in ci.splitlines() and run in ci.splitlines()


if pytest is not None:
    @pytest.mark.slow
    @pytest.mark.parametrize("page", RUNNABLE, ids=[str(page.relative_to(ROOT)) for page in RUNNABLE])
    def test_page_examples(page):
        outcome = run_page(page)
        assert outcome.ran
        assert not outcome.failures, (
            f"{len(outcome.failures)} example(s) of {page.relative_to(ROOT)} differ from a real run "
            "(regenerate: python tests/test_docs_examples.py --update " f"{page.relative_to(ROOT)}):\n\n"
            + "\n\n".join(outcome.failures))


def main(arguments: list[str]) -> int:
    """``--update [PAGE ...]``: rewrite the shown output that no longer matches; without
    ``--update``, only report."""
    update = "--update" in arguments
    chosen = [Path(argument).resolve() for argument in arguments if argument != "--update"]
    pages = [page for page in RUNNABLE if not chosen or page in chosen]
    failed = 0
    for page in pages:
        outcome = run_page(page, update=update)
        print(f"{page.relative_to(ROOT)}: {outcome.ran} examples, {len(outcome.failures)} differ", flush=True)
        for failure in outcome.failures:
            print(failure, file=sys.stderr)
        if update and outcome.updates:
            if apply_updates(outcome):
                print(f"  rewrote {len(outcome.updates)} output(s)")
            else:
                print("  the page changed while its examples ran: nothing written, run --update again")
                failed += 1
        failed += bool(outcome.failures) and not (update and len(outcome.updates) == len(outcome.failures))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
