"""Shared fixtures: the ``oro`` board and the two rules engines.

Both engines speak the same engine state protocol (``deal``, ``from_data``,
``to_data``, ``copy``, ``legal_actions``, ``apply`` and the game-state
properties).  They differ only in what they take as a board: the reference
takes a ``kanaloa.rules.board.Board``, the compiled core a ``kanaloa_core.CoreBoard``
built by ``kanaloa.rules.core.core_board``.  ``kanaloa.rules.engine.Engine`` hides that
difference so a test can be written once and run on either.
"""

from __future__ import annotations

import random

import pytest

from kanaloa.rules import actions as A
from kanaloa.rules.board import Board, load_board
from kanaloa.rules.engine import Engine, load_engine
from kanaloa.rules.ruleset import Ruleset, make_ruleset
from kanaloa.rules.state import (
    GAME_KANALOA,
    GAME_NAMES,
    PRESET_NAMES,
    PRESET_TABLETOP,
    PRESET_YUCATA,
    TABLETOP_BRIDGES,
    StateData,
    n_colors,
)

REFERENCE = load_engine("reference")
CORE = load_engine("core")
ENGINES = {"reference": REFERENCE, "core": CORE}


def ruleset_of(board: Board, players: int, preset: int = PRESET_YUCATA, *, game: int = GAME_KANALOA,
               gods: bool = False) -> Ruleset:
    """The rule set of the state classes' own deal arguments (``preset`` and ``game`` by their codes in
    ``kanaloa.rules.state``), for ``Engine.deal(ruleset, seed)`` in tests that loop over those codes."""
    return make_ruleset(GAME_NAMES[game], players=players, preset=PRESET_NAMES[preset], gods=gods, board=board)


def state_deal(engine: Engine, board: Board, players: int, preset: int, seed: int, **options):
    """A deal by ``engine``'s state class itself (``deal(board, players, preset, seed, game=, gods=)``), below
    the rule set: for the tests of what the engines refuse on their own (ValueError)."""
    return engine.state_cls.deal(engine.board_for(board), players, preset, seed, **options)


@pytest.fixture(scope="session")
def oro() -> Board:
    return load_board("oro")


@pytest.fixture(params=["reference", "core"])
def engine(request) -> Engine:
    """Each test using it runs once per implementation."""
    return ENGINES[request.param]


@pytest.fixture(scope="session")
def reference_engine() -> Engine:
    return REFERENCE


@pytest.fixture(scope="session")
def core_engine() -> Engine:
    return CORE


@pytest.fixture(scope="session")
def fast_engine() -> Engine:
    """The compiled core: property tests run on the fast implementation, while the differential
    tests hold the reference to it move for move."""
    return CORE


def scramble_bridges(data: StateData, rng: random.Random, own_share: float = 0.45, free_share: float = 0.25) -> None:
    """Fill ``data.bridges`` at random, color 0 (seat 0's first color) favoured, so that games reach
    rare events (R6-R8, R13).  Every color of the game may get bridges (four with two players, R15.1).

    Card places are untouched, so every card total still holds.  In the
    tabletop preset no color gets more than its 20 bridges.
    """
    cap = TABLETOP_BRIDGES if data.preset == PRESET_TABLETOP else len(data.bridges)
    colors = n_colors(data.players)
    held = [0] * colors
    for k in range(len(data.bridges)):
        x = rng.random()
        owner = 0 if x < own_share else (-1 if x < own_share + free_share else rng.randrange(1, colors))
        if owner >= 0 and held[owner] >= cap:
            owner = -1
        if owner >= 0:
            held[owner] += 1
        data.bridges[k] = owner


def play_random(state, rng: random.Random, max_moves: int = 2000) -> list[int]:
    """Play uniformly random legal moves until the game ends; return them.  Fails past ``max_moves``."""
    played = []
    while not state.is_over:
        assert len(played) < max_moves, f"the game did not end within {max_moves} moves"
        action = rng.choice(state.legal_actions())
        state.apply(action)
        played.append(action)
    return played


def hide_swap(data: StateData, other: int) -> StateData:
    """A copy of ``data`` that differs only in what ``other``'s rivals cannot see.

    One card of ``other``'s hand that is not public changes places with a
    deck card of another island, and the deck order is reversed.
    """
    x = next(i for i in range(data.n_islands) if data.hands[other][i] > data.public[other][i])
    j = next(j for j, y in enumerate(data.deck) if y != x)
    altered = data.copy()
    altered.hands[other][x] -= 1
    altered.hands[other][data.deck[j]] += 1
    altered.deck[j] = x
    altered.deck.reverse()
    return altered


def action_name(board: Board, action: int) -> str:
    """A short readable form of an action code, for failure messages."""
    kind, a, b = A.kind_of(action), A.arg_a(action), A.arg_b(action)
    name = A.KIND_NAMES.get(kind, f"kind{kind}")
    if kind in (A.PLACE, A.SWAP):
        b = A.build_arg(action)
        if A.build_slot(action):  # R15: the mover's second color builds
            name += " (second color)"
    if kind == A.PLACE:
        card = "KANALOA" if b == A.JOKER else board.islands[b]  # R14.5: KANALOA pays as a joker
        return f"{name} {board.link_name(a)}/{card} ({action})"
    if kind == A.SWAP:
        return f"{name} {board.link_name(a)}/{['AA', 'AB', 'BB', 'JA', 'JB', 'JJ'][b]} ({action})"
    if kind == A.REMOVE:
        return f"{name} {board.link_name(a)} ({action})"
    if kind in (A.DISCARD, A.TAKE, A.REVEAL, A.STEAL):
        return f"{name} {board.islands[a]} ({action})"
    if kind == A.KU:
        return f"{name} seat {a} ({action})"
    if kind == A.GIVE:
        return f"{name} {board.islands[a]} to seat {b} ({action})"
    return f"{name} ({action})"


def build_state(
    board: Board,
    players: int = 4,
    *,
    round: int = 1,
    to_move: int = 0,
    preset: int = 0,
    bridges: dict[str, int] | None = None,
    hands: dict[int, list[str]] | None = None,
    public: dict[int, list[str]] | None = None,
    deck: list[str] | None = None,
    face_up: list[str] | None = None,
    scores: list[int] | None = None,
    leftover: str = "discard",
) -> StateData:
    """A ``StateData`` from readable pieces: bridges as ``{"ALOA-BAFI": seat}``, cards by island name.

    Cards not placed anywhere go to the open discard pile (``leftover="discard"``) or under the
    given deck (``leftover="deck"``), so that every island keeps its ``cards_per_island`` cards.
    """
    data = StateData.empty(board.n_islands, board.n_links, players, preset)
    data.round, data.to_move = round, to_move
    left = {i: board.cards_per_island for i in range(board.n_islands)}

    def island(name: str) -> int:
        index = board.find_island(name)
        assert index is not None, f"no island {name}"
        left[index] -= 1
        assert left[index] >= 0, f"more than {board.cards_per_island} cards of {name}"
        return index

    for link_name, seat in (bridges or {}).items():
        a, b = link_name.split("-")
        link = board.find_link(board.find_island(a), board.find_island(b))
        assert link is not None, f"no link {link_name}"
        data.bridges[link] = seat
    for seat, cards in (hands or {}).items():
        for name in cards:
            data.hands[seat][island(name)] += 1
    for seat, cards in (public or {}).items():
        for name in cards:
            data.public[seat][board.find_island(name)] += 1
    data.face_up = [island(name) for name in face_up or []]
    data.deck = [island(name) for name in deck or []]
    rest = [i for i in range(board.n_islands) for _ in range(left[i])]
    if leftover == "deck":
        data.deck += rest
    else:
        data.discard_open = rest
    data.scores = list(scores) if scores is not None else [0] * players
    return data


def link_of(board: Board, name: str) -> int:
    """The index of link ``A-B`` (either order)."""
    a, b = name.split("-")
    link = board.find_link(board.find_island(a), board.find_island(b))
    assert link is not None, f"no link {name}"
    return link


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item (``rep_setup``, ``rep_call``), so that a fixture can see
    whether its test failed (the browser tests save a screenshot then)."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
