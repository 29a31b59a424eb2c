"""The shape of the house: every package installs, imports go one way
(command line -> protocols -> studies -> play -> agents -> games -> search, runs -> core),
imports by string included (a registry's "module:Class", importlib.import_module("kozyri.x")),
no import goes round in a circle, cards and positions load no
Numba, no module hides behind a function of its name, and neither tests nor
benchmarks reach for private names."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE_ROOTS = (ROOT / "solver", ROOT / "cli", ROOT / "server")

#: Which top-level parts each part may import (besides itself): the order of
#: docs/architecture.md, cli -> protocols -> studies -> play -> agents -> games -> search, runs -> core.
_GAMES = {"kozyri.owntrumps", "kozyri.reversi"}
_BASE = {"kozyri.core", "kozyri.checks", "kozyri.search"}
ALLOWED = {
    "kozyri.core": set(),
    "kozyri.caches": {"kozyri.core"},  # where the compiled kernels are cached: set before any kernel is imported
    "kozyri.checks": {"kozyri.core"},  # the validators every door shares, beside the vocabulary
    "kozyri.i18n": {"kozyri.core"},  # the message catalogs: the words of every door that speaks to people
    "kozyri.search": {"kozyri.core"},
    "kozyri.runs": {"kozyri.core", "kozyri.checks"},
    "kozyri.owntrumps": _BASE | {"kozyri.runs"},
    "kozyri.reversi": set(_BASE),
    "kozyri.agents": _BASE | _GAMES,
    "kozyri.play": _BASE | _GAMES | {"kozyri.agents"},
    "kozyri.studies": _BASE | _GAMES | {"kozyri.runs", "kozyri.agents", "kozyri.play"},
    "kozyri.protocols": _BASE | _GAMES | {"kozyri.agents", "kozyri.play"},
    "kozyri.openspiel": _BASE | _GAMES | {"kozyri.agents", "kozyri.play"},
    "kozyri.rl": _BASE | _GAMES | {"kozyri.agents", "kozyri.play"},  # a door beside openspiel
    "kozyri": {"kozyri.core", "kozyri.caches"},  # the package's own __init__
    "kozyri_server": _BASE | _GAMES | {"kozyri", "kozyri.i18n", "kozyri.runs", "kozyri.agents", "kozyri.play",
                                       "kozyri.studies", "kozyri.protocols"},
    "kozyri_cli": _BASE | _GAMES | {"kozyri", "kozyri.caches", "kozyri.i18n", "kozyri.runs", "kozyri.agents",
                                    "kozyri.play", "kozyri.studies", "kozyri.protocols", "kozyri_server"},
}


#: Parts that need an optional extra, by the module that extra brings: where
#: it is missing their modules are not imported (their tests skip too).
OPTIONAL = {"kozyri.openspiel": "pyspiel", "kozyri_server": "starlette",
            "kozyri.rl.pettingzoo_env": "pettingzoo", "kozyri.rl.gymnasium_env": "gymnasium"}


def can_import(name: str) -> bool:
    """Whether module ``name`` can be imported here (its optional extra, if any, is installed)."""
    for part, dependency in OPTIONAL.items():
        if name == part or name.startswith(part + "."):
            return importlib.util.find_spec(dependency) is not None
    return True


def packages() -> list[str]:
    """Every package under the source roots, by its folder (``__init__.py``)."""
    found = []
    for root in SOURCE_ROOTS:
        for init in root.rglob("__init__.py"):
            found.append(".".join(init.parent.relative_to(root).parts))
    return sorted(found)


def modules() -> list[tuple[str, Path]]:
    """``(import name, path relative to its source root)`` of every module."""
    out = []
    for root in SOURCE_ROOTS:
        for path in root.rglob("*.py"):
            relative = path.relative_to(root)
            parts = relative.with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out.append((name, relative))
    return out


def part_of(name: str) -> str:
    """The part a module belongs to, as named in ALLOWED."""
    for part in sorted(ALLOWED, key=len, reverse=True):
        if name == part or name.startswith(part + "."):
            return part
    raise AssertionError(f"module {name} belongs to no known part: add it to ALLOWED")


#: A module named in a string: ``kozyri.openspiel.bots`` or ``kozyri.openspiel.bots:OpenSpielMctsAgent``
#: (a registry's entry, an ``importlib.import_module``/``__import__`` argument, a lazy table).
_MODULE_TEXT = re.compile(r"\s*((?:kozyri|kozyri_cli|kozyri_server)(?:\.[A-Za-z_]\w*)+)(?::[A-Za-z_][\w.]*)?\s*")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of a module, its classes and functions (prose, not code)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def named_by_string(source: str) -> set[str]:
    """The library modules a source loads by string: every string (outside
    docstrings) that is a module's dotted name, alone or with ``:Name``, such
    as a registry's ``"module:Class"`` or ``importlib.import_module("kozyri.x")``."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    known = {name for name, _ in modules()}
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            match = _MODULE_TEXT.fullmatch(node.value)
            if match and match.group(1) in known:
                names.add(match.group(1))
    return names


def imported(path: Path) -> set[str]:
    """The library modules ``path`` imports: by import statements (at the top
    or inside functions) and by string (:func:`named_by_string`)."""
    source = path.read_text(encoding="utf-8")
    names = named_by_string(source)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return {n for n in names if n == "kozyri" or n.startswith(("kozyri.", "kozyri_cli", "kozyri_server"))}


def against_the_order(name: str, targets) -> list[str]:
    """The modules of ``targets`` that module ``name`` may not import (ALLOWED)."""
    here = part_of(name)
    return sorted(t for t in targets if part_of(t) != here and part_of(t) not in ALLOWED[here])


def test_file_paths_match_import_paths():
    # Installed or not, a module's file ends with its import path.
    for name, relative in modules():
        if name.endswith(".__main__") or not can_import(name):
            continue  # running it is what importing it does
        module = importlib.import_module(name)
        assert Path(module.__file__).parts[-len(relative.parts):] == relative.parts, name


def test_imports_go_one_way():
    for name, relative in modules():
        path = next(root / relative for root in SOURCE_ROOTS if (root / relative).exists())
        wrong = against_the_order(name, imported(path))
        assert not wrong, f"{name} imports {', '.join(wrong)}"


def test_an_import_by_string_counts_as_an_import(tmp_path):
    # The agents' registry once named OpenSpiel's bots, a floor above it, by string: such an arrow is caught.
    registry = tmp_path / "registry.py"
    registry.write_text('"""Names kozyri.studies.arena in prose only."""\n'
                        "import importlib\n"
                        'AGENTS = {"bot": "kozyri.openspiel.bots:OpenSpielMctsAgent"}\n'
                        "def lazy():\n"
                        '    importlib.import_module("kozyri.protocols.engine")\n'
                        '    return __import__("kozyri.play.session")\n', encoding="utf-8")
    found = imported(registry)
    assert found == {"kozyri.openspiel.bots", "kozyri.protocols.engine", "kozyri.play.session"}
    assert against_the_order("kozyri.agents.registry", found) == [
        "kozyri.openspiel.bots", "kozyri.play.session", "kozyri.protocols.engine"]
    assert against_the_order("kozyri.studies.x", found) == ["kozyri.openspiel.bots", "kozyri.protocols.engine"]
    # Text that only looks like a module is not one.
    assert named_by_string('NAME = "kozyri"\nGROUP = "kozyri.nowhere"\nTEXT = "see kozyri.core"\n') == set()


def test_cards_rules_and_positions_load_no_numba():
    code = ("import sys, kozyri, kozyri.owntrumps, kozyri.owntrumps.cards, kozyri.owntrumps.rules, "
            "kozyri.owntrumps.position, kozyri.owntrumps.inputs, kozyri.owntrumps.choice, "
            "kozyri.owntrumps.record, kozyri.owntrumps.observation; "
            "print(sorted(m for m in ('numba', 'numpy', 'llvmlite') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


def test_no_module_is_shadowed_by_a_function():
    for package_name in filter(can_import, packages()):
        package = importlib.import_module(package_name)
        submodules = [info.name for info in pkgutil.iter_modules(package.__path__) if info.name != "__main__"]
        for name in submodules:
            importlib.import_module(f"{package_name}.{name}")
        for name in submodules:
            attribute = getattr(package, name)
            assert attribute is sys.modules[f"{package_name}.{name}"], f"{package_name}.{name}"


def test_tests_and_benchmarks_use_no_private_names():
    for folder in (ROOT / "tests", ROOT / "benchmarks"):
        for path in folder.rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            modules_bound = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kozyri"):
                    private = [a.name for a in node.names if a.name.startswith("_")]
                    assert not private, f"{path.name} imports {private} from {node.module}"
                    modules_bound.update(a.asname or a.name for a in node.names)
                elif isinstance(node, ast.Import):
                    modules_bound.update(a.asname or a.name.split(".")[0] for a in node.names
                                         if a.name.startswith("kozyri"))
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                        and isinstance(node.value, ast.Name) and node.value.id in modules_bound):
                    raise AssertionError(f"{path.name} uses {node.value.id}.{node.attr}")


@pytest.mark.slow
def test_the_wheel_holds_every_package(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    for item in ("pyproject.toml", "README.md", "solver", "cli", "server"):
        target = source / item
        if (ROOT / item).is_dir():
            shutil.copytree(ROOT / item, target, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy(ROOT / item, target)
    # Built as `pip install .` builds it (an isolated build with the setuptools pyproject.toml asks for).
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "dist"),
                           str(source)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    wheel = next((tmp_path / "dist").glob("kozyri-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    in_wheel = {str(Path(n).parent).replace("/", ".") for n in names if n.endswith("/__init__.py")}
    assert in_wheel == set(packages())
    # The message catalogs go with the library, read as they are (kozyri.i18n).
    assert "kozyri/locales/kozyri.pot" in names and "kozyri/locales/ru/LC_MESSAGES/kozyri.po" in names
    assert not any(n.startswith(("tests/", "benchmarks/")) for n in names)
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "kozyri = kozyri_cli.start:run" in zipfile.ZipFile(wheel).read(entry).decode()


def module_imports() -> dict[str, set[str]]:
    """Every module of the checkout (the library, the CLI, the server) and
    the modules it imports: at the top or inside functions, and by string
    (:func:`named_by_string`: a registry's ``"module:Class"``, a lazy
    table); a name imported from a package counts as its submodule when
    there is one; a package's ``__init__``, a list of exports, is left out
    as a target."""
    names = {name for name, _ in modules()}
    inits = {name for name, relative in modules() if relative.name == "__init__.py"}
    graph = {}
    for name, relative in modules():
        path = next(root / relative for root in SOURCE_ROOTS if (root / relative).exists())
        source = path.read_text(encoding="utf-8")
        found = named_by_string(source)
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[name] = {m for m in found if m in names and m not in inits and m != name}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one
    module: each a set of modules every one of which imports every other,
    directly or through the others (Tarjan's algorithm, without recursion)."""
    index, low, on_stack, stack, circles = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        circles.append(sorted(component))
    return circles


def test_the_circle_finder_finds_circles_through_many_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e2"}, "e2": {"e"}, "f": {"a"}}
    assert sorted(import_circles(graph)) == [["a", "b", "c"], ["e", "e2"]]
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_import_goes_round_in_a_circle():
    circles = import_circles(module_imports())
    assert not circles, f"modules that import each other, directly or round a circle: {circles}"


def test_the_session_and_the_table_import_no_game():
    # The play floor is game-free: a game reaches it through its descriptor (kozyri.play.games).
    games = ("kozyri.owntrumps", "kozyri.reversi", "kozyri.play.owntrumps", "kozyri.play.reversi")
    for name in ("kozyri.play.session", "kozyri.play.table"):
        path = ROOT / "solver" / (name.replace(".", "/") + ".py")
        named = sorted(m for m in imported(path) if m.startswith(games))
        assert not named, f"{name} imports {named}"
