"""Where the compiled kernels are cached (kozyri.caches, ``kozyri cache``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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
    assert folder == str(tmp_path / "xdg" / "kozyri" / "numba") and path.startswith(folder)


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
