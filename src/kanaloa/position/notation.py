"""The public move notation: ``Move``, its parser and its printer.

A ``Move`` is one atomic action written for people::

    ALOA-BAFI/ALOA          place a bridge on ALOA-BAFI paying an ALOA card (R4)
    ALOA-BAFI/ALOA+BAFI     swap the bridge on ALOA-BAFI paying two cards (R4)
    remove BAFI-ORO         remove a bridge after a relative majority (R7)
    discard KULU            discard one card face-down (R4)
    take RASI               take a face-up card (R5)
    draw                    draw the top card of the deck (R5)
    end                     end a final-round turn (R10)
    pass                    pass in the final round (R10)
    reveal DALI             set a card aside at setup (R3)

and the records that a viewer position (one that does not know the deck or
the other hands) needs to follow the game:

    take RASI refill KULU   a take whose gap the deck fills with KULU
    draw RASI               the viewer's own blind draw, RASI drawn
    draw                    another player's blind draw (card unseen)
    discard                 another player's face-down discard (card unseen)
    reveal                  another player's setup choice (card unseen)
    faceup ALOA ORO KULU ELOI   the cards turned face-up after a reshuffle (R9)
                                or at the end of the setup (R3)

Any move may start with the mover's color and a colon: ``green: take RASI``.
In a 2-player game (R15) every place and swap starts with the color it builds
with, one of the mover's two (``blue: ALOA-BAFI/ALOA``); the player's other
moves may start with its first color, the name of the player.

**Kahuna (R16).**  The parser and the printer take the rule set
(``kanaloa.rules.ruleset.Ruleset``) and ask it what the game has.  Kahuna's
colors are ``white`` and ``black``; its removal pays two cards, one per end
of the link, as a swap does in Kanaloa (R16.3), and skipping the draw is
``end`` (R16.5)::

    remove BARI-DUDA/BARI+DUDA   remove the opponent's bridge on BARI-DUDA (R16.3)
    end                          end the turn without drawing (R16.5), or a final turn (R16.7)

Kahuna has no swap, no pass, no setup (``reveal``), no ``remove LINK``
without cards, and a reshuffle turns up at most 3 cards (``faceup`` names 1
to 3); each is refused with its reason.

**Might of the Gods (R14).**  Where the rule set has god tokens the parser
also reads the god tokens' moves (in a game without the gods each is refused with its
reason)::

    ALOA-BAFI/KANALOA            place paying KANALOA, the joker (R14.5)
    ALOA-BAFI/KANALOA+BAFI       swap paying KANALOA and a card (or KANALOA+KANALOA)
    ku green                     use KU on green (R14.6) ...
    steal ALOA                   ... and take its ALOA
    pele                         use PELE (R14.7): a card taken at random from each other hand ...
    give green ORO               ... and one given back to each, in seat order after the user
    lono                         use LONO (R14.8): the next take or draw is an extra card

and a viewer's records of them (docs/records.md "Records in a viewer position"):

    ku green sees ALOA ORO RASI        the user's KU, with the hand it shows
    steal                              another player's steal the viewer does not see
    pele takes green:ALOA blue:KULU    the user's PELE, with the card taken from each player
    pele takes ALOA                    another player's PELE, with the card it took from the viewer
    give green                         another player's gift the viewer does not see

A KANALOA build's cards put KANALOA first (``KANALOA+BAFI``); a ``ku ...
sees`` record lists the hand in island order; ``pele takes`` lists the
players in the order written.

A parsed ``Move`` holds canonical names (islands upper-case, a link's ends in
the board file's order, a swap's cards as A+A, A+B or B+B), so ``str(move)``
is its canonical notation without needing the board again.  ``to_action`` and
``from_action`` convert to and from the integer codes of ``kanaloa.rules.actions``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import MoveError, brief, quote, shorten
from ..rules import actions
from ..rules.board import Board
from ..rules.ruleset import JOKER_NAME, Ruleset, default_palette

COLORS = default_palette()  # the colors of the default game (Kanaloa), in default seat order

# Kinds of move.  All but "faceup" map one-to-one onto action kinds; "faceup" is
# a record only.
PLACE, SWAP, REMOVE, DISCARD, TAKE, DRAW, END, PASS, REVEAL, FACEUP = (
    "place", "swap", "remove", "discard", "take", "draw", "end", "pass", "reveal", "faceup",
)
KU, STEAL, PELE, GIVE, LONO = "ku", "steal", "pele", "give", "lono"  # Might of the Gods (R14.6-R14.8)
GOD_KINDS = (KU, STEAL, PELE, GIVE, LONO)
KINDS = (PLACE, SWAP, REMOVE, DISCARD, TAKE, DRAW, END, PASS, REVEAL, FACEUP, *GOD_KINDS)
KANALOA = JOKER_NAME  # R14.5: the joker token, named where a build names a card
SEES, TAKES = "sees", "takes"  # the words of the viewer's records of KU and PELE

_ACTION_KIND = {
    PLACE: actions.PLACE, SWAP: actions.SWAP, REMOVE: actions.REMOVE, DISCARD: actions.DISCARD, TAKE: actions.TAKE,
    DRAW: actions.DRAW, END: actions.END, PASS: actions.PASS, REVEAL: actions.REVEAL,
    KU: actions.KU, STEAL: actions.STEAL, PELE: actions.PELE, GIVE: actions.GIVE, LONO: actions.LONO,
}
_KIND_OF_ACTION = {v: k for k, v in _ACTION_KIND.items()}
_KEYWORDS = (REMOVE, DISCARD, TAKE, DRAW, END, PASS, REVEAL, FACEUP)
_GOD_RULE = {KU: "R14.6", STEAL: "R14.6", PELE: "R14.7", GIVE: "R14.7", LONO: "R14.8"}
_KANALOA_COMBOS = {actions.SWAP_JA: 0, actions.SWAP_JB: 1}  # R14.5: the end of the link whose card pays beside KANALOA
_PREFIX = re.compile(r"^\s*([A-Za-z]+)\s*:(.*)$", re.S)


def keywords(rs: Ruleset) -> tuple[str, ...]:
    """The words that start a move other than a build, in the rule set's game."""
    return tuple(k for k in _KEYWORDS if rs.lacks(f"move:{k}") is None)


class QuotedMove(str):
    """The text of a move as typed, whose ``repr`` is cut short when it is long (``errors.quote``).

    Messages quote a move with ``{move!r}``; a 100 KB move so shows as its
    first characters and its length, not as 100 KB of error line.
    """

    def __repr__(self) -> str:
        return quote(str.__str__(self))


@dataclass(frozen=True)
class Move:
    """One move in notation; see the module docstring.

    ``kind`` is one of ``KINDS``.  ``link`` is a link's two island names in
    the board file's order (place, swap, remove), ``cards`` the card islands
    the move names (the card paid, the two swap cards or the two cards of a
    Kahuna removal, R16.3, the discarded, taken,
    drawn or revealed card, or the face-up record's cards), ``refill`` the
    card the deck turned up after a take (viewer positions), ``color`` the
    mover when the text named one.

    With the gods (R14): a build's cards may name ``KANALOA`` (first);
    ``target`` is the player a ``ku`` or a ``give`` names; ``cards`` the card
    of a ``steal`` or a ``give``, or of ``pele takes CARD`` (the card PELE
    took from the viewer); ``seen`` the hand of a ``ku ... sees`` record, in
    island order; ``takes`` the ``(player, card)`` pairs of a ``pele takes``
    record of the user.
    """

    kind: str
    link: tuple[str, str] | None = None
    cards: tuple[str, ...] = ()
    refill: str | None = None
    color: str | None = None
    target: str | None = None
    seen: tuple[str, ...] = ()
    takes: tuple[tuple[str, str], ...] = ()

    # -- reading ------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, rs: Ruleset) -> Move:
        """Read one move in notation in the game of rule set ``rs`` (on its board).

        Raises ``MoveError`` quoting ``text`` and saying what is wrong,
        including a form the game does not have (a swap, ``pass`` or
        ``reveal`` in Kahuna; a removal paying cards in Kanaloa; a god
        token's move without the gods), with the rule set's reason.
        """
        if not isinstance(text, str):
            raise MoveError(f"move {brief(text)}: a move is written as text, e.g. 'ALOA-BAFI/ALOA'")
        quoted = QuotedMove(text.strip())
        board = rs.board

        def fail(why: str) -> MoveError:
            return MoveError(f"move {quoted!r}: {why}")

        color = None
        body = text.strip()
        m = _PREFIX.match(quoted)
        if m:
            color = m.group(1).lower()
            names = rs.palette
            if color not in names:
                raise fail(f"unknown color {quote(m.group(1))} ({rs.title}'s colors are {', '.join(names)})")
            body = m.group(2).strip()
        if not body:
            raise fail("empty move")
        words = body.split()
        head = words[0].lower()
        words_here = keywords(rs)
        absent = rs.lacks(f"move:{head}") if head in _KEYWORDS else None
        if absent is not None:
            raise fail(absent)
        if head in GOD_KINDS:
            if rs.lacks("move:tokens") is not None:
                raise fail(f"'{head}' uses a god token of Might of the Gods ({_GOD_RULE[head]}); "
                           f"{rs.lacks('move:tokens')}")
            return cls._parse_god_move(head, words[1:], board, fail, color, rs.palette)
        if head in words_here:
            return cls._parse_keyword(head, words[1:], rs, fail, color)
        builds = "'LINK/CARD' or 'LINK/CARD+CARD'" if rs.has_swap else "'LINK/CARD'"
        if len(words) > 1:
            raise fail(f"expected a build {builds}, or one of " + ", ".join(repr(k) for k in words_here))
        if "/" not in body:
            if "-" in body:
                raise fail(f"a build names the card it pays after a '/': {builds}")
            raise fail(f"unknown move; expected {builds.replace(' or ', ', ')} or one of {', '.join(words_here)}")
        link_text, _, card_text = body.partition("/")
        link = _parse_link(link_text, board, fail)
        if not card_text:
            if not rs.has_swap:
                raise fail("no card after '/': a place pays one card")
            raise fail("no card after '/': a place pays one card, a swap two ('CARD+CARD')")
        if not rs.has_swap and "+" in card_text:
            raise fail(f"{rs.lacks('move:swap')}: remove the bridge with 'remove {link[0]}-{link[1]}/"
                       f"{card_text.upper()}', then place on the free link")
        cards = _parse_cards(card_text, link, board, fail, "swap", rs.joker is not None)
        if len(cards) == 1:
            return cls(PLACE, link, cards, color=color)
        return cls(SWAP, link, cards, color=color)

    @classmethod
    def _parse_god_move(cls, head, args, board, fail, color, palette) -> Move:
        """The moves of the god tokens and their viewer records (R14.6-R14.8); see the module docstring."""
        if head == LONO:
            if args:
                raise fail("'lono' takes nothing after it; LONO's extra card is the next move, 'take CARD' or "
                           "'draw' (R14.8)")
            return cls(LONO, color=color)
        if head == STEAL:
            if len(args) > 1:
                raise fail("'steal' names one card, the card taken from the hand KU showed: 'steal CARD' (R14.6)")
            return cls(STEAL, cards=tuple(_parse_island(a, board, fail) for a in args), color=color)
        if head == PELE:
            return cls._parse_pele(args, board, fail, color, palette)
        # KU and GIVE name a player first.
        shape = "'ku COLOR' (or the user's record 'ku COLOR sees CARD ...')" if head == KU else \
            "'give COLOR CARD' (or another player's gift, unseen: 'give COLOR')"
        if not args:
            raise fail(f"'{head}' names a player: {shape}")
        target = _parse_color(args[0], fail, head, palette)
        if head == GIVE:
            if len(args) > 2:
                raise fail(f"'give' names a player and one card: {shape}")
            return cls(GIVE, cards=tuple(_parse_island(a, board, fail) for a in args[1:]), color=color,
                       target=target)
        if len(args) == 1:
            return cls(KU, color=color, target=target)
        if args[1].lower() != SEES or len(args) == 2:
            raise fail(f"expected {shape}")
        seen = [_parse_island(a, board, fail) for a in args[2:]]
        return cls(KU, color=color, target=target, seen=tuple(sorted(seen, key=board.islands.index)))

    @classmethod
    def _parse_pele(cls, args, board, fail, color, palette) -> Move:
        """``pele``, the user's record ``pele takes COLOR:CARD ...`` or a victim's ``pele takes CARD`` (R14.7)."""
        if not args:
            return cls(PELE, color=color)
        shape = ("'pele', the user's record 'pele takes COLOR:CARD ...' or a victim's 'pele takes CARD' (R14.7)")
        if args[0].lower() != TAKES or len(args) == 1:
            raise fail(f"expected {shape}")
        if len(args) == 2 and ":" not in args[1]:
            return cls(PELE, cards=(_parse_island(args[1], board, fail),), color=color)
        takes = []
        for word in args[1:]:
            who, colon, card = word.partition(":")
            if not colon or not who or not card:
                raise fail(f"{quote(word)}: the user's record names each player and the card taken from it, "
                           f"'COLOR:CARD' (R14.7)")
            takes.append((_parse_color(who, fail, PELE, palette), _parse_island(card, board, fail)))
        named = [who for who, _ in takes]
        twice = next((who for i, who in enumerate(named) if who in named[:i]), None)
        if twice is not None:
            raise fail(f"{twice} is named twice; PELE takes one card from each player (R14.7)")
        return cls(PELE, color=color, takes=tuple(takes))

    @classmethod
    def _parse_keyword(cls, head, args, rs: Ruleset, fail, color) -> Move:
        board = rs.board
        if head in (END, PASS):
            if args:
                raise fail(f"'{head}' takes nothing after it")
            return cls(head, color=color)
        if head == REMOVE:
            if len(args) != 1:
                if rs.removal_pays:
                    raise fail("'remove' names one link and the two cards it pays: 'remove A-B/CARD+CARD' (R16.3)")
                raise fail("'remove' names one link: 'remove A-B'")
            link_text, slash, card_text = args[0].partition("/")
            link = _parse_link(link_text, board, fail)
            if not rs.removal_pays:
                if slash:
                    raise fail(f"a removal after a relative majority (R7) pays no card: write 'remove {link[0]}-"
                               f"{link[1]}' ({rs.lacks('removal_pays')})")
                return cls(REMOVE, link, color=color)
            if not card_text:
                raise fail(f"a removal pays two cards, each naming an end of the link: 'remove {link[0]}-"
                           f"{link[1]}/CARD+CARD' (R16.3)")
            if "+" not in card_text:
                raise fail(f"a removal pays two cards, not one: 'remove {link[0]}-{link[1]}/CARD+CARD' (R16.3)")
            return cls(REMOVE, link, _parse_cards(card_text, link, board, fail, "removal"), color=color)
        if head in (DISCARD, DRAW, REVEAL):
            if len(args) > 1:
                raise fail(f"'{head}' names at most one card")
            cards = (_parse_island(args[0], board, fail),) if args else ()
            return cls(head, cards=cards, color=color)
        if head == TAKE:
            if not args:
                raise fail("'take' names the face-up card taken: 'take CARD'")
            card = _parse_island(args[0], board, fail)
            if len(args) == 1:
                return cls(TAKE, cards=(card,), color=color)
            if args[1].lower() != "refill" or len(args) != 3:
                raise fail("expected 'take CARD' or 'take CARD refill CARD'")
            return cls(TAKE, cards=(card,), refill=_parse_island(args[2], board, fail), color=color)
        # FACEUP
        most = rs.face_up_size
        if not 1 <= len(args) <= most:
            why = f" (a reshuffle turns up {most}, {rs.rule_of('reshuffle')})" if len(args) > most else ""
            raise fail(f"'faceup' names the 1 to {most} cards turned face-up, not {len(args)}{why}")
        return cls(FACEUP, cards=tuple(_parse_island(n, board, fail) for n in args), color=color)

    @classmethod
    def from_action(cls, action: int, rs: Ruleset, seat: int | None = None, color: str | None = None) -> Move:
        """The move of an integer action code (``kanaloa.rules.actions``) of the player in ``seat``, in the game
        of rule set ``rs``.

        ``color`` becomes the move's prefix.  Where each player plays two
        colors (R15) a place or a swap gets the color of ``seat`` it builds
        with as its prefix instead; a build with a second color's slot needs
        ``seat``.  Where a removal pays cards (R16.3) its code carries them,
        and the move names them.  A ``ku`` or a ``give`` names its player by
        the rule set's names of the seats (R14.6, R14.7).
        """
        board = rs.board
        builders = rs.color_names_of(seat) if seat is not None else None
        players = rs.seat_names
        kind, a, b = actions.kind_of(action), actions.arg_a(action), actions.arg_b(action)
        name = _KIND_OF_ACTION.get(kind)
        if name is None:
            raise MoveError(f"action {action}: unknown action kind {kind}")
        isl = board.islands
        if name in GOD_KINDS:
            return cls._from_god_action(action, name, board, color, players)
        if name in (PLACE, SWAP):
            slot, b = actions.build_slot(action), actions.build_arg(action)
            if builders is not None and len(builders) == 2:
                color = builders[slot]
            elif slot:
                raise MoveError(f"action {action}: builds with a player's second color (R15); name the mover's "
                                f"colors to write it")
        if name in (PLACE, SWAP, REMOVE):
            if a >= board.n_links:
                raise MoveError(f"action {action}: no link {a} on board {board.name}")
            ends = board.links[a]
            link = (isl[ends[0]], isl[ends[1]])
            if name == REMOVE:
                if not rs.removal_pays:
                    return cls(REMOVE, link, color=color)
                if b not in (actions.SWAP_AA, actions.SWAP_AB, actions.SWAP_BB):
                    raise MoveError(f"action {action}: unknown removal combination {b}")
                return cls(REMOVE, link, tuple(isl[x] for x in actions.swap_cards(ends, b)), color=color)
            if name == PLACE:
                if b == actions.JOKER:  # R14.5
                    return cls(PLACE, link, (KANALOA,), color=color)
                if b not in ends:
                    raise MoveError(f"action {action}: island {b} is not an end of {board.link_name(a)}")
                return cls(PLACE, link, (isl[b],), color=color)
            if b == actions.SWAP_JJ:  # R14.5
                return cls(SWAP, link, (KANALOA, KANALOA), color=color)
            if b in _KANALOA_COMBOS:
                return cls(SWAP, link, (KANALOA, isl[ends[_KANALOA_COMBOS[b]]]), color=color)
            if b not in (actions.SWAP_AA, actions.SWAP_AB, actions.SWAP_BB):
                raise MoveError(f"action {action}: unknown swap combination {b}")
            return cls(SWAP, link, tuple(isl[x] for x in actions.swap_cards(ends, b)), color=color)
        if name in (DISCARD, TAKE, REVEAL):
            if a >= board.n_islands:
                raise MoveError(f"action {action}: no island {a} on board {board.name}")
            return cls(name, cards=(isl[a],), color=color)
        return cls(name, color=color)

    @classmethod
    def _from_god_action(cls, action: int, name: str, board: Board, color: str | None,
                         players: Sequence[str]) -> Move:
        """The move of a god token's action code (R14.6-R14.8)."""
        a, b = actions.arg_a(action), actions.arg_b(action)
        if name in (STEAL, GIVE) and a >= board.n_islands:
            raise MoveError(f"action {action}: no island {a} on board {board.name}")
        seat = a if name == KU else b
        if name in (KU, GIVE) and seat >= len(players):
            raise MoveError(f"action {action}: no player {seat} (the players are {', '.join(players)})")
        if name == KU:
            return cls(KU, color=color, target=players[a])
        if name == STEAL:
            return cls(STEAL, cards=(board.islands[a],), color=color)
        if name == GIVE:
            return cls(GIVE, cards=(board.islands[a],), color=color, target=players[b])
        return cls(name, color=color)

    # -- writing ------------------------------------------------------------

    def __str__(self) -> str:
        text = self._body()
        return f"{self.color}: {text}" if self.color else text

    def _body(self) -> str:
        k = self.kind
        if k in (PLACE, SWAP, REMOVE):
            link = self._link()
            paid = f"{link[0]}-{link[1]}/{'+'.join(self.cards)}" if self.cards else f"{link[0]}-{link[1]}"
            return f"remove {paid}" if k == REMOVE else paid
        if k == TAKE and self.refill is not None:
            return f"take {self.cards[0]} refill {self.refill}"
        if k == KU:
            return " ".join((KU, str(self.target), *((SEES, *self.seen) if self.seen else ())))
        if k == GIVE:
            return " ".join((GIVE, str(self.target), *self.cards))
        if k == PELE and (self.takes or self.cards):
            return " ".join((PELE, TAKES, *(f"{who}:{card}" for who, card in self.takes), *self.cards))
        return " ".join((k, *self.cards))

    def notation(self, rs: Ruleset) -> str:
        """The canonical notation in the game of ``rs`` (the move is read back through it)."""
        return str(Move.parse(str(self), rs))

    def without_color(self) -> Move:
        """The same move with no color prefix."""
        return replace(self, color=None)

    @property
    def paid(self) -> tuple[str, ...]:
        """The cards a build pays from the hand: its cards less KANALOA, which is no card (R14.5)."""
        return tuple(c for c in self.cards if c != KANALOA)

    @property
    def is_god_move(self) -> bool:
        """True for the moves of Might of the Gods: a token's use or what it leaves pending, or a build paid
        with KANALOA (R14.5-R14.8)."""
        return self.kind in GOD_KINDS or KANALOA in self.cards

    def _fail(self, why: str) -> MoveError:
        """The error of this move, quoted cut short, and ``why``."""
        return MoveError(f"move {QuotedMove(str(self))!r}: {why}")

    def _link(self) -> tuple[str, str]:
        if self.link is None:
            raise MoveError(f"move {brief(self.kind)}: a {shorten(str(self.kind))} names a link")
        return self.link

    @property
    def is_record(self) -> bool:
        """True for a face-up record, which is no action of the rules."""
        return self.kind == FACEUP

    def to_action(self, rs: Ruleset, seat: int) -> int:
        """The integer action code of this move by the player in ``seat``, in the game of ``rs``.

        A take's refill and a draw's card are records of what the deck
        turned up, not part of the action, and so are the hand a ``ku ...
        sees`` record shows and the cards a ``pele takes`` record names.
        Where each player plays two colors (R15) a place or a swap must name
        one of the seat's colors as its color, which the code then carries.
        A ``ku`` or a ``give`` names a player among the rule set's seats.
        Raises ``MoveError`` for a face-up record, for a discard, reveal,
        steal or gift that names no card, for a player who is not playing,
        and for a 2-player build without one of the mover's colors.
        """
        board = rs.board
        builders = rs.color_names_of(seat)
        players = rs.seat_names
        kind = _ACTION_KIND.get(self.kind)
        if kind is None:
            raise self._fail("a record of face-up cards is not an action")
        if self.kind in GOD_KINDS:
            return self._god_action(kind, board, players)
        if kind in (actions.PLACE, actions.SWAP, actions.REMOVE):
            names = self._link()
            a, b = (board.find_island(n) for n in names)
            link = None if a is None or b is None else board.find_link(a, b)
            if link is None:
                raise self._fail(f"no link {shorten(f'{names[0]}-{names[1]}')} on board {board.name}")
            ends = board.links[link]
            if kind == actions.REMOVE and not self.cards:
                return actions.encode(actions.REMOVE, link)
            slot = 0
            if len(builders) == 2:
                if self.color is None or self.color not in builders:
                    raise self._fail(f"a build of a 2-player game names its color, {builders[0]} or {builders[1]} "
                                     f"(R15.3)")
                slot = list(builders).index(self.color)
            if KANALOA in self.cards and kind != actions.REMOVE:
                return actions.with_slot(self._kanaloa_build(kind, board, link), slot)
            found = [board.find_island(n) for n in self.cards]
            cards = [c for c in found if c is not None]
            if not cards or len(cards) != len(found) or any(c not in ends for c in cards):
                raise self._fail("the cards paid must name the ends of the link")
            if kind == actions.PLACE:
                return actions.with_slot(actions.encode(actions.PLACE, link, cards[0]), slot)
            for combo in (actions.SWAP_AA, actions.SWAP_AB, actions.SWAP_BB):
                if sorted(actions.swap_cards(ends, combo)) == sorted(cards):
                    # R16.3: a Kahuna removal carries the cards it pays as a swap does, without a color slot.
                    return actions.encode(actions.REMOVE, link, combo) if kind == actions.REMOVE else actions.with_slot(
                        actions.encode(actions.SWAP, link, combo), slot)
            what = "removal" if kind == actions.REMOVE else "swap"
            raise self._fail(f"the {what} cards must name the ends of the link")
        if kind in (actions.DISCARD, actions.TAKE, actions.REVEAL):
            if not self.cards:
                raise self._fail("names no card, so it is no action")
            island = board.find_island(self.cards[0])
            if island is None:
                raise self._fail(f"unknown island {brief(self.cards[0])}")
            return actions.encode(kind, island)
        return actions.encode(kind)

    def _kanaloa_build(self, kind: int, board: Board, link: int) -> int:
        """The code of a build paid with KANALOA (R14.5), without the color slot."""
        ends = board.links[link]
        others = self.paid
        if kind == actions.PLACE:
            if self.cards != (KANALOA,):
                raise self._fail("a place pays one card, KANALOA or a card")
            return actions.encode(actions.PLACE, link, actions.JOKER)
        if len(self.cards) != 2:
            raise self._fail("a swap pays two cards, one or both of them KANALOA")
        if not others:
            return actions.encode(actions.SWAP, link, actions.SWAP_JJ)
        island = board.find_island(others[0])
        if island is None or island not in ends:
            raise self._fail("the card paid beside KANALOA must name an end of the link")
        return actions.encode(actions.SWAP, link, actions.SWAP_JA if island == ends[0] else actions.SWAP_JB)

    def _god_action(self, kind: int, board: Board, players: Sequence[str]) -> int:
        """The code of a god token's move (R14.6-R14.8)."""
        seat = 0
        if kind in (actions.KU, actions.GIVE):
            if self.target is None or self.target not in players:
                raise self._fail(f"{self.target} is not playing (the players are {', '.join(players)})")
            seat = list(players).index(self.target)
        if kind in (actions.STEAL, actions.GIVE):
            if not self.cards:
                raise self._fail("names no card, so it is no action")
            island = board.find_island(self.cards[0])
            if island is None:
                raise self._fail(f"unknown island {brief(self.cards[0])}")
            return actions.encode(kind, island, seat)
        return actions.encode(kind, seat) if kind == actions.KU else actions.encode(kind)



def _parse_cards(text: str, link: tuple[str, str], board: Board, fail, what: str,
                 gods: bool = False) -> tuple[str, ...]:
    """The one or two cards after a build's (or a Kahuna removal's) ``/``, each an end of ``link``; two cards
    in the link's order (A+A, A+B or B+B).  With ``gods`` a build's card may be KANALOA, the joker (R14.5),
    written first."""
    names = text.split("+")
    if len(names) > 2 or any(not n for n in names):
        if len(names) > 2:
            raise fail(f"a {what} needs two cards, not {len(names)} ({quote(text)})")
        raise fail(f"a {what} needs two cards joined by '+', not {quote(text)}")
    jokers = sum(1 for n in names if n.strip().upper() == KANALOA and board.find_island(n) is None)
    if jokers and not gods:
        raise fail("KANALOA is a god token of Might of the Gods (R14.5), not an island; this game is played "
                   "without the gods")
    if jokers and what != "swap":
        raise fail(f"KANALOA pays a place or a swap, not a {what} (R14.5)")
    given = len(names)
    names = [n for n in names if not (n.strip().upper() == KANALOA and board.find_island(n) is None)]
    cards = [_parse_island(n, board, fail) for n in names]
    for card in cards:
        if card not in link:
            each = "a place card" if given == 1 else f"each {what} card"
            raise fail(f"{each} must name an end of the link ({link[0]} or {link[1]}), not {card}")
    order = {link[0]: 0, link[1]: 1}
    return (KANALOA,) * jokers + tuple(sorted(cards, key=order.__getitem__))


def _parse_island(name: str, board: Board, fail) -> str:
    index = board.find_island(name)
    if index is None:
        if name.upper() == KANALOA:
            raise fail("KANALOA is a god token, not a card: it pays a place or a swap only (R14.5)")
        raise fail(f"unknown island {quote(name.upper())} on board {board.name}")
    return board.islands[index]


def _parse_color(name: str, fail, kind: str, palette: tuple[str, ...]) -> str:
    """The color a ``ku``, a ``give`` or a ``pele takes`` record names (any color of the game; the position
    checks that it plays)."""
    color = name.lower()
    if color not in palette:
        raise fail(f"unknown color {quote(name)} after '{kind}' (the colors are {', '.join(palette)})")
    return color


def _parse_link(text: str, board: Board, fail) -> tuple[str, str]:
    parts = text.split("-")
    if len(parts) != 2 or not all(parts):
        raise fail(f"a link is two islands joined by '-', e.g. 'ALOA-BAFI', not {quote(text)}")
    a, b = (board.find_island(p) for p in parts)
    if a is None or b is None:
        raise fail(f"unknown island {quote(parts[0 if a is None else 1].upper())} on board {board.name}")
    link = board.find_link(a, b)
    if link is None:
        if a == b:
            raise fail(f"a link joins two different islands, not {board.islands[a]} to itself")
        raise fail(f"no link between {board.islands[a]} and {board.islands[b]}")
    ends = board.links[link]
    return (board.islands[ends[0]], board.islands[ends[1]])


def parse_move(text: str | Move, rs: Ruleset) -> Move:
    """``text`` read as a move in the game of ``rs``, or the ``Move`` itself, read again from its notation
    where the rule set changes what is read (a removal paying cards, R16.3; the gods' moves, R14)."""
    if isinstance(text, Move):
        again = rs.removal_pays or rs.joker is not None or text.is_god_move
        return Move.parse(str(text), rs) if again else text
    return Move.parse(text, rs)
