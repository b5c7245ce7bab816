"""The package's layers go one way: every import of every module, read from its source.

Each module of ``src/kanaloa`` belongs to one part of the package, and a part
imports only the parts it builds on:

==============  ==============================================================
part            may import, of kanaloa
==============  ==============================================================
``errors``      nothing
``rules``       ``rules``, ``errors``
``position``    ``rules``, ``position``, ``errors``
``search``      ``search``
``openspiel``   ``rules``, ``position``, ``openspiel``, ``errors`` (the games
                registered with OpenSpiel, ``kanaloa.openspiel``, and what
                every game's OpenSpiel face shares)
``pettingzoo``  ``rules``, ``pettingzoo``, ``errors`` (every game as a PettingZoo
                environment, and many games stepped together in C)
``play``        ``rules``, ``position``, ``search``, ``openspiel``, ``play``,
                ``errors``
``tools``       all of ``play``'s, ``pettingzoo`` and ``tools``
``interfaces``  all of ``tools``', and ``interfaces``
==============  ==============================================================

- The command line (``interfaces``) is the top: it runs the tools as
  ``kanaloa bench``, ``soak`` and ``fuzz``.  The tools sit below it and never
  import it; the fuzzer is handed the command it tries.
- ``kanaloa/__init__.py`` (the version, and ``load_game``, which imports
  ``rules`` when it is called) imports ``rules`` alone; the data packages
  ``boards`` and ``examples`` import nothing of kanaloa;
  ``kanaloa/__main__.py`` imports ``interfaces`` alone.
- Outside kanaloa, a part imports the standard library and only these:
  ``kanaloa_core`` (the compiled core) in ``rules`` alone, where ``rules.core``
  re-exports it to the other layers; ``distributed`` (Dask, optional) in
  ``play``; ``click`` in ``interfaces`` and ``tools`` (the fuzzer runs the
  command it is handed with click's test runner); ``cython`` in ``search``
  and ``play``, whose hot loops are plain Python with Cython's type
  annotations, compiled at install (``setup.py``); ``starlette`` and
  ``uvicorn`` in ``interfaces`` (the web app of ``kanaloa serve``), and
  ``segno`` there (the QR code of its address for a phone);
  ``pyspiel`` and ``numpy`` (the optional extra ``openspiel``) in
  ``openspiel``; ``pettingzoo``, ``gymnasium`` and ``numpy`` (the optional
  extra ``pettingzoo``) in ``pettingzoo``; ``open_spiel`` and ``numpy`` in ``play`` (OpenSpiel's
  own bots, imported when they play), ``matplotlib`` (the optional extra
  ``report``) in ``play`` (the balance report's plots, imported when one is
  drawn), and ``numpy`` in ``tools`` (fitting the
  models of rollouts cut short, ``kanaloa.tools.cutfit``).  ``typing_extensions`` may
  be named for type checking only, inside ``if TYPE_CHECKING:``.
- The compiled core (``kanaloa_core.pyx`` and its stub) belongs to ``rules``.
- A game with a package of its own (``kanaloa/cannonball``, R20) spans the
  layers: each of its modules belongs to the layer ``GAME_PACKAGES`` names for
  it and follows that layer's rules; its compiled core (``cannonball_core``)
  belongs to ``rules`` as the first one does.

Every import counts, at any depth: inside functions (the lazy ones), inside
``if TYPE_CHECKING:`` (types follow the layers too), ``from . import name`` as
the module ``name`` when there is one.  Imports of kanaloa modules that do not
exist fail too.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "kanaloa"

LAYERS = ("rules", "position", "search", "openspiel", "pettingzoo", "play", "tools", "interfaces")
MAY_IMPORT: dict[str, set[str]] = {
    "errors": set(),
    "rules": {"rules", "errors"},
    "position": {"rules", "position", "errors"},
    "search": {"search"},
    "openspiel": {"rules", "position", "openspiel", "errors"},
    "pettingzoo": {"rules", "pettingzoo", "errors"},
    "play": {"rules", "position", "search", "openspiel", "play", "errors"},
    "tools": {"rules", "position", "search", "openspiel", "pettingzoo", "play", "tools", "errors"},
    "interfaces": {"rules", "position", "search", "openspiel", "pettingzoo", "play", "tools", "interfaces", "errors"},
    "top": {"rules"},  # kanaloa/__init__.py: load_game, lazily
    "data": set(),  # kanaloa.boards, kanaloa.examples
    "main": {"interfaces"},  # kanaloa/__main__.py
}
OUTSIDE: dict[str, set[str]] = {  # what a part may import beyond the standard library and kanaloa
    "rules": {"kanaloa_core", "cannonball_core"},
    "search": {"cython"},
    "openspiel": {"pyspiel", "numpy"},
    "pettingzoo": {"pettingzoo", "gymnasium", "numpy"},
    "play": {"distributed", "cython", "open_spiel", "numpy", "matplotlib"},
    "tools": {"click", "numpy"},
    "interfaces": {"click", "starlette", "uvicorn", "segno"},
}
TYPING_ONLY = {"typing_extensions"}
STDLIB = set(sys.stdlib_module_names) | {"__future__"}
CYTHON = {"libc", "cpython", "cython"}  # cimports of the .pyx


# A game with a package of its own (``kanaloa/cannonball``) spans several layers: each of its modules belongs
# to the layer named here, and follows that layer's rules.  A module not listed belongs to no part and fails.
GAME_PACKAGES: dict[str, dict[str, str]] = {
    "cannonball": {"": "rules", "state": "rules", "island": "rules", "reference": "rules", "core": "rules",
                   "ruleset": "rules", "tensor": "rules", "position": "position", "spiel": "openspiel",
                   "format": "position",
                   "search": "play", "hint": "play", "greedy": "play", "cut": "play", "cut_fit": "play",
                   "bench": "tools", "display": "interfaces",
                   "svg": "interfaces", "words": "interfaces", "web": "interfaces"},
}


def part_of(module: str) -> str | None:
    """The part a kanaloa module belongs to (None when it belongs to none)."""
    parts = module.split(".")
    if parts[0] != "kanaloa":
        return None
    if len(parts) == 1:
        return "top"
    first = parts[1]
    if first in LAYERS:
        return first
    if first in GAME_PACKAGES:
        return GAME_PACKAGES[first].get(parts[2] if len(parts) > 2 else "")
    if first in ("boards", "examples"):
        return "data"
    if first == "errors" and len(parts) == 2:
        return "errors"
    if first == "__main__" and len(parts) == 2:
        return "main"
    return None


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = all_modules()


@dataclass(frozen=True)
class Import:
    line: int
    target: str  # an absolute module name
    typing_only: bool  # inside ``if TYPE_CHECKING:``


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(source: str, module: str, is_package: bool,
               known: set[str] | frozenset[str] = frozenset()) -> list[Import]:
    """Every import in ``source`` (the module ``module``), at any depth, as absolute module names.

    ``from X import name`` counts as ``X.name`` when that is a module in ``known``, else as ``X``.
    """
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        if isinstance(node, ast.Import):
            found.extend(Import(node.lineno, alias.name, typing_only) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                if node.level - 1 > len(base) - 1:
                    raise AssertionError(f"{module}:{node.lineno}: a relative import above the package")
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                sub = f"{origin}.{alias.name}"
                found.append(Import(node.lineno, sub if sub in known else origin, typing_only))
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(ast.parse(source), False)
    return found


def violations(module: str, imports: list[Import], modules: set[str]) -> list[str]:
    """What is wrong with ``module`` importing ``imports`` (one line each)."""
    part = part_of(module)
    if part is None:
        return [f"{module}: belongs to no part; put it in one of {', '.join(LAYERS)}"]
    out = []
    for imp in imports:
        top = imp.target.split(".")[0]
        where = f"{module}:{imp.line} imports {imp.target}"
        if top == "kanaloa":
            target_part = part_of(imp.target)
            if imp.target not in modules:
                out.append(f"{where}, which is no module of the package")
            elif target_part not in MAY_IMPORT[part]:
                allowed = MAY_IMPORT[part]
                out.append(f"{where}: {part} may import " + (f"only {', '.join(sorted(allowed))}" if allowed
                                                              else "nothing of kanaloa"))
        elif not (top in STDLIB or top in OUTSIDE.get(part, set()) or (top in TYPING_ONLY and imp.typing_only)):
            out.append(f"{where}: {part} may not import {top}")
    return out


# -- the package ---------------------------------------------------------------------------


def test_every_module_belongs_to_a_part():
    loose = sorted(m for m in MODULES if part_of(m) is None)
    assert not loose, f"modules outside every part: {loose}"
    assert {part_of(m) for m in MODULES} == set(MAY_IMPORT)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_one_way(module):
    path = MODULES[module]
    imports = imports_of(path.read_text(encoding="utf-8"), module, path.name == "__init__.py", set(MODULES))
    problems = violations(module, imports, set(MODULES))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("core, state", [("kanaloa_core", "kanaloa.rules.state"),
                                         ("cannonball_core", "kanaloa.cannonball.state")])
def test_the_compiled_core_belongs_to_rules(core, state):
    """A compiled core (not Python, so read line by line) and its stub import only rules modules, and the C
    declarations the cores share (``kanaloa_bits.pxd``)."""
    pyx = (ROOT / f"{core}.pyx").read_text(encoding="utf-8")
    names = re.findall(r"^\s*(?:from\s+([\w.]+)\s+c?import\b|c?import\s+([\w.]+))", pyx, re.M)
    imported = [a or b for a, b in names]
    assert state in imported
    stub = (ROOT / f"{core}.pyi").read_text(encoding="utf-8")
    imported += [i.target for i in imports_of(stub, core, False, set(MODULES))]
    wrong = [name for name in imported if name.split(".")[0] not in STDLIB | CYTHON | {"kanaloa_bits"}
             and not (part_of(name) == "rules" and name in MODULES)]
    assert not wrong, f"the compiled core imports {wrong}"


# -- the checker itself ------------------------------------------------------------------------


def test_the_checker_sees_imports_at_any_depth():
    """A guard against a test that passes by seeing nothing: lazy, typing-only and ``from . import`` imports."""
    cli = MODULES["kanaloa.interfaces.cli"]
    found = {i.target for i in imports_of(cli.read_text(encoding="utf-8"), "kanaloa.interfaces.cli", False,
                                          set(MODULES))}
    assert {"kanaloa.errors", "kanaloa.play.hint", "kanaloa.tools.fuzz", "click"} <= found  # hint and fuzz: lazy
    api = MODULES["kanaloa.position.api"]
    found = {i.target for i in imports_of(api.read_text(encoding="utf-8"), "kanaloa.position.api", False,
                                          set(MODULES))}
    assert {"kanaloa.position.notation", "kanaloa.rules.actions", "kanaloa.rules.engine"} <= found


@pytest.mark.parametrize(("module", "source", "expected"), [
    ("kanaloa.rules.board", "def f():\n    from ..position import Position\n", "rules may import only"),
    ("kanaloa.rules.board", "from .. import play\n", "rules may import only"),
    ("kanaloa.search.mcts", "from ..rules import actions\n", "search may import only"),
    ("kanaloa.search.mcts", "if TYPE_CHECKING:\n    from ..play.game import KanaloaSearchState\n", "search may import"),
    ("kanaloa.position.api", "from ..play import bots\n", "position may import only"),
    ("kanaloa.tools.fuzz", "def f():\n    from ..interfaces.cli import cli\n", "tools may import only"),
    ("kanaloa.play.game", "import kanaloa_core\n", "play may not import kanaloa_core"),
    ("kanaloa.search.mcts", "import numpy\n", "search may not import numpy"),
    ("kanaloa.rules.engine", "from typing_extensions import Self\n", "rules may not import typing_extensions"),
    ("kanaloa.rules.state", "from .nothing import x\n", "no module of the package"),
    ("kanaloa.errors", "from .rules import board\n", "nothing of kanaloa"),
])
def test_the_checker_finds_a_planted_violation(module, source, expected):
    imports = imports_of(source, module, False, set(MODULES))
    problems = violations(module, imports, set(MODULES))
    assert problems and expected in problems[0], problems


@pytest.mark.parametrize(("module", "source"), [
    ("kanaloa.rules.engine", "if TYPE_CHECKING:\n    from typing_extensions import Self\n"),
    ("kanaloa.play.simulate", "def f():\n    from distributed import Client\n"),
    ("kanaloa.interfaces.cli", "from ..tools import fuzz\nfrom .. import errors\n"),
    ("kanaloa.rules.core", "import kanaloa_core\nfrom .board import Board\n"),
])
def test_the_checker_lets_the_allowed_through(module, source):
    assert not violations(module, imports_of(source, module, False, set(MODULES)), set(MODULES))


# -- what importing loads ---------------------------------------------------------------------------


def loaded_after(statement: str) -> set[str]:
    code = textwrap.dedent(f"""
        import sys
        {statement}
        print("\\n".join(m for m in sys.modules if m == "kanaloa_core" or m.split(".")[0] == "kanaloa"))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_importing_the_package_loads_nothing():
    assert loaded_after("import kanaloa") == {"kanaloa"}


def test_importing_a_rules_module_loads_neither_the_core_nor_another_layer():
    loaded = loaded_after("import kanaloa.rules.board")
    assert loaded == {"kanaloa", "kanaloa.errors", "kanaloa.rules", "kanaloa.rules.board", "kanaloa.rules.datafile",
                      "kanaloa.rules.jsontext"}


def test_importing_the_search_loads_nothing_else_of_kanaloa():
    loaded = loaded_after("import kanaloa.search")
    assert {part_of(m) for m in loaded if m != "kanaloa"} == {"search"}


def test_importing_the_position_api_does_not_load_the_core():
    loaded = loaded_after("from kanaloa.position import Position")
    assert "kanaloa_core" not in loaded and not any(part_of(m) in ("play", "tools", "interfaces") for m in loaded)
