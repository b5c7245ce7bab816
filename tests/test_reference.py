"""Focused checks of engine behaviours the random games reach only by chance: the seeded deal,
setup, the reshuffle, face-down discards, refills, the final round's passing and ending, and
the rankings of R8 and R12.  Each runs on both implementations through the ``engine`` fixture.
"""

from __future__ import annotations

import pytest

from conftest import build_state, link_of, state_deal
from kanaloa.rules import actions as A
from kanaloa.rules.board import board_from_dict
from kanaloa.rules.rng import SplitMix64
from kanaloa.rules.ruleset import make_ruleset
from kanaloa.rules.state import (
    NO_CARD,
    PRESET_YUCATA,
    REASON_ELEVEN,
    REASON_POINTS,
    ROUND_1,
    ROUND_2,
    ROUND_FINAL,
    ROUND_OVER,
    ROUND_SETUP,
)


def isl(board, name: str) -> int:
    return board.find_island(name)


def counts(board, names: list[str]) -> list[int]:
    out = [0] * board.n_islands
    for name in names:
        out[isl(board, name)] += 1
    return out


# -- dealing and setup (R3) ----------------------------------------------------


def test_R3_a_board_with_too_few_cards_for_every_hand_is_refused(engine):
    """R3 deals 4 cards to each player: 6 cards cannot make 3 hands, 12 can."""
    for cards_per_island, ok in ((2, False), (4, True)):
        small = board_from_dict(
            {"name": "small", "cards_per_island": cards_per_island,
             "islands": [{"name": n} for n in ["A", "B", "C"]], "links": [["A", "B"], ["B", "C"], ["A", "C"]]},
            "small",
        )
        if ok:
            assert all(sum(h) == 4 for h in state_deal(engine, small, 3, PRESET_YUCATA, 1).to_data().hands)
        else:
            with pytest.raises(ValueError, match=r"^players: 3 hands of 4 need more than the board's 6 cards$"):
                state_deal(engine, small, 3, PRESET_YUCATA, 1)


def test_R3_deal_follows_the_seeded_shuffle(oro, engine):
    seed = 424242
    rng = SplitMix64(seed)
    cards = [i for i in range(oro.n_islands) for _ in range(oro.cards_per_island)]
    rng.shuffle(cards)
    data = engine.deal(make_ruleset(board=oro), seed).to_data()
    for seat in range(4):
        expected = [0] * oro.n_islands
        for card in cards[4 * seat : 4 * seat + 4]:
            expected[card] += 1
        assert data.hands[seat] == expected
    assert data.deck == cards[16:]
    assert data.rng == rng.state
    assert (data.round, data.to_move, data.played, data.discarded) == (ROUND_SETUP, 0, 0, False)
    assert data.face_up == [] and data.discard_open == [] and data.setup_chosen == [NO_CARD] * 4
    assert data.scores == [0, 0, 0, 0] and all(b == -1 for b in data.bridges)


def test_R3_the_same_seed_deals_the_same_game(oro, engine):
    rules = make_ruleset(players=3, board=oro)
    assert engine.deal(rules, 9).to_data() == engine.deal(rules, 9).to_data()
    assert engine.deal(rules, 9).to_data() != engine.deal(rules, 10).to_data()


def test_R3_each_seat_reveals_one_card_then_four_go_face_up(oro, engine):
    state = engine.deal(make_ruleset(players=3, board=oro), 5)
    dealt = state.to_data()
    chosen = []
    for seat in range(3):
        assert state.to_move == seat and state.round == ROUND_SETUP
        hand = state.to_data().hands[seat]
        moves = state.legal_actions()
        assert moves == [A.encode(A.REVEAL, x) for x in range(oro.n_islands) if hand[x] > 0]
        chosen.append(A.arg_a(moves[-1]))
        state.apply(moves[-1])
        if seat < 2:
            assert state.to_data().setup_chosen[seat] == chosen[-1]
    data = state.to_data()
    # Three players reveal three cards; the fourth face-up card comes from the deck's top.
    assert data.face_up == [*chosen, dealt.deck[0]]
    assert data.deck == dealt.deck[1:]
    assert [sum(h) for h in data.hands] == [3, 3, 3]
    assert data.setup_chosen == [NO_CARD] * 3
    assert (data.round, data.to_move) == (ROUND_1, 0)


# -- turns (R4, R5) ------------------------------------------------------------


def test_R4_a_face_down_discard_hides_the_card_and_ends_the_play_phase(oro, engine):
    data = build_state(
        oro, 3, hands={0: ["ALOA", "ALOA", "BAFI", "DALI"]}, public={0: ["ALOA", "ALOA", "BAFI"]},
        face_up=["KULU", "ORO"], deck=["RASI"],
    )
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.DISCARD, isl(oro, "DALI")))
    after = state.to_data()
    assert after.hands[0] == counts(oro, ["ALOA", "ALOA", "BAFI"])
    # Others cannot tell which card went: one fewer of every card they knew about.
    assert after.public[0] == counts(oro, ["ALOA"])
    assert after.hidden_by[0] == counts(oro, ["DALI"])
    assert after.discard_open == data.discard_open and after.discarded
    assert state.legal_actions() == sorted(
        [A.encode(A.TAKE, isl(oro, "KULU")), A.encode(A.TAKE, isl(oro, "ORO")), A.encode(A.DRAW)]
    )


def test_R4_a_full_hand_must_shed_a_card_before_drawing(oro, engine):
    data = build_state(oro, 3, hands={0: ["ALOA", "BAFI", "COCO", "DALI", "ELOI"]}, face_up=["KULU"], deck=["ORO"])
    moves = engine.from_data(oro, data).legal_actions()
    assert not [m for m in moves if A.kind_of(m) in (A.TAKE, A.DRAW)]
    assert A.encode(A.DISCARD, isl(oro, "ELOI")) in moves


def test_R5_a_taken_face_up_card_is_replaced_in_place_from_the_deck(oro, engine):
    data = build_state(oro, 3, to_move=1, face_up=["KULU", "ORO", "KULU", "RASI"], deck=["MOKU", "PAHU"])
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.TAKE, isl(oro, "KULU")))
    after = state.to_data()
    assert after.face_up == [isl(oro, n) for n in ["MOKU", "ORO", "KULU", "RASI"]]
    assert after.deck == [isl(oro, "PAHU")]
    assert after.hands[1] == counts(oro, ["KULU"]) and after.public[1] == counts(oro, ["KULU"])
    assert after.to_move == 2


def test_R5_with_the_deck_empty_a_taken_card_leaves_a_gap(oro, engine):
    data = build_state(oro, 3, face_up=["KULU", "ORO", "RASI"], leftover="discard")
    state = engine.from_data(oro, data)
    assert A.encode(A.DRAW) not in state.legal_actions()
    state.apply(A.encode(A.TAKE, isl(oro, "ORO")))
    assert state.to_data().face_up == [isl(oro, "KULU"), isl(oro, "RASI")]
    assert state.round == ROUND_1


def test_R7_a_pending_removal_allows_nothing_else(oro, engine):
    """BAFI full at 2-1-1-1 for seat 1 after its build: only removals of rival bridges remain."""
    data = build_state(
        oro, 4, to_move=1, hands={1: ["RASI", "ORO", "ORO"]}, face_up=["KULU"], deck=["MOKU"],
        bridges={"ALOA-BAFI": 0, "BAFI-COCO": 2, "BAFI-GUMO": 1, "BAFI-ORO": 3},
    )
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.PLACE, link_of(oro, "BAFI-RASI"), isl(oro, "RASI")))
    assert state.to_data().remove_on == [isl(oro, "BAFI")]
    rivals = sorted(link_of(oro, n) for n in ["ALOA-BAFI", "BAFI-COCO", "BAFI-ORO"])
    assert state.legal_actions() == [A.encode(A.REMOVE, k) for k in rivals]


# -- the round ends and the reshuffle (R9) ---------------------------------------


def end_of_first_round(oro):
    """Seat 0 takes the last card of round 1; it controls DALI with 2 of 3 bridges."""
    data = build_state(
        oro, 4, hands={0: ["ALOA"], 2: ["KULU", "MOKU"]}, face_up=["RASI"],
        bridges={"ALOA-DALI": 0, "DALI-ELOI": 0, "ALOA-BAFI": 1},
    )
    # Two of the discards went face-down.
    data.discard_open.remove(isl(oro, "ORO"))
    data.discard_open.remove(isl(oro, "PAHU"))
    data.hidden_by[1][isl(oro, "ORO")] = 1
    data.hidden_by[3][isl(oro, "PAHU")] = 1
    data.rng = 0xDEADBEEF
    return data


def test_R9_taking_the_last_card_scores_and_reshuffles_every_discard(oro, engine):
    data = end_of_first_round(oro)
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.TAKE, isl(oro, "RASI")))
    after = state.to_data()
    # Scoring 1: DALI has 3 links, seat 0 holds 2 of them: 1 point, no bonus (R11).
    assert after.scores == [1, 0, 0, 0]
    expected = sorted([*data.discard_open, isl(oro, "ORO"), isl(oro, "PAHU")])
    stream = SplitMix64(data.rng)
    stream.shuffle(expected)
    assert after.face_up == expected[:4] and after.deck == expected[4:]
    assert after.rng == stream.state
    assert after.discard_open == [] and after.hidden_by == [[0] * oro.n_islands for _ in range(4)]
    assert (after.round, after.to_move) == (ROUND_2, 1)
    assert after.bridges == data.bridges and after.hands[2] == data.hands[2]


def test_R9_the_reshuffle_depends_only_on_the_state_stream(oro, engine):
    def reshuffled(rng_state: int) -> list[int]:
        data = end_of_first_round(oro)
        data.rng = rng_state
        # The order the discards happen to be in must not matter: only which cards they are.
        data.discard_open.reverse()
        state = engine.from_data(oro, data)
        state.apply(A.encode(A.TAKE, isl(oro, "RASI")))
        after = state.to_data()
        return after.face_up + after.deck

    assert reshuffled(77) == reshuffled(77)
    assert reshuffled(77) != reshuffled(78)
    data = end_of_first_round(oro)
    data.rng = 77
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.TAKE, isl(oro, "RASI")))
    assert reshuffled(77) == state.to_data().face_up + state.to_data().deck


def test_R9_R10_a_reshuffle_with_no_discards_starts_the_final_round(engine):
    """On a tiny board every card can be in the hands: nothing comes back, so the second run-out
    has already happened and the final round begins with the next seat."""
    tiny = board_from_dict(
        {"name": "tiny", "cards_per_island": 3,
         "islands": [{"name": n} for n in ["A", "B", "C", "D"]],
         "links": [["A", "B"], ["B", "C"], ["C", "D"], ["D", "A"], ["A", "C"]]},
        "tiny",
    )
    data = build_state(
        tiny, 3, to_move=2, hands={0: ["A", "A", "B", "B"], 1: ["C", "C", "D", "D"], 2: ["A", "B", "C"]},
        face_up=["D"],
    )
    state = engine.from_data(tiny, data)
    state.apply(A.encode(A.TAKE, 3))
    after = state.to_data()
    assert after.deck == [] and after.face_up == []
    assert (after.round, after.to_move, after.final_done, after.final_passed) == (ROUND_FINAL, 0, [], [])


def test_R10_running_out_in_round_two_starts_the_final_round(oro, engine):
    data = build_state(oro, 3, round=ROUND_2, to_move=2, face_up=["RASI"], scores=[4, 1, 2],
                       bridges={"ALOA-DALI": 0, "DALI-ELOI": 0})
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.TAKE, isl(oro, "RASI")))
    after = state.to_data()
    # No scoring at the second run-out: only the final scoring after the final round.
    assert after.scores == [4, 1, 2]
    assert (after.round, after.to_move) == (ROUND_FINAL, 0)


# -- the final round (R10) and the rankings (R8, R12) ---------------------------


def final_round(oro, scores, **pieces):
    return build_state(oro, len(scores), round=ROUND_FINAL, scores=scores, **pieces)


def test_R10_final_turns_have_no_draw_no_discard_and_no_hand_limit(oro, engine):
    data = final_round(oro, [0, 0, 0], hands={0: ["ALOA", "BAFI", "COCO", "DALI", "ELOI"]},
                       face_up=["KULU"])
    moves = engine.from_data(oro, data).legal_actions()
    kinds = {A.kind_of(m) for m in moves}
    assert kinds == {A.PLACE, A.END}


def test_R10_passing_needs_a_richer_seat_still_to_play_and_no_card_played(oro, engine):
    rich_waiting = final_round(oro, [3, 5, 3], hands={0: ["ALOA"]})
    assert A.encode(A.PASS) in engine.from_data(oro, rich_waiting).legal_actions()
    equal_only = final_round(oro, [3, 3, 3], hands={0: ["ALOA"]})
    assert A.encode(A.PASS) not in engine.from_data(oro, equal_only).legal_actions()
    rich_done = final_round(oro, [3, 5, 3], hands={0: ["ALOA"]})
    rich_done.final_done = [1]
    assert A.encode(A.PASS) not in engine.from_data(oro, rich_done).legal_actions()
    # Once a card is played the turn has begun: it can no longer be put off.
    state = engine.from_data(oro, rich_waiting)
    state.apply(A.encode(A.PLACE, link_of(oro, "ALOA-BAFI"), isl(oro, "ALOA")))
    assert state.legal_actions() == [A.encode(A.END)]


def test_R10_a_pass_hands_the_turn_to_the_next_seat_not_yet_done(oro, engine):
    data = final_round(oro, [1, 2, 9, 4])
    data.to_move = 3
    data.final_done = [0]
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.PASS))
    after = state.to_data()
    assert (after.to_move, after.final_passed, after.final_done) == (1, [3], [0])
    state.apply(A.encode(A.PASS))  # seat 1 passes too: seat 2 (9 points) has not played
    state.apply(A.encode(A.END))  # seat 2
    after = state.to_data()
    assert (after.to_move, after.final_passed, after.final_done) == (3, [3, 1], [0, 2])
    state.apply(A.encode(A.END))  # seat 3 takes its delayed turn
    after = state.to_data()
    assert (after.to_move, after.final_passed, after.final_done) == (1, [1], [0, 2, 3])


def test_R11_R12_final_scoring_then_ties_go_to_the_earlier_final_turn(oro, engine):
    # Seat 2 controls DALI with 2 of 3 bridges: 1 + 1 bonus in the final scoring, reaching 6.
    data = final_round(oro, [6, 6, 4], bridges={"ALOA-DALI": 2, "DALI-IKA": 2})
    data.final_done = [1, 0]
    data.to_move = 2
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.END))
    after = state.to_data()
    assert after.scores == [6, 6, 6]
    assert after.ranking == [1, 0, 2] and after.winner == 1
    assert (after.round, after.reason) == (ROUND_OVER, REASON_POINTS)
    assert state.is_over and state.legal_actions() == []


ELEVEN_MINUS_ONE = {
    name: 1
    for name in [
        "ALOA-ELOI", "BAFI-ORO", "BAFI-RASI", "DALI-ELOI", "DALI-IKA", "ELOI-KULU", "HILO-LANI", "HILO-NALU",
        "HILO-PAHU", "IKA-KULU", "IKA-ORO", "LANI-RASI", "NALU-PAHU", "ORO-PAHU", "ORO-RASI",
    ]
}  # seat 1 controls DALI ELOI HILO IKA KULU LANI NALU ORO PAHU RASI: ten islands


def test_R8_the_eleventh_island_wins_at_once_and_the_rest_rank_by_points_then_seat(oro, engine):
    data = build_state(oro, 4, to_move=1, hands={1: ["ALOA", "KULU"]}, face_up=["MOKU"], deck=["GUMO"],
                       bridges=ELEVEN_MINUS_ONE, scores=[3, 1, 7, 3])
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.PLACE, link_of(oro, "ALOA-BAFI"), isl(oro, "ALOA")))  # BAFI: 3 of 5
    after = state.to_data()
    assert (after.round, after.winner, after.reason) == (ROUND_OVER, 1, REASON_ELEVEN)
    assert after.ranking == [1, 2, 0, 3]
    assert after.scores == [3, 1, 7, 3]
    assert state.legal_actions() == [] and state.winner == 1 and state.ranking == [1, 2, 0, 3]


def test_R8_ten_islands_are_not_enough(oro, engine):
    data = build_state(oro, 4, to_move=1, hands={1: ["ALOA", "KULU"]}, face_up=["MOKU"], deck=["GUMO"],
                       bridges=ELEVEN_MINUS_ONE)
    state = engine.from_data(oro, data)
    state.apply(A.encode(A.PLACE, link_of(oro, "ALOA-COCO"), isl(oro, "ALOA")))
    assert not state.is_over and state.winner == -1 and state.ranking == []
