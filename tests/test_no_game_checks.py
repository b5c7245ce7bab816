"""No layer above the rules knows which game it serves: it asks the rule set (``kanaloa.rules.ruleset``).

Every module of ``src/kanaloa`` above ``rules`` (``position``, ``search``,
``openspiel``, ``pettingzoo``, ``play``, ``tools``, ``interfaces``) and the web page's
scripts are read, and any of these fails the test, naming the file and line:

- a **rule-set constant** (``GAME_KAHUNA``, ``GODS_ISLANDS``, ``TWO_PLAYERS``,
  ``KAHUNA_DEAL``, ``DEAL``, ``FACE_UP``... the constants of
  ``kanaloa.rules.state`` that belong to one game or variant, and the
  rule set's own tables), named or imported;
- a **player count compared with 2** (``players == 2``, ``len(d.players) != 2``,
  ``n == TWO_PLAYERS``): a rule set says whether each player plays two colors
  (``Ruleset.pairs``);
- a **game's name compared** (``game == "kahuna"``, ``ruleset != 'kanaloa'``,
  ``x in ("kahuna",)``): the rule set says what the game has.

The registry's faces (``kanaloa.rules.registry``) are checked too: each names
an existing module and attribute of the layer that owns the face, so that a
layer reaches a game's own code only through the registry.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from kanaloa.rules.registry import FACES, game_types
from test_layers import GAME_PACKAGES, MODULES, imports_of, module_name, part_of

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "kanaloa"
ABOVE_RULES = ("position", "search", "openspiel", "pettingzoo", "play", "tools", "interfaces")
SCRIPTS = PACKAGE / "interfaces" / "web" / "static"

# The constants of kanaloa.rules.state (and kanaloa.rules.ruleset's tables) that belong to one game or variant.
RULESET_CONSTANTS = frozenset({
    "GAME_KANALOA", "GAME_KAHUNA", "GAMES", "GAME_NAMES", "TWO_PLAYERS", "COLORS_PER_SEAT_2P", "HAND_LIMIT",
    "FACE_UP", "DEAL", "WIN_ISLANDS", "KAHUNA_PLAYERS", "KAHUNA_DEAL", "KAHUNA_FACE_UP", "KAHUNA_HAND",
    "KAHUNA_BRIDGES", "KAHUNA_INTERIM_POINTS", "GOD_TOKENS", "GODS_ISLANDS", "TABLETOP_BRIDGES", "PRESETS",
    "PRESET_NAMES", "PRESET_YUCATA", "PRESET_TABLETOP", "ROUND_3", "REASON_ELEVEN", "REASON_NO_BRIDGES",
    "KAHUNA_COLORS", "KANALOA_COLORS", "DEFAULT_PAIRS", "HAND_MOST", "KANALOA_GAME", "KAHUNA_GAME",
})
GAME_NAMES = frozenset(g.name for g in game_types())
_COMPARISONS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)


def modules_above_rules() -> list[Path]:
    out: list[Path] = []
    for part in ABOVE_RULES:
        path = PACKAGE / part
        out.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return out


def _mentions_players(node: ast.expr) -> bool:
    """Whether an expression is a player count: a name or attribute ``players``/``n_players``, or ``len()`` of
    one."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and node.args:
        return _mentions_players(node.args[0])
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name in ("players", "n_players", "num_players", "player_count")


def _is_two(node: ast.expr) -> bool:
    return (isinstance(node, ast.Constant) and node.value == 2 and not isinstance(node.value, bool)) or (
        isinstance(node, ast.Name) and node.id == "TWO_PLAYERS")


def _game_names_in(node: ast.expr) -> set[str]:
    """The game names a comparison's side holds: a string, or strings in a tuple, list or set."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in GAME_NAMES:
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*(_game_names_in(e) for e in node.elts)) if node.elts else set()
    return set()


def game_checks(source: str) -> list[tuple[int, str]]:
    """Every check of which game is served in ``source``: ``(line, what)``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and node.id in RULESET_CONSTANTS:
            found.append((node.lineno, f"names the rule-set constant {node.id}"))
        elif isinstance(node, ast.Attribute) and node.attr in RULESET_CONSTANTS:
            found.append((node.lineno, f"names the rule-set constant {node.attr}"))
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in RULESET_CONSTANTS:
                    found.append((node.lineno, f"imports the rule-set constant {alias.name}"))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, sides, sides[1:], strict=False):
                if not isinstance(op, _COMPARISONS):
                    continue
                if (_mentions_players(left) and _is_two(right)) or (_mentions_players(right) and _is_two(left)):
                    found.append((node.lineno, "compares a player count with 2"))
                names = _game_names_in(left) | _game_names_in(right)
                if names:
                    found.append((node.lineno, f"compares with the game name {sorted(names)[0]!r}"))
    return sorted(set(found))


_JS_CHECKS = (
    (re.compile(r"""[=!]==?\s*["'](kanaloa|kahuna)["']|["'](kanaloa|kahuna)["']\s*[=!]==?""", re.I),
     "compares with a game's name"),
    (re.compile(r"\bKAHUNA_[A-Z_]+\b|\bGODS_ISLANDS\b|\bTWO_PLAYERS\b"), "names a rule-set constant"),
    (re.compile(r"players\s*[=!]==?\s*2\b|\b2\s*[=!]==?\s*players"), "compares a player count with 2"),
)


def script_checks(source: str) -> list[tuple[int, str]]:
    """The same checks in the web page's scripts, line by line."""
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("//", 1)[0]
        for pattern, what in _JS_CHECKS:
            if pattern.search(code):
                found.append((number, what))
    return found


@pytest.mark.parametrize("path", modules_above_rules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_above_the_rules_asks_which_game_it_serves(path):
    problems = [f"{path.relative_to(ROOT)}:{line}: {what}" for line, what in game_checks(path.read_text("utf-8"))]
    assert not problems, "ask the rule set instead:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", sorted(SCRIPTS.rglob("*.js")), ids=lambda p: str(p.relative_to(SCRIPTS)))
def test_the_web_page_asks_the_rule_set_too(path):
    problems = [f"{path.relative_to(ROOT)}:{line}: {what}" for line, what in script_checks(path.read_text("utf-8"))]
    assert not problems, "the page reads the rule set's JSON instead:\n" + "\n".join(problems)


# -- the checker itself: it finds what it is there to find ------------------------------------------


@pytest.mark.parametrize(("source", "expected"), [
    ("from ..rules.state import GAME_KAHUNA\n", "imports the rule-set constant GAME_KAHUNA"),
    ("x = state.GODS_ISLANDS\n", "names the rule-set constant GODS_ISLANDS"),
    ("if d.players == 2:\n    pass\n", "compares a player count with 2"),
    ("if 2 != len(players):\n    pass\n", "compares a player count with 2"),
    ("two = n_players == TWO_PLAYERS\n", "compares a player count with 2"),
    ("kahuna = pos.game == 'kahuna'\n", "compares with the game name 'kahuna'"),
    ("if ruleset in ('kanaloa', 'other'):\n    pass\n", "compares with the game name 'kanaloa'"),
])
def test_the_checker_finds_a_planted_check(source, expected):
    assert any(what == expected for _, what in game_checks(source)), game_checks(source)


@pytest.mark.parametrize("source", [
    "if rules.pairs:\n    pass\n",
    "if len(moves) == 2:\n    pass\n",
    "name = 'kahuna board'\n",
    "title = rules.title == other.title\n",
    "if players > 1:\n    pass\n",
])
def test_the_checker_lets_the_rule_sets_answers_through(source):
    assert not game_checks(source)


def test_the_script_checker_finds_a_planted_check():
    assert script_checks('if (state.game === "kahuna") {}') == [(1, "compares with a game's name")]
    assert script_checks("const n = KAHUNA_DEAL;") == [(1, "names a rule-set constant")]
    assert script_checks("if (players == 2) {}") == [(1, "compares a player count with 2")]
    assert not script_checks("const n = rules.deal; // KAHUNA_DEAL was 3")


# -- the registry's faces ----------------------------------------------------------------------------

# The layer that owns each face (a module of a game's own package belongs to the layer
# ``test_layers.GAME_PACKAGES`` names for it).
FACE_LAYERS = {"position": "position", "search": "play", "hint": "play", "greedy": "play", "display": "interfaces",
               "svg": "interfaces", "words": "interfaces", "openspiel": "openspiel", "bench": "tools", "files": "rules",
               "web": "interfaces", "tensor": "rules", "cutfit": "play"}


def test_every_face_has_a_layer():
    assert set(FACE_LAYERS) == set(FACES)


@pytest.mark.parametrize("game", game_types(), ids=lambda g: g.name)
def test_every_face_names_a_module_of_its_layer(game):
    for role, path in game.faces.items():
        assert role in FACES, f"{game.name}: unknown face {role}"
        module, _, attribute = path.partition(":")
        assert part_of(module) == FACE_LAYERS[role], f"{game.name}.{role}: {path}"
        assert attribute, f"{game.name}.{role}: {path} names no attribute"
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None, f"{game.name}.{role}: no module {module}"
        source = Path(spec.origin).read_text("utf-8") if spec.origin.endswith(".py") else ""
        assert not source or re.search(rf"^(def|class) {attribute}\b|^{attribute}\b", source, re.M), (
            f"{game.name}.{role}: {module} defines no {attribute}")


def test_no_layer_above_the_rules_reaches_a_games_own_package():
    """A game with a package of its own (``kanaloa.cannonball``) is reached above the rules only through the
    registry's faces: no module there imports its package, at any depth, nor names the game, even in a comment
    (the web page's scripts neither)."""
    packages = tuple(f"kanaloa.{name}" for name in GAME_PACKAGES)
    own = sorted(g.name for g in game_types() if any(path.startswith(packages) for path in g.faces.values()))
    assert own, "no game has a package of its own"
    named = re.compile(rf"\b({'|'.join(own)})\b", re.I)
    found = []
    for path in modules_above_rules():
        source = path.read_text("utf-8")
        module = module_name(path)
        for imported in imports_of(source, module, path.name == "__init__.py", set(MODULES)):
            if imported.target.startswith(packages):
                found.append(f"{path.relative_to(ROOT)}:{imported.line}: imports {imported.target}")
        found += [f"{path.relative_to(ROOT)}:{n}: names {named.search(line)[0]}"
                  for n, line in enumerate(source.splitlines(), start=1) if named.search(line)]
    for path in sorted(SCRIPTS.rglob("*")):
        if path.is_file():
            found += [f"{path.relative_to(ROOT)}:{n}: names {named.search(line)[0]}"
                      for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1) if named.search(line)]
    assert not found, "\n".join(found)
