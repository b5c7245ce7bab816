"""The ``kanaloa`` command.

Every error in what the user typed (a bad position, an illegal or malformed
move, a bad option) prints one line ``error: ...`` on standard error and exits
with status 2; no traceback is ever shown for it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO

import click

from ..errors import (
    MAX_INPUT_BYTES,
    PATH_LIMIT,
    QUOTE_LIMIT,
    KanaloaError,
    MoveError,
    OptionError,
    PositionError,
    quote,
    shorten,
    too_large,
)
from ..play.interrupt import CtrlC
from ..play.limits import ANALYSIS_ITERATIONS, MAX_ITERATIONS, MAX_SECONDS, WORKERS_PER_CORE, SettingError, number
from .web.limits import DEFAULT_MAX_ITERATIONS

if TYPE_CHECKING:
    from ..rules.ruleset import ParameterError

EXIT_USAGE = 2
_TYPED = "kanaloa.typed"  # ctx.meta: what the user typed for each parameter of the command that refused one
# The options that give a search's settings (``kanaloa.play.limits.SettingError`` names the parameter).
SEARCH_OPTIONS = {"iterations": "--iterations", "seconds": "--time", "workers": "--workers", "top": "--top",
                  "first": "--from", "last": "--to"}


class KanaloaCommand(click.Command):
    """A command that keeps what the user typed for a parameter it refuses, so the message can quote it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        typed = list(args)  # the parser consumes its list
        try:
            return super().parse_args(ctx, args)
        except click.BadParameter:
            with contextlib.suppress(click.UsageError):
                opts, _, _ = self.make_parser(ctx).parse_args(args=typed)
                ctx.meta[_TYPED] = opts
            raise


class KanaloaGroup(click.Group):
    """A click group whose errors are one line ``error: ...`` with status 2 (``usage_message``).

    Every command runs inside a ``kanaloa.play.interrupt.CtrlC``: Ctrl-C
    stops it with status 130 (``error: interrupted``, or the command's own
    report of what it finished).  A search setting out of bounds
    (``SettingError``) is worded with the command's option
    (``SEARCH_OPTIONS``).
    """

    command_class = KanaloaCommand

    def main(self, args=None, prog_name=None, **extra):  # type: ignore[override]
        args = sys.argv[1:] if args is None else list(args)
        if not args:
            args = ["--help"]
        try:
            with CtrlC():
                result = super().main(args=args, prog_name=prog_name or "kanaloa", standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("error: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            click.echo(f"error: {_one_line(usage_message(exc, args))}", err=True)
            sys.exit(EXIT_USAGE)
        except SettingError as exc:
            click.echo(f"error: {_one_line(str(exc.worded(SEARCH_OPTIONS)))}", err=True)
            sys.exit(EXIT_USAGE)
        except KanaloaError as exc:
            click.echo(f"error: {_one_line(str(exc))}", err=True)
            sys.exit(EXIT_USAGE)
        except BrokenPipeError:
            _reader_gone()
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        # Click (8.2 and later) takes a broken pipe in ``main`` itself and exits with status 1; it is taken
        # here first, so that a reader that went away is no error of ours, whatever click's version.
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            _reader_gone()


def _reader_gone() -> None:
    """The reader of standard output went away (``kanaloa moves x | head``): not an error of ours, status 0.
    What is still buffered goes nowhere, so that closing standard output at exit cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(0)


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _cut_long_input(message: str, args: list[str]) -> str:
    """A message of click's with every long argument it quotes cut short, as ``errors.quote`` cuts ours.

    Click quotes what the user typed whole (``'x...x' is not one of ...``);
    an argument, or either side of an ``--option=value`` one, longer than
    ``QUOTE_LIMIT`` is shown by its first characters and its length.
    """
    pieces = {piece for arg in args for piece in (arg, *arg.split("=", 1)) if len(piece) > QUOTE_LIMIT}
    for piece in sorted(pieces, key=len, reverse=True):
        message = message.replace(repr(piece), quote(piece)).replace(piece, shorten(piece))
    return message


# -- click's refusals in the project's words: ``OPTION VALUE: why``, one line ----------------------------

_NO_SUCH_COMMAND = getattr(click.exceptions, "NoSuchCommand", ())  # click 8.2 and later; before, a UsageError


def usage_message(exc: click.ClickException, args: list[str]) -> str:
    """The ``error:`` line (without ``error: ``) of a refusal by click: the option or argument, what was typed,
    and why, e.g. ``--seed -1: must be a whole number from 0 to 2**64-1``."""
    ctx = getattr(exc, "ctx", None)
    command = _command_name(ctx)
    if isinstance(exc, click.NoSuchOption):
        maybe = f"; did you mean {' or '.join(exc.possibilities)}?" if exc.possibilities else ""
        return f"{shorten(exc.option_name)}: no such option of '{command}'{maybe}"
    if isinstance(exc, _NO_SUCH_COMMAND):
        maybe = (f"did you mean {' or '.join(exc.possibilities)}?" if exc.possibilities
                 else "'kanaloa --help' lists them")
        return f"{quote(exc.command_name)}: no such command; {maybe}"
    if isinstance(exc, click.MissingParameter) and exc.param is not None and ctx is not None:
        name = _param_name(exc.param)
        if isinstance(exc.param, click.Argument):
            return f"{name}: missing; usage: {command} {' '.join(ctx.command.collect_usage_pieces(ctx))}"
        return f"{name}: missing; '{command}' needs it (see '{command} --help')"
    if isinstance(exc, click.BadParameter) and exc.param is not None and ctx is not None:
        name = _param_name(exc.param)
        typed = _typed(exc.param, ctx)
        shown = f" {_shown(typed)}" if typed is not None else ""
        return f"{name}{shown}: {_why(exc.param.type, exc.message)}"
    if isinstance(exc, click.BadParameter) and exc.param_hint is not None:
        hint = exc.param_hint if isinstance(exc.param_hint, str) else " / ".join(exc.param_hint)
        return f"{hint}: {_sentence(exc.message)}"
    if isinstance(exc, click.BadOptionUsage):
        message = exc.message
        why = ("needs a value" if "requires an argument" in message else
               "takes no value" if "does not take a value" in message else _sentence(message))
        return f"{shorten(exc.option_name)}: {why}"
    if isinstance(exc, click.UsageError) and exc.message.startswith("Got unexpected extra argument"):
        extra = exc.message.partition("(")[2].rpartition(")")[0]
        plural = "s" if exc.message.startswith("Got unexpected extra arguments") else ""
        usage = f"; usage: {command} {' '.join(ctx.command.collect_usage_pieces(ctx))}" if ctx is not None else ""
        return f"{quote(extra)}: unexpected extra argument{plural}{usage}"
    if isinstance(exc, click.FileError):
        return f"{quote(exc.filename, PATH_LIMIT)}: cannot open it ({_sentence(exc.message)})"
    return _cut_long_input(_sentence(exc.format_message()), args)


def _command_name(ctx: click.Context | None) -> str:
    """``kanaloa new``: the command a context runs, named as the user calls it."""
    names: list[str] = []
    while ctx is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["kanaloa", *reversed(names[:-1])])


def _param_name(param: click.Parameter) -> str:
    """``--seed`` (an option by its long name) or ``POSITION`` (an argument by its metavar)."""
    if isinstance(param, click.Option):
        return max(param.opts, key=lambda opt: (opt.startswith("--"), len(opt)))
    return param.human_readable_name


def _typed(param: click.Parameter, ctx: click.Context) -> object:
    """What the user typed for ``param``: one value, or of several the first that ``param`` refuses."""
    typed = ctx.meta.get(_TYPED, {}).get(param.name)
    if not isinstance(typed, (list, tuple)):
        return typed
    for value in typed:
        try:
            param.type.convert(value, param, ctx)
        except click.BadParameter:
            return value
    return None


def _shown(value: object) -> str:
    """A typed value in a message: a number as it is, anything else quoted (and cut short)."""
    text = str(value)
    try:
        float(text)
    except ValueError:
        return quote(text)
    return text if len(text) <= QUOTE_LIMIT and text.strip() == text else quote(text)


def _bound(value: float) -> str:
    return "2**64-1" if value == 2**64 - 1 else f"{value:g}" if isinstance(value, float) else str(value)


def _why(kind: click.ParamType, message: str) -> str:
    """Why a value does not fit the type ``kind``, as the project words it."""
    if isinstance(kind, (click.IntRange, click.FloatRange)):
        what = "a whole number" if isinstance(kind, click.IntRange) else "a number"
        low, high = kind.min, kind.max
        above = "greater than" if kind.min_open else "at least"
        below = "less than" if kind.max_open else "at most"
        if low is not None and high is not None and not kind.min_open and not kind.max_open:
            return f"must be {what} from {_bound(low)} to {_bound(high)}"
        limits = ([f"{above} {_bound(low)}"] if low is not None else []) + (
            [f"{below} {_bound(high)}"] if high is not None else [])
        return f"must be {what} of {' and '.join(limits)}"
    if isinstance(kind, click.types.IntParamType):
        return "must be a whole number"
    if isinstance(kind, click.types.FloatParamType):
        return "must be a number"
    if isinstance(kind, click.types.BoolParamType):
        return "must be true or false"
    if isinstance(kind, click.Choice):
        return f"unknown; choose one of {', '.join(str(c) for c in kind.choices)}"
    return _sentence(message)


def _sentence(message: str) -> str:
    """Click's sentence as the tail of a message: no capital to start it, no full stop to end it."""
    text = _one_line(message).rstrip(".")
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def read_text(source: str, option: str, what: str) -> str:
    """The text of a file path or of ``-`` (standard input), as UTF-8.

    ``option`` names the argument in error messages, ``what`` says what the
    file should hold.
    """
    where = input_name(source, option)
    if source == "-":
        raw = _read_bounded(_stdin_bytes(), where, what)
    else:
        with open_input(source, where, what) as fh:
            raw = _read_bounded(fh, where, what)
    return _text_of(raw, where, what)


def _text_of(raw: bytes, where: str, what: str) -> str:
    """``raw`` as UTF-8 text; ``OptionError`` naming ``where`` for other bytes or for nothing but blanks."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OptionError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        raise OptionError(f"{where}: empty input, expected {what}")
    return text


def input_name(source: str, option: str) -> str:
    """How messages name an input: ``POSITION 'game.json'`` or ``POSITION (standard input)``."""
    return f"{option} {quote(source, PATH_LIMIT)}" if source != "-" else f"{option} (standard input)"


def _stdin_bytes() -> BinaryIO:
    if hasattr(sys.stdin, "buffer"):
        return sys.stdin.buffer
    return io.BytesIO(sys.stdin.read(MAX_INPUT_BYTES + 1).encode())  # pragma: no cover - a text-only stdin


def open_input(source: str, where: str, what: str) -> contextlib.AbstractContextManager[BinaryIO]:
    """``source`` opened for reading bytes (``-``: standard input); a failure is an ``OptionError``."""
    if source == "-":
        return contextlib.nullcontext(_stdin_bytes())
    try:
        return open(source, "rb")
    except FileNotFoundError:
        raise OptionError(f"{where}: no such file") from None
    except IsADirectoryError:
        raise OptionError(f"{where}: is a directory, not {what}") from None
    except OSError as exc:
        raise OptionError(f"{where}: cannot read it ({exc.strerror})") from None


def _read_bounded(fh: BinaryIO, where: str, what: str) -> bytes:
    """All of ``fh``, refused when it is larger than ``MAX_INPUT_BYTES`` (read no further than that)."""
    try:
        raw = fh.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise OptionError(f"{where}: cannot read it ({exc.strerror})") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise OptionError(too_large(where, what))
    return raw


def read_position(source: str, option: str = "POSITION"):
    """Load a position of any registered game from a file path or ``-`` (standard input)."""
    from ..position import read_position as read_document

    return read_document(read_text(source, option, "a kanaloa-position/1 JSON document"))


def emit_json(value) -> None:
    click.echo(json.dumps(value, indent=2))


def report_status(report, as_json: bool, *, failed: bool) -> int:
    """Print a checking tool's report (as JSON or as its summary) and return the command's exit status:
    130 when Ctrl-C cut the run short, 1 when it found something, 0 otherwise."""
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo(report.summary())
    if report.interrupted:
        return 130
    return 1 if failed else 0


@click.group(cls=KanaloaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kanaloa", prog_name="kanaloa")
def cli() -> None:
    """Kanaloa: rules engine, move hints and bot simulations for the board game.

    POSITION arguments are a file path or '-' for standard input, in the
    kanaloa-position/1 JSON format. Start with:

        kanaloa new --seed 1 | kanaloa show -
    """


def _game_names() -> tuple[str, ...]:
    """The registered games' names (``--game``'s choices), the default game first."""
    from ..rules.registry import game_names

    return game_names()


def _games_help(then: str) -> str:
    """``--game``'s help: each registered game's name and summary, then ``then``."""
    from ..rules.registry import game_types

    games = "; ".join(f"{g.name}: {g.title}, {g.summary}" for g in game_types())
    return f"The game ({games}). {then}"


def _viewer_colors() -> list[str]:
    """Every color a registered game may name, in registration order: the choices of ``--viewer``."""
    from ..rules.registry import game_types, load_game

    return list(dict.fromkeys(color for g in game_types() for color in load_game(g.name).palette))


@cli.command("games")
@click.option("--json", "as_json", is_flag=True,
              help="Print the games as JSON: a list of {name, title, rules, summary, parameters: [{name, takes, "
                   "default, help, kind, choices}], rule_sets: [{parameter: value}]}.")
def games_command(as_json: bool) -> None:
    """List the games kanaloa plays, each with its parameters and their defaults.

    Every game and rule set of the family is one game and a choice of its
    parameters: Kanaloa's two-player game (R15) is --players 2, Might of
    the Gods (R14) --gods, the tabletop preset (R13) --preset tabletop.
    'kanaloa new' deals any of them with the parameters as its options:

    \b
        kanaloa new --game kahuna --seed 1
        kanaloa new --players 2 --preset tabletop --gods --seed 1
    """
    from ..rules.registry import describe_games, game_types

    if as_json:
        emit_json([g.to_json() for g in game_types()])
        return
    for line in describe_games():
        click.echo(line)
    click.echo("")
    options = dict.fromkeys(f"--{p.name}" for g in game_types() for p in g.parameters)
    click.echo(f"kanaloa new --game GAME deals one; each parameter is an option of it ({', '.join(options)}).")


def _shown_value(parameter: str, value: object) -> str:
    """A parameter's value in a message: a number or a word the parameter knows (a preset, a built-in board) as
    it is, anything else the user typed quoted."""
    from ..rules.board import BUILTIN_BOARDS
    from ..rules.registry import game_types

    known = {c for g in game_types() for p in g.parameters if p.name == parameter for c in p.choices}
    if parameter == "board":
        known |= set(BUILTIN_BOARDS)
    if (isinstance(value, int) and not isinstance(value, bool)) or str(value) in known:
        return str(value)
    return quote(str(value), PATH_LIMIT if parameter == "board" else QUOTE_LIMIT)


def _as_option(error: ParameterError, given: dict[str, object]) -> OptionError:
    """A rule set's ``ParameterError`` worded as the option it came from: ``--players 3: Kahuna is for 2 players,
    white and black (R16.1)``; the value shown is the one typed, or the default the rule set refused."""
    value = given.get(error.parameter)
    if value is None and error.shown:
        value = error.value
    shown = "" if value is None or isinstance(value, bool) else f" {_shown_value(error.parameter, value)}"
    if shown and f" {shown.strip()}:" in f" {error.why}":
        shown = ""  # the reason quotes the value already: ``--tiles: tile 'nosuch': no such built-in tile``
    return OptionError(f"--{error.parameter}{shown}: {error.why}")


def game_parameter_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """One option for each parameter of the registered games (``kanaloa games`` lists them), in the order the
    games list them, its help the games' own.  The command receives them as keywords, None where not given,
    and passes on to ``load_game`` only those given (``given_parameters``)."""
    from ..rules.registry import game_types

    by_name: dict[str, list[tuple[Any, Any]]] = {}
    for g in game_types():
        for p in g.parameters:
            by_name.setdefault(p.name, []).append((g, p))
    for name, uses in reversed(list(by_name.items())):
        said: dict[tuple[str, str], list[tuple[str, str]]] = {}  # (what it means, takes) -> (game, its default)
        for g, p in uses:
            said.setdefault((p.help, p.takes), []).append((g.title, p.default))
        parts = []
        for (meaning, takes), games in said.items():
            defaults = (games[0][1] if len(games) == 1 else
                        ", ".join(f"{default} in {title}" for title, default in games))
            parts.append(f"{', '.join(title for title, _ in games)}: {meaning} ({takes}; default {defaults}).")
        text = " ".join(parts)
        kind = uses[0][1].kind
        if kind == "flag":
            option = click.option(f"--{name}", name, is_flag=True, default=None, help=text)
        else:
            option = click.option(f"--{name}", name, type=int if kind == "int" else str, default=None,
                                  metavar="N" if kind == "int" else name.upper(), help=text)
        command = option(command)
    return command


def given_parameters(params: dict[str, Any]) -> dict[str, Any]:
    """The game parameters a command was given (``game_parameter_options``), for ``load_game``."""
    return {name: value for name, value in params.items() if value is not None}


@cli.command()
@click.option("--game", type=click.Choice(_game_names()), default=_game_names()[0], show_default=True,
              help=_games_help("'kanaloa games' lists the games and their parameters, each an option here."))
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Seed for the deal; the same seed deals the same game. Random when omitted (then printed on "
                   "stderr). Not with --hand: the cards are then the ones you were dealt.")
@click.option("--viewer", type=click.Choice(_viewer_colors()), default=None,
              help="Print the position as this color sees it instead of the full position (with 2 players: a "
                   "player, named by its first color; in Kahuna white or black).")
@click.option("--hand", default=None, metavar="CARD,...",
              help="With --viewer, at a real table: the cards you were dealt (island names, any case, joined by "
                   "commas). Prints the position you face at the deal, nothing dealt at random (docs/table.md).")
@click.option("--face-up", "face_up", default=None, metavar="CARD,...",
              help="With --hand, in a game that turns cards face-up at the deal (Kahuna, R16.2): those cards, in "
                   "the order they lie.")
@click.option("--tokens", default=None, metavar="ISLAND=TOKEN,...",
              help="With --hand and --gods: the god token lying on each island at the deal (R14.1), e.g. "
                   "ALOA=KANE,BAFI=KU,... for all 16 islands.")
@game_parameter_options
def new(game: str, seed: int | None, viewer: str | None, hand: str | None, face_up: str | None,
        tokens: str | None, **params: Any) -> None:
    """Deal a new game and print its position (JSON).

    With --players 2 each player plays two colors (R15): red and blue
    against green and yellow, or the colors of --colors. --colors also
    seats the players of a larger game, or of Kahuna, in another order.

    With --game kahuna it deals Kahuna (R16) on its board: white against
    black, 3 cards each and 3 face-up, straight into round 1.

    With --gods it deals Might of the Gods (R14), a variant of Kanaloa: the
    cards as without it, and one god token face up on each island (the
    board must have 16 islands). The tokens' moves are 'LINK/KANALOA',
    'ku COLOR', 'steal CARD', 'pele', 'give COLOR CARD' and 'lono'.

    At a real table, --viewer with --hand (and --face-up or --tokens where
    the game shows those at the deal) prints the position you face:

    \b
        kanaloa new --viewer red --hand BAFI,HILO,ORO,RASI > table.json
        kanaloa new --game kahuna --viewer white --hand aloa,bari,coco --face-up duda,elai,faaa

    'kanaloa games' lists every game with its parameters and their
    defaults; each parameter is an option here.
    """
    from ..position import deal_position
    from ..rules.registry import ParameterError, load_game

    given = given_parameters(params)
    preset = given.get("preset")
    try:
        ruleset = load_game(game, **given)
    except ParameterError as exc:
        raise _as_option(exc, given) from None
    # Kahuna takes Kanaloa's default preset only to refuse any other (R16.9): naming one is refused too.
    refused = ruleset.lacks("rules.preset") if preset is not None else None
    if refused is not None:
        raise OptionError(f"--preset {_shown_value('preset', preset)}: {refused}")
    if hand is not None:
        click.echo(table_position(ruleset, viewer, hand, face_up, tokens, seed).dumps())
        return
    for option, value in (("--face-up", face_up), ("--tokens", tokens)):
        if value is not None:
            raise OptionError(f"{option}: goes with --hand, the cards you were dealt at a real table; without "
                              f"--hand the seed deals everything")
    announce = seed is None
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    pos = deal_position(ruleset, seed)
    if viewer is not None:
        try:
            pos = pos.as_viewer(viewer)
        except PositionError as exc:  # the position's "viewer: why", as the option it came from
            raise OptionError(f"--{exc}") from None
    if announce:  # every option is checked before the seed is announced
        click.echo(f"kanaloa: dealt with --seed {seed}", err=True)
    click.echo(pos.dumps())


# seen_deal's arguments, as the options of ``new`` that give them
_TABLE_OPTIONS = {"viewer": "--viewer", "hand": "--hand", "face_up": "--face-up", "tokens": "--tokens"}


def table_position(ruleset, viewer: str | None, hand: str, face_up: str | None, tokens: str | None,
                   seed: int | None):
    """``new --hand``: the position ``viewer`` faces at the deal of a real table of ``ruleset``'s game, from the
    cards it was dealt (and those face-up at the deal, the god tokens), as the web app's Table mode makes it
    (``kanaloa.position.table.seen_deal``).  Every refusal names the option at fault."""
    import re

    from ..position import Position
    from ..position.table import seen_deal

    hidden = ruleset.lacks("viewer")
    if hidden is not None:
        raise OptionError(f"--hand: {hidden}, so no hand is yours alone; deal the game without --hand")
    players = ", ".join(ruleset.seat_names)
    if viewer is None:
        raise OptionError(f"--hand: give --viewer too, the player who was dealt these cards (one of {players})")
    if seed is not None:
        raise OptionError(f"--seed {seed}: not with --hand; a seed deals cards at random, --hand gives the ones you "
                          f"were dealt (and a position seen by a player keeps no seed)")
    board = ruleset.board
    cards = _card_names("--hand", hand, board.islands[:ruleset.deal_size])
    shown = ruleset.face_up_at_deal
    if shown and face_up is None:
        example = ",".join(board.islands[-shown:])
        raise OptionError(f"--face-up: missing; {ruleset.title} turns {shown} cards face-up at the deal "
                          f"({ruleset.rule_of('deal')}): give them too, e.g. --face-up {example}")
    turned = None if face_up is None else _card_names("--face-up", face_up, board.islands[-max(shown, 1):])
    if ruleset.tokens and tokens is None:
        raise OptionError(f"--tokens: missing; this game lays a god token on each of the {board.n_islands} "
                          f"islands: give them all, e.g. --tokens {_tokens_example(ruleset)},... (tokens: "
                          f"{', '.join(ruleset.tokens)})")
    laid = None if tokens is None else _token_names(tokens, ruleset)
    try:
        doc = seen_deal(ruleset, viewer, cards, face_up=turned, tokens=laid)
    except OptionError as exc:  # "hand: why", "face_up 'X': why": the argument at fault, as its option
        field = re.match(r"\w+", str(exc))
        if field is None or field.group(0) not in _TABLE_OPTIONS:
            raise
        raise OptionError(_TABLE_OPTIONS[field.group(0)] + str(exc)[field.end():]) from None
    try:
        return Position.from_json(doc)
    except PositionError as exc:  # only the tokens are left to check: how many of each god (R14.1)
        where, _, why = str(exc).partition(": ")
        if not where.startswith("gods.on_islands") or laid is None:
            raise
        island = where[len("gods.on_islands."):]
        typed = f" {island}={laid[island]}" if island in laid else ""
        raise OptionError(f"--tokens{typed}: {why}") from None


def _card_names(option: str, text: str, example: tuple[str, ...]) -> list[str]:
    """The cards of ``text``, island names joined by commas (spaces around them allowed); an empty name is
    refused, the rest is ``seen_deal``'s to check."""
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise OptionError(f"{option} {quote(text)}: an empty card name; write the island names joined by commas, "
                          f"e.g. {option} {','.join(example)}")
    return names


def _tokens_example(ruleset) -> str:
    """The start of a ``--tokens`` value for ``ruleset``'s board: ``ALOA=KANE,BAFI=KANALOA``."""
    return ",".join(f"{name}={token}" for name, token in zip(ruleset.board.islands, ruleset.tokens[:2],
                                                             strict=False))


def _token_names(text: str, ruleset) -> dict[str, str]:
    """``ISLAND=TOKEN,...`` as island name -> token name (upper-cased); each island once."""
    out: dict[str, str] = {}
    for item in text.split(","):
        island, equals, token = (part.strip() for part in item.partition("="))
        if not equals or not island or not token:
            raise OptionError(f"--tokens {quote(item.strip())}: not ISLAND=TOKEN; write the token on each island, "
                              f"joined by commas: --tokens {_tokens_example(ruleset)},...")
        if island.upper() in out:
            raise OptionError(f"--tokens: {island.upper()} is given twice; name one token for each island")
        out[island.upper()] = token.upper()
    return out


@cli.command()
@click.argument("position", metavar="POSITION")
@click.option("--color/--no-color", "use_color", default=None,
              help="Color the output, also into a pipe or a file (default: only on a terminal, and not when "
                   "NO_COLOR is set).")
def show(position: str, use_color: bool | None) -> None:
    """Show the islands, bridges, cards and turn state of POSITION as tables ('kanaloa svg' draws the board)."""
    pos = read_position(position)
    if use_color is None:
        use_color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    display = pos.ruleset.game_type.face("display")  # the game's own terminal picture
    # color=: click would strip the codes again where the output is no terminal (a pipe, a file).
    click.echo(display(pos, use_color=use_color), color=use_color)


def write_output(text: str, target: str | None, option: str) -> None:
    """``text`` to standard output (``target`` None or ``-``) or to the file ``target``; a file that cannot be
    written is an ``OptionError`` naming ``option``."""
    if target is None or target == "-":
        click.echo(text, nl=False)
        return
    try:
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise OptionError(f"{option} {quote(target, PATH_LIMIT)}: cannot write it ({exc.strerror})") from None


@cli.command()
@click.argument("position", metavar="POSITION")
@click.option("-o", "--output", "output", default=None, metavar="FILE",
              help="Write the picture to FILE instead of standard output ('-': standard output).")
@click.option("--hint", "with_hint", is_flag=True,
              help="Ask for a hint for the player to move (as 'kanaloa hint' does) and draw its plan.")
@click.option("--iterations", type=int, default=None, help="With --hint: the search budget in iterations.")
@click.option("--time", "seconds", type=float, default=None,
              help="With --hint: the search budget in seconds. [default: 2, when no --iterations is given]")
@click.option("--workers", "workers", default=None, metavar="N",
              help="With --hint: worker processes searching at once. [default: the CPU cores this process may use]")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="With --hint: the seed of the search; the same position, --iterations, --workers and seed give "
                   "the same picture. [default: 0]")
@click.option("--width", type=click.FloatRange(min=1, max=100_000), default=None,
              help="The picture's width in pixels; the height follows. [default: 960]")
def svg(position: str, output: str | None, with_hint: bool, iterations: int | None, seconds: float | None,
        workers: str | None, seed: int | None, width: float | None) -> None:
    """Draw POSITION as an SVG picture: the board, the cards and the turn.

    Islands are circles sized by their link count, tinted and ringed in
    their controller's color (R2); bridges are thick lines in their
    owner's color (with two players each color its own, R15), free links
    thin grey ones; an island with a pending removal (R7) has a dashed
    ring. A panel beside the board shows whose turn it is, the scores,
    the face-up cards, the deck and discard counts and the hands as far
    as the position knows them: a position seen by a viewer shows what
    that viewer knows, and nothing else.

    With --hint the hint's plan is drawn on the board, its steps
    numbered: builds as dashed lines in the color they build with,
    removals as dashed lines with a cross, takes, draws and discards as
    marks on the cards; the panel lists the plan and its win chance.

    The picture holds no script; its elements carry data- attributes
    (data-link, data-island, data-card, ...) for programs, listed in
    docs/commands.md.
    """
    from ..play.hint import check_budget
    from ..play.hint import hint as make_hint
    from ..play.limits import worker_count
    from .svg import WIDTH

    if not with_hint:
        for given, name in ((iterations, "--iterations"), (seconds, "--time"), (workers, "--workers"),
                            (seed, "--seed")):
            if given is not None:
                raise OptionError(f"{name}: only with --hint, which it is a setting of")
    else:
        iterations, seconds = check_budget(iterations, seconds)
        count = worker_count(0 if workers is None else workers)
    pos = read_position(position)
    found = None
    if with_hint:
        found = make_hint(pos, iterations=iterations, seconds=seconds, seed=seed or 0, workers=count)
    picture = pos.ruleset.game_type.face("svg")  # the game's own picture
    write_output(picture(pos, hint=found, width=WIDTH if width is None else width), output, "-o")


@cli.command("board")
@click.argument("name", metavar="[BOARD]", default="oro")
@click.option("--json", "as_json", is_flag=True,
              help="Print the board as a board file (JSON): what --board reads, with every island's link count.")
@click.option("--svg", "svg_file", default=None, metavar="FILE",
              help="Write a picture of the board (SVG) to FILE; '-' prints it instead of the listing.")
@click.option("--layout", is_flag=True,
              help="Replace the islands' coordinates by a clean computed drawing (about 15 s): no crossing links, "
                   "the island with the most links in the middle. The board's own drawing must not cross.")
def board_command(name: str, as_json: bool, svg_file: str | None, layout: bool) -> None:
    """List the islands and links of BOARD: a built-in board (oro, kahuna) or a board file.

    BOARD is what --board takes elsewhere (default: oro). The listing
    gives each island's link count (its size, R1), its cards, its
    coordinates and the islands it is linked to, then every link in the
    board's order (the move notation's, e.g. ALOA-BAFI), and says whether
    the drawing's links cross. The format of a board file is in
    docs/boards.md; --json prints one, so

    \b
        kanaloa board oro --json > my-board.json

    starts a board of your own. --layout computes new coordinates (the
    built-in boards' were made so); with --json it prints the board file
    with them.
    """
    import dataclasses

    from ..position.format import dumps
    from ..rules.board import board_to_dict, load_board
    from . import layout as L
    from .svg import board_svg

    if svg_file == "-" and as_json:
        raise OptionError("--svg -: standard output already holds the --json board; write the picture to a file")
    bd = load_board(name)
    if layout:
        try:
            drawn = L.planar_layout(bd)
        except ValueError as exc:
            raise OptionError(f"--layout: board {quote(name, PATH_LIMIT)}: {exc}") from None
        bd = dataclasses.replace(bd, xy=tuple(drawn))
    if svg_file is not None:
        write_output(board_svg(bd), svg_file, "--svg")
        if svg_file == "-":
            return
    if as_json:
        click.echo(dumps(board_to_dict(bd)), nl=False)
        return
    for line in board_lines(bd):
        click.echo(line)


def board_lines(bd) -> list[str]:
    """The listing of ``kanaloa board``: the board, a table of its islands, its links, and its drawing."""
    import textwrap

    from . import layout as L

    neighbours = L.neighbours(bd)
    lines = [f"board {bd.name}: {bd.n_islands} islands, {bd.n_links} links, {bd.cards_per_island} cards per island "
             f"({bd.n_cards} cards)"]
    if bd.description:
        lines += textwrap.wrap(bd.description, 100, break_on_hyphens=False)
    width = max(6, *(len(n) for n in bd.islands))
    lines += ["", f"  {'island':<{width}}  links  cards  {'x':>7}  {'y':>7}  linked to"]
    for i, island in enumerate(bd.islands):
        x, y = bd.xy[i]
        linked = " ".join(bd.islands[j] for j in sorted(neighbours[i]))
        lines.append(f"  {island:<{width}}  {bd.size(i):>5}  {bd.cards_per_island:>5}  {x:>7.1f}  {y:>7.1f}  {linked}")
    lines += ["", f"links ({bd.n_links}, in the board's order)"]
    lines += textwrap.wrap("  ".join(bd.link_name(k) for k in range(bd.n_links)), 100, initial_indent="  ",
                           subsequent_indent="  ", break_on_hyphens=False)
    lines.append("")
    if len(set(bd.xy)) < bd.n_islands:
        lines.append("drawing: some islands share a point (a board file without xy?); pictures put the islands on "
                     "a circle instead")
    else:
        crossed = L.crossing_links(bd)
        if crossed:
            shown = ", ".join(f"{a} and {b}" for a, b in crossed[:3]) + (", ..." if len(crossed) > 3 else "")
            lines.append(f"drawing: {len(crossed)} pair(s) of links cross: {shown}")
        else:
            lines.append("drawing: no two links cross")
    return lines


@cli.command()
@click.argument("position", metavar="POSITION")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of moves.")
def moves(position: str, as_json: bool) -> None:
    """List the legal moves of the player to move in POSITION.

    The player's hand must be known to the position. A viewer position that
    waits for a 'faceup' record (after the setup or a reshuffle) says so
    instead of listing moves.

    A finished game has no moves: the command prints one line, e.g. 'the
    game is over: yellow wins on points; ranking yellow, red, blue, green'
    (or 'wins on eleven islands'), and exits with status 0: it is a fact
    about the position, not an error. With --json it prints [] and gives
    that line on standard error.
    """
    pos = read_position(position)
    if pos.is_over:
        over = game_over_line(pos)
        if as_json:
            emit_json([])
            click.echo(f"kanaloa: {over}", err=True)
        else:
            click.echo(over)
        return
    if pos.waiting is not None:
        # A viewer position that waits for a record has no moves yet; say what it waits for.
        if as_json:
            emit_json([])
            click.echo(f"kanaloa: waiting: {pos.waiting}", err=True)
        else:
            click.echo(f"waiting: {pos.waiting}")
        return
    listed = pos.move_strings()
    if as_json:
        emit_json(listed)
    else:
        for text in listed:
            click.echo(text)


def game_over_line(pos) -> str:
    """``the game is over: yellow wins on points; ranking yellow, red, blue, green`` (as ``show`` says it);
    ``nobody wins (points, R16.7)`` when a game that may end without a winner does (Kahuna); ``A and B
    share the victory (REASON, RULE)`` where the outcome names several ``winners`` (a game whose victory may
    be shared)."""
    outcome = pos.outcome
    if outcome is None:
        return "the game is not over"
    winner, reason = outcome["winner"], outcome["reason"]
    shared = outcome.get("winners") or []
    if winner is not None:
        wins = f"{winner} wins on {reason}"
    elif len(shared) > 1:
        wins = (f"{', '.join(shared[:-1])} and {shared[-1]} share the victory ({reason}, "
                f"{pos.ruleset.rule_of(reason)})")
    else:
        wins = f"nobody wins ({reason}, {pos.ruleset.rule_of(reason)})"
    return f"the game is over: {wins}; ranking {', '.join(outcome['ranking'])}"


@cli.command()
@click.argument("position", metavar="POSITION")
@click.argument("moves", nargs=-1, metavar="[MOVE]...")
@click.option("--moves-file", default=None, metavar="FILE",
              help="Play the moves in FILE first: one move per line (blank lines and '#' comments skipped), "
                   "a JSON list of moves, or a game record of 'kanaloa simulate --out' (its \"moves\"). "
                   "'-' reads standard input.")
def play(position: str, moves: tuple[str, ...], moves_file: str | None) -> None:
    """Apply MOVEs to POSITION in order and print the resulting position.

    Each MOVE is one argument in the move notation, e.g. 'ALOA-BAFI/ALOA'
    or 'green: take RASI' (quote moves that contain spaces).  With
    --moves-file, the file's moves come first, then the MOVE arguments.
    A game recorded by 'kanaloa simulate --out' replays with 'kanaloa
    replay RECORDS --game N', or by hand:

    \b
        kanaloa new --seed SEED --players P --preset X | kanaloa play - --moves-file RECORD
        kanaloa new --game kahuna --seed SEED | kanaloa play - --moves-file RECORD   (a Kahuna game)

    With the gods (R14) the tokens' moves are 'ALOA-BAFI/KANALOA' (and
    'LINK/KANALOA+CARD', 'LINK/KANALOA+KANALOA'), 'ku green' then 'steal
    ALOA', 'pele' then 'give green ORO' for each player PELE took from, and
    'lono' then 'take CARD' or 'draw'. A viewer position records them as the
    viewer saw them: 'ku green sees ALOA ORO RASI' (its own KU), 'red:
    steal' (a steal it did not see), 'pele takes green:ALOA blue:KULU' (its
    own PELE), 'red: pele takes ALOA' (the card PELE took from it), 'red:
    pele' (it held no card), 'red: give green' (a gift it did not see).
    """
    from_file: list[tuple[str, str]] = []
    if moves_file is not None:
        if moves_file == "-" and position == "-":
            raise OptionError("--moves-file '-': standard input already holds POSITION; give the moves in a file")
        from_file = read_moves_file(moves_file)
    if not from_file and not moves:
        raise OptionError("MOVE: no moves given; name at least one MOVE or a --moves-file")
    pos = read_position(position)
    if moves_file is not None:
        where = input_name(moves_file, "--moves-file")
        for text, at in from_file:
            try:
                pos.play(text)
            except MoveError as exc:  # which move of which file: 'line 7', or 'move 7' of a JSON list or record
                raise type(exc)(f"{where} {at}: {exc}") from None
    for text in moves:
        pos.play(text)
    click.echo(pos.dumps())


def read_moves_file(source: str) -> list[tuple[str, str]]:
    """The moves of a --moves-file (lines of notation, a JSON list, or a game record's "moves"), each with where
    it stands in the file for messages: ``line 7`` (lines), ``move 7`` (the 7th of a JSON list or record)."""
    where = f"--moves-file {quote(source, PATH_LIMIT)}"
    text = read_text(source, "--moves-file", "moves (one per line, a JSON list or a game record)")
    stripped = text.strip()
    if stripped[:1] in ("[", "{"):
        try:
            doc = json.loads(stripped)
        except json.JSONDecodeError as exc:
            if exc.msg == "Extra data" and _is_game_record(stripped.splitlines()[0]):
                raise OptionError(f"{where}: holds several game records, one per line; replay one with "
                                  f"'kanaloa replay {source} --game N'") from None
            raise OptionError(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
        except (RecursionError, ValueError) as exc:
            raise OptionError(f"{where}: not valid JSON ({_one_line(str(exc))[:80]})") from None
        found = doc.get("moves") if isinstance(doc, dict) else doc
        if not isinstance(found, list) or not all(isinstance(m, str) for m in found):
            raise OptionError(f"{where}: expected a JSON list of moves or an object whose \"moves\" is one")
        if not found:
            raise OptionError(f"{where}: the file holds no moves")
        return [(move, f"move {n}") for n, move in enumerate(found, start=1)]
    # Lines as an editor numbers them ("\n"; "\r\n" too, the "\r" is stripped with the blanks).
    listed = [(line.strip(), f"line {n}") for n, line in enumerate(text.split("\n"), start=1)
              if line.strip() and not line.strip().startswith("#")]
    if not listed:
        raise OptionError(f"{where}: the file holds no moves, only comments")
    return listed


def _is_game_record(line: str) -> bool:
    """True when ``line`` is one JSON record of 'kanaloa simulate --out'."""
    from ..play.records import RECORD_FORMAT

    try:
        doc = json.loads(line)
    except (RecursionError, ValueError):
        return False
    return isinstance(doc, dict) and doc.get("format") == RECORD_FORMAT


def chosen_record(fh: BinaryIO, where: str, game: int | None):
    """The record of game ``game`` in the records file ``fh`` (named ``where``), read to its end; with
    ``game`` None, the file's only game.  ``OptionError`` for a file without it, or with several games and
    no ``game``."""
    from ..play.records import GameRecord, read_records

    chosen: GameRecord | None = None
    seen: list[int] = []  # the first and the last game passed over
    for record in read_records(fh, where):
        if game is None and chosen is not None:
            raise OptionError(f"--game: {where} holds more than one game (games {chosen.index}, {record.index}, "
                              f"...); choose one with --game N")
        if game is None or record.index == game:
            chosen = record
        elif len(seen) < 2:
            seen.append(record.index)
        else:
            seen[1] = record.index
    if chosen is None:
        if game is None:
            raise OptionError(f"{where}: holds no game record")
        held = ("no game at all" if not seen else f"game {seen[0]} only" if len(seen) == 1
                else f"games {seen[0]} to {seen[1]}")
        raise OptionError(f"--game {game}: {where} holds no game {game} ({held})")
    return chosen


@cli.command()
@click.argument("records", metavar="RECORDS")
@click.option("--game", "game", type=click.IntRange(0), default=None, metavar="N",
              help="The game to replay: the record whose \"game\" is N. Needed when RECORDS holds more than one.")
@click.option("--at", "at", type=click.IntRange(0), default=None, metavar="K",
              help="Print the position after the game's first K moves (0: the deal) instead of the final one.")
def replay(records: str, game: int | None, at: int | None) -> None:
    """Replay a recorded game, check its record and print its final position (JSON).

    RECORDS is a file of game records (kanaloa-game/1, one per line, as
    'kanaloa simulate --out' writes them; docs/records.md "Game records";
    '-' reads standard input). The game is dealt again from its seed and rule
    set, and every move is played and checked, so the result is exactly the
    position the bots reached; the record's scores, ranks, winner (and
    winners, where players may share the victory) and reason must be that
    game's. With --at K the position after the first K moves
    is printed instead. Look at it with:

    \b
        kanaloa replay games.jsonl --game 5 --at 40 | kanaloa show -

    Records are read one line at a time, so a file of any number of games
    is fine; it is read to its end, every line must be a record (a line over
    4 MiB is refused), and a file holds each game once.
    """
    from ..play.records import replay as replay_record

    where = input_name(records, "RECORDS")
    with open_input(records, where, "game records of 'kanaloa simulate --out'") as fh:
        chosen = chosen_record(fh, where, game)
    if at is not None and at > chosen.length:
        raise OptionError(f"--at {at}: game {chosen.index} has {chosen.length} moves; give 0 (the deal) to "
                          f"{chosen.length}")
    try:
        pos = replay_record(chosen, at=at)
    except OptionError:
        raise  # a result the game does not have: the message names the line and the field
    except KanaloaError as exc:  # a move that does not fit the deal
        raise KanaloaError(f"{where}: {exc}") from None
    click.echo(pos.dumps())


_WORKERS_HELP = (f"0 means one per CPU core; at most {WORKERS_PER_CORE} per core.")


@cli.command()
@click.argument("source", metavar="RECORDS|POSITION")
@click.argument("moves", nargs=-1, metavar="[MOVE]...")
@click.option("--game", "game", type=click.IntRange(0), default=None, metavar="N",
              help="The recorded game to analyse: the record whose \"game\" is N. Needed when RECORDS holds more "
                   "than one.")
@click.option("--moves-file", default=None, metavar="FILE",
              help="With a POSITION: the moves to analyse, in FILE (as 'kanaloa play --moves-file' reads them), "
                   "before any MOVE arguments.")
@click.option("--from", "first", type=int, default=None, metavar="K",
              help="Grade the moves from move K on (moves count from 1); the moves before are played through.")
@click.option("--to", "last", type=int, default=None, metavar="L",
              help="Grade the moves up to move L (included); the moves after are played through.")
@click.option("--iterations", type=int, default=None,
              help=f"Search budget of each search, in iterations (at most {number(MAX_ITERATIONS)}). "
                   f"[default: {number(ANALYSIS_ITERATIONS)}]")
@click.option("--time", "seconds", type=float, default=None,
              help="Search budget of each search, in seconds of wall time (then the analysis depends on the "
                   "machine's speed).")
@click.option("--workers", "workers", default=None, metavar="N",
              help=f"Worker processes analysing moves at once; {_WORKERS_HELP} [default: 0]")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed of the searches; with --iterations the same game and seed give the same analysis on "
                   "any number of workers.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON (docs/commands.md).")
@click.option("--svg", "svg_file", default=None, metavar="FILE",
              help="Write the chart of every player's win chance over the game, graded moves marked, to FILE "
                   "('-': standard output).")
@click.option("--progress/--no-progress", default=True,
              help="Show progress on standard error (a live bar on a terminal, else a line every 30 s).")
def analyse(source: str, moves: tuple[str, ...], game: int | None, moves_file: str | None, first: int | None,
            last: int | None, iterations: int | None, seconds: float | None, workers: str | None, seed: int,
            as_json: bool, svg_file: str | None, progress: bool) -> int:
    """Grade every move of a game, from what its mover knew, with the win chances over the game.

    RECORDS is a file of game records ('kanaloa simulate --out', the web
    app's downloads; --game N picks one); or give a POSITION and the MOVEs
    played from it (a viewer position: only the viewer's own moves are
    graded, since the others' hands are unknown to it).

    Each move is judged from its mover's view of the game at that moment,
    never the full state: a search of the position gives the engine's move
    and the mover's win chance with it (before), and a second search that
    begins with the move played gives the chance after it (after); the loss
    is the difference. Grades, by the loss of win chance, where it is beyond
    the search's noise: best (the engine's move), good (under 5 points),
    inaccuracy (from 5), mistake (from 10), blunder (from 20, or a proven
    win thrown away), forced (the only legal move). Then, for each player,
    the mean loss, the count of each grade and the turning points (its
    largest losses). Every rule set of 'kanaloa games' is analysed the same
    way.

    \b
        kanaloa simulate --bots greedy,hint,greedy,greedy --games 4 --seed 1 --out games.jsonl
        kanaloa analyse games.jsonl --game 2 --svg game2.svg

    Moves are analysed in parallel by the workers; move i's searches are
    seeded from --seed and i alone, so with --iterations any worker count
    gives the same analysis. Ctrl-C stops the work and prints the analysis
    of the moves finished (exit status 130).
    """
    from ..play.analysis import analyse_game, analyse_record, check_analysis_budget
    from ..play.limits import long_search, worker_count
    from ..play.progress import Progress

    iterations, seconds = check_analysis_budget(iterations, seconds)
    count = worker_count(0 if workers is None else workers)
    if svg_file == "-" and as_json:
        raise OptionError("--svg '-': standard output already carries --json; write the chart to a file")
    what = "game records of 'kanaloa simulate --out', or a kanaloa-position/1 JSON document"
    where = input_name(source, "RECORDS|POSITION")
    with open_input(source, where, what) as fh:
        raw = _read_bounded(fh, where, what) if source == "-" else None  # standard input: read once, bounded
        stream = io.BytesIO(raw) if raw is not None else fh
        head = b""
        while not head.strip():
            head = stream.readline(MAX_INPUT_BYTES + 1)
            if not head:
                break
        stream.seek(0)
        records = _is_game_record(head.decode("utf-8-sig", errors="replace"))
        where = input_name(source, "RECORDS" if records else "POSITION")
        if records:
            if moves or moves_file is not None:
                raise OptionError(f"{'MOVE' if moves else '--moves-file'}: {where} holds game records, whose "
                                  f"own moves are analysed; give MOVEs only with a POSITION")
            chosen = chosen_record(stream, where, game)
        else:
            if game is not None:
                raise OptionError(f"--game {game}: {where} is not a file of game records; --game picks a "
                                  f"recorded game")
            raw = raw if raw is not None else _read_bounded(stream, where, what)
    if records:
        from ..play.records import replay as replay_record

        try:
            replay_record(chosen)  # the record's moves fit its deal and reach its result
        except OptionError:
            raise  # a result the game does not have: the message names the line and the field
        except KanaloaError as exc:
            raise KanaloaError(f"{where}: {exc}") from None
        played: list[str] = list(chosen.moves)
        label = f"game {chosen.index}"
    else:
        from ..position import read_position as read_document

        assert raw is not None  # read above, for a position
        start = read_document(_text_of(raw, where, what))
        played = [m for m, _ in read_moves_file(moves_file)] if moves_file is not None else []
        played += list(moves)
        if not played:
            raise OptionError("MOVE: no moves given; name the MOVEs played from POSITION, or a --moves-file")
        label = "the moves"
    meter = Progress(1, sys.stderr, "auto" if progress else "off", unit="moves")

    def advanced(done: int, total: int) -> None:
        if done == 0:  # the moves fit: say before a long silence what will be graded
            meter.total = total
            if meter.mode == "lines" and long_search(total * iterations if iterations is not None else None,
                                                     total * seconds if seconds is not None else None):
                click.echo(f"kanaloa analyse: {label}, grading {total} of {len(played)} moves on {count} "
                           f"worker{'s' if count > 1 else ''}; a progress line every 30 s", err=True)
            return
        meter.update(done)

    options: dict[str, Any] = {"iterations": iterations, "seconds": seconds, "seed": seed, "workers": count,
                               "progress": advanced, "first": first, "last": last, "interruptible": True}
    try:
        found = analyse_record(chosen, **options) if records else analyse_game(start, played, **options)
    finally:
        meter.close()
    if svg_file is not None:
        from .chart import win_chart

        write_output(win_chart(found), svg_file, "--svg")
    if as_json:
        emit_json(found.to_json())
    elif svg_file != "-":
        for line in found.summary_lines():
            click.echo(line)
    return 130 if found.interrupted else 0


@cli.command()
@click.argument("position", metavar="POSITION")
@click.option("--iterations", type=int, default=None,
              help=f"Search budget in iterations, shared among the workers (at most {number(MAX_ITERATIONS)}).")
@click.option("--time", "seconds", type=float, default=None,
              help=f"Search budget in seconds of wall time, all workers searching at once (at most "
                   f"{number(MAX_SECONDS)}, a day). [default: 2, when no --iterations is given]")
@click.option("--workers", "workers", default=None, metavar="N",
              help=f"Worker processes searching at once (root-parallel: their statistics are added up); "
                   f"{_WORKERS_HELP} [default: 0]")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed of the search; the same position, --iterations, --workers and seed give the same hint.")
@click.option("--top", type=int, default=5, show_default=True,
              help="How many candidate moves to list; moves about equal to the best are listed beyond it.")
@click.option("--json", "as_json", is_flag=True, help="Print the hint as JSON.")
def hint(position: str, iterations: int | None, seconds: float | None, workers: str | None, seed: int, top: int,
         as_json: bool) -> int:
    """Suggest a move for the player to move in POSITION, from what that player knows.

    Prints the move, the plan to the end of the turn, and the candidates
    with their estimated chance of winning, its 95% interval and their
    visits. "wins for certain" marks a move that forces a win (eleven
    islands; in Kahuna the opponent's last bridge, or the final scoring)
    with the mover's own next moves; it comes first. Candidates
    marked ~ are about equal to the best: the search cannot tell their win
    chances apart (a z test at 95%, with errors widened to the spread
    measured between runs), and each had at least 5% of the best's visits.
    Then what the plan gains for the mover: islands controlled (R2), score,
    and what the islands would score now (R11; Kahuna R16.6, R16.7), before
    and after the plan;
    and the final points the search expects for every color after the move.

    Without --iterations or --time the search takes 2 seconds on all cores.
    On a terminal a longer search shows its progress on standard error;
    elsewhere a long one (from 200,000 iterations or 5 seconds) says what it
    will search before it starts.
    Ctrl-C stops the search and prints the best hint found so far (exit
    status 130). Memory stays bounded whatever the budget: each worker's
    tree stops growing at 500,000 nodes (about 175 MB).
    """
    from ..play.hint import check_budget, check_top
    from ..play.hint import hint as make_hint
    from ..play.limits import budget_text, long_search, worker_count

    iterations, seconds = check_budget(iterations, seconds)
    check_top(top)
    count = worker_count(0 if workers is None else workers)
    pos = read_position(position)
    meter = _HintMeter(sys.stderr, expect_long=seconds is not None and seconds >= _HintMeter.AFTER)
    if not meter.live and long_search(iterations, seconds):
        click.echo(f"kanaloa hint: searching {budget_text(iterations, seconds)} on "
                   f"{count} worker{'s' if count > 1 else ''}...", err=True)
    try:
        found = make_hint(pos, iterations=iterations, seconds=seconds, seed=seed, top=top, workers=count,
                          progress=meter.show if meter.live else None, interruptible=True)
    finally:
        meter.close()
    if as_json:
        emit_json(found.to_json())
    else:
        for line in hint_lines(found):
            click.echo(line)
    return 130 if found.interrupted else 0


class _HintMeter:
    """The live progress line of a hint on a terminal (standard error): shown once the search has run
    ``AFTER`` seconds (at once when it is expected to run that long), erased when it ends."""

    AFTER = 1.0

    def __init__(self, stream, expect_long: bool) -> None:
        self.stream = stream
        self.live = bool(getattr(stream, "isatty", lambda: False)())
        self.expect_long = expect_long
        self.drawn = False

    def show(self, progress) -> None:
        from ..play.hint import format_progress

        if progress.seconds < self.AFTER and not self.expect_long:
            return
        try:
            width = os.get_terminal_size(self.stream.fileno()).columns or 80  # 0: a terminal that never said
        except (AttributeError, OSError, ValueError):
            width = 80
        # One line that never wraps, or the carriage return would redraw only its last part.
        self.stream.write("\r" + format_progress(progress)[:max(width - 1, 20)] + "\x1b[K")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False


def hint_lines(found) -> list[str]:
    """The text form of a ``kanaloa.play.hint.Hint``."""
    lines = [f"move: {found.move}", f"plan: {', '.join(found.plan)}"]
    width = max(7, *(len(c.move) for c in found.candidates))
    spans = [f"{100 * c.interval[0]:.1f}-{100 * c.interval[1]:.1f}%" for c in found.candidates]
    room = max(len("95% interval"), *(len(span) for span in spans))
    lines.append(f"{'candidates:':<{width + 4}}{'win':>6}  {'95% interval':>{room}}  {'visits':>8}")
    for cand, span in zip(found.candidates, spans, strict=True):
        mark = "=" if cand.same_plan else ("~" if cand.about_equal else " ")
        certain = "  wins for certain" if cand.proven else ""
        lines.append(f"{mark} {cand.move:<{width}}  {100 * cand.win:5.1f}%  {span:>{room}}  {cand.visits:>8}{certain}")
    n = len(found.about_equal)
    same = sum(1 for cand in found.candidates if cand.same_plan)
    if n > 1:
        marks = "~ or =" if same else "~"
        lines.append(f"{n} moves marked {marks} are about equal: the search cannot tell them apart")
    else:
        lines.append("no other move is about equal to the best (~)")
    if same:
        lines.append("= a later move of the plan: played first, the plan reaches the same position")
    for color, gain in found.gains.items():
        lines.append(f"plan gains for {color}: {gain.describe()}")
    best = found.candidates[0]
    if best.points:
        points = ", ".join(f"{color} {p:.1f}" for color, p in best.points.items())
        lines.append(f"expected final {found.points_name} after {best.move}: {points}")
    where = f"on {found.workers} workers" if found.workers > 1 else "on 1 worker"
    if found.interrupted:
        lines.append(f"search interrupted after {found.iterations} iterations ({found.seconds:.2f} s {where}): "
                     f"the best found so far")
    else:
        lines.append(f"{found.iterations} iterations in {found.seconds:.2f} s {where}")
    return lines


@cli.command()
@click.option("--iterations", type=int, default=None,
              help="Search budget of each hint in iterations. [default: the hint's own budget]")
@click.option("--time", "seconds", type=float, default=None,
              help="Search budget of each hint in seconds of wall time, instead of iterations.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed of every hint; with --generate, the seed of the games searched for puzzles.")
@click.option("--kind", "kinds", multiple=True, metavar="KIND",
              help="Run only the puzzles of KIND: eleven, last-turn or removal (repeat it for several). "
                   "[default: every kind]")
@click.option("--suite", "suite_file", default=None, metavar="FILE",
              help="Run the suite in FILE (one written by --generate; '-' reads standard input) instead of the "
                   "one shipped with kanaloa.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--progress/--no-progress", "progress", default=True, show_default=True,
              help="Show progress on stderr: a live line on a terminal; elsewhere what the run will do, then a "
                   "line every 30 s with the puzzles done and the time left.")
@click.option("--generate", is_flag=True,
              help="Build a new suite from seeded games instead of running one, and print it (or write --out).")
@click.option("--out", "out", default=None, metavar="FILE", help="With --generate: write the suite to FILE.")
@click.option("--games", type=click.IntRange(1), default=None,
              help="With --generate: how many seeded games to search. [default: 3000]")
@click.option("--per-kind", "per_kind", type=click.IntRange(1), default=None,
              help="With --generate: the most puzzles of each kind to keep. [default: 15]")
@click.option("--game", "game", default=None, metavar="GAME",
              help="The game whose puzzles to run or build: the suite holds Kanaloa's; another game is refused "
                   "with the reason it has none. [default: kanaloa]")
def tactics(iterations: int | None, seconds: float | None, seed: int, kinds: tuple[str, ...], suite_file: str | None,
            as_json: bool, progress: bool, generate: bool, out: str | None, games: int | None,
            per_kind: int | None, game: str | None) -> None:
    """Check the hint on the tactical suite: positions whose best first move is known exactly.

    Each puzzle is a position, seen by the player to move, where that player
    can make sure of winning before the turn ends, but not with every move:

    \b
      eleven     eleven islands this turn win at once (R8)
      last-turn  the last final turn of the game (R10), decided by the
                 final scoring (R11, R12)
      removal    a pending removal (R7) whose choice decides the win

    The correct first moves were found by trying every sequence of the
    mover's own moves to the end of the turn with the reference rules; no
    hidden card plays a part. The hint is asked for each puzzle (with the
    budget and seed given) and counts when its move is a correct one. The
    report gives the share found per kind and lists the misses.

    --generate builds a suite instead: it plays --games seeded games (2, 3
    and 4 players, greedy and random bots), solves the turns where a win
    may be certain, and keeps up to --per-kind puzzles of each kind, those
    with the fewest correct moves first. The same --seed, --games and
    --per-kind give the same suite. The shipped suite was made with
    'kanaloa tactics --generate --seed 0'.

    The puzzles are Kanaloa's: a game without any (--game) is refused in
    one line with its rule set's reason.
    """
    from ..play.hint import check_budget
    from ..play.progress import Progress
    from ..tools.tactics import (
        DEFAULT_GAMES,
        DEFAULT_PER_KIND,
        KINDS,
        SUITE_GAME,
        GenerateProgress,
        SuiteProgress,
        check_game,
        check_kinds,
        load_suite,
        parse_suite,
        run_suite,
    )
    from ..tools.tactics import generate as make_suite

    check_game(SUITE_GAME if game is None else game)
    live = progress and sys.stderr.isatty()
    if generate:
        for given, name in ((iterations, "--iterations"), (seconds, "--time"), (kinds or None, "--kind"),
                            (suite_file, "--suite")):
            if given is not None:
                raise OptionError(f"{name}: only for running a suite; --generate builds one")
        if as_json:
            raise OptionError("--json: --generate always prints the suite as JSON")

        planned, kept = games or DEFAULT_GAMES, per_kind or DEFAULT_PER_KIND
        logged = Progress(planned, sys.stderr, "lines" if progress and not live else "off")
        if logged.mode == "lines":  # a long run is not silent in a pipe or a log
            click.echo(f"kanaloa tactics: solving the turns of {planned:,} seeded games for puzzles, up to {kept} of "
                       f"each kind; then a progress line every 30 s", err=True)

        def generated(step: GenerateProgress) -> None:
            logged.update(step.games)
            if live:
                counts = ", ".join(f"{kind} {step.found[kind]}" for kind in KINDS)
                click.echo(f"\rgames {step.games}/{step.planned}; candidates: {counts}\x1b[K", err=True, nl=False)

        with contextlib.ExitStack() as stack:
            target = None
            if out is not None:  # opened first: a path that cannot be written fails before the games are played
                try:
                    target = stack.enter_context(open(out, "w", encoding="utf-8"))
                except OSError as exc:
                    raise OptionError(f"--out {quote(out, PATH_LIMIT)}: cannot write it ({exc.strerror})") from None
            try:
                suite = make_suite(seed=seed, games=planned, per_kind=kept, on_progress=generated)
            finally:
                if live:
                    click.echo("", err=True)
            if target is None:
                click.echo(suite.dumps(), nl=False)
                return
            target.write(suite.dumps())
        counts = ", ".join(f"{sum(p.kind == k for p in suite.puzzles)} {k}" for k in KINDS)
        click.echo(f"kanaloa: wrote {len(suite.puzzles)} puzzles ({counts}) to {out}", err=True)
        return
    for given, name in ((out, "--out"), (games, "--games"), (per_kind, "--per-kind")):
        if given is not None:
            raise OptionError(f"{name}: only with --generate")
    if iterations is not None or seconds is not None:
        check_budget(iterations, seconds)
    chosen = check_kinds(kinds)
    if suite_file is None:
        suite = load_suite()
    else:
        suite = parse_suite(read_text(suite_file, "--suite", "a tactical suite (kanaloa-tactics/1 JSON)"),
                            input_name(suite_file, "--suite"))

    name = suite_file or "bundled"
    count = len(suite.of_kinds(chosen))
    if progress and not live and count:  # a long run is not silent in a pipe or a log
        click.echo(f"kanaloa tactics: {_suite_plan(count, name, iterations, seconds, seed)}; then a progress line "
                   f"every 30 s", err=True)
    meter = SuiteProgress(count, sys.stderr, "auto" if progress else "off")
    try:
        report = run_suite(suite, iterations=iterations, seconds=seconds, seed=seed, kinds=chosen, name=name,
                           on_result=lambda done, total, result: meter.update(done))
    finally:
        meter.close()
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo(report.summary())


def _suite_plan(count: int, name: str, iterations: int | None, seconds: float | None, seed: int) -> str:
    """What a tactics run will do: ``45 puzzles of the bundled suite, a hint of 2,000 iterations each, seed 0``
    (with a time budget, and the hint's default one, also about how long it takes)."""
    from ..play.hint import DEFAULT_SECONDS

    suite = "the bundled suite" if name == "bundled" else f"suite {quote(name, PATH_LIMIT)}"
    puzzles = f"{count} puzzle{'s' if count != 1 else ''} of {suite}"
    if iterations is not None:
        return f"{puzzles}, a hint of {iterations:,} iterations each, seed {seed}"
    each = DEFAULT_SECONDS if seconds is None else seconds
    total = round(count * each)
    took = f"{total // 60} min {total % 60} s" if total >= 60 else f"{total} s"
    return f"{puzzles}, a hint of {each:g} s each (about {took} in all), seed {seed}"


class _WithBotSpecs(KanaloaCommand):
    """A command whose help ends with the bot specs and every key they take (``bots.bot_specs_help``)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from ..play.bots import bot_specs_help  # only when the help is shown: the bots take a while to import

        with formatter.section("Bot specs"):
            room = max(40, (formatter.width or 80) - formatter.current_indent)
            for line in bot_specs_help(room, measurement=True).splitlines():
                formatter.write(f"{'':>{formatter.current_indent}}{line}\n" if line else "\n")
        super().format_epilog(ctx, formatter)


@cli.command(cls=_WithBotSpecs)
@click.option("--bots", "bots", required=True, metavar="SPEC,...",
              help="The lineup, one bot spec per seat (2, 3 or 4), e.g. 'greedy,random,random,random' or "
                   "'ismcts:iterations=2000,greedy,greedy'. Bots: random, greedy, pimc, ismcts, hint, and "
                   "OpenSpiel's openspiel-ismcts and openspiel-mcts (with the extra openspiel), each with "
                   "key=value options after ':' (see 'Bot specs' below).")
@click.option("--games", type=int, default=None,
              help="Games to play: a multiple of the number of seats, since every deal is played once in "
                   "every seat rotation. [default: 25 deals, i.e. 100 games with 4 bots, 75 with 3, 50 with 2]")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Tournament seed: the same seed plays the same games. Random when omitted (then printed on "
                   "stderr).")
@click.option("--game", "game", type=click.Choice(_game_names()), default=_game_names()[0], show_default=True,
              help=_games_help("Its parameters follow; the lineup gives the number of players (--players, when "
                               "given, must agree with it)."))
@game_parameter_options
@click.option("--workers", "workers", default=None, metavar="N",
              help=f"Worker processes playing games in parallel; {_WORKERS_HELP} The results do not depend on "
                   f"it. [default: 1]")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on the Dask distributed cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786); "
                   "needs the cluster extra, and kanaloa on every worker. Same results as a local run.")
@click.option("--out", "out", default=None, metavar="FILE",
              help="Write every game as one game record (kanaloa-game/1: one JSON line a game; docs/records.md "
                   "\"Game records\"), in game order; 'kanaloa replay FILE --game N' replays one.")
@click.option("--report", "report_file", default=None, metavar="FILE",
              help="When the run ends, write the balance report of its games to FILE (an HTML page with plots, as "
                   "'kanaloa report' writes it from the records); needs the report extra.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--progress/--no-progress", "progress", default=True, show_default=True,
              help="Show progress on stderr: a live bar on a terminal, otherwise a line every 30 s.")
def simulate(bots: str, games: int | None, seed: int | None, game: str, workers: str | None,
             scheduler: str | None, out: str | None, report_file: str | None, as_json: bool, progress: bool,
             **params: Any) -> int:
    """Play bot against bot with rotated seats and summarise how each bot did.

    The lineup (--bots) has one spec per seat, so its length is the number
    of players, 2, 3 or 4; name a spec several times to seat it several
    times. With 2 players each plays two colors (R15), red and blue against
    green and yellow, and a player's points are its weaker color's (R15.5).
    Games come in deals: each deal (one shuffle) is played once for every
    rotation of the lineup (in rotation r, bot i sits in seat (i + r) mod
    players), so every bot sits in every seat equally often and card luck
    cancels out. --games must therefore be a multiple of the number of
    players. Game g is deal g // players, rotation g % players. With --game
    kahuna the lineup has 2 bots, white against black on the kahuna board
    (R16), and a game may end with no winner (R16.7). Every game 'kanaloa
    games' lists is played the same way, its parameters given as the options
    of the same names; a bot that the game cannot seat is refused before any
    game is played.

    Deal d's seed is output d of the SplitMix64 stream seeded with --seed;
    the bot in seat s of game g starts with output 4g + s of the stream
    seeded with --seed XOR a fixed salt. Nothing depends on the worker that
    plays a game, so any --workers count, or a cluster, plays the same games
    (bots with a time budget excepted: they think as long as the clock lets
    them).

    The summary has one row per distinct spec: games, wins, win share with a
    95% Wilson interval, mean points (or the score the game counts instead),
    mean rank (1 = best) and the win share from each seat. Where players may
    share the victory, each of k players sharing it counts 1/k of a win
    (docs/commands.md "simulate --json"). A spec named several times is one
    row whose games count player-games (3 random bots in 100 games: 300).
    Progress goes to stderr:
    a live bar on a terminal, elsewhere a line every 30 s. Ctrl-C stops the
    run, prints the summary of the finished games and exits with status 130.

    Each --out line is one game record, in game order: its rule set, deal
    seed, lineup by seat, bot seeds, moves, scores, ranks and winner (the
    format kanaloa-game/1; its keys are listed in docs/records.md "Game
    records"). Any game of the file replays exactly, to its end or to move
    K, and its record is checked against the game, with:

    \b
      kanaloa replay FILE --game N [--at K]

    A run of any length streams: games are handed out as workers free up,
    the summary is summed up as they finish and records are written as they
    come, so memory does not grow with --games.
    """
    from ..play.progress import Progress
    from ..play.records import GameRecord
    from ..play.simulate import run_tournament
    from ..play.tournament import make_tournament

    # Every option is checked before anything is announced or written.
    specs = bots.split(",")
    count = _game_workers(workers, scheduler)
    if games is None:  # 25 deals (a lineup the rule set refuses is refused before the games are counted)
        games = 25 * len(specs)
    announce = seed is None
    if seed is None:
        seed = _random_seed()
    tournament = make_tournament(specs, games, seed, game=game, **given_parameters(params))
    _check_scheduler(scheduler)
    sets = None
    if report_file is not None:
        _report_needs_matplotlib("--report")
        if report_file == "-":
            raise OptionError("--report -: the summary goes to standard output; give the report a file name")
        _check_report_output(report_file, "--report")
        from ..play.report import Sets

        sets = Sets()
    with contextlib.ExitStack() as stack:
        writer = _records_out(out, stack)
        if announce:
            click.echo(f"kanaloa: simulating with --seed {seed}", err=True)
        _note_time_budgets(tournament.lineup)
        meter = Progress(tournament.games, sys.stderr, "auto" if progress else "off")
        stack.callback(meter.close)
        if meter.mode == "lines":  # no live bar: say before a long silence what the bots will search
            _note_long_searches("simulate", f"{tournament.games} games", tournament.lineup, scheduler, count,
                                meter.interval)

        def finished(record: GameRecord) -> None:
            if writer is not None:
                writer.add(record)
            if sets is not None:
                sets.add(record, f"this run of kanaloa simulate (--seed {seed})")
            meter.update()

        # Streamed: the summary is summed up as games finish and the records go straight to --out,
        # so a run of any length needs the same memory.
        result = run_tournament(tournament, workers=count, scheduler=scheduler, on_record=finished,
                                keep_records=False)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(result.summary())
    if sets is not None and report_file is not None:
        if sets.tallies():
            _write_report(sets.tallies(), None, None, report_file, "--report")
        else:
            click.echo("kanaloa: no game finished, so no report was written", err=True)
    return 130 if result.interrupted else 0


def _game_workers(workers: str | None, scheduler: str | None) -> int:
    """The worker processes of a command that plays games (``--workers``, 1 when not given), refusing
    ``--workers`` beside ``--scheduler``."""
    from ..play.limits import worker_count

    if scheduler is not None and workers is not None and workers.strip() != "1":
        raise OptionError(f"--workers {workers}: cannot be combined with --scheduler; the cluster's workers "
                          f"play the games")
    return worker_count("1" if workers is None else workers)


def _check_scheduler(scheduler: str | None) -> None:
    """``--scheduler``'s address checked, without connecting (``kanaloa.play.pools.check_scheduler``)."""
    from ..play.pools import check_scheduler

    if scheduler is not None:
        check_scheduler(scheduler)


def _random_seed() -> int:
    """A run's seed when --seed is not given (the command then says which it used)."""
    return int.from_bytes(os.urandom(4), "big")


def _records_out(out: str | None, stack: contextlib.ExitStack):
    """The ``RecordWriter`` of ``--out FILE`` (None without it), its last records written when ``stack``
    closes (after an interruption too)."""
    from ..play.records import RecordWriter

    if out is None:
        return None
    try:
        writer = RecordWriter(stack.enter_context(open(out, "w", encoding="utf-8")))  # noqa: SIM115 - closed by stack
    except OSError as exc:
        raise OptionError(f"--out {quote(out, PATH_LIMIT)}: cannot write it ({exc.strerror})") from None
    stack.callback(writer.finish)  # the games finished before an interruption, too
    return writer


def _note_time_budgets(specs) -> None:
    """Say on stderr which bots think for a time: their games do not repeat from the seed."""
    from ..play.tournament import time_budgeted

    for spec in dict.fromkeys(specs):
        if time_budgeted(spec):
            click.echo(f"kanaloa: note: bot {quote(spec)} thinks for a time, not a number of iterations; "
                       f"its games depend on the machine's load and will not repeat from the seed", err=True)


def _note_long_searches(command: str, what: str, specs, scheduler: str | None, count: int, every: float) -> None:
    """Without a live line, say before a long silence what each bot that searches long searches a move."""
    from ..play.limits import budget_text, long_search
    from ..play.tournament import search_budget

    for spec in dict.fromkeys(specs):
        if long_search(*search_budget(spec)):
            where = f"Dask scheduler {scheduler}" if scheduler else f"{count} worker{'s' * (count > 1)}"
            click.echo(f"kanaloa {command}: {what} on {where}; bot {quote(spec)} searches "
                       f"{budget_text(*search_budget(spec))} a move, so a game may take long; progress "
                       f"every {every:g} s", err=True)


_GAMES_OPTIONS_HELP = {
    "workers": f"Worker processes playing games in parallel; {_WORKERS_HELP} The results do not depend on it. "
               f"[default: 1]",
    "scheduler": "Play on the Dask distributed cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786); needs "
                 "the cluster extra, and kanaloa on every worker. Same results as a local run.",
    "out": "Write every game as one game record (kanaloa-game/1: one JSON line a game; docs/records.md \"Game "
           "records\"), in game order; 'kanaloa replay FILE --game N' replays one.",
}


@cli.command(cls=_WithBotSpecs)
@click.option("--bots", "bots", required=True, metavar="SPEC,...",
              help="The bots to rate: 2 to 16 distinct bot specs, comma-separated, at least as many as the seats "
                   "(e.g. 'random,greedy,pimc,ismcts'; see 'Bot specs' below).")
@click.option("--games", type=int, default=None,
              help="Games to play: a multiple of the number of seats, since every deal is played once in every "
                   "seat rotation. [default: the fewest whole cycles of the groups that make 25 deals or more]")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Ladder seed: the same seed plays the same games. Random when omitted (then printed on stderr).")
@click.option("--game", "game", type=click.Choice(_game_names()), default=_game_names()[0], show_default=True,
              help=_games_help("Its parameters follow; --players is the seats of every game (default: the "
                               "game's own)."))
@game_parameter_options
@click.option("--anchor", default=None, metavar="SPEC",
              help="The bot of --bots rated 0 (its interval is then [0, 0]). [default: the mean rating is 0]")
@click.option("--workers", "workers", default=None, metavar="N", help=_GAMES_OPTIONS_HELP["workers"])
@click.option("--scheduler", default=None, metavar="ADDRESS", help=_GAMES_OPTIONS_HELP["scheduler"])
@click.option("--out", "out", default=None, metavar="FILE", help=_GAMES_OPTIONS_HELP["out"])
@click.option("--json", "as_json", is_flag=True, help="Print the ladder as JSON (kanaloa-ladder/1).")
@click.option("--progress/--no-progress", "progress", default=True, show_default=True,
              help="Show progress on stderr: a live bar on a terminal, otherwise a line every 30 s.")
def ladder(bots: str, games: int | None, seed: int | None, game: str, anchor: str | None, workers: str | None,
           scheduler: str | None, out: str | None, as_json: bool, progress: bool, **params: Any) -> int:
    """Rate bots against each other on duplicate deals, in groups that take turns.

    Every game has the seats of the rule set (--players, or the game's
    default) and a group of that many bots of --bots. Each deal is played
    by one group once in every seat rotation, as in 'kanaloa simulate'
    (in rotation r the group's bot i, in the order of --bots, sits in seat
    (i + r) mod seats), so each bot of the group sits in each seat once on
    that deal. With more bots than seats the deals take the C(bots, seats)
    groups in turn, in a fixed order that keeps the pairs of bots meeting
    about equally often; after each whole cycle of them every pair has met
    equally often. With as many bots as seats every deal is played by all
    of them, and the games are those of 'kanaloa simulate' with the same
    bots and seed. Game g is deal g // seats, rotation g % seats.

    The ratings are a Plackett-Luce fit of every game's placings (with two
    seats: Bradley-Terry, which is Elo), on the Elo scale: a bot rated 100
    more finishes above the other 64% of the time, at any player count.
    Players sharing a victory, or all players of a game without a winner,
    share a place; each order of a shared place counts equally. Each bot
    also has one virtual drawn game against a virtual bot rated 0, so a bot
    that won every game still has a finite rating. The mean rating is 0
    (or the --anchor bot's); the 95% intervals come from the fit's observed
    information. docs/commands.md "ladder" says it all in full.

    The table lists the bots best first: games, rating, 95% interval, win
    share (k players sharing a victory win 1/k each), mean rank and mean
    score. The last line gives the games, the seed and the SHA-256 of the
    move logs (each game's moves as a compact JSON list and a newline, in
    game order): 'jq -c .moves FILE | sha256sum' recomputes it from an
    --out FILE, so a rerun can be checked game for game. The same seed
    plays the same games (bots with a time budget excepted), on any number
    of workers or a cluster. Ctrl-C stops the run, prints the ladder of the
    finished games and exits with status 130.
    """
    from ..play.ladder import make_ladder, run_ladder
    from ..play.progress import Progress
    from ..play.records import GameRecord

    count = _game_workers(workers, scheduler)
    announce = seed is None
    if seed is None:
        seed = _random_seed()
    given = given_parameters(params)
    players = given.pop("players", None)
    lad = make_ladder(bots, games, seed, game=game, players=players, **given)
    anchor_number = None
    if anchor is not None:
        if anchor.strip() not in lad.bots:
            raise OptionError(f"--anchor {quote(anchor)}: not one of --bots ({', '.join(lad.bots)}); name the bot "
                              f"to rate 0 as --bots names it")
        anchor_number = lad.bots.index(anchor.strip())
    _check_scheduler(scheduler)
    with contextlib.ExitStack() as stack:
        writer = _records_out(out, stack)
        if announce:
            click.echo(f"kanaloa: playing the ladder with --seed {seed}", err=True)
        _note_time_budgets(lad.bots)
        meter = Progress(lad.games, sys.stderr, "auto" if progress else "off")
        stack.callback(meter.close)
        if meter.mode == "lines":
            _note_long_searches("ladder", f"{lad.games} games", lad.bots, scheduler, count, meter.interval)

        def finished(record: GameRecord) -> None:
            if writer is not None:
                writer.add(record)
            meter.update()

        result = run_ladder(lad, workers=count, scheduler=scheduler, on_record=finished, anchor=anchor_number)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(result.summary())
    return 130 if result.interrupted else 0


@cli.command(cls=_WithBotSpecs)
@click.argument("new", metavar="NEW")
@click.argument("base", metavar="BASE")
@click.option("--elo0", type=float, default=0.0, show_default=True,
              help="H0: NEW is this many Elo stronger than BASE (on the pairwise scale).")
@click.option("--elo1", type=float, default=10.0, show_default=True,
              help="H1: NEW is this many Elo stronger; above --elo0.")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="The chance of accepting H1 when H0 holds; above 0 and below 0.5.")
@click.option("--beta", type=float, default=0.05, show_default=True,
              help="The chance of accepting H0 when H1 holds; above 0 and below 0.5.")
@click.option("--max-games", "max_games", type=int, default=None,
              help="Stop undecided after this many games, a multiple of the seats. [default: no limit]")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Test seed: the same seed plays the same games and reaches the same decision. Random when "
                   "omitted (then printed on stderr).")
@click.option("--game", "game", type=click.Choice(_game_names()), default=_game_names()[0], show_default=True,
              help=_games_help("Its parameters follow; --players is the seats of every game (default: the "
                               "game's own)."))
@game_parameter_options
@click.option("--workers", "workers", default=None, metavar="N", help=_GAMES_OPTIONS_HELP["workers"])
@click.option("--scheduler", default=None, metavar="ADDRESS", help=_GAMES_OPTIONS_HELP["scheduler"])
@click.option("--out", "out", default=None, metavar="FILE",
              help="Write every counted game as one game record (kanaloa-game/1), in game order.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (kanaloa-sprt/1).")
@click.option("--progress/--no-progress", "progress", default=True, show_default=True,
              help="Show the test's line on stderr: redrawn on a terminal, otherwise a line every 30 s.")
def sprt(new: str, base: str, elo0: float, elo1: float, alpha: float, beta: float, max_games: int | None,
         seed: int | None, game: str, workers: str | None, scheduler: str | None, out: str | None, as_json: bool,
         progress: bool, **params: Any) -> int:
    """Test whether NEW is stronger than BASE, playing until a sequential test decides.

    NEW and BASE are bot specs. NEW plays against BASE in every other seat
    (with 3 or 4 players, copies of BASE), on duplicate deals: each deal is
    played once in every seat rotation, so NEW sits in each seat once a
    deal (with 2 players a deal is a pair of games). A game scores for NEW
    the share of the BASE seats it finishes above (a tie counts half), so
    0.5 is parity at any player count; a score s is 400 log10(s / (1 - s))
    Elo.

    The test is the generalised SPRT on the deals' scores, counted in deal
    order whatever order the workers finish them in: with n deals of mean
    score m and variance v, and s0, s1 the scores of --elo0 and --elo1,
    LLR = n (s1 - s0) (2m - s0 - s1) / (2v). It stops when LLR reaches
    log((1 - beta) / alpha) (H1 accepted: NEW gains), falls to
    log(beta / (1 - alpha)) (H0 accepted), or at --max-games (undecided).
    docs/commands.md "sprt" says it all in full.

    A line on stderr follows the test: deals and games, score, Elo with its
    95% interval, LLR and its bounds. The result gives the decision, the
    LLR and its bounds, the games, the Elo estimate and the SHA-256 of the
    counted games' move logs (as 'kanaloa ladder' computes it). The exit
    status is 0 for every decision, undecided included, 2 for bad input and
    130 after Ctrl-C (with the result of the deals counted so far).
    """
    from ..play.records import GameRecord
    from ..play.sprt import Hypotheses, LiveLine, SprtRun, run_sprt
    from ..play.tournament import check_games, make_tournament, measured_bot, option_error
    from ..rules.registry import load_game
    from ..rules.ruleset import ParameterError

    for label, spec in (("NEW", new), ("BASE", base)):
        try:
            measured_bot(spec)
        except OptionError as exc:
            raise OptionError(f"{label}: {exc}") from None
    hypotheses = Hypotheses(elo0, elo1, alpha, beta).check()
    count = _game_workers(workers, scheduler)
    try:
        ruleset = load_game(game, **given_parameters(params))
    except ParameterError as exc:
        raise option_error(exc) from None
    seats = ruleset.players
    if max_games is not None:
        check_games(max_games, seats, "--max-games")
    announce = seed is None
    if seed is None:
        seed = _random_seed()
    lineup = [new.strip()] + [base.strip()] * (seats - 1)
    # Without --max-games the deals go on until the test decides (or Ctrl-C).
    planned = max_games if max_games is not None else seats * (sys.maxsize // seats)
    tournament = make_tournament(lineup, planned, seed, ruleset=ruleset, games_option="--max-games")
    _check_scheduler(scheduler)
    with contextlib.ExitStack() as stack:
        writer = _records_out(out, stack)
        if announce:
            click.echo(f"kanaloa: testing with --seed {seed}", err=True)
        _note_time_budgets(lineup)
        meter = LiveLine(max_games, seats, sys.stderr, "auto" if progress else "off")
        stack.callback(meter.close)
        if meter.mode == "lines":
            _note_long_searches("sprt", "deals", lineup, scheduler, count, meter.interval)

        def counted(record: GameRecord) -> None:
            if writer is not None:
                writer.add(record)

        def deal_done(run: SprtRun) -> None:
            meter.run = run
            meter.update(run.deals)

        result = run_sprt(tournament, hypotheses, max_games, workers=count, scheduler=scheduler, on_record=counted,
                          on_deal=deal_done)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(result.summary())
    return 130 if result.interrupted else 0


@cli.command()
@click.argument("records", nargs=-1, required=True, metavar="RECORDS...")
@click.option("--vs", "versus", multiple=True, metavar="RECORDS",
              help="A file of the second record set, to show beside the first (the RECORDS arguments) with the "
                   "differences; give --vs once for each of its files. Without it the files' records are sorted "
                   "into sets by rule set and bots, and two sets are compared.")
@click.option("--label", "labels", multiple=True, metavar="TEXT",
              help="What the page calls a record set: once for one set, twice (A, then B) for two. [default: what "
                   "tells the sets apart: the game, the rule-set parameters that differ (gods, no gods), the bots "
                   "or the files]")
@click.option("--title", default=None, metavar="TEXT", help="The page's title. [default: 'Balance report: LABEL' "
                                                             "or 'Balance report: A vs B']")
@click.option("-o", "--output", "output", default="report.html", show_default=True, metavar="FILE",
              help="Where to write the page; '-' writes it to standard output.")
@click.option("--progress/--no-progress", "progress", default=True, show_default=True,
              help="Show the replaying on stderr: a live bar on a terminal, otherwise a line every 30 s.")
def report(records: tuple[str, ...], versus: tuple[str, ...], labels: tuple[str, ...], title: str | None,
           output: str, progress: bool) -> None:
    """Write a balance report of recorded games: one self-contained HTML page with plots.

    RECORDS are files of game records (kanaloa-game/1, one per line, as
    'kanaloa simulate --out' writes them; '-' reads standard input). Every
    record is replayed and checked, as 'kanaloa replay' does. The page
    answers whether the seats are fair (win share by seat with 95% Wilson
    intervals against the fair share, and a chi-square test of equal
    seats), and shows the score distributions, game length, how often each
    place of the game (an island, a landing board) ends held and by which
    seat, how the games ended and, where the bots differ, each bot's
    results. It needs matplotlib, the report extra:
    pip install 'kanaloa[report]'.

    A record set is games of one rule set played by one lineup of bots;
    files of the same set are pooled. Two sets (for example with and
    without --gods, or the two presets) are shown side by side, A and B,
    with the differences A minus B and their 95% intervals (Newcombe's for
    shares, normal for means) and a chi-square test that both spread their
    wins over the seats alike:

    \b
        kanaloa report yucata.jsonl tabletop.jsonl -o presets.html
        kanaloa report old.jsonl --vs new.jsonl --label before --label after

    Each game counts once: a record given twice is refused, and a record
    that repeats a game of its deal move for move (identical bots that
    decide alike play the same game in every seat rotation) counts only as
    a repeat. The same records give the same page byte for byte.
    docs/commands.md "report" says it all in full.
    """
    _report_needs_matplotlib("kanaloa report")
    _check_report_output(output, "-o")
    from ..play.progress import Progress
    from ..play.records import read_records
    from ..play.report import Sets

    inputs = [(source, "RECORDS", None if not versus else 0) for source in records]
    inputs += [(source, "--vs", 1) for source in versus]
    _check_report_inputs(inputs)
    if len(labels) > 2:
        raise OptionError(f"--label: given {len(labels)} times; a report shows one record set or two, each with "
                          f"one label")
    for label in labels:
        if not label.strip():
            raise OptionError("--label: empty; name the record set")
    sets = Sets(sides=2 if versus else None)
    with contextlib.ExitStack() as stack:
        opened = [(source, option, side, _report_input(source, option, stack)) for source, option, side in inputs]
        meter = Progress(sum(count for *_, (_, count) in opened), sys.stderr, "auto" if progress else "off",
                         unit="records")
        stack.callback(meter.close)
        for source, option, side, (fh, _) in opened:
            where = input_name(source, option)
            shown = "standard input" if source == "-" else source
            found = False
            for record in read_records(fh, where):
                sets.add(record, shown, side)
                found = True
                meter.update()
            if not found:
                raise OptionError(f"{where}: holds no game record")
    tallies = sets.tallies()
    if len(tallies) > 2:
        held = "; ".join(f"{t.ruleset.describe()}, bots {_lineup(t.lineup)}" for t in tallies)
        raise OptionError(f"RECORDS: the records hold {len(tallies)} record sets ({shorten(held, 300)}); a report "
                          f"shows one, or two side by side: give the files of one or two sets (the second with --vs)")
    if labels and len(labels) != len(tallies):
        raise OptionError(f"--label: given {len(labels)} time{'s' * (len(labels) > 1)}, but the records hold "
                          f"{len(tallies)} record set{'s' * (len(tallies) > 1)}; give one label a set, or none")
    if len(labels) == 2 and labels[0].strip() == labels[1].strip():
        raise OptionError(f"--label {quote(labels[0])}: given to both record sets; give each its own")
    _write_report(tallies, [label.strip() for label in labels] or None, title, output, "-o")


def _lineup(lineup) -> str:
    from ..play.report.tally import lineup_text

    return lineup_text(lineup)


def _report_needs_matplotlib(where: str) -> None:
    """Refuse (one line) a report where matplotlib, the extra ``report``, is not installed."""
    from ..play.report import check_matplotlib

    check_matplotlib(where)


def _check_report_output(target: str, option: str) -> None:
    """Refuse, before any work, a report file that cannot be written: a directory, or one in no directory."""
    if target == "-":
        return
    where = f"{option} {quote(target, PATH_LIMIT)}"
    if not target.strip():
        raise OptionError(f"{option}: empty; give a file name, or '-' for standard output")
    if os.path.isdir(target):
        raise OptionError(f"{where}: is a directory; give the report's file name")
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise OptionError(f"{where}: cannot write it (no directory {quote(folder, PATH_LIMIT)})")


def _check_report_inputs(inputs: list[tuple[str, str, int | None]]) -> None:
    """Refuse an input given twice (the same file, or standard input twice)."""
    seen: dict[str, str] = {}
    for source, option, _ in inputs:
        key = "-" if source == "-" else os.path.realpath(source)
        if key in seen:
            raise OptionError(f"{input_name(source, option)}: given twice (also as {seen[key]}); a report counts "
                              f"each game once")
        seen[key] = input_name(source, option)


def _report_input(source: str, option: str, stack: contextlib.ExitStack) -> tuple[BinaryIO, int]:
    """An input of ``kanaloa report`` opened, with the number of its lines that are not blank (for the
    progress); standard input, or a pipe, is first kept in a temporary file, to be read twice."""
    import tempfile

    where = input_name(source, option)
    fh = stack.enter_context(open_input(source, where, "game records of 'kanaloa simulate --out'"))
    count = 0
    try:
        if source == "-" or not fh.seekable():
            spool = stack.enter_context(tempfile.TemporaryFile())  # noqa: SIM115 - closed by stack
            while chunk := fh.read(1 << 20):
                spool.write(chunk)
            fh = spool
        fh.seek(0)
        while line := fh.readline(MAX_INPUT_BYTES + 1):
            count += bool(line.strip())
        fh.seek(0)
    except OSError as exc:
        raise OptionError(f"{where}: cannot read it ({exc.strerror})") from None
    return fh, count


def _write_report(tallies, labels: list[str] | None, title: str | None, output: str, option: str) -> None:
    """The report of ``tallies`` written to ``output`` (``-``: standard output), said on stderr."""
    from ..play.report import report_html

    page = report_html(tallies, labels, title)
    write_output(page, output, option)
    if output != "-":
        games = " and ".join(str(t.games) for t in tallies)
        click.echo(f"kanaloa: wrote the report of {games} games to {quote(output, PATH_LIMIT)}", err=True)


@cli.command()
@click.option("--quick", is_flag=True, help="A glance in a few seconds instead of the full report (under a minute).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench(quick: bool, as_json: bool) -> int:
    """Measure how fast each layer of the engine is, on one core.

    Whole random games in C; the same games driven move by move from
    Python and played by the reference implementation (reference_ratio);
    determinisations; one ISMCTS search; single operations on fixed
    reference positions.  Ends with the signature: the number of moves in
    a fixed set of seeded random games, which changes only when the rules'
    behaviour does and on which every engine must agree (exit status 1 if
    they do not).  The full run shows its progress on stderr.
    """
    from ..tools.benchmark import run_bench, stderr_progress

    report = run_bench(quick=quick, progress=None if quick else stderr_progress)
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo(report.table())
    if not report.agrees:
        click.echo("kanaloa bench: the engines played different games from the same seeds; "
                   "see the signature", err=True)
        return 1
    return 0


@cli.command()
@click.option("--positions", "count", type=click.IntRange(0, 1000), default=20, show_default=True,
              help="Reference positions from seeded games, besides the bundled examples.")
@click.option("--positions-seed", "positions_seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Seed of the games the reference positions come from. [default: 2026]")
@click.option("--seeds", type=click.IntRange(2, 100), default=5, show_default=True,
              help="Runs per position, with seeds 1, 2, ...")
@click.option("--iterations", type=int, default=None,
              help=f"Budget of every hint in iterations (at most {number(MAX_ITERATIONS)}).")
@click.option("--time", "seconds", type=float, default=None,
              help=f"Budget of every hint in seconds (at most {number(MAX_SECONDS)}) [default: the hint's default, "
                   f"when no --iterations is given].")
@click.option("--workers", "workers", default=None, metavar="N",
              help=f"Worker processes of every hint; {_WORKERS_HELP} [default: 0]")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def steadiness(count: int, positions_seed: int | None, seeds: int, iterations: int | None, seconds: float | None,
               workers: str | None, as_json: bool) -> None:
    """Check that hints agree from seed to seed, as far as each says it can tell.

    Hints every position once per seed. For every ordered pair of runs on
    a position, the pair agrees when the first run's move is about equal
    to the best in the second run. Prints the share of agreeing pairs, each
    position's moves, and how the errors the hints state compare with the
    spread of their win estimates between the runs (error ratio: near 1,
    the stated errors are the real ones). The positions are the bundled
    examples and seeded random games of 4, 3 and 2 players, each seen by
    its player to move; progress goes to stderr.
    """
    from ..play.hint import check_budget
    from ..play.limits import worker_count
    from ..tools.steadiness import REFERENCE_SEED, example_positions, measure, reference_positions

    def stderr_progress(message: str) -> None:
        click.echo(f"kanaloa steadiness: {message}", err=True)

    iterations, seconds = check_budget(iterations, seconds)
    procs = worker_count(0 if workers is None else workers)
    positions = example_positions() + reference_positions(count, REFERENCE_SEED if positions_seed is None
                                                          else positions_seed)
    report = measure(positions, tuple(range(1, seeds + 1)), iterations=iterations, seconds=seconds, workers=procs,
                     progress=stderr_progress)
    if as_json:
        emit_json(report.to_json())
        return
    for p in report.positions:
        click.echo(f"{p.name}: {p.agreeing}/{p.pairs} pairs agree; moves {', '.join(p.moves)}")
    click.echo(f"steadiness: {report.agreeing}/{report.pairs} pairs agree ({100 * report.share:.1f}%) "
               f"over {len(report.positions)} positions and {seeds} seeds")
    click.echo(f"error ratio: {report.error_ratio:.2f} (spread of win estimates between runs over the errors stated, "
               f"{report.moves_compared} moves)")


@cli.command()
@click.option("--games", type=click.IntRange(1), default=10_000, show_default=True,
              help="Games to play, through both engines side by side.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Soak seed: the same seed plays the same games. Random when omitted (then printed on stderr).")
@click.option("--workers", "workers", default="1", show_default=True, metavar="N",
              help=f"Worker processes playing games in parallel; {_WORKERS_HELP} The results do not depend on "
                   f"it.")
@click.option("--keep-going", is_flag=True,
              help="Play every game and count every divergence, instead of stopping at the first.")
@click.option("--game", "game", type=click.IntRange(0), default=None, metavar="N",
              help="Play only game N of the soak with --seed again, alone, and report it (a divergence's replay).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--progress/--no-progress", "progress", default=True, show_default=True,
              help="Show progress on stderr: a live bar on a terminal, otherwise a line every 30 s.")
def soak(games: int, seed: int | None, workers: str, keep_going: bool, game: int | None, as_json: bool,
         progress: bool) -> int:
    """Play random games through the compiled core and the reference at once, and compare them.

    Every move is drawn at random from the legal moves. After every move
    both engines' legal-move lists and the player to move must agree; at
    the start, whenever the turn passes and at the end their complete
    states must be equal. Games cycle through the example rule sets of
    every registered game (kanaloa games): first Kanaloa with 3, 4 and 2
    players (two colors each) and the yucata and tabletop presets, then the
    others. One in eight starts from a crowded start (a board crowded with
    bridges; each game says what its own holds) and one in eight jumps in
    after moves the core played alone. Everything follows from --seed and
    the game's number, so any --workers count plays the same games.

    Reports games, moves, divergences and time. By default the soak stops
    at the first divergence and prints a reproducer: the deal seed, the
    rule set, the start, how many moves were played, the moves so far and
    the command that plays the game again (--game). Exit status 1 when the
    engines diverged, 130 when interrupted (Ctrl-C).
    """
    from ..play.limits import worker_count
    from ..play.progress import Progress
    from ..tools.soak import replay_game, run_soak, soak_game

    if game is not None:
        if seed is None:
            raise OptionError(f"--game {game}: name the soak with --seed too; game {game} of another seed is "
                              f"another game")
        outcome = replay_game(seed, game)
        if as_json:
            emit_json({"game": game, "seed": seed, "moves": outcome.moves, "states_compared": outcome.states,
                       "divergence": None if outcome.divergence is None else outcome.divergence.to_json()})
        elif outcome.divergence is not None:
            click.echo(outcome.divergence.reproducer())
        else:
            g = soak_game(seed, game)
            click.echo(f"game {game} of the soak with seed {seed}: deal seed {g.seed}, {g.kind}, start: {g.start}; "
                       f"the engines agree over {outcome.moves} moves ({outcome.states} complete states compared)")
        return 0 if outcome.divergence is None else 1
    count = worker_count(workers)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
        click.echo(f"kanaloa: soaking with --seed {seed}", err=True)
    meter = Progress(games, sys.stderr, "auto" if progress else "off")
    try:
        result = run_soak(games, seed, workers=count, keep_going=keep_going, on_progress=meter.update)
    finally:
        meter.close()
    if as_json:
        for divergence in result.divergences:
            click.echo(divergence.reproducer(), err=True)
    return report_status(result, as_json, failed=bool(result.diverged))


@cli.command()
@click.option("--target", type=click.Choice(["positions", "moves", "boards", "all"]), default="all",
              show_default=True, help="What to damage and feed in.")
@click.option("--runs", type=click.IntRange(1), default=None,
              help="Runs per target. [default: 1000 when no --seconds is given]")
@click.option("--seconds", type=float, default=None,
              help="Fuzz for this long instead, the time split evenly among the targets.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Fuzz seed: the same seed damages the same inputs the same way. Random when omitted (then "
                   "printed on stderr).")
@click.option("--run", "run", type=click.IntRange(0), default=None, metavar="N",
              help="Do only run N of --target with --seed again, and show the traceback of its finding.")
@click.option("--save", "save_dir", default="fuzz-findings", show_default=True, metavar="DIR",
              help="Directory the input of each finding is written to (created when there is one).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures and findings as JSON.")
def fuzz(target: str, runs: int | None, seconds: float | None, seed: int | None, run: int | None, save_dir: str,
         as_json: bool) -> int:
    """Feed damaged positions, moves and data files to the program and report what it mishandles.

    Valid inputs of every registered game (positions of seeded games and,
    where the game hides cards, their viewer views; their moves; the
    built-in data files, such as boards) are damaged at random, as data and
    as text, and read by the game's own readers (read_position, the
    position's parse and play, the files' readers); one run in ten also
    goes through the command. Anything but a one-line kanaloa error is a
    finding, and so is an accepted position that cannot be played or does
    not read back as itself, and an accepted file with which the two
    engines disagree.

    Each finding is printed with its seed and run and the command that
    does that run again (--run), and its input is saved under --save.
    Exit status 1 when there are findings.
    """
    from ..tools.fuzz import check_budget, check_targets, replay_run, run_fuzz

    targets = check_targets(target)
    if run is not None:
        if seed is None or len(targets) != 1:
            raise OptionError(f"--run {run}: name the run's --target (not all) and --seed too")
        if runs is not None or seconds is not None:
            raise OptionError(f"--run {run}: does one run; leave out --runs and --seconds")
        result = replay_run(targets[0], seed, run, save_dir, command=cli)
        if as_json:
            emit_json({"target": targets[0], "seed": seed, "run": run, "accepted": result.accepted,
                       "refusal": result.refusal,
                       "finding": None if result.finding is None else result.finding.to_json()})
        elif result.finding is not None:
            click.echo(result.finding.reproducer())
            click.echo(result.finding.detail.rstrip())
        else:
            outcome = "accepted" if result.accepted else f"refused: {result.refusal}"
            click.echo(f"{targets[0]} run {run} (seed {seed}): no finding; the input was {outcome}")
        return 0 if result.finding is None else 1
    if runs is None and seconds is None:
        runs = 1000
    check_budget(runs, seconds)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
        click.echo(f"kanaloa: fuzzing with --seed {seed}", err=True)
    report = run_fuzz(targets, seed, runs=runs, seconds=seconds, save_dir=save_dir, command=cli)
    return report_status(report, as_json, failed=bool(report.total_findings))


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. The default serves this machine alone; any other address (0.0.0.0: "
                   "every one) lets other machines in, and then only with the access token the addresses it "
                   "prints carry.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to listen on; 0 lets the system choose a free one.")
@click.option("--token", metavar="TOKEN", envvar="KANALOA_SERVE_TOKEN",
              help="The access token instead of a new random one, so that an address a phone kept still opens "
                   "after a restart (e.g. the token a previous run printed): at least 16 letters, digits, - or _. "
                   "Given on loopback, it asks for the token there too. Read from KANALOA_SERVE_TOKEN when not "
                   "given, which keeps it out of the process list.")
@click.option("--qr/--no-qr", "qr", default=None,
              help="Draw the address with its token as a QR code for a phone to scan. By default drawn when the "
                   "app is reachable from other machines and standard error is a terminal.")
@click.option("--open", "open_browser", is_flag=True, help="Open the app in the default web browser.")
@click.option("--hint-iterations", type=click.IntRange(1, 1_000_000), default=4000, show_default=True,
              help="Search budget of a hint in the app, in iterations.")
@click.option("--hint-workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help=f"Worker processes of a hint in the app; at most {WORKERS_PER_CORE} per CPU core.")
@click.option("--max-iterations", type=click.IntRange(1, MAX_ITERATIONS), default=None,
              help=f"The most iterations a request may ask of one search: a hint's, or a bot seat's per move. "
                   f"Default: {number(DEFAULT_MAX_ITERATIONS)}, or --hint-iterations when that is larger; never "
                   f"below --hint-iterations. docs/web.md lists the other caps.")
@click.option("--db", "db", metavar="PATH", default=None,
              help="The SQLite database the app keeps its games in, every move committed as it is made "
                   "[default: games.sqlite3 in the user's data folder, e.g. ~/.local/share/kanaloa]; ':memory:' "
                   "keeps them only while the server runs.")
def serve(host: str, port: int, token: str | None, qr: bool | None, open_browser: bool, hint_iterations: int,
          hint_workers: int, max_iterations: int | None, db: str | None) -> None:
    """Run the web app: play against bots, follow a real table, edit boards, replay records.

    Open the address it prints in a browser. Everything runs on this
    machine; the page loads nothing from elsewhere. Stop it with Ctrl-C.
    On an address other machines can reach, every request needs the
    access token of the printed address (docs/web.md "At the table, from
    a phone"). See docs/web.md for the modes and the HTTP API.
    """
    import secrets
    import socket

    from ..play.limits import worker_count
    from .web.access import check_token
    from .web.limits import max_iterations_for
    from .web.server import lan_addresses, listen, run
    from .web.store import MEMORY, Store, StoreError, default_path

    try:
        worker_count(hint_workers)  # every hint of the app runs on them: refused now, not at each hint
    except SettingError as exc:
        raise exc.worded({"workers": "--hint-workers"}) from None
    max_iterations = max_iterations_for(hint_iterations, max_iterations)
    if token is not None:
        why = check_token(token)
        if why is not None:
            raise OptionError(f"--token: {why}")  # the token itself is not repeated: it is a secret
    try:
        sock = listen(host, port)
    except OSError as exc:
        raise OptionError(f"--host {quote(host)} --port {port}: cannot listen there ({exc.strerror or exc})") from None
    except UnicodeError:
        raise OptionError(f"--host {quote(host)}: not a host name or address") from None
    try:
        store = Store(db if db is not None else default_path())
    except StoreError as exc:
        sock.close()
        raise OptionError(str(exc)) from None
    address = sock.getsockname()
    local = listen_is_local(address[0])
    if token is None and not local:
        token = secrets.token_urlsafe(16)  # a network address never serves without one
    everywhere = address[0] in ("0.0.0.0", "::")  # every address of the machine: name those of its networks
    lan = lan_addresses(sock) if everywhere else []
    hosts = lan or (["::1" if sock.family == socket.AF_INET6 else "127.0.0.1"] if everywhere else [address[0]])
    query = "" if token is None else f"?token={token}"
    urls = [f"http://{f'[{h}]' if ':' in h else h}:{address[1]}/{query}" for h in hosts]
    click.echo(f"kanaloa: serving on {urls[0]} (Ctrl-C stops it)", err=True)
    for url in urls[1:]:
        click.echo(f"kanaloa: serving on {url}", err=True)
    click.echo(f"kanaloa: games are kept in {store.path}" if store.path != MEMORY else
               "kanaloa: games are kept in memory only (--db :memory:): they end when the server stops", err=True)
    if everywhere and not lan:
        click.echo(f"kanaloa: note: found no address of this machine on a network; from another machine, use the "
                   f"address this one has there, port {address[1]}, with the token above", err=True)
    if token is not None:
        reach = "only this machine reaches" if local else "other machines may reach"
        above = "the address above" if len(urls) == 1 else "the addresses above"
        click.echo(f"kanaloa: note: {reach} this server (on {address[0]}); a request passes only with the access "
                   f"token of {above}, kept in a cookie after the first visit; --token keeps the same one over a "
                   f"restart", err=True)
    if qr is None:
        qr = token is not None and not local and sys.stderr.isatty()
    if qr:
        from .qr import qr_lines

        color = sys.stderr.isatty() and "NO_COLOR" not in os.environ
        if len(urls) > 1:
            click.echo("kanaloa: the first address as a QR code, for a phone to scan:", err=True)
        for line in qr_lines(urls[0], color=color):
            click.echo(line, err=True)
    if open_browser:
        import webbrowser

        webbrowser.open(urls[0])
    run(sock, hint_iterations=hint_iterations, hint_workers=hint_workers, max_iterations=max_iterations,
        token=token, store=store)


def listen_is_local(address: str) -> bool:
    """True for a loopback address (127.0.0.0/8, ::1)."""
    import ipaddress

    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``kanaloa`` console script."""
    cli.main(args=argv)


if __name__ == "__main__":  # pragma: no cover
    main()
