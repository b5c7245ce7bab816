"""The ``kanaloa-position/1`` format: reading a document into a game state, and writing one.

docs/positions.md is the format's one description: every field of every game (Kanaloa, two players,
Kahuna, Might of the Gods), the defaults, the canonical output, and the three steps of reading (shape,
reachable, cards) with what each checks.  This module follows it; the first check that fails is the
``PositionError``, which names the field and says why.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import BoardError, PositionError, brief
from ..rules import jsontext
from ..rules.board import Board, load_board
from ..rules.reference import ReferenceState, knows_of_deck, why_unreachable
from ..rules.registry import document_game, game_type
from ..rules.ruleset import (
    SEED_LIMIT,
    ParameterError,
    Ruleset,
    make_ruleset,
)
from ..rules.state import (
    GOD_NAMES,
    KANE,
    NO_CARD,
    NO_COLOR,
    NO_GOD,
    NO_OWNER,
    REASON_NAMES,
    ROUND_FINAL,
    ROUND_NAMES,
    ROUND_OVER,
    ROUND_SETUP,
    StateData,
)
from .viewer import UNSEEN_CHOICE, WAIT_RESHUFFLE, WAIT_SETUP, WaitKind, card_names, fill_in, seen_part

FORMAT = "kanaloa-position/1"
FIELDS = (
    "format", "game", "board", "rules", "players", "colors", "viewer", "to_move", "round", "bridges", "gods",
    "hands", "face_up", "deck", "discard", "reshuffle", "scores", "turn", "final_round", "setup", "result", "seed",
)
_ROUND_OF_NAME = {name: code for code, name in ROUND_NAMES.items()}
_REASON_OF_NAME = {name: code for code, name in REASON_NAMES.items()}
_NO_LIMIT = -1  # a count the reader does not bound (see Reader._count)
# Where the document holds each parameter of the rule set, for messages.
_FIELD_OF_PARAMETER = {"game": "game", "players": "players", "preset": "rules.preset", "gods": "rules.gods",
                       "board": "board"}


def _game_names() -> tuple[str, ...]:
    from ..rules.registry import game_names

    return game_names()


def _fail(field: str, why: str) -> PositionError:
    return PositionError(f"{field}: {why}")


def field_key(key: Any) -> str:
    """A key of the document as part of a field name: as written when short and plain, else quoted cut short."""
    text = str(key)
    if text and len(text) <= 40 and text.isprintable() and text.strip() == text:
        return text
    return brief(text)


def is_int(value: Any) -> bool:
    """True for a JSON whole number (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


# -- JSON text ----------------------------------------------------------------------------


def parse_json(text: str | bytes | bytearray) -> Any:
    """Parse position text; anything that is not a JSON document is a ``PositionError``."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")  # JSON text is UTF-8 (RFC 8259); a BOM is tolerated
        except UnicodeDecodeError as exc:
            raise _fail("position", f"not UTF-8 text (byte {exc.start} cannot be decoded)") from None
    try:
        return jsontext.loads(text)
    except jsontext.DuplicateKey as exc:
        raise _fail("position", f"the key {brief(exc.args[0])} appears twice in one object; a position says "
                                f"each thing once") from None
    except json.JSONDecodeError as exc:
        raise _fail("position", f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise _fail("position", "not a position: the JSON is nested far too deeply") from None


def dumps(doc: dict[str, Any]) -> str:
    """A document as indented, stable JSON text (short lists and objects on one line)."""
    return _format(doc, 0) + "\n"


def _format(value: Any, level: int) -> str:
    """Indented JSON; a list or object that fits on its line stays on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if level > 0 and len(flat) + 2 * level <= 96:
        return flat
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {_format(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        items = [f"{inner}{_format(v, level + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return flat


def json_type(value: Any) -> str:
    """The JSON name of the type of ``value`` (what a user wrote), for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float, jsontext.HugeNumber)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


# -- writing ------------------------------------------------------------------------------------


def render(rs: Ruleset, d: StateData, viewer: int | None) -> dict[str, Any]:
    """``d``, a state of rule set ``rs``, as a ``kanaloa-position/1`` document, showing what ``viewer`` (or
    everyone) knows."""
    board = rs.board
    colors = rs.colors
    isl = board.islands
    full = viewer is None
    over = d.round == ROUND_OVER
    players = rs.seat_names
    doc: dict[str, Any] = {"format": FORMAT}
    if rs.document_game is not None:  # written only for a game other than Kanaloa: a Kanaloa position reads as before
        doc["game"] = rs.document_game
    doc["board"] = board.source
    rules = rs.rules_document()
    if rules is not None:  # R16.9: Kahuna has no rule options
        doc["rules"] = rules
    doc["players"] = list(players)
    if rs.pairs:
        doc["colors"] = {colors[s]: list(rs.color_names_of(s)) for s in range(d.players)}
    doc.update({
        "viewer": None if viewer is None else colors[viewer],
        "to_move": None if over else colors[d.to_move],
        "round": ROUND_NAMES[d.round],
        "bridges": {board.link_name(k): colors[o] for k, o in enumerate(d.bridges) if o != NO_OWNER},
    })
    if d.gods:
        doc["gods"] = {
            "on_islands": {isl[i]: GOD_NAMES[t] for i, t in enumerate(d.god_on) if t != NO_GOD},
            "owned": {c: [GOD_NAMES[k] for k, n in enumerate(d.gods_owned[s]) for _ in range(n)]
                      for s, c in enumerate(players)},
        }
    hands: dict[str, dict[str, Any]] = {}
    for s, c in enumerate(players):
        if full or s == viewer:
            hands[c] = {"cards": card_names(board, d.hands[s]), "public": card_names(board, d.public[s])}
        else:
            hands[c] = {"count": d.hand_size(s), "public": card_names(board, d.public[s])}
        if d.gods:  # R14.10: what an observer knows beyond the public part (every observer's, or the viewer's)
            known = {colors[o]: card_names(board, d.known[o][s]) for o in range(d.players)
                     if o != s and (full or o == viewer) and d.known[o][s] != d.public[s]}
            if known:
                hands[c]["known"] = known
    doc["hands"] = hands
    doc["face_up"] = [isl[x] for x in d.face_up]
    doc["deck"] = [isl[x] for x in d.deck] if full else {"count": len(d.deck)}
    seen = range(d.players) if viewer is None else (viewer,)
    doc["discard"] = {
        "open": [isl[x] for x in d.discard_open],
        "hidden": d.hidden_count(),
        "hidden_by": {colors[s]: card_names(board, d.hidden_by[s]) for s in seen},
    }
    if d.pile and not over:  # what a reshuffle revealed of the deck, while it lasts: every player's, or the viewer's
        went_in = {colors[s]: {"cards": card_names(board, d.pile[s]), "unseen": d.pile_unseen[s]} for s in seen
                   if knows_of_deck(d.pile[s], d.pile_unseen[s])}
        if went_in:
            doc["reshuffle"] = went_in
    doc["scores"] = {colors[c]: d.scores[c] for c in rs.color_order}
    if not over and rs.may_skip_draw:
        doc["turn"] = {"played": d.played, "discarded": d.discarded, "skipped_draw": d.skipped}
    elif not over:
        doc["turn"] = {"played": d.played, "discarded": d.discarded, "remove_on": [isl[x] for x in d.remove_on]}
        if d.turn_color != NO_COLOR:
            doc["turn"]["color"] = colors[d.turn_color]
        if d.gods:  # R14.6-R14.9: only what a token use left pending, when it did
            pending = {"ku_target": colors[d.ku_target] if d.ku_target >= 0 else None,
                       "pele_gifts": [colors[v] for v in d.pele_gifts], "lono_draw": d.lono_draw,
                       "over_limit": d.over_limit}
            doc["turn"].update({k: v for k, v in pending.items() if v})
    if d.round == ROUND_FINAL:
        doc["final_round"] = {"done": [colors[s] for s in d.final_done]}
        if rs.has_pass:  # R16.7: nobody passes in Kahuna
            doc["final_round"]["passed"] = [colors[s] for s in d.final_passed]
    elif d.round == ROUND_SETUP:
        chosen = [s for s in range(d.players) if d.setup_chosen[s] != NO_CARD]
        doc["setup"] = {
            "chosen": [colors[s] for s in chosen],
            "cards": {colors[s]: isl[d.setup_chosen[s]] for s in chosen if full or s == viewer},
        }
    elif over:
        # R16.7: a Kahuna game may end without a winner (null).
        doc["result"] = {"ranking": [colors[s] for s in d.ranking],
                         "winner": colors[d.winner] if d.winner >= 0 else None, "reason": REASON_NAMES[d.reason]}
    if full:
        doc["seed"] = d.rng
    return doc


# -- reading ------------------------------------------------------------------------------------


Read = tuple[Ruleset, "int | None", StateData, "WaitKind | None"]


def read(doc: Any, boards: Callable[[str], Board] = load_board) -> Read:
    """Check a parsed ``kanaloa-position/1`` document and build its state: its rule set, the viewer's seat
    (None for a full position), the complete (for a viewer: filled-in) state, and the kind of wait, if any.

    ``boards`` turns the ``board`` field into a ``Board`` (by default a
    built-in name or a file path, ``load_board``); it raises ``BoardError``
    for a board it cannot give.  Raises ``PositionError`` naming the first
    bad field and saying why.
    """
    return _Reader(boards).read(doc)


class _Reader:
    """Reads one document; the methods fill ``self.d`` field by field (module docstring, step 1)."""

    board: Board
    colors: tuple[str, ...]  # by color index
    players: tuple[str, ...]  # by seat: each player's first color
    viewer: int | None
    sizes: list[int]

    def __init__(self, boards: Callable[[str], Board]) -> None:
        self.boards = boards

    def read(self, doc: Any) -> Read:
        if not isinstance(doc, dict):
            raise _fail("position", f"must be a JSON object, not {json_type(doc)}")
        for key in doc:
            if key not in FIELDS:
                raise _fail(field_key(key), f"unknown field (the fields are {', '.join(FIELDS)})")
        if "format" not in doc:
            raise _fail("format", f"missing; a position starts with \"format\": \"{FORMAT}\"")
        if doc["format"] != FORMAT:
            raise _fail("format", f"{brief(doc['format'])} is not {brief(FORMAT)}")
        for key in ("board", "players", "to_move", "round", "hands", "face_up", "deck"):
            if key not in doc:
                raise _fail(key, "missing")
        self.rs = rs = self._ruleset(doc)
        self.board = board = rs.board
        self.players = rs.seat_names
        self.colors = colors = rs.colors
        self.gods = rs.gods
        self.pairs = rs.pairs
        viewer = doc.get("viewer")
        if viewer is not None:
            viewer = self._seat("viewer", viewer)
        self.viewer = viewer
        rnd = self._round(doc["round"])
        d = rs.empty_state()
        d.round = rnd
        d.to_move = self._to_move(doc["to_move"], rnd)
        self._bridges(d, doc.get("bridges", {}))
        self._gods(d, doc)
        self.sizes = self._hands(d, doc["hands"])
        d.face_up = self._cards("face_up", doc["face_up"])
        deck_count = self._deck(d, doc["deck"])
        hidden = self._discard(d, doc.get("discard", {}))
        self._reshuffle(d, doc, deck_count)
        self._scores(d, doc.get("scores", {}))
        self._turn(d, doc)
        if d.lono_draw and not d.face_up and deck_count == 0:
            raise _fail("turn.lono_draw", "LONO's extra card is due, but the deck and the face-up cards are empty; "
                                          "LONO is used only when there is a card to take (R14.8)")
        wait = self._round_fields(d, doc, deck_count)
        self._seed(d, doc)
        miscount = self._card_totals(d, deck_count, hidden)
        if viewer is not None:
            if miscount is not None:  # the unseen cards are dealt from what the others leave
                raise miscount
            fill_in(board, viewer, d, self.sizes, deck_count, hidden)
        found = why_unreachable(ReferenceState(board, d), colors, face_up_pending=wait is not None)
        if found is not None:
            raise _fail(*found)
        if miscount is not None:
            raise miscount
        return rs, viewer, d, wait

    # the rule set: game, board, rules, players, colors

    def _ruleset(self, doc: dict[str, Any]) -> Ruleset:
        """The rule set the document plays: its ``game``, ``board``, ``rules``, ``players`` and ``colors``
        fields read for their shape here, and checked together by the rule set (``make_ruleset``)."""
        try:
            game = game_type(doc["game"]) if "game" in doc else document_game(None)
        except ParameterError:
            names = ", ".join(repr(g) for g in _game_names())
            raise _fail("game", f"{brief(doc['game'])} is not one of {names}") from None
        board_name = doc["board"]
        if not isinstance(board_name, str) or not board_name:
            raise _fail("board", f"must be a built-in board name or a file path, not {brief(board_name)}")
        try:
            board = self.boards(board_name)
        except BoardError as exc:
            raise PositionError(str(exc)) from None
        has_options = any(p.name in ("preset", "gods") for p in game.parameters)
        options = self._rules(doc.get("rules", {}), None if has_options else make_ruleset(game.name, board=board))
        players = doc["players"]
        if not isinstance(players, list) or not all(isinstance(c, str) for c in players):
            raise _fail("players", "must be a list of colors in seat order")
        if len(set(players)) != len(players):
            raise _fail("players", f"{brief(players)} names a color twice")
        try:
            shaped = make_ruleset(game.name, players=len(players), board=board, **options)
        except ParameterError as exc:
            count = f"{len(players)} color{'' if len(players) == 1 else 's'}; " if exc.parameter == "players" else ""
            raise _fail(_FIELD_OF_PARAMETER.get(exc.parameter, exc.parameter), count + exc.why) from None
        for c in players:
            why = shaped.why_not_color(c, document=True)
            if why is not None:
                raise _fail("players", why)
        per_seat: list[list[str]] = [[c] for c in players]
        if "colors" in doc or shaped.pairs:
            per_seat = self._pairs(doc, shaped, players)
        try:
            return make_ruleset(game.name, players=len(players), board=board, colors=per_seat, **options)
        except ParameterError as exc:
            raise _fail("colors" if shaped.pairs else "players", exc.why) from None

    def _rules(self, rules: Any, probe: Ruleset | None) -> dict[str, Any]:
        """``rules``: the preset (R13) and the gods (R14); a game without rule options refuses each key
        with its reason (``probe`` is that game's rule set, None for Kanaloa)."""
        if probe is not None:
            if not isinstance(rules, dict):
                raise _fail("rules", f"must be an object (empty: {probe.title} has no rule options), not "
                                     f"{brief(rules)}")
            for key in rules:
                why = probe.lacks(f"rules.{key}")
                if why is not None:
                    raise _fail(f"rules.{key}", why)
                raise _fail(f"rules.{field_key(key)}", f"unknown field ({probe.title} has no rule options)")
            return {}
        if not isinstance(rules, dict):
            raise _fail("rules", f"must be an object like {{\"preset\": \"yucata\"}}, not {brief(rules)}")
        for key in rules:
            if key not in ("preset", "gods"):
                raise _fail(f"rules.{field_key(key)}", "unknown field (rules has preset, gods)")
        gods = rules.get("gods", False)
        if not isinstance(gods, bool):
            raise _fail("rules.gods", f"{brief(gods)} must be true (Might of the Gods, R14) or false")
        preset = rules.get("preset", "yucata")
        if not isinstance(preset, str) or preset not in ("yucata", "tabletop"):
            raise _fail("rules.preset", f"{brief(preset)} is not one of yucata, tabletop (R13)")
        return {"preset": preset, "gods": gods}

    def _pairs(self, doc: dict[str, Any], shaped: Ruleset, players: list[str]) -> list[list[str]]:
        """``colors``: each player's two colors, its first color first (R15.1)."""
        if not shaped.pairs:
            raise _fail("colors", str(shaped.lacks("colors")))
        if "colors" not in doc:
            raise _fail("colors", f"missing; a 2-player position gives both colors of each player (R15.1), e.g. "
                                  f"{{\"{players[0]}\": [\"{players[0]}\", \"COLOR\"], ...}}")
        value = doc["colors"]
        if not isinstance(value, dict):
            raise _fail("colors", f"must be an object mapping each player to its two colors, not {brief(value)}")
        for key in value:
            if key not in players:
                raise _fail(f"colors.{field_key(key)}", f"{brief(key)} is not a player (the players are "
                                                   f"{', '.join(players)}); a player is named by its first color")
        for c in players:
            field = f"colors.{c}"
            if c not in value:
                raise _fail("colors", f"missing the colors of {c}")
            pair = value[c]
            if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(x, str) for x in pair):
                raise _fail(field, f"must be the player's two colors, its first color first, e.g. [\"{c}\", "
                                   f"\"COLOR\"], not {brief(pair)}")
            if pair[0] != c:
                raise _fail(field, f"{brief(pair)} does not start with {c}: a player is named by its first color")
        return [list(value[c]) for c in players]

    def _round(self, value: Any) -> int:
        """The round, one of the rule set's (Kanaloa's 0 setup, 1, 2, final, over; Kahuna's 1, 2, 3, final,
        over, R16.6)."""
        rounds = self.rs.rounds
        names = ", ".join(json.dumps(ROUND_NAMES[r]) for r in rounds)
        # 1.0 or true would hash like 1: only the integers and the names are rounds.
        known = (isinstance(value, str) or is_int(value)) and value in _ROUND_OF_NAME
        if known and _ROUND_OF_NAME[value] in rounds:
            return _ROUND_OF_NAME[value]
        why = self.rs.lacks(f"round:{value}") if known else None
        if why is not None and value == 0:
            raise _fail("round", f"{why}; the rounds are {names}")
        if why is not None:
            raise _fail("round", f"{brief(value)} is not one of {names}; {why}")
        raise _fail("round", f"{brief(value)} is not one of {names}")

    def _to_move(self, value: Any, rnd: int) -> int:
        """The seat to move.  In a finished game ``to_move`` is null; the state then names the winner
        (``_result``), as no rule reads it any more."""
        if rnd == ROUND_OVER:
            if value is not None:
                raise _fail("to_move", f"{brief(value)}, but the game is over: a finished game has no color to "
                                       f"move (null)")
            return 0
        return self._seat("to_move", value)

    def _color(self, field: str, value: Any) -> int:
        """The index of the color named ``value``."""
        if not isinstance(value, str) or value not in self.colors:
            raise _fail(field, f"{brief(value)} is not playing (the colors are {', '.join(self.colors)})")
        return self.colors.index(value)

    def _seat(self, field: str, value: Any) -> int:
        """The seat of the player named ``value`` (by its first color, R15.1, with two players)."""
        if isinstance(value, str) and value in self.colors and value not in self.players:
            owner = self.players[self.rs.seat_of(self.colors.index(value))]
            raise _fail(field, f"{value} is {owner}'s second color; a player is named by its first color, "
                               f"{owner} (R15.1)")
        if not isinstance(value, str) or value not in self.players:
            what = "players" if self.pairs else "colors"
            raise _fail(field, f"{brief(value)} is not playing (the {what} are {', '.join(self.players)})")
        return self.players.index(value)

    def _by_player(self, field: str, entries: dict[Any, Any],
                   hidden: str | None = None) -> Iterator[tuple[str, Any, int, Any]]:
        """The entries of the object ``field`` keyed by player, each as (its own field, its key, the player's
        seat, its value).  ``hidden``, where given, words why a viewer's position cannot hold another player's
        entry (with ``{viewer}`` and ``{player}`` filled in); such an entry is refused."""
        for key, value in entries.items():
            where = f"{field}.{field_key(key)}"
            seat = self._seat(where, key)
            if hidden is not None and self.viewer is not None and seat != self.viewer:
                raise _fail(where, hidden.format(viewer=self.players[self.viewer], player=key))
            yield where, key, seat, value

    def _colors(self, field: str, value: Any) -> list[int]:
        """Seats named by a list of players (a color each, with 3 or 4 players)."""
        if not isinstance(value, list):
            raise _fail(field, f"must be a list of colors, not {brief(value)}")
        seats = [self._seat(field, c) for c in value]
        if len(set(seats)) != len(seats):
            raise _fail(field, f"{brief(value)} names a color twice")
        return seats

    def _cards(self, field: str, value: Any) -> list[int]:
        if not isinstance(value, list):
            raise _fail(field, f"must be a list of cards (island names), not {brief(value)}")
        out = []
        for item in value:
            i = self.board.find_island(item) if isinstance(item, str) else None
            if i is None:
                raise _fail(field, f"{brief(item)} is not an island of board {self.board.name}")
            out.append(i)
        return out

    def _multiset(self, field: str, value: Any) -> list[int]:
        counts = [0] * self.board.n_islands
        for i in self._cards(field, value):
            counts[i] += 1
        return counts

    def _count(self, field: str, value: Any, most: int | None = None) -> int:
        """A whole number from 0 to ``most``; ``most`` defaults to the board's cards, the most a count of
        cards can be (``_NO_LIMIT``: no bound here; the rules bound it, see ``why_unreachable``)."""
        if not is_int(value) or value < 0:
            raise _fail(field, f"{brief(value)} must be a whole number, 0 or more")
        b = self.board
        if most is None and value > b.n_cards:
            raise _fail(field, f"{brief(value)} is more than the {b.n_cards} cards of board {b.name}")
        return int(value)

    def _object(self, field: str, value: Any, keys: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _fail(field, f"must be an object, not {brief(value)}")
        for key in value:
            if key not in keys:
                raise _fail(f"{field}.{field_key(key)}", f"unknown field ({field} has {', '.join(keys)})")
        return value

    def _bridges(self, d: StateData, bridges: Any) -> None:
        b = self.board
        if not isinstance(bridges, dict):
            raise _fail("bridges", "must be an object mapping links ('ALOA-BAFI') to colors")
        for name, color in bridges.items():
            field = f"bridges.{field_key(name)}"
            parts = name.split("-")
            one, two = (b.find_island(p) for p in parts) if len(parts) == 2 else (None, None)
            if one is None or two is None:
                raise _fail(field, f"not a link of board {b.name} (write two islands joined by '-')")
            k = b.find_link(one, two)
            if k is None:
                raise _fail(field, f"no link between {b.islands[one]} and {b.islands[two]}")
            if d.bridges[k] != NO_OWNER:
                raise _fail(field, f"{b.link_name(k)} is given twice")
            d.bridges[k] = self._color(field, color)

    # Might of the Gods (R14)

    def _gods(self, d: StateData, doc: dict[str, Any]) -> None:
        """``gods``: the tokens still on the islands and those each player owns, unused (R14.1, R14.2)."""
        if not self.gods:
            if "gods" in doc:
                raise _fail("gods", "only a game of Might of the Gods has god tokens (R14): its rules say "
                                    "\"gods\": true")
            return
        seats = range(len(self.players))
        d.gods = True
        d.god_on = [NO_GOD] * self.board.n_islands
        d.gods_owned = [[0] * len(GOD_NAMES) for _ in seats]
        d.known = [[[0] * self.board.n_islands for _ in seats] for _ in seats]
        if "gods" not in doc:
            raise _fail("gods", "missing; a game of Might of the Gods gives its tokens, {\"on_islands\": {ISLAND: "
                                "TOKEN, ...}, \"owned\": {PLAYER: [TOKEN, ...], ...}} (R14.1, R14.2)")
        gods = self._object("gods", doc["gods"], ("on_islands", "owned"))
        on = gods.get("on_islands", {})
        if not isinstance(on, dict):
            raise _fail("gods.on_islands", f"must be an object mapping islands to the token on each, not {brief(on)}")
        for name, token in on.items():
            field = f"gods.on_islands.{field_key(name)}"
            i = self.board.find_island(name) if isinstance(name, str) else None
            if i is None:
                raise _fail(field, f"not an island of board {self.board.name}")
            if d.god_on[i] != NO_GOD:
                raise _fail(field, f"{self.board.islands[i]} is given twice")
            d.god_on[i] = self._token(field, token)
        for kind, total in enumerate(self.rs.token_counts):
            if d.god_on.count(kind) > total:
                raise _fail("gods.on_islands", f"{d.god_on.count(kind)} {GOD_NAMES[kind]} tokens; the game has "
                                               f"{total} (R14.1)")
        owned = gods.get("owned", {})
        if not isinstance(owned, dict):
            raise _fail("gods.owned", f"must be an object mapping players to the tokens each owns, not {brief(owned)}")
        for field, _, s, tokens in self._by_player("gods.owned", owned):
            if not isinstance(tokens, list):
                raise _fail(field, f"must be a list of tokens, not {brief(tokens)}")
            for token in tokens:
                kind = self._token(field, token)
                if kind == KANE:
                    raise _fail(field, "KANE is never owned: it scores when it is claimed and leaves the game (R14.3)")
                d.gods_owned[s][kind] += 1
            for kind, total in enumerate(self.rs.token_counts):
                if d.gods_owned[s][kind] > total:
                    raise _fail(field, f"{d.gods_owned[s][kind]} {GOD_NAMES[kind]} tokens; the game has {total} "
                                       f"(R14.1)")

    def _token(self, field: str, value: Any) -> int:
        """A god token named by ``value`` (any case)."""
        name = value.upper() if isinstance(value, str) else None
        if name not in GOD_NAMES:
            raise _fail(field, f"{brief(value)} is not a god token ({', '.join(GOD_NAMES)})")
        return GOD_NAMES.index(name)

    def _known(self, d: StateData, seat: int, hand: dict[str, Any], cards: list[int] | None, size: int) -> set[int]:
        """``hands.P.known``: what each observer knows of ``seat``'s hand beyond ``public`` (R14.10); the
        observers it names.  ``cards`` is the hand where the position knows it, ``size`` its size."""
        field = f"hands.{self.players[seat]}.known"
        if "known" not in hand:
            return set()
        if not self.gods:
            raise _fail(field, "only a game of Might of the Gods keeps what each player knows of a hand beyond "
                               "'public' (R14.10)")
        known = hand["known"]
        if not isinstance(known, dict):
            raise _fail(field, f"must be an object mapping observers to the cards each knows, not {brief(known)}")
        given = set()
        for where, c, o, value in self._by_player(field, known):
            if o == seat:
                raise _fail(where, f"{c} sees its own hand; 'known' holds what the others know of it (R14.10)")
            if self.viewer is not None and o != self.viewer:
                v = self.players[self.viewer]
                raise _fail(where, f"{v}'s position holds what {v} knows, not what {c} knows (R14.10)")
            counts = self._multiset(where, value)
            public = d.public[seat]
            if any(p > k for p, k in zip(public, counts, strict=True)):
                raise _fail(where, f"{card_names(self.board, counts)} lacks public cards of "
                                   f"{card_names(self.board, public)}; what every player knows, {c} knows too "
                                   f"(R14.10)")
            if cards is not None and any(k > h for k, h in zip(counts, cards, strict=True)):
                raise _fail(where, f"{card_names(self.board, counts)} is not part of the cards "
                                   f"{card_names(self.board, cards)} (R14.10)")
            if sum(counts) > size:
                raise _fail(where, f"{sum(counts)} known cards in a hand of {size} (R14.10)")
            d.known[o][seat] = counts
            given.add(o)
        return given

    def _hands(self, d: StateData, hands: Any) -> list[int]:
        """Fill the known hands and every public part; return every hand's card count."""
        if not isinstance(hands, dict):
            raise _fail("hands", "must be an object with one hand per color")
        for c in hands:
            if c in self.colors and c not in self.players:
                self._seat(f"hands.{field_key(c)}", c)  # a second color: hands are the players'
            if c not in self.players:
                raise _fail(f"hands.{field_key(c)}", f"{brief(c)} is not playing")
        sizes = []
        for s, c in enumerate(self.players):
            field = f"hands.{c}"
            if c not in hands:
                raise _fail("hands", f"missing the hand of {c}")
            hand = self._object(field, hands[c], ("cards", "count", "public", "known"))
            public = self._multiset(f"{field}.public", hand.get("public", []))
            known = self.viewer is None or self.viewer == s
            if known and "cards" not in hand:
                who = "a full position" if self.viewer is None else f"{self.players[self.viewer]}'s own view"
                raise _fail(f"{field}.cards", f"missing; {who} knows this hand's cards")
            if self.viewer is not None and not known and "cards" in hand:
                raise _fail(f"{field}.cards", f"{self.players[self.viewer]} cannot see {c}'s cards; give 'count' "
                                               f"and 'public'")
            if "cards" in hand:
                cards = self._multiset(f"{field}.cards", hand["cards"])
                size = sum(cards)
                if "count" in hand and self._count(f"{field}.count", hand["count"]) != size:
                    raise _fail(f"{field}.count", f"{hand['count']} but 'cards' lists {size}")
                if any(p > h for p, h in zip(public, cards, strict=True)):
                    raise _fail(f"{field}.public", f"{card_names(self.board, public)} is not part of the cards "
                                                   f"{card_names(self.board, cards)}")
                d.hands[s] = cards
            else:
                if "count" not in hand:
                    raise _fail(f"{field}.count", "missing; give 'count' where 'cards' is absent")
                size = self._count(f"{field}.count", hand["count"])
                if sum(public) > size:
                    raise _fail(f"{field}.public", f"{sum(public)} known cards in a hand of {size}")
            d.public[s] = public
            sizes.append(size)
            given = self._known(d, s, hand, d.hands[s] if "cards" in hand else None, size)
            if self.gods:  # R14.10: an observer not named knows the public part, as everyone does
                for o in range(len(self.players)):
                    if o != s and o not in given:
                        d.known[o][s] = list(public)
        return sizes

    def _deck(self, d: StateData, deck: Any) -> int:
        if self.viewer is None:
            if not isinstance(deck, list):
                raise _fail("deck", "a full position lists the deck's cards, top first")
            d.deck = self._cards("deck", deck)
            return len(d.deck)
        if not isinstance(deck, dict):
            raise _fail("deck", "a viewer position gives only {\"count\": N} (the viewer cannot see the deck)")
        self._object("deck", deck, ("count",))
        if "count" not in deck:
            raise _fail("deck.count", "missing")
        return self._count("deck.count", deck["count"])

    def _discard(self, d: StateData, discard: Any) -> int:
        """Fill the open discards and the known face-down ones; return the face-down total."""
        discard = self._object("discard", discard, ("open", "hidden", "hidden_by"))
        d.discard_open = self._cards("discard.open", discard.get("open", []))
        by = discard.get("hidden_by", {})
        if not isinstance(by, dict):
            raise _fail("discard.hidden_by", "must be an object mapping colors to their face-down discards")
        for field, _, s, cards in self._by_player("discard.hidden_by", by, "{viewer} cannot see {player}'s "
                                                                            "face-down discards"):
            d.hidden_by[s] = self._multiset(field, cards)
        named = d.hidden_count()
        hidden = self._count("discard.hidden", discard.get("hidden", named))
        if self.viewer is None and hidden != named:
            raise _fail("discard.hidden", f"{hidden} but hidden_by names {named} face-down discards")
        if self.viewer is not None and hidden < named:
            raise _fail("discard.hidden", f"{hidden} but {self.players[self.viewer]} alone discarded {named}")
        return hidden

    def _reshuffle(self, d: StateData, doc: dict[str, Any], deck_count: int) -> None:
        """``reshuffle``: what each player saw go into the deck at the last reshuffle and has not seen come
        out of it (docs/engine.md "What a reshuffle reveals")."""
        if "reshuffle" not in doc:
            return
        known = doc["reshuffle"]
        if not isinstance(known, dict):
            raise _fail("reshuffle", "must be an object mapping players to what each saw go into the deck, "
                                     f"not {brief(known)}")
        if d.round not in self.rs.reshuffled_rounds:
            raise _fail("reshuffle", f"round {ROUND_NAMES[d.round]!r} has no deck made from a reshuffle "
                                     f"({self.rs.rule_of('reshuffle')})")
        if deck_count == 0:
            raise _fail("reshuffle", "the deck is empty: there is nothing left to know of it")
        per_island = self.board.cards_per_island
        pile = [[0] * self.board.n_islands for _ in self.players]
        unseen = [0] * len(self.players)
        unseen_entry = "{viewer} cannot know what {player} saw go into the deck (its own face-down discards among them)"
        for field, _, s, entry in self._by_player("reshuffle", known, unseen_entry):
            entry = self._object(field, entry, ("cards", "unseen"))
            pile[s] = self._multiset(f"{field}.cards", entry.get("cards", []))
            for x, k in enumerate(pile[s]):
                if k > per_island:
                    raise _fail(f"{field}.cards", f"{k} {self.board.islands[x]} cards, but the board has "
                                                  f"{per_island}")
            unseen[s] = self._count(f"{field}.unseen", entry.get("unseen", 0))
            named = sum(pile[s])
            if named + unseen[s] < deck_count:
                raise _fail(field, f"{named} card{'' if named == 1 else 's'} and {unseen[s]} unseen, but the deck "
                                   f"holds {deck_count}; every card of the deck went into it at the reshuffle")
        if any(knows_of_deck(row, n) for row, n in zip(pile, unseen, strict=True)):
            d.pile, d.pile_unseen = pile, unseen

    def _scores(self, d: StateData, scores: Any) -> None:
        if not isinstance(scores, dict):
            raise _fail("scores", "must be an object mapping colors to points")
        for c, pts in scores.items():
            k = self._color(f"scores.{field_key(c)}", c)
            d.scores[k] = self._count(f"scores.{field_key(c)}", pts, most=_NO_LIMIT)

    def _turn(self, d: StateData, doc: dict[str, Any]) -> None:
        if d.round == ROUND_OVER:
            if "turn" in doc:
                raise _fail("turn", "the game is over; a finished game has no turn")
            return
        rs = self.rs
        turn = doc.get("turn", {})
        if isinstance(turn, dict):
            for key in turn:  # a field only another game (or player count, or the gods) has says whose it is
                why = rs.lacks(f"turn.{key}") if key not in rs.turn_keys else None
                if why is not None:
                    raise _fail(f"turn.{key}", why)
        turn = self._object("turn", turn, rs.turn_keys)
        d.played = self._count("turn.played", turn.get("played", 0), most=_NO_LIMIT)
        d.discarded = self._flag("turn.discarded", turn.get("discarded", False))
        if rs.may_skip_draw:
            d.skipped = self._flag("turn.skipped_draw", turn.get("skipped_draw", False))
        if rs.owes_removals:
            d.remove_on = self._cards("turn.remove_on", turn.get("remove_on", []))
        if rs.pairs:
            self._turn_color(d, turn)
        if rs.gods:
            self._turn_gods(d, turn)

    def _turn_gods(self, d: StateData, turn: dict[str, Any]) -> None:
        """What a token use left pending (R14.6-R14.9); whether it fits the turn is step 2's."""
        if "ku_target" in turn:
            d.ku_target = self._seat("turn.ku_target", turn["ku_target"])
        d.pele_gifts = self._colors("turn.pele_gifts", turn.get("pele_gifts", []))
        d.lono_draw = self._flag("turn.lono_draw", turn.get("lono_draw", False))
        d.over_limit = self._flag("turn.over_limit", turn.get("over_limit", False))

    @staticmethod
    def _flag(field: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise _fail(field, f"{brief(value)} must be true or false")
        return value

    def _turn_color(self, d: StateData, turn: dict[str, Any]) -> None:
        """The color the turn builds with (R15.3), when given; whether it fits the turn is step 2's."""
        if "color" in turn:
            d.turn_color = self._color("turn.color", turn["color"])

    def _round_fields(self, d: StateData, doc: dict[str, Any], deck_count: int) -> WaitKind | None:
        """Read final_round, setup and result; return the kind of wait, if any."""
        rnd = d.round
        rs = self.rs
        if "setup" in doc and rs.lacks("setup"):
            raise _fail("setup", str(rs.lacks("setup")))
        for key, wanted in (("final_round", ROUND_FINAL), ("setup", ROUND_SETUP), ("result", ROUND_OVER)):
            if key in doc and rnd != wanted:
                raise _fail(key, f"only a position whose round is {ROUND_NAMES[wanted]!r} has it")
        if rnd == ROUND_FINAL:
            fr = doc.get("final_round", {})
            if isinstance(fr, dict) and "passed" in fr and rs.lacks("final_round.passed"):
                raise _fail("final_round.passed", str(rs.lacks("final_round.passed")))
            fr = self._object("final_round", fr, rs.final_round_keys)
            d.final_done = self._colors("final_round.done", fr.get("done", []))
            d.final_passed = self._colors("final_round.passed", fr.get("passed", []))
        elif rnd == ROUND_SETUP:
            return self._setup(d, doc)
        elif rnd == ROUND_OVER:
            self._result(d, doc)
        elif self.viewer is not None and not d.face_up and deck_count > 0 and rnd in rs.deck_rounds:
            # Nothing face-up beside a deck: the viewer waits for the cards a reshuffle turned up (R9,
            # R16.6), if the rules agree that one just happened (step 2).
            return WAIT_RESHUFFLE
        return None

    def _setup(self, d: StateData, doc: dict[str, Any]) -> WaitKind | None:
        colors = self.players
        setup = self._object("setup", doc.get("setup", {}), ("chosen", "cards"))
        chosen = self._colors("setup.chosen", setup.get("chosen", []))
        cards = setup.get("cards", {})
        if not isinstance(cards, dict):
            raise _fail("setup.cards", "must be an object mapping colors to the card each set aside")
        for field, c, s, card in self._by_player("setup.cards", cards, "{viewer} cannot see {player}'s chosen card"):
            if s not in chosen:
                raise _fail(field, f"{c} has not chosen yet")
            d.setup_chosen[s] = self._cards(field, [card])[0]
        for s in sorted(chosen):
            if d.setup_chosen[s] == NO_CARD:
                if self.viewer is None or s == self.viewer:
                    raise _fail("setup.cards", f"missing {colors[s]}'s chosen card")
                d.setup_chosen[s] = UNSEEN_CHOICE  # filled in with the cards the viewer cannot see
        # Every color has chosen: the cards went face-up (R3), which a viewer has still to record.
        return WAIT_SETUP if self.viewer is not None and len(chosen) == len(colors) else None

    def _result(self, d: StateData, doc: dict[str, Any]) -> None:
        if "result" not in doc:
            raise _fail("result", "missing; a finished game gives its ranking, winner and reason")
        res = self._object("result", doc["result"], ("ranking", "winner", "reason"))
        for key in ("ranking", "winner", "reason"):
            if key not in res:
                raise _fail(f"result.{key}", "missing")
        d.ranking = self._colors("result.ranking", res["ranking"])
        if sorted(d.ranking) != list(range(len(self.players))):
            raise _fail("result.ranking", f"must list every color once, not {brief(res['ranking'])}")
        if res["winner"] is None and self.rs.may_end_without_winner:
            # R16.7, R16.8: a Kahuna game may end without a winner; the ranking is then the seat order.
            d.winner = -1
            if d.ranking != sorted(d.ranking):
                raise _fail("result.ranking", f"with no winner the ranking lists the players in seat order, "
                                              f"{', '.join(self.players)}")
        elif res["winner"] is None:
            raise _fail("result.winner", f"null, but {self.rs.lacks('no_winner')}")
        else:
            d.winner = self._seat("result.winner", res["winner"])
            if d.winner != d.ranking[0]:
                raise _fail("result.winner", f"{res['winner']} is not first in the ranking")
        d.reason = self._reason(res["reason"])
        d.to_move = d.ranking[0]

    def _reason(self, value: Any) -> int:
        """Why the game ended: Kanaloa's points or eleven islands (R8, R12); Kahuna's points or no bridges
        (R16.7, R16.8)."""
        reasons = self.rs.reasons
        if isinstance(value, str) and value in reasons:
            return _REASON_OF_NAME[value]
        why = self.rs.lacks(f"reason:{value}") if isinstance(value, str) else None
        if why is not None:
            raise _fail("result.reason", f"{value!r}: {why}; the game ends on "
                                         f"{' or '.join(repr(r) for r in reasons)}")
        raise _fail("result.reason", f"{brief(value)} is not one of {', '.join(repr(r) for r in reasons)}")

    def _seed(self, d: StateData, doc: dict[str, Any]) -> None:
        if self.viewer is not None:
            if "seed" in doc:
                raise _fail("seed", "a viewer position has no seed (it would reveal the deck)")
            return
        if "seed" not in doc:
            rule = self.rs.rule_of("reshuffle")
            raise _fail("seed", f"missing; a full position gives the seed its future reshuffles ({rule}) are drawn "
                                f"from ('kanaloa new --seed N' writes one)")
        seed = doc["seed"]
        if not is_int(seed) or not 0 <= seed < SEED_LIMIT:
            raise _fail("seed", f"{brief(seed)} must be an integer from 0 to 2**64-1")
        d.rng = seed

    def _card_totals(self, d: StateData, deck_count: int, hidden: int) -> PositionError | None:
        """Per island, the cards must add up to the board's supply (R1); the error when they do not."""
        b = self.board
        cpi = b.cards_per_island
        full = self.viewer is None
        known = [0] * b.n_islands
        for s in range(d.players):
            part = d.hands[s] if full or s == self.viewer else seen_part(d, self.viewer, s)
            for i, n in enumerate(part):
                known[i] += n
        for group in (d.face_up, d.discard_open, d.deck if full else []):
            for i in group:
                known[i] += 1
        for s in range(d.players):
            for i, n in enumerate(d.hidden_by[s]):
                known[i] += n
        for x in d.setup_chosen:
            if x >= 0:
                known[x] += 1
        for i, n in enumerate(known):
            if n > cpi or (full and n != cpi):
                return _fail("cards", f"the position holds {n} {b.islands[i]} cards; board {b.name} has "
                                      f"{cpi} of each island")
        total = (sum(self.sizes) + len(d.face_up) + deck_count + len(d.discard_open) + hidden
                 + sum(1 for x in d.setup_chosen if x != NO_CARD))
        if total != b.n_cards:
            return _fail("cards", f"the position accounts for {total} cards; board {b.name} has {b.n_cards}")
        return None
