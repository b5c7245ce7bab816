"""``Position.record_of``: a move of a full position written down as one player at the table records it
(docs/records.md "Records in a viewer position", "Records of the token moves").

The central check follows random games of every rule set of the family that hides cards: before each move,
every player's record of it is written, and it must name no card that player cannot see (a card of its own
hand, a face-up card, a public card of a hand or one a token showed it, an open discard, its own face-down
discards, before or after the move); another player's setup reveal, face-down discard and draw name no card
at all.  The records are then played in that player's viewer position (``follow_game``), which must take
them and show what the full position shows that player."""

from __future__ import annotations

import random

import pytest

from gods_positions import god_choice
from kanaloa.errors import MoveError, PositionError
from kanaloa.position import Position
from kanaloa.rules import actions as A
from viewer_helpers import follow_game

GAMES = {
    "4 players": lambda seed: Position.new(4, seed=seed),
    "3 players": lambda seed: Position.new(3, seed=seed),
    "2 players": lambda seed: Position.new(2, seed=seed),
    "gods, 4 players": lambda seed: Position.new(4, seed=seed, gods=True),
    "gods, 3 players": lambda seed: Position.new(3, seed=seed, gods=True),
    "gods, 2 players": lambda seed: Position.new(2, seed=seed, gods=True),
    "kahuna": lambda seed: Position.new(game="kahuna", seed=seed),
}
SEEDS = range(3)
UNSEEN_BY_OTHERS = (A.REVEAL, A.DISCARD, A.DRAW)  # the card of these stays with the mover


def visible(view: dict, viewer: str) -> set[str]:
    """Every card a viewer's position document shows: its own hand and face-down discards, every hand's
    public cards and what the viewer knows of it, the face-up cards and the open discards."""
    hands = view["hands"]
    cards = set(hands[viewer].get("cards", ()))
    for hand in hands.values():
        cards.update(hand.get("public", ()))
        cards.update(hand.get("known", {}).get(viewer, ()))  # what a token showed it of a hand (R14.10)
    cards.update(view["face_up"])
    discard = view["discard"]
    cards.update(discard["open"])
    for hidden in discard.get("hidden_by", {}).values():
        cards.update(hidden)
    return cards


def named(move) -> set[str]:
    """The cards a record names (the cards a build pays included: they are put down for all to see)."""
    cards = set(move.cards) | set(move.seen) | {card for _, card in move.takes}
    if move.refill is not None:
        cards.add(move.refill)
    return cards - {"KANALOA"}  # R14.5: KANALOA pays a build and is no card


def check_records(full: Position, rng: random.Random, choose):
    """``choose`` for ``follow_game``: before the chosen move is made, every player's record of it is checked
    against what that player sees, before the move and (``after``, run once the move is made) after it."""
    pending = []

    def pick(legal):
        action = choose(rng, legal)
        mover = full.to_move
        for viewer in full.players:
            text = full.record_of(full.move_of(action), viewer)
            move = full.parse(text)
            if viewer != mover and A.kind_of(action) in UNSEEN_BY_OTHERS:
                assert not move.cards, (text, viewer)
            pending.append((viewer, text, move, visible(full.as_viewer(viewer).to_json(), viewer)))
        return action

    def after(seen, action, position):
        for viewer, text, move, before in pending:
            seen_now = before | visible(position.as_viewer(viewer).to_json(), viewer)
            assert named(move) <= seen_now, (text, viewer, named(move) - seen_now)
            seen["records"] += 1
        pending.clear()

    return pick, after


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES, ids=list(GAMES))
def test_every_players_record_names_only_cards_it_sees_and_its_view_takes_it(game, seed):
    full = GAMES[game](seed)
    rng = random.Random(seed)
    pick, after = check_records(full, rng, lambda r, legal: god_choice(r, legal))
    seen = follow_game(full, pick, count=after)
    assert seen["records"] == seen["moves"] * len(full.players)
    assert seen["refills"] > 0


def test_the_movers_record_keeps_its_card_and_adds_what_the_deck_showed_it():
    full = Position.new(3, seed=4)
    mover = full.to_move
    reveal = next(str(m) for m in full.legal_moves() if m.kind == "reveal")
    assert full.record_of(reveal, mover) == reveal
    assert full.record_of(reveal, full.players[1]) == "reveal"
    while full.round == 0:
        full.push(full.state.legal_actions()[0])
    top = full.board.islands[full.state.to_data().deck[0]]
    assert full.record_of("draw", full.to_move) == f"draw {top}"
    assert full.record_of("draw", full.players[2]) == "draw"
    taken = full.to_json()["face_up"][0]
    for viewer in full.players:  # the refill is turned up for everyone to see
        assert full.record_of(f"take {taken}", viewer) == f"take {taken} refill {top}"


@pytest.mark.parametrize("viewer, move, error, message", [
    ("purple", "draw", PositionError, r"^viewer: 'purple' is not playing \(the players are red, green, blue\)$"),
    ("green", "draw KULU", MoveError, r"^move 'draw KULU': this position knows the deck; write 'draw'$"),
    ("green", "reveal", MoveError, r"^move 'reveal': a move of a full position names its card: 'reveal CARD'$"),
    ("green", "green: reveal ALOA", MoveError, r"^move 'green: reveal ALOA': it is red's turn, not green's$"),
    ("green", "take ALOA", MoveError, r"^move 'take ALOA': in the setup each color first reveals one card: "
                                      r"'reveal CARD' \(R3\)$"),
    ("green", "faceup ALOA ORO", MoveError, r"^move 'faceup ALOA ORO': a record of face-up cards is not an action$"),
])
def test_a_record_of_a_move_the_full_position_does_not_take_is_refused(viewer, move, error, message):
    full = Position.new(3, seed=4)
    with pytest.raises(error, match=message):
        full.record_of(move, viewer)


def test_only_a_full_position_writes_the_records_and_not_once_the_game_is_over():
    full = Position.new(3, seed=4)
    with pytest.raises(PositionError, match=r"^viewer: this position is red's view; only a full position knows "
                                            r"how each player records a move$"):
        full.as_viewer("red").record_of("draw", "red")
    rng = random.Random(1)
    while not full.is_over:
        full.push(rng.choice(full.state.legal_actions()))
    with pytest.raises(MoveError, match=r"^move 'draw': the game is over$"):
        full.record_of("draw", "red")
