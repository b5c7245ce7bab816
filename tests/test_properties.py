"""Properties every game must keep, checked over many seeded random games.

The games run through the compiled core, which the differential tests hold
to the reference move for move.  Each property is computed here from the exported ``StateData`` and
the board alone, independently of either implementation's own helpers.

Every property that walks games runs twice: over 3- and 4-player games, and over 2-player games
(R15), where each seat plays two colors and a build's color is the one its action code names.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from conftest import action_name, ruleset_of, scramble_bridges
from kanaloa.rules import actions as A
from kanaloa.rules.state import (
    HAND_LIMIT,
    NO_CARD,
    NO_OWNER,
    PRESET_TABLETOP,
    PRESET_YUCATA,
    REASON_ELEVEN,
    REASON_POINTS,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_OVER,
    ROUND_SETUP,
    TABLETOP_BRIDGES,
    TWO_PLAYERS,
    WIN_ISLANDS,
    StateData,
    colors_of_seat,
    n_colors,
)

GAMES = 160  # per property, spread over 3/4 players and both presets
CROWDED_GAMES = 80  # games from bridge-filled boards, where R6-R8 and R13 fire often
MOVE_CAP = 2000  # far above any real game (a random game takes about 150-200 moves)
KINDS = [(3, PRESET_YUCATA), (4, PRESET_YUCATA), (3, PRESET_TABLETOP), (4, PRESET_TABLETOP)]
KINDS_2P = [(2, PRESET_YUCATA), (2, PRESET_TABLETOP)]  # R15
GAMES_2P = 80  # per property, in 2-player games
CROWDED_GAMES_2P = 40
BUILDS = (A.PLACE, A.SWAP)


# -- walking games ------------------------------------------------------------


@pytest.fixture(params=["3-4 players", "2 players"])
def table(request) -> tuple[list[tuple[int, int]], int, int]:
    """The kinds of game a property walks, and how many plain and crowded games: once with 3 and 4
    players, once with 2 (R15)."""
    if request.param == "2 players":
        return KINDS_2P, GAMES_2P, CROWDED_GAMES_2P
    return KINDS, GAMES, CROWDED_GAMES


def game_kinds(n: int, base: int, kinds: list[tuple[int, int]] = KINDS) -> Iterator[tuple[int, int, int]]:
    for i in range(n):
        players, preset = kinds[i % len(kinds)]
        yield base + i, players, preset


def walk_table(engine, board, table, crowded: bool = False) -> Iterator[tuple]:
    """``walk`` over the games of ``table`` (the fixture), with its crowded games when asked."""
    kinds, games, crowded_games = table
    return walk(engine, board, games, crowded_games if crowded else 0, kinds)


def walk(engine, board, games: int = GAMES, crowded: int = 0,
         kinds: list[tuple[int, int]] = KINDS) -> Iterator[tuple]:
    """Yield ``(where, before, action, after)`` for every move of seeded random games.

    ``where`` names the seed and move for failure messages; ``before`` and
    ``after`` are the exported states around ``action``.  ``crowded`` extra
    games start from a board filled with bridges (see ``scramble_bridges``).
    """
    starts = [(seed, players, preset, False) for seed, players, preset in game_kinds(games, 70_000, kinds)]
    starts += [(seed, players, preset, True) for seed, players, preset in game_kinds(crowded, 90_000, kinds)]
    for seed, players, preset, crowd in starts:
        rng = random.Random(seed)
        state = engine.deal(ruleset_of(board, players, preset), seed)
        if crowd:
            data = state.to_data()
            scramble_bridges(data, rng)
            state = engine.from_data(board, data)
        before = state.to_data()
        for move in range(1, MOVE_CAP + 1):
            if state.is_over:
                break
            action = rng.choice(state.legal_actions())
            state.apply(action)
            after = state.to_data()
            yield f"seed {seed} move {move} {action_name(board, action)}", before, action, after
            before = after
        else:
            pytest.fail(f"seed {seed}: the game did not end within {MOVE_CAP} moves")


def play_game(engine, board, players: int, preset: int, seed: int) -> tuple[list[int], StateData]:
    state = engine.deal(ruleset_of(board, players, preset), seed)
    rng = random.Random(seed)
    moves = []
    while not state.is_over:
        assert len(moves) < MOVE_CAP, f"seed {seed}: no end within {MOVE_CAP} moves"
        moves.append(rng.choice(state.legal_actions()))
        state.apply(moves[-1])
    return moves, state.to_data()


# -- independent rule arithmetic -----------------------------------------------


def builder(before: StateData, action: int) -> int:
    """The color that builds with ``action`` (a place or swap): the mover's, or with two players the one
    of its two colors the code's slot names (R15.3)."""
    return colors_of_seat(before.to_move, before.players)[A.build_slot(action)]


def standing(data: StateData, seat: int) -> tuple[int, ...]:
    """What ranks a seat (R12): its points, or with two players its pair, weaker color first (R15.5)."""
    if data.players != TWO_PLAYERS:
        return (data.scores[seat],)
    low, high = sorted(data.scores[c] for c in colors_of_seat(seat, data.players))
    return (low, high)


def counts_on(board, data: StateData, island: int) -> list[int]:
    counts = [0] * n_colors(data.players)
    for k, (a, b) in enumerate(board.links):
        if island in (a, b) and data.bridges[k] != NO_OWNER:
            counts[data.bridges[k]] += 1
    return counts


def majorities(board, data: StateData, island: int) -> list[int]:
    """Every color holding more than half of the island's links (R2)."""
    size = board.size(island)
    return [color for color, n in enumerate(counts_on(board, data, island)) if 2 * n > size]


def controlled_by(board, data: StateData, color: int) -> int:
    return sum(1 for i in range(board.n_islands) if majorities(board, data, i) == [color])


def scoring_points(board, data: StateData, final: bool) -> list[int]:
    """What one scoring adds per color (R11), from the bridges."""
    points = [0] * n_colors(data.players)
    for island in range(board.n_islands):
        owners = majorities(board, data, island)
        if owners:
            held = counts_on(board, data, island)[owners[0]]
            points[owners[0]] += board.size(island) - held + (1 if final else 0)
    return points


def card_totals(board, data: StateData) -> Counter:
    totals: Counter = Counter()
    for seat in range(data.players):
        for island in range(board.n_islands):
            totals[island] += data.hands[seat][island] + data.hidden_by[seat][island]
    totals.update(c for c in data.setup_chosen if c != NO_CARD)
    totals.update(data.deck)
    totals.update(data.face_up)
    totals.update(data.discard_open)
    return totals


# -- the properties ------------------------------------------------------------


def test_card_totals_per_island_are_conserved(oro, fast_engine, table):
    """Every island keeps exactly its cards_per_island cards across hands, setup choices, deck,
    face-up cards and both discard piles, through dealing, draws, plays and reshuffles (R3-R5, R9)."""
    expected = {island: oro.cards_per_island for island in range(oro.n_islands)}
    for where, _before, _action, after in walk_table(fast_engine, oro, table, crowded=True):
        assert dict(card_totals(oro, after)) == expected, where


def test_at_most_one_absolute_majority_and_valid_owners(oro, fast_engine, table):
    """Each link holds at most one bridge of a real color; no island has two absolute majorities (R1, R2)."""
    for where, _before, _action, after in walk_table(fast_engine, oro, table, crowded=True):
        assert len(after.bridges) == oro.n_links, where
        assert all(NO_OWNER <= owner < n_colors(after.players) for owner in after.bridges), where
        for island in range(oro.n_islands):
            assert len(majorities(oro, after, island)) <= 1, f"{where}: island {oro.islands[island]}"


def test_R6_a_new_majority_clears_rival_bridges_and_nothing_else_moves(oro, fast_engine, table):
    """After a place or swap on A-B only that link gains the building color's bridge; the only other
    change is the removal of rival bridges (with two players, the mover's other color's too, R15.4)
    from an end island the building color has just come to control (R6)."""
    seen = 0
    for where, before, action, after in walk_table(fast_engine, oro, table, crowded=True):
        if A.kind_of(action) not in BUILDS:
            assert after.bridges == before.bridges or A.kind_of(action) == A.REMOVE, where
            continue
        me, link = builder(before, action), A.arg_a(action)
        assert after.bridges[link] == me, where
        newly = [
            i
            for i in sorted(oro.links[link])
            if me in majorities(oro, after, i) and me not in majorities(oro, before, i)
        ]
        cleared = {k for k, (a, b) in enumerate(oro.links) for i in newly if i in (a, b)}
        for k in range(oro.n_links):
            if k == link:
                continue
            if k in cleared and before.bridges[k] != me:
                assert after.bridges[k] == NO_OWNER, f"{where}: rival bridge on {oro.link_name(k)} kept"
                seen += before.bridges[k] != NO_OWNER
            else:
                assert after.bridges[k] == before.bridges[k], f"{where}: {oro.link_name(k)} changed"
    assert seen > 0, "no game removed a rival bridge by R6"


def test_R7_pending_removals_follow_the_relative_majority(oro, fast_engine, table):
    """A build queues a removal on each full end island of 5+ links where the building color leads, or
    ties while a rival has a single bridge, without control; a removal takes one eligible rival bridge
    (R7; with two players the mover's other color is a rival, R15.4, and the turn's color decides)."""
    removals = 0
    for where, before, action, after in walk_table(fast_engine, oro, table, crowded=True):
        kind = A.kind_of(action)
        me = builder(before, action) if kind in BUILDS else before.to_move
        if kind == A.REMOVE and before.players == TWO_PLAYERS:
            me = before.turn_color  # R15.3: the removal is owed by the color the turn builds with
        if kind in BUILDS:
            expected = []
            for island in sorted(oro.links[A.arg_a(action)]):
                counts = counts_on(oro, after, island)
                full = sum(counts) == oro.size(island)
                others = [n for color, n in enumerate(counts) if color != me]
                leads = counts[me] > max(others) or (counts[me] == max(others) and 1 in others)
                if oro.size(island) >= 5 and full and me not in majorities(oro, after, island) and leads:
                    expected.append(island)
            assert after.remove_on == before.remove_on + expected, where
        elif kind == A.REMOVE:
            removals += 1
            island, link = before.remove_on[0], A.arg_a(action)
            assert island in oro.links[link], where
            assert after.remove_on == before.remove_on[1:], where
            victim = before.bridges[link]
            counts = counts_on(oro, before, island)
            rivals = [n for color, n in enumerate(counts) if color != me]
            assert victim not in (NO_OWNER, me), where
            if counts[me] == max(rivals):
                assert counts[victim] == 1, f"{where}: a tie allows only a single-bridge color"
            else:
                assert counts[me] > max(rivals), where
            changed = [k for k in range(oro.n_links) if after.bridges[k] != before.bridges[k]]
            assert changed == [link] and after.bridges[link] == NO_OWNER, where
        if before.remove_on and after.round != ROUND_OVER:
            assert kind == A.REMOVE, f"{where}: another move while a removal was pending"
    assert removals > 0


def test_R8_eleven_islands_end_the_game_at_once(oro, fast_engine, table):
    """A build that gives the building color 11 controlled islands ends the game for its player;
    nothing else does (R8, R15.7)."""
    wins = 0
    for where, before, action, after in walk_table(fast_engine, oro, table, crowded=True):
        if A.kind_of(action) not in BUILDS:
            assert after.reason != REASON_ELEVEN, where
            continue
        me, color = before.to_move, builder(before, action)
        if controlled_by(oro, after, color) >= WIN_ISLANDS:
            wins += 1
            assert after.round == ROUND_OVER and after.reason == REASON_ELEVEN and after.winner == me, where
            rest = sorted((s for s in range(after.players) if s != me),
                          key=lambda s: (tuple(-x for x in standing(after, s)), s))
            assert after.ranking == [me, *rest], where
            assert after.scores == before.scores, f"{where}: R8 does not score"
        else:
            assert after.reason != REASON_ELEVEN, where
    assert wins > 0, "no game reached eleven islands"


def test_scores_are_the_sum_of_R11_over_the_scorings(oro, fast_engine, table):
    """Scores change only at scoring 1 (R9) and the final scoring (R10), each time by R11 computed
    from the bridges at that moment, with +1 per controlled island in the final scoring; with two
    players, per color (R15.1)."""
    scorings = Counter()
    for where, before, _action, after in walk_table(fast_engine, oro, table, crowded=True):
        expected = list(before.scores)
        if before.round == ROUND_1 and after.round in (ROUND_2, ROUND_FINAL):
            expected = [s + p for s, p in zip(expected, scoring_points(oro, after, final=False), strict=True)]
            scorings["first"] += 1
        if after.round == ROUND_OVER and after.reason == REASON_POINTS:
            expected = [s + p for s, p in zip(expected, scoring_points(oro, after, final=True), strict=True)]
            scorings["final"] += 1
        assert after.scores == expected, where
    assert scorings["first"] > 0 and scorings["final"] > 0


def test_public_cards_are_part_of_the_hand_and_hands_stay_within_limits(oro, fast_engine, table):
    """Known cards never exceed the hand; a hand never holds more than 5 cards, and holds at most 4
    when its owner takes or draws (R4, R5)."""
    for where, before, action, after in walk_table(fast_engine, oro, table):
        for seat in range(after.players):
            assert sum(after.hands[seat]) <= HAND_LIMIT + 1, f"{where}: seat {seat}"
            for island in range(oro.n_islands):
                assert 0 <= after.public[seat][island] <= after.hands[seat][island], f"{where}: seat {seat}"
        if A.kind_of(action) in (A.TAKE, A.DRAW):
            assert sum(before.hands[before.to_move]) <= HAND_LIMIT, where


def test_R13_tabletop_stock_limits_bridges(oro, fast_engine, table):
    """In the tabletop preset no color ever has more than 20 bridges on the board, and with none
    in stock it is offered no place or swap (R13; with two players, per color)."""
    empty_stock_turns = 0
    state_moves = 0
    kinds, _games, crowded = table
    for seed, players, _ in game_kinds(crowded, 110_000, kinds):
        rng = random.Random(seed)
        data = fast_engine.deal(ruleset_of(oro, players, PRESET_TABLETOP), seed).to_data()
        # Seat 0 starts with nearly its whole stock on the board.
        scramble_bridges(data, rng, own_share=0.55, free_share=0.3)
        state = fast_engine.from_data(oro, data)
        while not state.is_over:
            state_moves += 1
            assert state_moves < MOVE_CAP * CROWDED_GAMES
            now = state.to_data()
            on_board = [now.bridges.count(c) for c in range(n_colors(players))]
            assert max(on_board) <= TABLETOP_BRIDGES, f"seed {seed}"
            moves = state.legal_actions()
            for slot, color in enumerate(colors_of_seat(now.to_move, players)):
                if on_board[color] == TABLETOP_BRIDGES and not now.remove_on:
                    empty_stock_turns += 1
                    assert not [a for a in moves if A.kind_of(a) in BUILDS and A.build_slot(a) == slot], \
                        f"seed {seed}: build without stock"
            state.apply(rng.choice(moves))
    assert empty_stock_turns > 0, "no game ran a color out of bridges"


def test_legal_moves_are_sorted_unique_and_end_with_the_game(oro, fast_engine, table):
    kinds, games, _crowded = table
    for seed, players, preset in game_kinds(games, 130_000, kinds):
        state = fast_engine.deal(ruleset_of(oro, players, preset), seed)
        rng = random.Random(seed)
        while True:
            moves = list(state.legal_actions())
            assert moves == sorted(set(moves)), f"seed {seed}"
            if state.is_over:
                assert moves == []
                break
            assert moves, f"seed {seed}: stuck with no legal move"
            state.apply(rng.choice(moves))


def test_rounds_advance_in_order(oro, fast_engine, table):
    """Setup, round 1, round 2, final round, over: never backwards, never skipped except by R8
    or by a reshuffle that brings back no card (R3, R9, R10)."""
    allowed = {
        (ROUND_SETUP, ROUND_1),
        (ROUND_1, ROUND_2),
        (ROUND_1, ROUND_FINAL),
        (ROUND_2, ROUND_FINAL),
        (ROUND_FINAL, ROUND_OVER),
    }
    for where, before, _action, after in walk_table(fast_engine, oro, table):
        if after.round != before.round:
            assert (before.round, after.round) in allowed or after.reason == REASON_ELEVEN, where
        if after.round in (ROUND_1, ROUND_2):
            assert after.deck or after.face_up, f"{where}: a round goes on with no card to take"


def test_every_game_ends_with_a_sane_length_and_ranking(oro, fast_engine, table):
    """Games end; the ranking is a permutation of the seats with the winner first, by points (with two
    players by the pair, R15.5), ties to the earlier final turn (R10, R12); every seat took exactly one
    final turn."""
    lengths = []
    kinds, games, _crowded = table
    for seed, players, preset in game_kinds(games, 150_000, kinds):
        moves, end = play_game(fast_engine, oro, players, preset, seed)
        lengths.append(len(moves))
        assert end.round == ROUND_OVER
        assert sorted(end.ranking) == list(range(players)), f"seed {seed}"
        assert end.winner == end.ranking[0], f"seed {seed}"
        assert Counter(A.kind_of(m) for m in moves)[A.REVEAL] == players, f"seed {seed}"
        if end.reason == REASON_POINTS:
            assert sorted(end.final_done) == list(range(players)), f"seed {seed}"
            assert Counter(A.kind_of(m) for m in moves)[A.END] == players, f"seed {seed}"
            order = {s: i for i, s in enumerate(end.final_done)}
            keys = [(tuple(-x for x in standing(end, s)), order[s]) for s in end.ranking]
            assert keys == sorted(keys), f"seed {seed}"
    # Every card is drawn through two rounds: far more than a handful of moves per game.
    assert min(lengths) > 60 and max(lengths) < MOVE_CAP


def test_the_same_seed_gives_the_same_game(oro, fast_engine, table):
    kinds = table[0]
    for seed, players, preset in game_kinds(12, 170_000, kinds):
        first = play_game(fast_engine, oro, players, preset, seed)
        again = play_game(fast_engine, oro, players, preset, seed)
        assert first == again, f"seed {seed}"
    deals = {tuple(fast_engine.deal(ruleset_of(oro, 4), seed).to_data().deck) for seed in range(20)}
    assert len(deals) == 20, "different seeds should deal differently"


def test_copies_and_exported_data_are_independent(oro, fast_engine):
    """A copy played on, or exported data changed, leaves the original untouched."""
    for seed in range(30):
        state = fast_engine.deal(ruleset_of(oro, 2 + seed % 3, seed % 2), seed)
        rng = random.Random(seed)
        while not state.is_over:
            moves = state.legal_actions()
            snapshot = state.to_data()
            twin = state.copy()
            twin.apply(moves[-1])
            exported = state.to_data()
            exported.bridges[0] = 2
            exported.deck.append(0)
            exported.hands[0][0] += 1
            assert state.to_data() == snapshot, f"seed {seed}"
            assert list(state.legal_actions()) == list(moves), f"seed {seed}"
            state.apply(rng.choice(moves))
