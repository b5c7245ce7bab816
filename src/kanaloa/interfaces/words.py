"""The Kanaloa family's ``words`` face: one move told in a sentence a player at the table understands.

``say(position, text)`` reads ``text`` as ``position.parse`` reads it (the
position is the one *before* the move) and writes one line of English::

    Red builds a bridge between Aloa and Bafi, paying Aloa.
    Green takes Rasi from the face-up cards and refills the row with Kulu.
    Blue draws a card from the deck.

Islands are the board's own names and colors the rule set's, each with a
capital first letter; a god token (R14) is named so too (``the Kanaloa
token``).  Where each player plays two colors (R15) a build says the color
it builds with (``Red builds a blue bridge ...``).

**What the move does.**  The move is also played on a copy of the position,
and what changed on the table is told after a semicolon: the islands a color
takes or loses control of (R2, R6, Kahuna R16.4), the bridges knocked out
(R6, R16.4), the god token claimed and what KANE scores (R14.2, R14.3), the
removal a relative majority leaves due (R7), the round that ends (R9, R10,
R16.6) and the game's end (R8, R12, R16.7, R16.8).  A move the copy cannot
play (a hint's ``take RASI`` in a viewer position, which does not know the
card the deck turns up) is told without them.

**What may be said.**  A sentence says no more than the one who reads it
knows:

* in a *viewer* position the move is the viewer's record of it (docs/records.md
  "Records in a viewer position"), which names exactly the cards the viewer saw: another
  player's ``draw`` or ``discard`` says *a card*; what changed on the table is
  read from the bridges, the tokens, the rounds and the result, which every
  player sees, never from the cards the position fills in for the unseen ones;
* in a *full* position every card is known, and the sentence names the
  discarded or revealed card, the card KU shows and steals, PELE's takes and
  gifts; with ``public=True`` it says only what every player at the table
  sees (a card seen by some players only is *a card*), for a list that every
  player reads, such as the Play mode's history.

The card a draw brings is never named from a full position: the notation of
the move does not name it, and the deck's top is no one's to see before it
is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import MoveError
from ..position import notation
from ..position.api import Position
from ..position.notation import Move

__all__ = ["say"]


def name(word: str) -> str:
    """An island, color or token as a sentence writes it: ``ALOA`` -> ``Aloa``."""
    return word[:1].upper() + word[1:].lower()


def listed(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def paid(cards: Sequence[str]) -> str:
    """The cards a build or a Kahuna removal pays: ``Aloa``, ``Aloa and Bafi``, ``two Aloa``, ``the Kanaloa
    token`` (R14.5)."""
    words = [f"the {name(c)} token" if c == notation.KANALOA else name(c) for c in cards]
    if len(words) == 2 and words[0] == words[1]:
        return f"two {words[0].removeprefix('the ')}s" if cards[0] == notation.KANALOA else f"two {words[0]}"
    return listed(words)


def between(link: tuple[str, str] | None) -> str:
    assert link is not None
    return f"between {name(link[0])} and {name(link[1])}"


def say(position: Position, text: Move | str, public: bool = False) -> str:
    """``text``, a move of the player to move in ``position`` (or its record), in one sentence (module
    docstring); ``public`` keeps to what every player sees in a full position.

    Raises ``MoveError`` for a move that is not written in the game's notation, for a move that names another
    player than the one to move, and for any move once the game is over.
    """
    mv = position.parse(text)
    if position.is_over:
        raise MoveError(f"move {notation.QuotedMove(str(mv))!r}: the game is over; nobody moves")
    before = position.to_json()
    after_pos: Position | None = _played(position, mv)
    teller = _Teller(position, mv, before, public)
    if teller.player and teller.player != position.to_move:
        raise MoveError(f"move {notation.QuotedMove(str(mv))!r}: it is {position.to_move}'s turn, not "
                        f"{teller.player}'s")
    main = teller.main()
    effects = [] if after_pos is None else teller.effects(after_pos, after_pos.to_json())
    if not effects:
        return f"{main}."
    return f"{main}; {listed(effects)}."


class _Teller:
    """The words of one move: its main clause, then what it changed (``effects``)."""

    def __init__(self, position: Position, mv: Move, before: dict[str, Any], public: bool) -> None:
        self.position = position
        self.rs = position.ruleset
        self.mv = mv
        self.before = before
        self.viewer = position.viewer
        self.open_hands = self.viewer is None and not public  # a full position told to its holder
        self.player = self._player()

    def _player(self) -> str:
        """The player who moves: the one the move's color names, else the player to move; for a face-up record,
        nobody (an empty name)."""
        if self.mv.kind == notation.FACEUP:
            return ""
        color = self.mv.color
        rs = self.rs
        if color is not None and color in rs.colors:
            return rs.seat_names[rs.seat_of(rs.colors.index(color))]
        return str(self.position.to_move)

    @property
    def who(self) -> str:
        return name(self.player)

    def _shown(self, cards: Sequence[str]) -> bool:
        """Whether the cards a move names may be told: a viewer's record names only what the viewer saw; a full
        position names them to its holder, not to everyone (``public``)."""
        return bool(cards) and (self.viewer is not None or self.open_hands)

    # -- the main clause ------------------------------------------------------------------------

    def main(self) -> str:
        mv, who = self.mv, self.who
        kind = mv.kind
        if kind == notation.PLACE:
            return f"{who} builds a{self._build_color()} bridge {between(mv.link)}, paying {paid(mv.cards)}"
        if kind == notation.SWAP:
            owner = self._owner(mv.link)
            one = f"a{self._build_color()} one" if self.rs.pairs else "its own"
            return f"{who} swaps the {owner}bridge {between(mv.link)} for {one}, paying {paid(mv.cards)}"
        if kind == notation.REMOVE:
            owner = self._owner(mv.link)
            if mv.cards:  # Kahuna's removal pays two cards (R16.3)
                return f"{who} removes the {owner}bridge {between(mv.link)}, paying {paid(mv.cards)}"
            pending = self.before.get("turn", {}).get("remove_on", [])
            why = f", as {name(pending[0])} is full" if pending else ""  # R7
            return f"{who} removes the {owner}bridge {between(mv.link)}{why}"
        if kind == notation.DISCARD:
            card = name(mv.cards[0]) if self._shown(mv.cards) else "a card"
            return f"{who} discards {card} face-down"
        if kind == notation.TAKE:
            return self._take()
        if kind == notation.DRAW:
            card = name(mv.cards[0]) if mv.cards and self.viewer is not None else "a card"
            return f"{who} draws {card} from the deck{self._extra()}"
        if kind == notation.END:
            if self.before.get("round") == "final":
                return f"{who} ends the final turn"
            if self.rs.may_skip_draw:
                return f"{who} ends the turn without drawing a card"
            return f"{who} ends the turn: no card is left to take"
        if kind == notation.PASS:
            return f"{who} passes and will take the final turn later"
        if kind == notation.REVEAL:
            card = name(mv.cards[0]) if self._shown(mv.cards) else "a card"
            return f"{who} chooses {card} to reveal"
        if kind == notation.FACEUP:
            verb = "is" if len(mv.cards) == 1 else "are"
            return f"{listed([name(c) for c in mv.cards])} {verb} turned face-up"
        return self._god_move()

    def _build_color(self) -> str:
        """`` blue`` where each player plays two colors (R15.3), the build's color; else nothing."""
        if not self.rs.pairs or self.mv.color is None:
            return ""
        return f" {self.mv.color}"

    def _owner(self, link: tuple[str, str] | None) -> str:
        """The color of the bridge on ``link`` before the move, and a space (``green ``); nothing when there is
        none."""
        assert link is not None
        owner = self.before.get("bridges", {}).get(f"{link[0]}-{link[1]}")
        return f"{owner} " if owner else ""

    def _extra(self) -> str:
        """`` as Lono's extra card`` when LONO's extra card is due (R14.8)."""
        return " as Lono's extra card" if self.before.get("turn", {}).get("lono_draw") else ""

    def _take(self) -> str:
        mv = self.mv
        said = f"{self.who} takes {name(mv.cards[0])} from the face-up cards{self._extra()}"
        refill = mv.refill
        if refill is None and self.viewer is None:
            refill = self._refill()
        return f"{said} and refills the row with {name(refill)}" if refill else said

    def _refill(self) -> str | None:
        """In a full position, the card the deck turns up into the gap a take leaves (R5): the deck's top, which
        the take shows every player.  None when the deck is empty."""
        deck = self.before.get("deck")
        return deck[0] if isinstance(deck, list) and deck else None

    def _god_move(self) -> str:
        mv, who = self.mv, self.who
        kind = mv.kind
        if kind == notation.LONO:
            return f"{who} uses the Lono token to take an extra card"
        if kind == notation.KU:
            target = name(str(mv.target))
            seen = list(mv.seen) if self.viewer is not None else self._hand(str(mv.target))
            if seen and self._shown(seen):
                hand = listed([name(c) for c in seen])
                return f"{who} uses the Ku token on {target} and sees {target}'s hand: {hand}"
            return f"{who} uses the Ku token to look at {target}'s hand"
        if kind == notation.STEAL:
            victim = self.before.get("turn", {}).get("ku_target")
            where = f"{name(victim)}'s hand" if victim else "the hand Ku showed"
            card = name(mv.cards[0]) if self._shown(mv.cards) else "a card"
            return f"{who} takes {card} from {where}"
        if kind == notation.GIVE:
            card = name(mv.cards[0]) if self._shown(mv.cards) else "a card"
            return f"{who} gives {card} back to {name(str(mv.target))}"
        # PELE (R14.7)
        takes = self._pele_takes()
        if takes:
            told = [f"{name(card)} from {name(player)}" for player, card in takes]
            others = [p for p in self._holders() if p not in {player for player, _ in takes}]
            rest = " and a card from each other player who holds one" if others else ""
            return f"{who} uses the Pele token and takes {listed(told)}{rest}"
        return f"{who} uses the Pele token and takes a card at random from each other player who holds one"

    def _hand(self, player: str) -> list[str]:
        """The cards of ``player``'s hand in a full position told to its holder, in island order; [] otherwise."""
        if not self.open_hands:
            return []
        cards = self.before.get("hands", {}).get(player, {}).get("cards", [])
        order = self.rs.board.islands
        return sorted(cards, key=order.index)

    def _holders(self) -> list[str]:
        """The other players who hold a card before the move, in seat order after the mover."""
        hands = self.before.get("hands", {})
        players = list(self.rs.seat_names)
        start = players.index(self.player)
        out = []
        for step in range(1, len(players)):
            p = players[(start + step) % len(players)]
            hand = hands.get(p, {})
            if hand.get("count", len(hand.get("cards", []))):
                out.append(p)
        return out

    def _pele_takes(self) -> list[tuple[str, str]]:
        """PELE's takes as may be told: the user's record's, a victim's own loss, or (a full position told to its
        holder) what the copy's hands lost."""
        mv = self.mv
        if self.viewer is not None:
            if mv.takes:
                return list(mv.takes)
            return [(self.viewer, mv.cards[0])] if mv.cards else []
        if not self.open_hands:
            return []
        after = _played(self.position, mv)
        if after is None:
            return []
        now = after.to_json().get("hands", {})
        then = self.before.get("hands", {})
        out = []
        for player in self._holders():
            lost = _lost(then.get(player, {}).get("cards", []), now.get(player, {}).get("cards", []))
            if lost:
                out.append((player, lost[0]))
        return out

    # -- what the move changed ------------------------------------------------------------------

    def effects(self, after_pos: Position, after: dict[str, Any]) -> list[str]:
        """What the move changed that every player sees, as clauses (module docstring)."""
        before = self.before
        out: list[str] = []
        out += self._control(after_pos)
        out += self._knocked_out(after)
        out += self._tokens(before, after)
        pending = after.get("turn", {}).get("remove_on", [])
        if pending and pending != before.get("turn", {}).get("remove_on", []):
            out.append(f"{self.who} must now remove a bridge on {name(pending[0])}")
        out += self._rounds(before, after)
        return out

    def _control(self, after_pos: Position) -> list[str]:
        """Who takes and who loses control of which islands (R2), grouped by color in the colors' order."""
        gained: dict[str, list[str]] = {}
        lost: dict[str, list[str]] = {}
        for island in self.rs.board.islands:
            then, now = self.position.controller_of(island), after_pos.controller_of(island)
            if then == now:
                continue
            if now is not None:
                gained.setdefault(now, []).append(island)
            elif then is not None:
                lost.setdefault(then, []).append(island)
        out = [f"{name(c)} takes control of {listed([name(i) for i in gained[c]])}"
               for c in self.rs.colors if c in gained]
        out += [f"{name(c)} loses control of {listed([name(i) for i in lost[c]])}"
                for c in self.rs.colors if c in lost]
        return out

    def _knocked_out(self, after: dict[str, Any]) -> list[str]:
        """The bridges the move removed beside the link it names (a control's cascade, R6, R16.4), by color."""
        then: Mapping[str, str] = self.before.get("bridges", {})
        now: Mapping[str, str] = after.get("bridges", {})
        own = self.mv.link
        named = f"{own[0]}-{own[1]}" if own else None
        gone: dict[str, list[str]] = {}
        for link, color in then.items():
            if link != named and now.get(link) != color:
                gone.setdefault(color, []).append(link)
        groups = []
        for color in self.rs.colors:
            if color in gone:
                links = [name(a) + "-" + name(b) for a, b in (lk.split("-") for lk in gone[color])]
                groups.append(f"the {color} {'bridge' if len(links) == 1 else 'bridges'} on {listed(links)}")
        if not groups:
            return []
        many = len(groups) > 1 or sum(len(v) for v in gone.values()) > 1
        return [f"{listed(groups)} {'are' if many else 'is'} knocked out"]

    def _tokens(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        """The god tokens the move's control claimed (R14.2), and what KANE scored (R14.3)."""
        then = before.get("gods", {}).get("on_islands", {})
        now = after.get("gods", {}).get("on_islands", {})
        scores_then, scores_now = before.get("scores", {}), after.get("scores", {})
        out = []
        for island, token in then.items():
            if island in now:
                continue
            color = self._claimer(island, after)
            said = f"{name(color)} claims the {name(token)} token on {name(island)}" if color else \
                f"the {name(token)} token on {name(island)} is claimed"
            if color:  # KANE scores at once (R14.3); a build scores nothing else
                gain = scores_now.get(color, 0) - scores_then.get(color, 0)
                if gain > 0:
                    said += f" and scores {gain} point{'s' if gain != 1 else ''}"
            out.append(said)
        return out

    def _claimer(self, island: str, after: dict[str, Any]) -> str | None:
        """The color that claimed the token of ``island``: the one that controls it now (R14.2)."""
        board = self.rs.board
        index = board.find_island(island)
        if index is None:
            return None
        counts: dict[str, int] = {}
        for link, color in after.get("bridges", {}).items():
            ends = link.split("-")
            if island in ends:
                counts[color] = counts.get(color, 0) + 1
        size = board.size(index)
        return next((c for c, n in counts.items() if 2 * n > size), None)

    def _rounds(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        """The round the move ended (R3, R9, R10, R16.6), and the game's end (R8, R12, R16.7)."""
        then, now = before.get("round"), after.get("round")
        if now == "over":
            result = after.get("result") or {}
            winner, reason = result.get("winner"), str(result.get("reason", "points"))
            if winner is None:
                return ["the game ends without a winner"]
            return [f"the game ends and {name(winner)} wins {self.rs.reason_text(reason)}"]
        if then == now:
            return []
        if then == 0:
            return ["the setup is over"]
        if now == "final":
            return ["the cards have run out and the final round begins"]
        return ["the cards have run out: the islands are scored and the cards shuffled into a new deck"]


def _played(position: Position, mv: Move) -> Position | None:
    """A copy of ``position`` after ``mv``, or None when the copy cannot play it."""
    after = position.copy()
    try:
        after.play(mv)
    except MoveError:
        return None
    return after


def _lost(then: Sequence[str], now: Sequence[str]) -> list[str]:
    """The cards of ``then`` missing from ``now`` (multisets)."""
    left = list(now)
    out = []
    for card in then:
        if card in left:
            left.remove(card)
        else:
            out.append(card)
    return out
