"""The install paths a new user follows, in any order (issue 44): a plain
install that runs, an uninstall that leaves nothing, an editable install
and a reinstall after it that run too.

The trap this guards: Numba used to write the compiled kernels into the
installed package's ``__pycache__`` folders; ``pip uninstall`` left them,
and the leftover ``kozyri/`` folder was imported as a namespace package
ahead of a later editable install (``ModuleNotFoundError`` on every
command). The cache now lives in the user's cache folder
(:mod:`kozyri.caches`).

The scratch virtual environment sees this environment's dependencies
(NumPy, Numba, click, platformdirs: linked, not downloaded) but not its
kozyri; each install builds kozyri as pip does (an isolated build).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Generous: each step is a build or a first compilation on a busy machine.
STEP_SECONDS = 600
OURS = ("kozyri", "kozyri_cli", "kozyri_server", "__editable__", "_kozyri")
#: One small cached kernel of kozyri, compiled and called (a second or two): it writes Numba's cache.
COMPILE_ONE_KERNEL = ("from kozyri.search.control import SearchControl; "
                      "from kozyri.search.control_kernels import stop_requested; "
                      "print(stop_requested(SearchControl().ctl))")


def _scratch_env(tmp_path: Path) -> tuple[Path, dict]:
    """A virtual environment whose site-packages links this one's packages, ours left out."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    deps = tmp_path / "deps"
    deps.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        name = entry.name.lower()
        if name.startswith(OURS) or name.startswith(("pip", "setuptools", "_distutils")) or name.endswith(".pth"):
            continue
        (deps / entry.name).symlink_to(entry)
    site = next(env_dir.glob("lib/python3*/site-packages"))
    (site / "deps.pth").write_text(str(deps) + "\n")
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               PATH=f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    return env_dir, env


def _run(env: dict, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), capture_output=True, text=True, env=env, cwd=cwd, timeout=STEP_SECONDS)


def _clone(tmp_path: Path) -> Path:
    """The project's files a clone has (the sources, pyproject.toml, README.md), without caches."""
    source = tmp_path / "clone"
    source.mkdir()
    for item in ("pyproject.toml", "README.md", "solver", "cli", "server"):
        if (ROOT / item).is_dir():
            shutil.copytree(ROOT / item, source / item, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy(ROOT / item, source / item)
    return source


@pytest.mark.slow
def test_install_uninstall_editable_and_reinstall_all_run(tmp_path):
    source = _clone(tmp_path)
    env_dir, env = _scratch_env(tmp_path)
    python = str(env_dir / "bin" / "python")
    site = next(env_dir.glob("lib/python3*/site-packages"))
    work = tmp_path / "elsewhere"
    work.mkdir()

    def kozyri_runs(step: str) -> None:
        done = _run(env, python, "-m", "kozyri_cli", "deal", "--deck", "4x3", "--seed", "1", cwd=work)
        assert done.returncode == 0 and "Seed 1" in done.stdout, (step, done.stdout + done.stderr)
        compiled = _run(env, python, "-c", COMPILE_ONE_KERNEL, cwd=work)
        assert compiled.returncode == 0 and compiled.stdout.strip() == "False", (step, compiled.stderr)

    def pip(*args: str) -> None:
        done = _run(env, python, "-m", "pip", "--disable-pip-version-check", *args, cwd=work)
        assert done.returncode == 0, (args, done.stdout[-3000:] + done.stderr[-3000:])

    pip("install", "--no-deps", str(source))
    kozyri_runs("installed")
    compiled = list((tmp_path / "cache" / "kozyri" / "numba").rglob("*.nbi"))
    assert compiled, "the compiled kernels are not in the user's cache folder"
    assert not list(site.rglob("*.nbi")) and not list(site.rglob("*.nbc")), "kernels cached inside the package"
    where = _run(env, python, "-m", "kozyri_cli", "cache", "--json", cwd=work)
    assert where.returncode == 0 and str(tmp_path / "cache" / "kozyri" / "numba") in where.stdout, where.stdout

    pip("uninstall", "-y", "kozyri")
    assert not [p.name for p in site.iterdir() if p.name.lower().startswith(OURS)], "the uninstall left files"

    pip("install", "--no-deps", "-e", str(source))
    kozyri_runs("editable")
    pip("install", "--no-deps", "--force-reinstall", str(source))
    kozyri_runs("reinstalled")
