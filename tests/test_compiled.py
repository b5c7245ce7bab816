"""The compiled search loops: in use after a build, and the same as their plain-Python source.

``kanaloa.search.mcts``, ``kanaloa.search.ismcts`` and ``kanaloa.play.game``
are plain Python with Cython's type annotations; the build compiles them
(``setup.py``) and the same files run uncompiled where Cython is installed.
Compiled or not, a search must make the same choices: these tests load the
plain-Python modules from their source files and compare whole trees with
the compiled ones, search by search.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import kanaloa.play.game as game_module
import kanaloa.search.ismcts as ismcts_module
import kanaloa.search.mcts as mcts_module
from kanaloa.search.ismcts import Node
from kanaloa.tools.benchmark import bench_position, position_ruleset

COMPILED = (mcts_module, ismcts_module, game_module)
SOURCE = Path(__file__).resolve().parent.parent / "src"


def is_compiled(module: ModuleType) -> bool:
    return not (module.__file__ or "").endswith(".py")


@pytest.mark.parametrize("module", COMPILED, ids=lambda m: m.__name__)
def test_the_build_compiles_the_search_loops(module):
    assert is_compiled(module), f"{module.__name__} runs uncompiled: build it (pip install ., or " \
                                f"python setup.py build_ext --inplace for a working copy)"


@pytest.mark.parametrize("module", COMPILED, ids=lambda m: m.__name__)
def test_a_compiled_module_in_the_working_copy_is_not_older_than_its_source(module):
    """An in-place build shadows its source: an edit to the .py does nothing until the next build."""
    path = Path(module.__file__ or "")
    source = path.parent / (module.__name__.rsplit(".", 1)[-1] + ".py")
    if not is_compiled(module) or not path.is_relative_to(SOURCE):
        pytest.skip("not an in-place build of this working copy")
    assert path.stat().st_mtime >= source.stat().st_mtime, \
        f"{path.name} is older than {source.name}: rebuild with python setup.py build_ext --inplace"


def load_plain(name: str, replace: dict[str, ModuleType]) -> ModuleType:
    """Module ``name`` run from its .py source under a private name, its own imports of ``replace``'s
    modules (by their real names) served with the plain versions given."""
    path = SOURCE / (name.replace(".", "/") + ".py")
    spec = importlib.util.spec_from_file_location(name + "_plain", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = name.rpartition(".")[0]
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    saved = {key: sys.modules[key] for key in replace}
    sys.modules.update(replace)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.update(saved)
    return module


@pytest.fixture(scope="module")
def plain() -> dict[str, ModuleType]:
    pytest.importorskip("cython", reason="the plain-Python search needs Cython's annotations module")
    ismcts = load_plain("kanaloa.search.ismcts", {})
    mcts = load_plain("kanaloa.search.mcts", {"kanaloa.search.ismcts": ismcts})
    game = load_plain("kanaloa.play.game", {})
    assert not any(map(is_compiled, (mcts, ismcts, game)))
    return {"mcts": mcts, "ismcts": ismcts, "game": game}


def tree(node, depth: int = 0) -> list:
    """The whole tree below ``node`` as nested lists of every statistic, children in key order."""
    return [node.action, node.player, node.visits, node.avail, node.reward, node.wins, node.wins2, node.mean,
            node.prior, node.proven, node.points, [tree(node.children[k], depth + 1) for k in sorted(node.children)]]


SETTINGS = [
    {"c": 0.7},
    {"c": 0.3, "prior": 2.0, "root_c": 1.0, "points": True},
    {"c": 0.5, "prior": 1.0, "margin": 0.1, "expand_after": 2},
    {"c": 0.3, "prior": 2.0, "max_nodes": 40},
    {"c": 0.7, "halving": True},
    {"c": 0.7, "turn_only": True},
]


@pytest.mark.parametrize("players,phase", [(4, "mid-round-1"), (3, "final"), (2, "round-2")])
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_compiled_and_plain_ismcts_grow_the_same_tree(plain, players, phase, settings):
    state = bench_position(position_ruleset(players), phase).core_state()
    fast = ismcts_module.ISMCTS(seed=7, **settings).search(game_module.KanaloaGame().wrap(state.copy()), 400)
    slow = plain["ismcts"].ISMCTS(seed=7, **settings).search(plain["game"].KanaloaGame().wrap(state.copy()), 400)
    assert isinstance(fast.root, Node) and not isinstance(slow.root, Node)
    assert (fast.iterations, fast.nodes) == (slow.iterations, slow.nodes)
    assert tree(fast.root) == tree(slow.root)
    assert [vars(c) for c in fast.candidates()] == [vars(c) for c in slow.candidates()]
    assert fast.chosen == slow.chosen


@pytest.mark.parametrize("players,phase", [(4, "start"), (3, "round-2")])
def test_compiled_and_plain_uct_grow_the_same_tree(plain, players, phase):
    state = bench_position(position_ruleset(players), phase).core_state()
    world = state.determinise(state.to_move, 3)
    fast = mcts_module.MCTS(c=0.7, seed=5).search(game_module.KanaloaGame().wrap(world.copy()), 300)
    slow = plain["mcts"].MCTS(c=0.7, seed=5).search(plain["game"].KanaloaGame().wrap(world.copy()), 300)
    assert tree(fast.root) == tree(slow.root)


def test_a_continued_tree_is_the_same_compiled_or_plain(plain):
    """A search that continues an earlier subtree (the ``root`` argument) reads and extends it alike."""
    state = bench_position(position_ruleset(4), "mid-round-1").core_state()
    trees = []
    for ismcts, game in ((ismcts_module, game_module), (plain["ismcts"], plain["game"])):
        first = ismcts.ISMCTS(seed=2, prior=2.0).search(game.KanaloaGame().wrap(state.copy()), 200)
        again = ismcts.ISMCTS(seed=3, prior=2.0).search(game.KanaloaGame().wrap(state.copy()), 200,
                                                        root=first.root)
        trees.append(tree(again.root))
    assert trees[0] == trees[1]


def test_rollouts_cut_short_grow_the_same_tree_compiled_or_plain(plain):
    """With ``cut`` the adapter backs up the cut model's estimates, compiled or not (docs/engine.md)."""
    state = bench_position(position_ruleset(4), "mid-round-1").core_state()
    trees = []
    for ismcts, game in ((ismcts_module, game_module), (plain["ismcts"], plain["game"])):
        result = ismcts.ISMCTS(seed=4, points=True, root_c=1.0).search(game.KanaloaGame(cut=20).wrap(state.copy()),
                                                                        300)
        trees.append(tree(result.root))
    assert trees[0] == trees[1]
    assert any(kid[5] != round(kid[5]) for kid in trees[0][-1])  # sums of win chances
