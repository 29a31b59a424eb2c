"""Where the compiled kernels are cached (kozyri.caches, ``kozyri cache``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

KOZYRI = [sys.executable, "-m", "kozyri_cli"]


def _env(tmp_path, **extra) -> dict:
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    return {**env, "XDG_CACHE_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path / "home"), **extra}


def test_the_kernels_go_to_the_users_cache_folder_even_if_numba_came_first(tmp_path):
    code = ("import numba.core.config as config, kozyri; "
            "from kozyri.search.control_kernels import stop_requested; "  # one small kernel: no compilation here
            "print(config.CACHE_DIR); print(stop_requested._cache._cache_path)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(tmp_path),
                          timeout=120)
    assert done.returncode == 0, done.stderr
    folder, path = done.stdout.split()
    root = tmp_path / "xdg" / "kozyri" / "numba"
    assert Path(folder).parent == root and Path(folder).name.startswith("src-") and path.startswith(folder)


def test_any_source_change_gives_the_kernels_a_fresh_folder(tmp_path):
    # Numba keys a kernel by its own file's time only; one that inlines a helper from another
    # file must not be loaded stale when that helper changes.
    from kozyri.caches import sources_stamp

    package = tmp_path / "package"
    (package / "games").mkdir(parents=True)
    helper = package / "games" / "kernels.py"
    helper.write_text("def helper(): return 1\n")
    (package / "games" / "search.py").write_text("from games.kernels import helper\n")
    (package / "notes.txt").write_text("not a source")
    first = sources_stamp(str(package))
    assert sources_stamp(str(package)) == first
    (package / "notes.txt").write_text("still not a source")
    assert sources_stamp(str(package)) == first
    helper.write_text("def helper(): return 2\n")
    os.utime(helper, ns=(1, 1))
    assert sources_stamp(str(package)) != first


def test_stamped_folders_unused_for_two_weeks_are_removed(tmp_path):
    from kozyri.caches import STALE_DAYS, remove_stale

    root = tmp_path / "numba"
    current, recent, old, other = (root / name for name in
                                   ("src-" + "1" * 16, "src-" + "2" * 16, "src-" + "3" * 16, "src-mine"))
    for folder in (current, recent, old, other):
        folder.mkdir(parents=True)
    long_ago = time.time() - (STALE_DAYS + 1) * 86400
    for folder in (current, old, other):
        os.utime(folder, (long_ago, long_ago))
    remove_stale(root, current)
    assert current.exists() and recent.exists() and other.exists() and not old.exists()


def test_a_worker_finds_the_same_folder_from_its_parents_variable(tmp_path, monkeypatch):
    from kozyri.caches import NUMBA_CACHE_VARIABLE, STAMP_PREFIX, numba_cache, sources_stamp

    monkeypatch.setenv(NUMBA_CACHE_VARIABLE, str(tmp_path / "kernels"))
    assert numba_cache() == tmp_path / "kernels"
    stamped = tmp_path / "kernels" / f"{STAMP_PREFIX}{sources_stamp()}"
    monkeypatch.setenv(NUMBA_CACHE_VARIABLE, str(stamped))  # as use_user_cache leaves it for a worker
    assert numba_cache() == tmp_path / "kernels"
    code = "import os, kozyri; print(os.environ['NUMBA_CACHE_DIR'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, NUMBA_CACHE_VARIABLE: str(stamped)}, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == str(stamped), done.stderr


def test_kozyri_cache_shows_and_clears_the_folder_numba_cache_dir_names(tmp_path):
    folder = tmp_path / "kernels"
    (folder / "part").mkdir(parents=True)
    (folder / "part" / "f.nbi").write_bytes(b"x" * 1000)
    env = _env(tmp_path, NUMBA_CACHE_DIR=str(folder))
    shown = subprocess.run([*KOZYRI, "cache", "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == {"folder": str(folder), "files": 1, "bytes": 1000, "cleared": False}
    text = subprocess.run([*KOZYRI, "cache"], capture_output=True, text=True, env=env, timeout=120)
    assert str(folder) in text.stdout and "kozyri cache --clear" in text.stdout
    cleared = subprocess.run([*KOZYRI, "cache", "--clear", "--json"], capture_output=True, text=True, env=env,
                             timeout=120)
    assert json.loads(cleared.stdout)["cleared"] is True and not folder.exists()
    again = subprocess.run([*KOZYRI, "cache", "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert json.loads(again.stdout)["files"] == 0



def test_a_cache_that_cannot_be_cleared_says_so(tmp_path, monkeypatch):
    import pytest

    import kozyri.caches as caches
    from kozyri.core import InvalidInput

    folder = tmp_path / "kernels"
    folder.mkdir()
    (folder / "f.nbi").write_bytes(b"x")
    monkeypatch.setattr(caches.shutil, "rmtree", lambda path, ignore_errors=False: None)  # as a file one may not remove
    with pytest.raises(InvalidInput, match=f"cannot remove all of {folder}"):
        caches.clear_cache(folder)
