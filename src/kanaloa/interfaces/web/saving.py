"""A game of the web app as its database row holds it, and back (``kanaloa.interfaces.web.store``).

A ``PlayGame`` or ``TableGame`` is saved as the position it began from
(its document, as its game writes it), what its kind needs besides (the
seats and the deal of a Play game; the board file sent with the request
when the board is not a built-in one) and its moves; ``restore`` makes the
same session again by reading that position and playing the moves on it,
then checks that it reaches the position saved with them.  Everything here
asks the session's position and rule set: no rule is decided here.
"""

from __future__ import annotations

import time
from typing import Any

from ...errors import KanaloaError
from ...position.documents import read_position
from ...rules.board import board_from_dict, board_to_dict
from .games import Deal, PlayGame, TableGame, Told, board_loader
from .store import Move, Saved

Saved_session = PlayGame | TableGame


class Unreadable(KanaloaError):
    """A saved game whose moves no longer play (saved by another version of kanaloa, or edited by hand)."""


def kind_of(session: Saved_session) -> str:
    return "game" if isinstance(session, PlayGame) else "table"


def played_moves(session: Saved_session) -> list[Move]:
    """The moves of ``session`` in order, each with its seat (a Play game's) and words."""
    if isinstance(session, PlayGame):
        return [Move(step.move, step.seat, step.words) for step in session.history]
    return [Move(step.move, None, step.words) for step in session.history]


def undone_moves(session: Saved_session) -> list[Move]:
    """The moves taken back that a redo plays again, the next first (a table's; a Play game has none)."""
    if isinstance(session, TableGame):
        return [Move(step.move, None, step.words) for step in reversed(session.undone)]
    return []


def first_position(session: Saved_session) -> Any:
    return session.history[0].before if session.history else session.pos


def setup_of(session: Saved_session) -> dict[str, Any]:
    """What ``restore`` needs besides the moves (module docstring)."""
    setup: dict[str, Any] = {"position": first_position(session).to_json()}
    if session.board is not None:
        setup["board"] = board_to_dict(session.board)
    if isinstance(session, PlayGame):
        setup["seats"] = list(session.seats)
        setup["levels"] = list(session.levels)  # the level each seat was given as (None for a spec or a person)
        deal = session.deal
        setup["deal"] = None if deal is None else {"seed": deal.seed, "unrecorded": deal.unrecorded}
    return setup


def status_of(session: Saved_session) -> dict[str, Any]:
    """What the list of saved games shows of a game besides its name: the game's title, the players, whose turn
    it is, whether it is over and how it ended, and for a table whose view it follows."""
    pos = session.pos
    out: dict[str, Any] = {"title": session.rules.title, "players": list(pos.players), "to_move": pos.to_move,
                           "over": bool(pos.is_over), "outcome": pos.outcome}
    if isinstance(session, TableGame):
        out["viewer"] = pos.viewer
    else:
        out["seats"] = list(session.seats)
    return out


def default_name(session: Saved_session, now: float | None = None) -> str:
    """A new game's name until the player gives it one: its kind, its game's title and when it began."""
    when = time.strftime("%d %b %H:%M", time.localtime(now))
    what = "Table" if isinstance(session, TableGame) else "Game"
    return f"{what}: {session.rules.title}, {when}"


EXPORT_FORMAT = "kanaloa-saved-game/1"


def export_document(saved: Saved) -> dict[str, Any]:
    """A saved game as the list of games downloads it (docs/web.md "Saved games"): its name, kind and game, the
    position it began from and the one it is at now, its moves, and for a table the moves taken back."""
    doc: dict[str, Any] = {"format": EXPORT_FORMAT, "id": saved.id, "kind": saved.kind, "name": saved.name,
                           "ruleset": saved.ruleset, "created": saved.created, "updated": saved.updated,
                           "version": saved.version, **{k: v for k, v in saved.setup.items() if k != "position"},
                           "start": saved.setup["position"], "position": saved.position,
                           "moves": [_move_json(m) for m in saved.played]}
    if saved.kind == "table":
        doc["undone"] = [_move_json(m) for m in saved.undone]
    return doc


def _move_json(move: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"move": move.move}
    if move.seat is not None:
        out["seat"] = move.seat
    if move.words is not None:
        out["words"] = move.words
    return out


def restore(saved: Saved) -> Saved_session:
    """The session ``saved`` holds, its moves played again on the position it began from (module docstring).
    Raises ``Unreadable`` naming the game and the move that does not play."""
    setup = saved.setup
    board = board_from_dict(setup["board"], setup["board"].get("name", "board") + ".json") \
        if setup.get("board") else None
    try:
        pos = read_position(setup["position"], boards=board_loader(board))
    except KanaloaError as exc:
        raise Unreadable(f"saved game {saved.id}: its first position no longer reads ({exc})") from None
    session: Saved_session
    if saved.kind == "game":
        deal = setup.get("deal")
        session = PlayGame(pos, list(setup["seats"]), pos.ruleset,
                           None if deal is None else Deal(deal["seed"], deal["unrecorded"]), board=board,
                           levels=list(setup.get("levels", [])))
    else:
        session = TableGame(pos, pos.ruleset, board=board)
    for number, move in enumerate(saved.played, start=1):
        try:
            if isinstance(session, PlayGame):
                assert move.seat is not None
                session._step(move.move, move.seat, move.words)
            else:
                session.play(move.move, move.words)
        except KanaloaError as exc:
            raise Unreadable(f"saved game {saved.id}: move {number} ({move.move}) no longer plays ({exc})") from None
    if isinstance(session, TableGame):
        session.undone = [Told(None, m.move, m.words) for m in reversed(saved.undone)]
    if session.pos.to_json() != saved.position:
        raise Unreadable(f"saved game {saved.id}: its moves reach another position than the one saved with them "
                         f"(saved by another version of kanaloa?)")
    return session
