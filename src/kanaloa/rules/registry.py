"""The game registry: every game the engine plays, by name, and ``load_game``.

In the manner of ``pyspiel.load_game``, a game is made from its name and
parameters::

    from kanaloa import load_game
    rules = load_game("kanaloa", players=2, gods=True)
    rules = load_game("kahuna")

``load_game`` returns the game's rule set (for the Kanaloa family a
``kanaloa.rules.ruleset.Ruleset``), checked once; every layer above asks it
what it needs.  ``game_types()`` lists the registered games with their
parameters and defaults (``kanaloa games`` prints them).

**A game plugs in** with one ``GameType`` in ``REGISTERED`` below: its name,
its parameters, the function that makes its rule set, and its *faces*, one
per layer that has game-specific work to do, each a ``"module:attribute"``
path loaded only when a layer asks for it (``GameType.face``):

============  ======================================================================
face          what it is
============  ======================================================================
``position``  the position class: ``new``/``deal``, ``from_json``, moves in notation
              (``move_of(action)``), ``outcome`` and ``seat_scores`` (each seat's
              score, what the rule set's ``score_name`` counts), which ``simulate``
              and the game records read
``search``    the adapter that puts the game behind the search protocol
              (``search(policy, one_order, reshuffle, cut)``, with ``wrap(state)``)
``hint``      what a hint says of the search's result, beyond the protocol:
              ``state_of(position)``, ``move_name(ruleset, state, action)``,
              ``gains(ruleset, before, after, mover)`` (each gain with ``to_json()`` and
              ``describe()``) and ``plan_end(state)`` (``kanaloa.play.family_hint``)
``greedy``    the greedy bot's player for the game (``greedy(ruleset, width)``, with
              ``choose(state, rng)``)
``display``   the terminal picture of a position (``kanaloa show``):
              ``display(position, use_color=False) -> str``
``svg``       the SVG picture of a position: ``svg(position, **options) -> str``
``words``     a move told in one sentence for the players at the table (the web app's
              history, hints and bot moves): ``say(position, move, public=False) ->
              str``, ``position`` the one before the move, which reads it (``parse``);
              what the move changed on the table is told too, and never a card the
              position's viewer (``public``: any player) does not see
``openspiel`` the game as an OpenSpiel game: ``openspiel(ruleset, seed=0) -> pyspiel.Game``,
              with ``state_of(engine_state)``, ``code_of(action)``, states that
              ``resample(player, seed)``, and ``core_rollouts`` (whether its states
              hold the family's core for ``openspiel-mcts:rollout=core``); importing
              its module registers the game with ``pyspiel`` through
              ``kanaloa.openspiel.register_game``, and ``import kanaloa.openspiel``
              imports every game's
``bench``     the benchmark's workloads and the game's signatures:
              ``bench(game_type) -> kanaloa.tools.benchmark.GameBench``
``files``     the data files a user may write for the game, which the fuzzer damages
              (board files, tile files): a ``kanaloa.rules.datafile.DataFiles``
``web``       the game's part of the web app (``kanaloa serve``): a
              ``kanaloa.interfaces.web.face.WebFace``, with the page's module for the
              game, the keys of a view that are the game's own, its request values
              and its data files
``tensor``    the game as numbers, for learning (``kanaloa.pettingzoo``):
              ``tensor(ruleset)`` gives its fixed action space (``codes``, the action
              codes numbered densely, ``action_of``/``code_of``), its observation
              (``fields``, ``observation_size``, ``observe(state, viewer, out)``: what
              that seat knows, as its viewer position does), ``legal_mask(state,
              out)``, ``returns(state)``, ``deal(seed)`` (a state of its core) and
              ``batch(n, seed)``: ``n`` games stepped together in its compiled core
              (None for a game without one); ``describe()`` lists the fields
``cutfit``    what fitting the models of rollouts cut short needs of the game: a
              ``kanaloa.play.evaluation.Fitting`` (its models file's rule sets, sample
              games, a check of an entry), which ``python -m kanaloa.tools.cutfit`` fits;
              optional (``OPTIONAL_FACES``): a game without such models has none, and
              the tool refuses it
============  ======================================================================

Every game has every face but those of ``OPTIONAL_FACES``.

A game's entry may also give ``levels``: the bot spec a named strength of
``kanaloa.play.levels`` (easy, medium, strong) stands for in that game, where
the levels' own specs do not suit it; none does today.

**What the generic layers ask of a game's objects.**  Besides the faces,
a layer above the rules speaks to two objects of every game through the same
protocol, whatever their class:

* the *position* (the ``position`` face's class): ``deal(ruleset, seed,
  engine=None)`` and ``from_json(doc, engine=None, boards=None)`` make one,
  on the engine ``"core"`` or ``"reference"`` (None: the core); ``copy()``,
  ``on(engine)`` (a copy on the other engine), ``crowded(stream)`` (a new
  position made from a freshly dealt one with far more pieces than random
  play leaves, for the soak); ``ruleset``, ``engine``, ``state`` (the engine
  state: ``copy``, ``apply``, ``legal_actions``, ``is_over``, ``to_move``,
  ``to_data``), ``players``, ``to_move``, ``is_over``, ``outcome``
  (``winner``, ``ranking``, ``reason``), ``viewer``, ``waiting``,
  ``holders()`` (who holds each of the game's places now: place name ->
  the holding player's name, as in ``players``, or None; the places are
  the family's islands, held by the color controlling them, R2, R16.4, and
  Cannonball Colony's landing boards, held by the country with the most
  forts on them, R20.1, R20.7; the balance report, ``kanaloa report``,
  counts them at the end of every game);
  ``legal_moves()``, ``move_strings()``, ``move_of(action)``,
  ``parse(text)`` (the move a text names, its form checked: ``str()`` of it
  is the canonical notation), ``decision_of(text)`` (the action of the
  mover's choice a recorded move made, without what the record adds to it:
  the card an own draw brought, for a game analysis), ``record_of(text,
  player)`` (a move of a full position as that player writes it down at
  the table, the record its viewer position takes: what the player does not
  see left out, what the deck or a token showed it added; in a game that
  hides nothing, the move itself; the web app's history of a game in
  play), ``play(text)``, ``push(action)``,
  ``to_json()``, ``dumps()``;
* the *rule set* (``load_game``'s result): ``game``, ``game_type``,
  ``title``, ``players``, ``params()``, ``describe()``, ``document_game``,
  ``palette``, ``colors``, ``color_order``, ``colors_of(seat)``,
  ``seat_names``, ``seat_colors`` (the color each seat is drawn in),
  ``reasons``, ``reason_text``, ``rule_of(event)``,
  ``lacks(feature)`` (why it has no feature another game has, None when it
  has it), ``pairs``, ``may_end_without_winner``, ``no_winner_reason``,
  ``shares_victory`` (several players may share the victory),
  ``score_name`` (what a seat's score and the search's points count),
  ``record_params()`` (the parameters a game record names it by),
  ``crowded(data, stream)`` (the data of a position's ``crowded``) and
  ``state_checks(state)`` (an engine state's answers against its own data,
  for the soak).

Nothing above the rules imports a game's modules by name; it asks the
registry for the face, so a second game with its own core, reference,
position format and pictures needs nothing beyond its own package and its
entry here.  The paths are strings, so this module imports no layer above
the rules (``tests/test_layers.py`` checks that every path names a module of
the layer the face belongs to).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cannonball.ruleset import GAME as CANNONBALL_GAME
from ..cannonball.ruleset import PARAMETERS as CANNONBALL_PARAMETERS
from ..cannonball.ruleset import TITLE as CANNONBALL_TITLE
from ..cannonball.ruleset import load as load_cannonball
from ..errors import brief
from .ruleset import KAHUNA_GAME, KANALOA_GAME, Parameter, ParameterError, Ruleset, make_ruleset, parameters

FACES = ("position", "search", "hint", "greedy", "display", "svg", "words", "openspiel", "bench", "files", "web",
         "tensor", "cutfit")
OPTIONAL_FACES = ("cutfit",)  # faces a game may lack (see the table above)

# The Kanaloa family's faces: both of its games are served by the same modules, which ask the rule set.
_FAMILY_FACES = {
    "position": "kanaloa.position.api:Position",
    "search": "kanaloa.play.game:family_search",
    "hint": "kanaloa.play.family_hint:FAMILY_HINT",
    "greedy": "kanaloa.play.greedy:GreedyPlayer",
    "display": "kanaloa.interfaces.display:render_position",
    "svg": "kanaloa.interfaces.svg:position_svg",
    "words": "kanaloa.interfaces.words:say",
    "openspiel": "kanaloa.openspiel.family:game_for",
    "files": "kanaloa.rules.board:BOARD_FILES",
    "web": "kanaloa.interfaces.web.family:FAMILY_WEB",
    "tensor": "kanaloa.rules.tensor:FamilyTensor",
    "cutfit": "kanaloa.play.cut_fit:FAMILY_FIT",
}


@dataclass(frozen=True)
class GameType:
    """One registered game: its name, parameters and faces (see the module docstring)."""

    name: str
    title: str
    rules: str  # the rule ids it implements (docs/rules.md)
    summary: str
    parameters: tuple[Parameter, ...]
    make: Callable[..., Any]
    faces: Mapping[str, str] = field(default_factory=dict)
    document_default: bool = False  # positions without a "game" field are this game's
    # Parameters ``make`` takes beyond ``parameters``, which it refuses with the rule's reason unless they
    # hold their neutral value (Kahuna's preset and gods: Kanaloa's options, R16.9).
    also_takes: tuple[str, ...] = ()
    # The rule sets every game-wide check covers (the conformance suite, the soak): parameters of each.
    examples: tuple[Mapping[str, Any], ...] = ({},)
    # The bot spec of a named strength (``kanaloa.play.levels``: easy, medium, strong) where the game needs its
    # own, level name -> spec (a slower search, other keys); the levels' own specs elsewhere.
    levels: Mapping[str, str] = field(default_factory=dict)

    def example_rulesets(self) -> list[Any]:
        """The rule sets of ``examples``, made."""
        return [self.load(**params) for params in self.examples]

    def load(self, **params: Any) -> Any:
        """The rule set with ``params``; raises ``ParameterError`` for a parameter it does not take."""
        known = [p.name for p in self.parameters]
        for name in params:
            if name not in known and name not in self.also_takes:
                raise ParameterError(name, f"{self.title} has no such parameter; its parameters are "
                                           f"{', '.join(known)}")
        return self.make(self.name, **params)

    def face(self, role: str) -> Any:
        """The object behind face ``role`` (loaded on first use); ``KeyError`` when the game has none."""
        if role not in self.faces:
            raise KeyError(f"game {self.name} has no {role} face")
        module, _, attribute = self.faces[role].partition(":")
        return getattr(importlib.import_module(module), attribute)

    def options_of(self, params: Mapping[str, Any]) -> str:
        """``params`` as the options of ``kanaloa new`` that give them: ``--players 3 --preset tabletop``,
        ``--gods`` for a flag; ``the defaults`` for none."""
        kinds = {p.name: p.kind for p in self.parameters}
        words = [f"--{name}" if kinds.get(name) == "flag" else f"--{name} {value}"
                 for name, value in params.items() if not (kinds.get(name) == "flag" and not value)]
        return " ".join(words) or "the defaults"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "rules": self.rules, "summary": self.summary,
                "parameters": [p.to_json() for p in self.parameters],
                "rule_sets": [dict(params) for params in self.examples]}


REGISTERED: tuple[GameType, ...] = (
    GameType(KANALOA_GAME, "Kanaloa", "R1-R15",
             "bridges between 16 islands for 2-4 players, majorities win islands; presets (R13), two players "
             "(R15) and Might of the Gods (R14)",
             parameters(KANALOA_GAME), make_ruleset,
             {**_FAMILY_FACES, "bench": "kanaloa.tools.benchmark:kanaloa_workloads"}, document_default=True,
             examples=({"players": 4}, {"players": 3, "preset": "tabletop"}, {"players": 2},
                       {"players": 4, "gods": True}, {"players": 3, "gods": True, "preset": "tabletop"},
                       {"players": 2, "gods": True})),
    GameType(KAHUNA_GAME, "Kahuna", "R16",
             "Kanaloa's two-player predecessor: 12 islands, white against black, three scorings",
             parameters(KAHUNA_GAME), make_ruleset,
             {**_FAMILY_FACES, "bench": "kanaloa.tools.benchmark:kahuna_workloads"}, also_takes=("preset", "gods")),
    GameType(CANNONBALL_GAME, CANNONBALL_TITLE, "R20",
             "roads and forts on an island of 6x6 tiles for 2-4 countries, cannons shoot rival forts; ten forts, or "
             "the most when the road tiles run out, win",
             CANNONBALL_PARAMETERS, load_cannonball,
             {"position": "kanaloa.cannonball.position:CannonballPosition",
              "search": "kanaloa.cannonball.search:cannonball_search",
              "hint": "kanaloa.cannonball.hint:CANNONBALL_HINT",
              "greedy": "kanaloa.cannonball.greedy:GreedyCannonball",
              "display": "kanaloa.cannonball.display:render_position",
              "svg": "kanaloa.cannonball.svg:svg_of_position",
              "words": "kanaloa.cannonball.words:say",
              "openspiel": "kanaloa.cannonball.spiel:game_for",
              "bench": "kanaloa.cannonball.bench:workloads",
              "files": "kanaloa.cannonball.island:TILE_FILES",
              "web": "kanaloa.cannonball.web:WEB",
              "tensor": "kanaloa.cannonball.tensor:CannonballTensor",
              "cutfit": "kanaloa.cannonball.cut_fit:CANNONBALL_FIT"},
             examples=({"players": 2}, {"players": 3}, {"players": 4})),
)
_BY_NAME = {g.name: g for g in REGISTERED}


def game_types() -> tuple[GameType, ...]:
    """Every registered game, in registration order."""
    return REGISTERED


def game_names() -> tuple[str, ...]:
    return tuple(_BY_NAME)


def game_type(name: object) -> GameType:
    """The registered game called ``name``; ``ParameterError`` (parameter ``game``) for another name."""
    found = _BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        raise ParameterError("game", f"unknown; choose one of {', '.join(_BY_NAME)}", name, shown=True)
    return found


def document_game(value: object) -> GameType:
    """The game a position document's ``game`` field names (absent: None, the default game's)."""
    if value is None:
        return next(g for g in REGISTERED if g.document_default)
    return game_type(value)


def load_game(name: str, **params: Any) -> Ruleset:
    """The rule set of game ``name`` with ``params``, every combination checked (``ParameterError``)."""
    result: Ruleset = game_type(name).load(**params)
    return result


def describe_games() -> list[str]:
    """``kanaloa games`` for people: each game, its rules and its parameters with their defaults."""
    lines: list[str] = []
    for g in REGISTERED:
        lines.append(f"{g.name}  {g.title} ({g.rules}): {g.summary}")
        width = max(len(p.name) for p in g.parameters)
        for p in g.parameters:
            lines.append(f"  {p.name:<{width}}  {p.takes}; default {p.default}. {p.help}")
        lines.append("  rule sets, as options of new: " + "; ".join(g.options_of(e) for e in g.examples))
        lines.append("")
    return lines[:-1]


__all__ = ["FACES", "OPTIONAL_FACES", "GameType", "ParameterError", "brief", "describe_games", "document_game",
           "game_names", "game_type", "game_types", "load_game"]
