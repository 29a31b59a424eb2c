"""The documentation site builds with warnings as errors, and its API reference lists every module.

The site is MkDocs with mkdocstrings (mkdocs.yml, docs/); `mkdocs build --strict` is the documented
command (docs/install.md). A broken link, a page missing from the navigation, a snippet whose file
is gone or a `:::` line naming a module that no longer exists fails the build."""

from __future__ import annotations

import importlib.util
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"

#: Modules kept out of the reference (the plain-Python references only the tests use are in tests/support/).
NOT_DOCUMENTED: set[str] = set()


def library_modules() -> set[str]:
    """Every module and package of `kozyri` whose name has no leading underscore."""
    found = {"kozyri"}
    for info in pkgutil.walk_packages([str(ROOT / "solver" / "kozyri")], prefix="kozyri."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            found.add(info.name)
    return found - NOT_DOCUMENTED


def documented_modules() -> set[str]:
    """The identifiers of the `::: NAME` lines of docs/api/*.md."""
    names = set()
    for page in API.glob("*.md"):
        names.update(re.findall(r"(?m)^::: ([\w.]+)\s*$", page.read_text(encoding="utf-8")))
    return names


def test_every_module_is_in_the_api_reference():
    missing = sorted(library_modules() - documented_modules())
    gone = sorted(documented_modules() - library_modules())
    assert not missing, ("modules missing from the API reference: add a line '::: NAME' to "
                         "docs/api/PACKAGE.md for each of " + ", ".join(missing))
    assert not gone, "docs/api/ names modules that do not exist (remove their ::: lines): " + ", ".join(gone)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mkdocstrings") is None,
                    reason="needs the docs extra: pip install -e '.[docs]'")
def test_the_home_page_links_every_page():
    """A reader finds every page from the home page (the RL, engine API, server and Reversi pages
    were missing once)."""
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([\w/-]+\.md)(?:#[\w-]+)?\)", home))
    pages = {path.relative_to(ROOT / "docs").as_posix() for path in (ROOT / "docs").glob("*.md")} - {"index.md"}
    assert pages <= linked, sorted(pages - linked)


def test_the_site_builds_strictly(tmp_path):
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                           cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    site = tmp_path / "site"
    for page in ("index.html", "cli/solve/index.html", "api/owntrumps/index.html", "rules/index.html"):
        assert (site / page).is_file(), page
    rules = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert "must_beat" in rules and "--8&lt;--" not in rules, "seeds/RULES.md is not included in the rules page"
    reference = (site / "api" / "owntrumps" / "index.html").read_text(encoding="utf-8")
    assert "kozyri.owntrumps.position" in reference and "Position" in reference
