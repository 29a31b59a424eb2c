"""Running ``kozyri`` as a careless or hostile user would: in a subprocess,
with a time bound, and checking that it kept its promise (the README's exit
codes, one line on stderr naming the problem, no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: Seconds any one command may take in these tests: a bound on a hang, not a measure (the first
#: command of a fresh install compiles the kernels, which takes a minute on a busy machine).
TIME_BOUND = 240.0


@dataclass
class Run:
    """What a command did."""

    args: list[str]
    code: int
    stdout: str
    stderr: str

    def __str__(self):
        return f"kozyri {' '.join(self.args)[:200]} -> exit {self.code}\nstdout: {self.stdout[-500:]}\nstderr: {self.stderr[-1500:]}"


def kozyri(args: list[str], stdin: bytes | str | None = None, *, cwd: Path | None = None,
           timeout: float = TIME_BOUND, env: dict | None = None, stdout=subprocess.PIPE) -> Run:
    """Run ``kozyri ARGS`` (as ``python -m kozyri_cli``, the installed code) with ``stdin``."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    full_env = {**os.environ, "PYTHONFAULTHANDLER": "", **(env or {})}
    done = subprocess.run([sys.executable, "-m", "kozyri_cli", *args], input=data, stdout=stdout,
                          stderr=subprocess.PIPE, cwd=cwd, timeout=timeout, env=full_env)
    decode = (lambda b: b.decode("utf-8", "replace") if b is not None else "")
    return Run(list(args), done.returncode, decode(done.stdout), decode(done.stderr))


def assert_refused(run: Run, code: int = 2) -> None:
    """The command failed as the README promises: exit ``code``, no traceback,
    and one line on stderr that starts with ``error:``."""
    assert run.code == code, str(run)
    assert "Traceback" not in run.stderr, str(run)
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines, f"no message on stderr\n{run}"
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1, f"not one error line\n{run}"
