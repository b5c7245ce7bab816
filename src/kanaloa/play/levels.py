"""Named strengths: the opponents a person chooses by how hard they play, each a bot spec.

A person setting up a game thinks of opponents as easy or strong, not as
``hint:iterations=60000``.  ``LEVELS`` names three strengths, weakest first,
each a bot spec of ``kanaloa.play.bots``; a seat of a web game may name a
level instead of a spec (``kanaloa.interfaces.web.games``), and a game
record keeps the spec the level stood for.

======  ========================  =================================================================
level   spec                      what it plays
======  ========================  =================================================================
easy    ``greedy``                the best-looking line of its own turn, at once
medium  ``hint:iterations=1500``  the hint engine with a short search (a few hundredths of a second)
strong  ``hint:iterations=60000`` the hint engine with about a second a move in the slowest rule set
======  ========================  =================================================================

Each level is clearly stronger than the one below (docs/strength.md,
"The levels": the matches that showed it, with their seeds), and a strong
bot's move takes about a second on one core in the slowest of the rule sets
the registry lists (docs/strength.md gives the times of each).

A level is the same spec in every game unless the game's registry entry
says otherwise (``GameType.levels``: level name -> spec, for a game whose
search is slower or whose bots need other keys).  A level is offered for a
game only when its bot can play that game (``Bot.check``); nothing here
knows a game by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, quote
from .bots import parse_bot_spec

if TYPE_CHECKING:
    from ..rules.registry import GameType


@dataclass(frozen=True)
class Level:
    """A named strength: its name (what a request gives), its label and one line for a person, its bot spec."""

    name: str
    label: str
    description: str
    spec: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "label": self.label, "description": self.description, "spec": self.spec}


LEVELS: tuple[Level, ...] = (
    Level("easy", "Easy", "Plays the move that looks best for this turn alone, at once: good for learning the game.",
          "greedy"),
    Level("medium", "Medium", "Thinks a few moves ahead in a blink: a fair game for someone who knows the rules.",
          "hint:iterations=1500"),
    Level("strong", "Strong", "The hint engine's own search, about a second a move: hard to beat.",
          "hint:iterations=60000"),
)
DEFAULT_LEVEL = "strong"  # what a bot seat of the New-game form starts as
_BY_NAME = {level.name: level for level in LEVELS}

assert DEFAULT_LEVEL in _BY_NAME


def level_names() -> tuple[str, ...]:
    return tuple(_BY_NAME)


def find_level(text: object) -> Level | None:
    """The level ``text`` names (any case, spaces around it ignored), or None."""
    return _BY_NAME.get(text.strip().lower()) if isinstance(text, str) else None


def spec_for(level: Level, game: GameType) -> str:
    """The bot spec ``level`` stands for in ``game``: the game's own where its registry entry gives one."""
    own: str | None = game.levels.get(level.name)
    return own if own is not None else level.spec


def refusal(level: Level, ruleset: Any) -> str | None:
    """Why ``level`` cannot play ``ruleset`` (its bot's ``check``), or None when it can."""
    try:
        parse_bot_spec(spec_for(level, ruleset.game_type)).check(ruleset)
    except OptionError as exc:
        return str(exc)
    return None


def offered(ruleset: Any) -> list[tuple[Level, str]]:
    """The levels that can play ``ruleset``, weakest first, each with the spec it stands for there."""
    return [(level, spec_for(level, ruleset.game_type)) for level in LEVELS if refusal(level, ruleset) is None]


def level_spec(name: str, ruleset: Any) -> str:
    """The bot spec level ``name`` stands for in ``ruleset``.  Raises ``OptionError`` for a name that is no level,
    or a level not offered for the game (why its bot cannot play it)."""
    level = find_level(name)
    if level is None:
        raise OptionError(f"level {quote(name)}: unknown; expected one of {', '.join(_BY_NAME)}")
    why = refusal(level, ruleset)
    if why is not None:
        raise OptionError(f"level {level.name}: not offered for {ruleset.title}: {why}")
    return spec_for(level, ruleset.game_type)


def check_game_levels(game: GameType) -> None:
    """Refuse (``OptionError``) a registry entry whose ``levels`` names no level or gives a spec that does not
    parse."""
    for name, spec in game.levels.items():
        if name not in _BY_NAME:
            raise OptionError(f"game {game.name}: levels: unknown level {quote(name)}; expected one of "
                              f"{', '.join(_BY_NAME)}")
        parse_bot_spec(spec)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "check_game_levels", "find_level", "level_names", "level_spec",
           "offered", "refusal", "spec_for"]
