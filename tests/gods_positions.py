"""Positions of Might of the Gods (R14) written by hand, and random games that use the tokens, for the tests
of the position layer and of the command."""

from __future__ import annotations

import random

from kanaloa.position import FORMAT, Position
from kanaloa.rules import actions as A
from kanaloa.rules.board import load_board
from kanaloa.rules.engine import Engine
from position_helpers import cards_left

ORO = load_board("oro")

# Every token on its island, as a deal could lay them (R14.1).
DEALT_TOKENS = {
    "ALOA": "KANE", "BAFI": "KU", "COCO": "KANALOA", "DALI": "PELE", "ELOI": "KU", "FALU": "KANE",
    "GUMO": "KANALOA", "HILO": "KANE", "IKA": "KANE", "KULU": "LONO", "LANI": "PELE", "MOKU": "KANE",
    "NALU": "KANE", "ORO": "LONO", "PAHU": "KANE", "RASI": "KANE",
}
RED_OWNS = ("KANALOA", "KU", "PELE", "LONO")  # claimed from COCO, BAFI, DALI and KULU


def gods_doc(**fields):
    """A full position of Might of the Gods in round 2, red to move, 3 players: red owns one token of each
    kind but KANE; blue knows that green holds DALI (R14.10); every NALU card lies open on the discard pile.
    The deck is every card not placed elsewhere, in island order (or ``deck``)."""
    on_islands = {k: v for k, v in DEALT_TOKENS.items() if k not in ("COCO", "BAFI", "DALI", "KULU")}
    doc = {
        "format": FORMAT,
        "board": "oro",
        "rules": {"preset": "yucata", "gods": True},
        "players": ["red", "green", "blue"],
        "viewer": None,
        "to_move": "red",
        "round": 2,
        "bridges": {"ALOA-BAFI": "red", "BAFI-ORO": "green"},
        "gods": {"on_islands": on_islands, "owned": {"red": list(RED_OWNS), "green": [], "blue": []}},
        "hands": {
            "red": {"cards": ["ALOA", "BAFI", "COCO"], "public": []},
            "green": {"cards": ["DALI", "ELOI"], "public": ["ELOI"], "known": {"blue": ["DALI", "ELOI"]}},
            "blue": {"cards": ["FALU", "GUMO", "HILO"], "public": []},
        },
        "face_up": ["IKA", "KULU", "LANI", "MOKU"],
        "discard": {"open": ["NALU", "NALU", "NALU", "ORO"], "hidden": 0,
                    "hidden_by": {"red": [], "green": [], "blue": []}},
        "scores": {"red": 0, "green": 0, "blue": 0},
        "turn": {"played": 0, "discarded": False, "remove_on": []},
        "seed": 7,
    }
    doc.update(fields)
    if "deck" not in fields:
        doc["deck"] = leftover(doc)
    return doc


def leftover(doc) -> list[str]:
    """The cards of board oro that ``doc`` places nowhere, in island order."""
    return cards_left(doc, ORO)


def is_god_action(action: int) -> bool:
    """True for a token's use, what it leaves pending, and a build paid with KANALOA (R14.5-R14.8)."""
    kind = A.kind_of(action)
    if kind in (A.KU, A.STEAL, A.PELE, A.GIVE, A.LONO):
        return True
    return kind in (A.PLACE, A.SWAP) and A.build_arg(action) in (A.JOKER, A.SWAP_JA, A.SWAP_JB, A.SWAP_JJ)


def god_choice(rng: random.Random, actions: list[int], share: float = 0.5) -> int:
    """A random action, one of the gods' ``share`` of the time when there is one (so that games use them)."""
    gods = [a for a in actions if is_god_action(a)]
    return rng.choice(gods) if gods and rng.random() < share else rng.choice(actions)


def gods_game(seed: int, players: int, engine: Engine, stop=lambda d: False, share: float = 0.8) -> Position:
    """A full position of the gods after random moves from deal ``seed``, up to the first state ``stop``
    (given the state's data) accepts or the end of the game."""
    rng = random.Random(seed)
    pos = Position.new(players=players, seed=seed, gods=True, engine=engine)
    while not pos.is_over and not stop(pos.state.to_data()):
        pos.push(god_choice(rng, pos.state.legal_actions(), share))
    return pos
