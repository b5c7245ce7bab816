"""A real table's start, as one of its players sees it: the viewer position at the deal.

Someone following a real game (the Table mode of ``kanaloa serve``) knows,
at the deal, the cards dealt to them, and where the game turns cards
face-up at once (Kahuna, R16.2) those too, and with Might of the Gods the
token lying on each island (R14.1).  ``seen_deal`` turns that into the
``kanaloa-position/1`` document of the viewer's position at the deal; every
size and name in it is the rule set's answer (``deal_size``,
``face_up_size``, ``seat_names``, ``colors_of``, ``tokens``, the
``game`` and ``rules`` fields).  ``Position.from_json`` reads it, and checks
what the document cannot show here (how many tokens of each god, R14.1).

Its errors are ``OptionError``s naming the argument at fault, ``viewer``,
``hand``, ``face_up`` or ``tokens``: a caller whose fields have these names
(the web app's table requests) passes them on as they are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import OptionError, brief
from ..rules.ruleset import Ruleset
from .format import FORMAT

__all__ = ["seen_deal"]


def seen_deal(ruleset: Ruleset, viewer: object, hand: object, face_up: object = None,
              tokens: object = None) -> dict[str, Any]:
    """The ``kanaloa-position/1`` document of ``viewer``'s position at the deal of ``ruleset``'s game.

    ``hand``: the cards dealt to ``viewer`` (``deal_size`` island names,
    any case); ``face_up``: the cards turned face-up at the deal, given
    exactly when the game turns some then (``face_up_at_deal``); ``tokens``:
    the god token on each island (island name -> token), given exactly in a
    game with the gods.  Raises ``OptionError`` naming the argument at fault.
    """
    rs = ruleset
    board = rs.board
    players = list(rs.seat_names)
    if not isinstance(viewer, str) or viewer not in players:
        owner = next((p for seat, p in enumerate(players) if viewer in rs.color_names_of(seat)), None)
        if owner is not None:  # a player's second color (R15.1)
            raise OptionError(f"viewer {brief(viewer)}: {viewer} is {owner}'s second color; a player is named by "
                              f"its first color, {owner} (R15.1)")
        raise OptionError(f"viewer {brief(viewer)}: must be one of the players, {', '.join(players)}")
    deal = rs.rule_of("deal")
    cards = _cards("hand", hand, rs.deal_size, "cards you were dealt", deal)
    shown = rs.face_up_at_deal
    if shown:
        turned = _cards("face_up", face_up, shown, "cards turned face-up at the deal", deal)
    elif face_up is not None:
        raise OptionError(f"face_up: no card is face-up at the deal of {rs.title}; the cards are turned face-up "
                          f"after the setup ({deal})")
    else:
        turned = []
    _check_cards(rs, cards, turned)
    doc: dict[str, Any] = {"format": FORMAT}
    if rs.document_game is not None:
        doc["game"] = rs.document_game
    doc["board"] = board.source
    rules = rs.rules_document()
    if rules is not None:
        doc["rules"] = rules
    doc["players"] = players
    if rs.pairs:
        doc["colors"] = {name: list(rs.color_names_of(seat)) for seat, name in enumerate(players)}
    doc.update({
        "viewer": viewer,
        "to_move": players[0],
        "round": rs.round_name(rs.rounds[0]),
        "hands": {p: ({"cards": cards} if p == viewer else {"count": rs.deal_size}) for p in players},
        "face_up": turned,
        "deck": {"count": board.n_cards - rs.deal_size * len(players) - len(turned)},
    })
    if rs.tokens:
        doc["gods"] = {"on_islands": _tokens(rs, tokens), "owned": {p: [] for p in players}}
    elif tokens is not None:
        raise OptionError(f"tokens: {rs.lacks('tokens') or 'this game has no god tokens'}")
    return doc


def _cards(field: str, value: object, count: int, what: str, rule: str) -> list[str]:
    """``count`` card names, stripped and upper-cased; ``field`` names them in errors."""
    if not isinstance(value, Sequence) or isinstance(value, str) or not all(isinstance(c, str) for c in value):
        raise OptionError(f"{field} {brief(value)}: must be the list of the {count} {what} ({rule})")
    if len(value) != count:
        raise OptionError(f"{field}: {len(value)} card(s) given; give the {count} {what} ({rule})")
    return [c.strip().upper() for c in value]


def _check_cards(rs: Ruleset, hand: list[str], face_up: list[str]) -> None:
    """Every card names an island of the board, and no island has more cards than the board gives it."""
    board = rs.board
    for field, cards in (("hand", hand), ("face_up", face_up)):
        for card in cards:
            if board.find_island(card) is None:
                raise OptionError(f"{field}: {brief(card)} is not an island of board {board.name}")
    held = Counter(hand + face_up)
    for card, n in held.items():
        if n > board.cards_per_island:
            field = "hand" if card not in face_up else "face_up"
            where = "your hand" if field == "hand" else "your hand and the face-up cards"
            raise OptionError(f"{field}: {n} {card} cards in {where}; board {board.name} has "
                              f"{board.cards_per_island} of each island")


def _tokens(rs: Ruleset, value: object) -> dict[str, str]:
    """The god token on each island (R14.1): island name -> token name, upper-cased.  How many tokens of
    each god there are is the position's to check."""
    board = rs.board
    example = ", ".join(f'"{name}": "{token}"' for name, token in zip(board.islands, rs.tokens[:2], strict=False))
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise OptionError(f"tokens {brief(value)}: must name the token on each island, such as "
                          f"{{{example}, ...}} (tokens: {', '.join(rs.tokens)})")
    tokens = {k.strip().upper(): v.strip().upper() for k, v in value.items()}
    missing = [name for name in board.islands if name not in tokens]
    if missing:
        raise OptionError(f"tokens: no token given for {', '.join(missing[:4])}{' ...' if len(missing) > 4 else ''}; "
                          f"name the token on each of the {board.n_islands} islands")
    extra = [name for name in tokens if name not in board.islands]
    if extra:
        raise OptionError(f"tokens: {brief(extra[0])} is not an island of {board.name}")
    return tokens
