"""The compiled core against the readable reference, move by move, in every registered rule set.

The rule sets are the registry's (``kanaloa.rules.registry``: each ``GameType``'s examples) of the
Kanaloa family, each
example of a game with presets taken in both presets (R13): Kanaloa with 2, 3 and 4 players (R15 for
two, each seat playing two colors and a build naming its color), the same with Might of the Gods
(R14: the tokens, what each player knows, what a token use leaves pending, the chance stream after
PELE's takes), and Kahuna (R16).

Seeded random games are played through ``kanaloa_core.CoreState`` and ``ReferenceState`` side by side
from the same deal.  After every move both must offer the identical legal-move list and export equal
``StateData``; the protocol properties must agree with the data.  The move is drawn from the list by
``random.Random(seed)``, so any failure replays from its seed alone.  Each rule set also plays games
from crowded boards, loaded through ``from_data``, which reach what random play from the deal rarely
does: eleven islands (R8), an empty stock (R13, R16.1), tokens claimed late (R14) and Kahuna's early
end (R16.8).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from conftest import action_name, scramble_bridges
from kanaloa.rules import actions as A
from kanaloa.rules.gods import claim
from kanaloa.rules.reference import ReferenceState
from kanaloa.rules.registry import game_types
from kanaloa.rules.ruleset import KAHUNA_GAME, Ruleset
from kanaloa.rules.state import (
    KAHUNA_BRIDGES,
    NO_OWNER,
    REASON_ELEVEN,
    REASON_NO_BRIDGES,
    REASON_POINTS,
    ROUND_2,
    ROUND_OVER,
    StateData,
)

CHUNKS = 8  # tests per rule set for the games from the deal, each playing an equal share
MOVE_CAP = 2000


def registered_rule_sets() -> list[Ruleset]:
    """Every example rule set of every registered game of the Kanaloa family (a ``Ruleset``: these engines
    share ``StateData``; Cannonball Colony has its own differential test, test_cannonball_differential.py);
    an example of a game that takes a preset in each of its presets.  In registration order, each rule set
    once."""
    found: dict[tuple, Ruleset] = {}
    for game in game_types():
        if not isinstance(game.load(), Ruleset):
            continue
        presets = next((p.choices for p in game.parameters if p.name == "preset"), ())
        for params in game.examples:
            for preset in presets or (None,):
                rules = game.load(**params) if preset is None else game.load(**{**params, "preset": preset})
                found.setdefault(key_of(rules), rules)
    return list(found.values())


def key_of(rules: Ruleset) -> tuple[str, int, str, bool]:
    return rules.game, rules.players, rules.preset, rules.gods


def rule_set_id(rules: Ruleset) -> str:
    """``kanaloa-3p-tabletop-gods``, ``kahuna-2p``: the rule set in a test id."""
    preset = "" if rules.game == KAHUNA_GAME else f"-{rules.preset}"
    return f"{rules.game}-{rules.players}p{preset}" + ("-gods" if rules.gods else "")


RULE_SETS = registered_rule_sets()
IDS = [rule_set_id(r) for r in RULE_SETS]

# The games from the deal, by group of rule sets (game, gods, two players): the group's first seed and
# how many games each of its rule sets plays.  The rule sets of a group take the seeds in turn (see
# ``place_in_group``).
DEAL_PLANS = {
    ("kanaloa", False, False): (1000, 512),
    ("kanaloa", False, True): (3000, 512),
    ("kanaloa", True, False): (14_000_000, 256),
    ("kanaloa", True, True): (15_000_000, 128),
    ("kahuna", False, True): (7000, 2048),
}


def group_of(rules: Ruleset) -> tuple[str, bool, bool]:
    return rules.game, rules.gods, rules.players == 2


def place_in_group(rules: Ruleset) -> tuple[int, int]:
    """(place, size) of ``rules`` in its group, ordered by preset code, then players: with 3 and 4 players
    3p-yucata, 4p-yucata, 3p-tabletop, 4p-tabletop."""
    group = sorted((r for r in RULE_SETS if group_of(r) == group_of(rules)), key=lambda r: (r.preset_code, r.players))
    return [key_of(r) for r in group].index(key_of(rules)), len(group)


def deal_seeds(rules: Ruleset) -> list[int]:
    """The seeds of the random games ``rules`` plays from the deal."""
    assert group_of(rules) in DEAL_PLANS, f"no games planned for {rule_set_id(rules)}: give its group a plan"
    first, games = DEAL_PLANS[group_of(rules)]
    place, size = place_in_group(rules)
    return [first + place + size * j for j in range(games)]


def crowded_seeds(rules: Ruleset) -> list[int]:
    """The seeds of the games ``rules`` plays from crowded boards."""
    if rules.game == KAHUNA_GAME:
        return [900_000 + i for i in range(256)]
    if rules.gods:  # 64 games with 2 players, 80 with 3 or 4, the presets in turn
        games = 64 if rules.players == 2 else 80
        return [16_000_000 + 10 * i + rules.players for i in range(rules.preset_code, games, 2)]
    place, size = place_in_group(rules)
    first = DEAL_PLANS[group_of(rules)][0] + 500_000
    return [first + place + size * i for i in range(60)]


def first_difference(core: StateData, ref: StateData) -> str:
    """The first field (in declaration order) where two states differ, with both values."""
    for f in dataclasses.fields(StateData):
        a, b = getattr(core, f.name), getattr(ref, f.name)
        if a != b:
            return f"field {f.name!r}: core={a!r} reference={b!r}"
    return "no field differs"


def check_protocol(state, data: StateData, side: str, where: str) -> None:
    """The protocol properties must say what the exported data says."""
    assert state.to_move == data.to_move, f"{where}: {side}.to_move"
    assert state.round == data.round, f"{where}: {side}.round"
    assert state.is_over == (data.round == ROUND_OVER), f"{where}: {side}.is_over"
    assert list(state.scores) == data.scores, f"{where}: {side}.scores"
    assert state.winner == data.winner, f"{where}: {side}.winner"
    assert list(state.ranking) == data.ranking, f"{where}: {side}.ranking"


def play_side_by_side(board, core, ref, seed: int, rng: random.Random, played: list[int] | None = None) -> int:
    """Play ``core`` and ``ref`` in lockstep until the end; return the number of moves (and append
    them to ``played`` if given)."""
    where = f"seed {seed}, after the deal"
    move = 0
    while True:
        core_data, ref_data = core.to_data(), ref.to_data()
        assert core_data == ref_data, f"{where}: {first_difference(core_data, ref_data)}"
        check_protocol(core, core_data, "core", where)
        check_protocol(ref, ref_data, "reference", where)
        core_moves, ref_moves = core.legal_actions(), ref.legal_actions()
        assert list(core_moves) == ref_moves, (
            f"{where}: legal moves differ: only core {sorted(set(core_moves) - set(ref_moves))}, "
            f"only reference {sorted(set(ref_moves) - set(core_moves))}, order core {list(core_moves)} "
            f"reference {ref_moves}"
        )
        if ref.is_over:
            assert ref_moves == [], f"{where}: moves listed after the game ended"
            return move
        assert ref_moves, f"{where}: no legal move but the game is not over"
        assert move < MOVE_CAP, f"seed {seed}: no end after {MOVE_CAP} moves"
        action = rng.choice(ref_moves)
        if played is not None:
            played.append(action)
        move += 1
        where = f"seed {seed}, move {move}, action {action_name(board, action)}"
        core.apply(action)
        ref.apply(action)


def second_color_builds(actions: list[int]) -> int:
    """How many places and swaps among ``actions`` build with a player's second color (R15)."""
    return sum(1 for a in actions if A.kind_of(a) in (A.PLACE, A.SWAP) and A.build_slot(a) == 1)


def token_kinds(played: list[int]) -> Counter:
    """How often each token action (and each build paid with KANALOA) was played (R14)."""
    seen: Counter = Counter()
    for action in played:
        kind = A.kind_of(action)
        if kind in (A.KU, A.STEAL, A.PELE, A.GIVE, A.LONO):
            seen[A.KIND_NAMES[kind]] += 1
        elif kind == A.PLACE and A.build_arg(action) == A.JOKER:
            seen["place/KANALOA"] += 1
        elif kind == A.SWAP and A.build_arg(action) >= A.SWAP_JA:
            seen["swap/KANALOA"] += 1
    return seen


def check_what_random_games_reach(rules: Ruleset, played: list[int], reasons: set[int]) -> None:
    """What one test's share of random games from the deal must have played, by rule set."""
    if rules.game == KAHUNA_GAME:
        kinds = {A.kind_of(a) for a in played}
        assert {A.PLACE, A.REMOVE, A.DISCARD, A.TAKE, A.DRAW, A.END} <= kinds, f"kinds played: {sorted(kinds)}"
        assert REASON_POINTS in reasons
    elif rules.gods:
        seen = token_kinds(played)
        if rules.players == 2:
            assert seen["ku"] > 0
        else:
            assert seen["ku"] and seen["pele"] and seen["lono"] and seen["place/KANALOA"], seen
    elif rules.players == 2:
        assert second_color_builds(played) > 0, "no game built with a second color"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_core_matches_reference_on_random_games(rules, core_engine, reference_engine, chunk):
    seeds = deal_seeds(rules)
    per_test = len(seeds) // CHUNKS
    played: list[int] = []
    reasons = set()
    for seed in seeds[chunk * per_test:(chunk + 1) * per_test]:
        core, ref = core_engine.deal(rules, seed), reference_engine.deal(rules, seed)
        play_side_by_side(rules.board, core, ref, seed, random.Random(seed), played)
        reasons.add(ref.to_data().reason)
    check_what_random_games_reach(rules, played, reasons)


def crowd_kahuna(data: StateData, rng: random.Random) -> None:
    """Fill a Kahuna board at random, seat 0 favoured and capped at its 25 bridges (R16.1); seat 1 gets
    few bridges, often only one or two; half of the states are moved to round 2, where losing
    the last bridge ends the game (R16.8).  Card places are untouched."""
    few = rng.choice((1, 2, 3, 6))
    held = [0, 0]
    for k in range(len(data.bridges)):
        x = rng.random()
        owner = 0 if x < 0.9 else (1 if x < 0.96 else NO_OWNER)
        if owner == 1 and held[1] >= few:
            owner = NO_OWNER
        if owner == 0 and held[0] >= KAHUNA_BRIDGES:
            owner = NO_OWNER
        if owner >= 0:
            held[owner] += 1
        data.bridges[k] = owner
    if held[1] == 0:  # R16.8 would already have ended a game in round 2
        k = data.bridges.index(NO_OWNER) if NO_OWNER in data.bridges else 0
        if data.bridges[k] == 0:
            held[0] -= 1
        data.bridges[k] = 1
    if rng.random() < 0.5:
        data.round = ROUND_2


def crowd(rules: Ruleset, data: StateData, rng: random.Random) -> StateData:
    """A dealt state of ``rules`` with its board crowded: Kahuna's by ``crowd_kahuna``; Kanaloa's bridges
    scrambled (``scramble_bridges``), with the gods each controlled island's token claimed by its
    controller (KANE scoring at once), as if each had been won in play."""
    if rules.game == KAHUNA_GAME:
        crowd_kahuna(data, rng)
        return data
    scramble_bridges(data, rng)
    if not rules.gods:
        return data
    state = ReferenceState(rules.board, data)
    for island in range(rules.board.n_islands):
        holder = state.controller_of(island)
        if holder != NO_OWNER:
            claim(state, island, holder)
    return state.data


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_core_matches_reference_from_crowded_boards(rules, core_engine, reference_engine):
    reasons: Counter = Counter()
    with_tokens = 0
    full_stock = 0
    for seed in crowded_seeds(rules):
        rng = random.Random(seed)
        dealt = crowd(rules, reference_engine.deal(rules, seed).to_data(), rng)
        full_stock += dealt.bridges.count(0) >= KAHUNA_BRIDGES
        core = core_engine.from_data(rules.board, dealt)
        ref = reference_engine.from_data(rules.board, dealt)
        played: list[int] = []
        play_side_by_side(rules.board, core, ref, seed, rng, played)
        reasons[ref.to_data().reason] += 1
        with_tokens += sum(token_kinds(played).values()) > 0
    if rules.game == KAHUNA_GAME:
        assert reasons[REASON_NO_BRIDGES] > 0, "no crowded game ended early (R16.8); the crowding no longer reaches it"
        assert full_stock > 0, "no crowded game began with all 25 bridges of a seat on the board (R16.1)"
    else:
        assert reasons[REASON_ELEVEN] > 0, "no crowded game ended by R8; the scramble no longer reaches it"
    if rules.gods:
        assert with_tokens > 0, "no crowded game used a token"


def test_every_registered_rule_set_plays_its_games():
    """Each example rule set of the registry's family games is played, with as many games as planned, the gods'
    variant over a thousand from the deal (a game of its own has its own differential test)."""
    examples = {key_of(r) for game in game_types() for r in game.example_rulesets() if isinstance(r, Ruleset)}
    assert examples <= {key_of(r) for r in RULE_SETS}
    assert {r.game for r in RULE_SETS} == {"kanaloa", "kahuna"}
    games = {rule_set_id(r): (len(set(deal_seeds(r))), len(set(crowded_seeds(r)))) for r in RULE_SETS}
    assert games == {
        "kanaloa-4p-yucata": (512, 60), "kanaloa-4p-tabletop": (512, 60),
        "kanaloa-3p-yucata": (512, 60), "kanaloa-3p-tabletop": (512, 60),
        "kanaloa-2p-yucata": (512, 60), "kanaloa-2p-tabletop": (512, 60),
        "kanaloa-4p-yucata-gods": (256, 40), "kanaloa-4p-tabletop-gods": (256, 40),
        "kanaloa-3p-yucata-gods": (256, 40), "kanaloa-3p-tabletop-gods": (256, 40),
        "kanaloa-2p-yucata-gods": (128, 32), "kanaloa-2p-tabletop-gods": (128, 32),
        "kahuna-2p": (2048, 256),
    }
    assert sum(deal for name, (deal, _) in games.items() if name.endswith("-gods")) >= 1000
    for rules in RULE_SETS:  # the rule sets of a group play different games
        others = [r for r in RULE_SETS if group_of(r) == group_of(rules) and r is not rules]
        assert all(not set(deal_seeds(rules)) & set(deal_seeds(r)) for r in others), rule_set_id(rules)


def test_first_difference_names_the_field():
    """The mismatch report must point at the first differing field."""
    a = StateData.empty(2, 1, 3)
    b = a.copy()
    b.deck = [1]
    b.scores = [0, 1, 0]
    assert first_difference(a, b) == "field 'deck': core=[] reference=[1]"
    assert first_difference(a, a.copy()) == "no field differs"
