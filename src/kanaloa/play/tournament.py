"""Bot-vs-bot tournaments: the lineup, the rotations, the seeds and the game runner.

A *tournament* seats a *lineup* of bot specs (``greedy,random,random,random``:
one spec per seat, so the lineup's length is the number of players) at many
games of one rule set of any registered game (``kanaloa.load_game``: Kanaloa
for 2, 3 or 4, where with 2 each plays two colors, R15; Kahuna for 2, R16;
with or without Might of the Gods, R14; every other game the registry
lists) on the compiled core.  ``make_tournament`` checks it all once;
``kanaloa.play.simulate`` runs one and sums up how each bot did.

**The bots** are any specs of ``kanaloa.play.bots``, those for measurement
only (``seer``, which sees every hand) included: a tournament measures bots
against bots, and is the one place that may seat them
(``parse_bot_spec(..., measurement=True)``).

**The game** is reached only through its rule set and the registry's
``position`` face: a game is dealt with ``position.deal(ruleset, seed,
engine)`` on the compiled core, the bots choose from the position's engine
state, every move is written as ``position.move_of(action)`` says, and the
result is read from the final position (``kanaloa.play.records``).

**Rotations.**  Games come in *deals*.  A deal is one shuffle of the cards,
fixed by its deal seed, and it is played once for every rotation of the
lineup: in rotation ``r`` the lineup's bot ``i`` sits in seat
``(i + r) mod players``.  Card luck and seat order so cancel out, and every bot
sits in every seat equally often.  The number of games must therefore be a
multiple of the number of players (``games = deals * players``); anything
else is refused rather than silently rounded, so the tournament plays exactly
the games asked for.  Game ``g`` is deal ``g // players``, rotation
``g % players``.

**Seeds.**  Everything random flows from the tournament seed and a game's
index (``kanaloa.play.streams``), never from the process or machine that
plays it, so any number of workers (or a cluster) gives the same games: deal
``d`` is dealt from ``deal_seed(seed, d)``, exactly what ``kanaloa new
--seed`` takes, and the bot in seat ``s`` of game ``g`` starts
(``Bot.start``) with ``bot_seed(seed, g, s)``; its spec's own ``seed``
option is mixed in by the bot.  Bots are built afresh for every game, so no
state crosses games.  Bots with a time budget (``ismcts:time=S``) play as far
as the clock lets them: their games depend on the machine's load and do not
repeat.

**A game** (``play_game``) ends in a ``kanaloa.play.records.GameRecord``:
the format, and the replay that checks it, are ``kanaloa.play.records``'.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import PATH_LIMIT, OptionError, brief, quote
from ..rules.engine import load_engine
from ..rules.registry import document_game, game_type, load_game
from ..rules.rng import MASK64
from ..rules.ruleset import ParameterError, Ruleset
from .bots import Bot, parse_bot_spec
from .records import GameRecord
from .streams import bot_seeds, deal_seed

MAX_MOVES = 100_000  # far beyond any real game (a few hundred moves); a guard against a looping bot


@dataclass(frozen=True)
class Tournament:
    """What a tournament plays: the lineup (one spec per seat), games, seed and rule set.

    Build it with ``make_tournament``, which checks everything; the methods
    below trust it.
    """

    lineup: tuple[str, ...]
    games: int
    seed: int
    ruleset: Ruleset

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def deals(self) -> int:
        return self.games // self.players

    def deal_of(self, game: int) -> int:
        return game // self.players

    def rotation_of(self, game: int) -> int:
        return game % self.players

    def seating(self, game: int) -> tuple[str, ...]:
        """The spec in each seat of ``game``: lineup bot ``i`` sits in seat ``(i + rotation) mod players``."""
        r = self.rotation_of(game)
        p = self.players
        return tuple(self.lineup[(seat - r) % p] for seat in range(p))

    def deal_seed(self, game: int) -> int:
        """The seed that deals ``game`` (shared by the rotations of one deal)."""
        return deal_seed(self.seed, self.deal_of(game))

    def bot_seeds(self, game: int) -> tuple[int, ...]:
        """The seed each seat's bot starts ``game`` with."""
        return bot_seeds(self.seed, game, self.players)


# The options of ``kanaloa simulate`` that give the rule set's parameters: ``--NAME`` for parameter NAME
# (``kanaloa.interfaces.cli.game_parameter_options``), and ``--game`` for the game itself.
_OPTION_OF = {"game": "--game"}


def option_error(exc: ParameterError, labels: dict[str, str] | None = None) -> OptionError:
    """A rule set's refusal worded with the command's option: ``--preset 'tabletop': Kahuna has no presets``."""
    label = (labels or _OPTION_OF).get(exc.parameter, f"--{exc.parameter}")
    shown = f" {quote(exc.value, PATH_LIMIT) if isinstance(exc.value, str) else brief(exc.value)}" if exc.shown \
        else ""
    return OptionError(f"{label}{shown}: {exc.why}")


def make_tournament(bots: Sequence[str], games: int, seed: int, *, game: str | None = None,
                    ruleset: Ruleset | None = None, players: int | None = None, games_option: str = "--games",
                    **params: Any) -> Tournament:
    """A checked ``Tournament``.

    The rule set is ``ruleset``, or the one ``load_game(game, players=len(bots),
    **params)`` makes for the lineup (``game`` defaults to the registry's
    default game, Kanaloa; its parameters (``preset``, ``gods``, ``board``...)
    to the game's defaults); ``players``, when given, must be the lineup's
    length.  Raises
    ``OptionError`` naming the option (``--bots``, ``--games``,
    ``--players``, ``--preset``, ``--gods``, ``--board``, ``--game``, or
    ``--NAME`` for another parameter of the game) for a bad spec, a bot the
    game cannot seat (``Bot.check``), a lineup that disagrees with ``players``,
    a rule set that cannot be (``load_game``'s reasons: the gods need 16
    islands, Kahuna is for two players...), a number of games that is not a
    positive multiple of the number of players (named ``games_option``), or a
    bad seed; ``BoardError`` for a board that cannot be read.
    """
    specs = [s.strip() for s in bots]
    given = ",".join(bots)
    if not specs or any(not s for s in specs):
        raise OptionError(f"--bots {quote(given)}: expected comma-separated bot specs, one per seat, with none empty")
    for spec in specs:
        parse_bot_spec(spec, measurement=True)  # raises OptionError naming the spec and the bad part
    if players is not None and players != len(specs):
        raise OptionError(f"--players {players}: --bots names {len(specs)} bots; the lineup has one bot per seat, "
                          f"so give {players} specs (repeat a spec to seat it more than once)")
    if ruleset is None:
        try:
            name = document_game(None).name if game is None else game
            ruleset = load_game(name, players=len(specs), **params)
        except ParameterError as exc:
            if exc.parameter == "players" and players is None:  # the count came from the lineup
                counts = next((p.choices for p in game_type(name).parameters if p.name == "players"), ())
                again = "" if str(len(specs)) in counts else " (repeat a spec to seat it more than once)"
                raise OptionError(f"--bots {quote(given)}: {len(specs)} bot(s), one per seat; {exc.why}{again}") \
                    from None
            raise option_error(exc) from None
    elif ruleset.players != len(specs):
        raise OptionError(f"--bots {quote(given)}: {len(specs)} bot(s) for a game of {ruleset.players} players; "
                          f"the lineup has one bot per seat")
    for spec in dict.fromkeys(specs):
        parse_bot_spec(spec, measurement=True).check(ruleset)  # a bot the game cannot seat (a face it lacks), named
    check_games(games, len(specs), games_option)
    check_seed(seed)
    check_core(ruleset)
    return Tournament(tuple(specs), games, seed, ruleset)


def check_games(games: object, seats: int, option: str = "--games") -> int:
    """``games`` as a number of games in whole deals: a positive multiple of ``seats``, since every deal is
    played in every seat rotation; else ``OptionError`` naming ``option`` (with the nearest good counts)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"{option} {brief(games)}: must be a positive whole number")
    if games % seats:
        low, high = games - games % seats, games - games % seats + seats
        hint = f"{low} or {high}" if low else f"{high}"
        raise OptionError(f"{option} {games}: must be a multiple of {seats}, the number of seats, so that every "
                          f"deal is played in every seat rotation; try {hint}")
    return games


def check_seed(seed: object) -> int:
    """``seed`` as a run's seed, from 0 to 2**64-1; else ``OptionError`` naming ``--seed``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise OptionError(f"--seed {brief(seed)}: must be an integer from 0 to 2**64-1")
    return seed


def check_core(ruleset: Ruleset) -> None:
    """Refuse (``OptionError`` naming ``--board`` or ``--game``) a rule set the compiled core cannot play (a
    board beyond its capacities)."""
    try:
        deal(ruleset, 0)
    except ValueError as exc:
        board = ruleset.record_params().get("board")
        what = f"--board {quote(board, PATH_LIMIT)}" if isinstance(board, str) else f"--game {ruleset.game}"
        raise OptionError(f"{what}: the compiled core cannot play it ({exc})") from None


def schedule(t: Tournament, first: int = 0) -> Iterator[int]:
    """The indexes of the games of ``t`` from ``first`` on, in order, made one at a time.

    Nothing is built ahead: a tournament of 4,000,000,000,000 games starts
    as fast as one of four, and the runners take games from this iterator
    as they have room for them.
    """
    return iter(range(first, t.games))


def measured_bot(spec: str) -> Bot:
    """The bot of ``spec`` as a measurement of bots against bots seats it: ``parse_bot_spec(spec,
    measurement=True)``, the bots for measurement only (``seer``) included.  The ladder
    (``kanaloa.play.ladder``) and the sequential test (``kanaloa sprt``) check their specs with it; only the
    measurements built on this module ask for those bots."""
    return parse_bot_spec(spec, measurement=True)


def search_budget(spec: str) -> tuple[int | None, float | None]:
    """The iterations or seconds a move of the bot of ``spec`` searches, ``(None, None)`` for a bot that
    does not search."""
    bot = parse_bot_spec(spec, measurement=True)
    return getattr(bot, "iterations", None), getattr(bot, "seconds", None)


def time_budgeted(spec: str) -> bool:
    """True when the bot of ``spec`` thinks for a time rather than a number of iterations."""
    return search_budget(spec)[1] is not None


# -- one game -----------------------------------------------------------------------


# Equal rule sets share one object per process, and so their board, so the core's tables (cached per
# board object) are built once even when every task brings its own pickled copy.
_RULESETS: dict[Any, Any] = {}


def _shared(ruleset: Ruleset) -> Ruleset:
    return _RULESETS.setdefault(ruleset, ruleset)


def deal(ruleset: Ruleset, seed: int) -> Any:
    """A game of ``ruleset`` dealt from ``seed`` on the compiled core: a position of the game's ``position``
    face (``Position`` for the Kanaloa family), full, its ``state`` the engine state the bots play on."""
    rules = _shared(ruleset)
    return rules.game_type.face("position").deal(rules, seed, load_engine("core"))


def play_seated_game(ruleset: Ruleset, deal_seed: int, seating: Sequence[str], bot_seeds: Sequence[int],
                     movers: list[int] | None = None, moves: list[str] | None = None) -> tuple[list[int], Any]:
    """Play one game of ``ruleset`` on the compiled core; returns ``(actions, final_state)``.

    ``seating[s]`` is the spec of seat ``s``'s bot, started with
    ``bot_seeds[s]``.  Every move a bot chooses is checked against the legal
    moves (``apply`` itself trusts its input); an illegal choice raises
    ``RuntimeError`` naming the bot.  ``movers``, when given, receives the
    seat that made each move, and ``moves`` each move in notation, as the
    game's position writes it (``move_of``).
    """
    _, actions, final = _play(ruleset, deal_seed, seating, bot_seeds, movers, moves)
    return actions, final


def _play(ruleset: Ruleset, deal_seed: int, seating: Sequence[str], bot_seeds: Sequence[int],
          movers: list[int] | None, moves: list[str] | None) -> tuple[Any, list[int], Any]:
    """``play_seated_game``, with the final position first: ``(position, actions, final_state)``."""
    if len(seating) != ruleset.players:
        raise ValueError(f"{len(seating)} bots for a game of {ruleset.players} players")
    rules = _shared(ruleset)
    position = deal(rules, deal_seed)
    state = position.state  # the position's own engine state, played on in place
    bots = [parse_bot_spec(spec, measurement=True) for spec in seating]
    for bot, seed in zip(bots, bot_seeds, strict=True):
        bot.start(rules, seed)
    actions: list[int] = []
    while not state.is_over:
        bot = bots[state.to_move]
        action = bot.choose(state)
        if action not in state.legal_actions():
            raise RuntimeError(f"bot {quote(bot.spec)} in seat {state.to_move} chose illegal action {action}")
        if movers is not None:
            movers.append(state.to_move)
        if moves is not None:
            moves.append(str(position.move_of(action)))
        state.apply(action)
        actions.append(action)
        if len(actions) > MAX_MOVES:
            raise RuntimeError(f"game did not end within {MAX_MOVES} moves (deal seed {deal_seed})")
    return position, actions, state


class Seated(Protocol):
    """What ``play_game`` asks of the run a game belongs to: a ``Tournament``, or a ladder's schedule
    (``kanaloa.play.ladder.Ladder``), which seats a different group of bots deal by deal."""

    @property
    def ruleset(self) -> Ruleset: ...

    def seating(self, game: int) -> tuple[str, ...]: ...

    def deal_seed(self, game: int) -> int: ...

    def bot_seeds(self, game: int) -> tuple[int, ...]: ...


def play_game(tournament: Seated, game: int) -> GameRecord:
    """Play game ``game`` of ``tournament`` (or of any ``Seated`` run) and return its record.

    The result depends only on the tournament and ``game`` (see *Seeds* in
    the module docstring), wherever it runs.
    """
    t = tournament
    seating = t.seating(game)
    seeds = t.bot_seeds(game)
    dealt = t.deal_seed(game)
    moves: list[str] = []
    final, _, _ = _play(t.ruleset, dealt, seating, seeds, None, moves)
    return GameRecord.of_game(t.ruleset, dealt, seating, seeds, moves, final, index=game)
