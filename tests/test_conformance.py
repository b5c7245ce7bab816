"""The conformance suite: the same checks over every registered game and each of its example rule sets.

In the manner of OpenSpiel's ``random_sim_test``, nothing here knows a
game: the games and rule sets come from the registry
(``GameType.example_rulesets``), positions from each game's ``position`` face
(``deal(ruleset, seed, engine)``, ``from_json(doc, engine)``), and every
check speaks the position protocol and the engine state protocol
(``kanaloa.rules.registry``).  A game that plugs into the registry is checked
by this file without an edit:

- **random games** end, through checked moves in notation listed in the
  order of their action codes, with an outcome whose ranking names every
  player once and whose winner heads it (or, where the rule set allows it,
  no single winner: a victory shared among the first of the ranking, or
  none);
- **the two engines agree** move by move (the compiled core and the
  reference: the same legal moves and the same state after every move);
- **clones are independent**: a copied position, played on, leaves the
  original as it was;
- **positions round-trip** through their JSON document, on either engine,
  and move from one engine to the other (``on``) unchanged;
- **every player records a move** its view takes (``record_of``; in a game that hides nothing, the move
  as it is);
- **viewers keep their secrets** where the game hides something: two
  complete states that one player cannot tell apart (a determinisation drawn
  from what it knows) give that player the same view, and a view made
  directly is the view read from the viewer's document; a game that hides
  nothing refuses a viewer;
- **the signature**: a batch of seeded random games makes the same number of
  moves in both engines.
"""

from __future__ import annotations

import random

import pytest

from kanaloa.errors import PositionError
from kanaloa.rules.registry import game_types
from kanaloa.tools.soak import table_kind

CORE, REFERENCE = "core", "reference"
RULESETS = [rs for game in game_types() for rs in game.example_rulesets()]
IDS = [table_kind(rs) if table_kind(rs).startswith(rs.game) else f"{rs.game}-{table_kind(rs)}" for rs in RULESETS]
GAMES = 6  # random games per rule set and check
SAMPLE_EVERY = 17  # moves between the positions the slower checks look at


def face(rs):
    """The position class of the rule set's game."""
    return rs.game_type.face("position")


def random_game(rs, seed: int, engine=CORE):
    """The positions of one random game of ``rs`` (dealt from ``seed``, moves from ``seed``), each a copy."""
    pos = face(rs).deal(rs, seed, engine)
    rng = random.Random(seed)
    seen = [pos.copy()]
    while not pos.is_over:
        pos.push(rng.choice(pos.state.legal_actions()))
        seen.append(pos.copy())
    return seen


def hides(rs) -> bool:
    """Whether the game hides something from a player (it has viewer positions)."""
    return rs.lacks("viewer") is None


@pytest.fixture(params=RULESETS, ids=IDS)
def ruleset(request):
    return request.param


def test_random_games_end_through_checked_moves_with_an_outcome(ruleset):
    for seed in range(GAMES):
        pos = face(ruleset).deal(ruleset, seed)
        rng = random.Random(seed)
        moves = 0
        while not pos.is_over:
            legal = pos.move_strings()
            assert legal, f"seed {seed}: no legal move in {pos!r}"
            actions = pos.state.legal_actions()
            assert actions == sorted(actions) and legal == [str(pos.move_of(a)) for a in actions]
            move = rng.choice(legal)
            assert str(pos.parse(move)) == move  # the notation reads back as itself
            pos.play(move)
            moves += 1
            assert moves < 5000, f"seed {seed}: the game does not end"
        outcome = pos.outcome
        assert outcome is not None and sorted(outcome["ranking"]) == sorted(ruleset.seat_names)
        assert outcome["reason"] in ruleset.reasons
        winners = outcome.get("winners")
        if winners is not None:  # a victory may be shared: its winners head the ranking
            assert sorted(winners) == sorted(outcome["ranking"][:len(winners)])
            assert outcome["winner"] == (winners[0] if len(winners) == 1 else None)
        assert outcome["winner"] == outcome["ranking"][0] or (
            outcome["winner"] is None and ruleset.lacks("no_winner") is None)
        assert pos.legal_moves() == [] and pos.to_move is None


def test_the_core_and_the_reference_agree_move_by_move(ruleset):
    for seed in range(GAMES):
        core, ref = (face(ruleset).deal(ruleset, 1000 + seed, engine).state for engine in (CORE, REFERENCE))
        rng = random.Random(seed)
        moves = 0
        while True:
            assert core.to_data() == ref.to_data(), f"seed {seed}, move {moves}"
            if core.is_over:
                assert ref.is_over
                break
            legal = core.legal_actions()
            assert legal == ref.legal_actions(), f"seed {seed}, move {moves}"
            action = rng.choice(legal)
            core.apply(action)
            ref.apply(action)
            moves += 1


def test_a_copy_played_on_leaves_the_original_as_it_was(ruleset):
    for seed in range(GAMES):
        for pos in random_game(ruleset, seed)[::SAMPLE_EVERY]:
            if pos.is_over:
                continue
            before = pos.dumps()
            twin = pos.copy()
            twin.push(twin.state.legal_actions()[-1])
            state = pos.state.copy()
            state.apply(state.legal_actions()[0])
            assert pos.dumps() == before


def test_positions_round_trip_through_their_document(ruleset):
    for engine in (CORE, REFERENCE):
        for seed in range(GAMES // 2):
            for pos in random_game(ruleset, seed, engine)[::SAMPLE_EVERY]:
                again = face(ruleset).from_json(pos.dumps(), engine)
                assert again.to_json() == pos.to_json()
                assert again.ruleset == pos.ruleset
                if not pos.is_over:  # a finished game's document keeps its result, not the last turn's details
                    assert again.state.to_data() == pos.state.to_data()


def test_a_position_moves_to_the_other_engine_unchanged(ruleset):
    for seed in range(GAMES // 2):
        for pos in random_game(ruleset, seed)[::SAMPLE_EVERY]:
            other = pos.on(REFERENCE)
            assert other.state.to_data() == pos.state.to_data() and other.to_json() == pos.to_json()
            assert other.on(CORE).state.to_data() == pos.state.to_data()
            if not other.is_over:  # the moved copy plays on alone
                other.push(other.state.legal_actions()[0])
                assert pos.state.to_data() != other.state.to_data()


def test_a_game_that_hides_nothing_refuses_a_viewer(ruleset):
    if hides(ruleset):
        pytest.skip("the game hides cards: its viewers are checked below")
    pos = face(ruleset).deal(ruleset, 3)
    assert pos.viewer is None and pos.waiting is None
    with pytest.raises(PositionError, match=r"^viewer: "):
        pos.as_viewer(ruleset.seat_names[0])


def test_every_players_record_of_a_move_is_one_its_view_takes(ruleset):
    """``record_of(move, player)``: the move as that player writes it down at the table.  A game that hides
    nothing has every player record every move as it is; elsewhere the player's viewer position takes it
    (what it must leave out is tests/test_table_records.py's)."""
    for seed in range(GAMES // 2):
        rng = random.Random(seed)
        for pos in random_game(ruleset, seed)[::SAMPLE_EVERY]:
            if pos.is_over:
                continue
            move = str(pos.move_of(rng.choice(pos.state.legal_actions())))
            for name in ruleset.seat_names:
                written = pos.record_of(move, name)
                if not hides(ruleset):
                    assert written == move
                    continue
                view = pos.as_viewer(name)
                if view.waiting is None:
                    view.play(written)


# The two checks of viewers speak the engine state protocol of games with hidden cards: a state's
# ``determinise(seat, seed, ...)``, and the family's viewer documents (``kanaloa.position.format.render``).


def test_a_viewer_sees_the_same_in_every_world_it_cannot_tell_apart(ruleset):
    if not hides(ruleset):
        pytest.skip(ruleset.lacks("viewer"))
    from kanaloa.position import Position

    for seed in range(GAMES):
        for pos in random_game(ruleset, seed)[::SAMPLE_EVERY]:
            for seat, name in enumerate(ruleset.seat_names):
                view = pos.as_viewer(name)
                world = pos.state.determinise(seat, 7 * seed + seat, True)
                other = Position(ruleset, pos.engine, None, world)
                assert other.as_viewer(name).to_json() == view.to_json(), (seed, name)


def test_a_view_made_directly_is_the_view_its_document_reads_back(ruleset):
    if not hides(ruleset):
        pytest.skip(ruleset.lacks("viewer"))
    from kanaloa.position.format import render

    for seed in range(GAMES // 2):
        for pos in random_game(ruleset, seed)[::SAMPLE_EVERY]:
            for seat, name in enumerate(ruleset.seat_names):
                view = pos.as_viewer(name)
                read = face(ruleset).from_json(render(ruleset, pos.state.to_data(), seat))
                assert view.to_json() == read.to_json()
                assert view.waiting == read.waiting
                if view.waiting is None:
                    assert view.state.to_data() == read.state.to_data()


def test_the_signature_is_the_same_in_both_engines(ruleset):
    counts = []
    for engine in (CORE, REFERENCE):
        moves = 0
        for seed in range(GAMES):
            state = face(ruleset).deal(ruleset, 5000 + seed, engine).state
            rng = random.Random(seed)
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
                moves += 1
        counts.append(moves)
    assert counts[0] == counts[1] > 0
