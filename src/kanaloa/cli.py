"""The ``kanaloa`` command.

Every error in what the user typed (a bad position, an illegal or malformed
move, a bad option) prints one line ``error: ...`` on standard error and exits
with status 2; no traceback is ever shown for it.
"""

from __future__ import annotations

import json
import os
import sys

import click

from .errors import KanaloaError, OptionError

EXIT_USAGE = 2
COLORS = ("red", "green", "blue", "yellow")


class KanaloaGroup(click.Group):
    """A click group whose errors are one line ``error: ...`` with status 2."""

    def main(self, args=None, prog_name=None, **extra):  # type: ignore[override]
        args = sys.argv[1:] if args is None else list(args)
        if not args:
            args = ["--help"]
        try:
            result = super().main(args=args, prog_name=prog_name or "kanaloa", standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("error: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            click.echo(f"error: {_one_line(exc.format_message())}", err=True)
            sys.exit(EXIT_USAGE)
        except KanaloaError as exc:
            click.echo(f"error: {_one_line(str(exc))}", err=True)
            sys.exit(EXIT_USAGE)
        except BrokenPipeError:
            # The reader went away (``kanaloa moves x | head``): not an error of ours.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        sys.exit(result if isinstance(result, int) else 0)


def _one_line(message: str) -> str:
    return " ".join(message.split())


def read_position(source: str, option: str = "POSITION"):
    """Load a position from a file path or ``-`` (standard input)."""
    from .position import Position

    if source == "-":
        text = sys.stdin.read()
        where = "standard input"
    else:
        try:
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            raise OptionError(f"{option} {source!r}: no such file") from None
        except IsADirectoryError:
            raise OptionError(f"{option} {source!r}: is a directory, not a position file") from None
        except OSError as exc:
            raise OptionError(f"{option} {source!r}: cannot read it ({exc.strerror})") from None
        where = source
    if not text.strip():
        raise OptionError(f"{option} {where}: empty input, expected a kanaloa-position/1 JSON document")
    return Position.from_json(text)


def emit_json(value) -> None:
    click.echo(json.dumps(value, indent=2))


@click.group(cls=KanaloaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kanaloa", prog_name="kanaloa")
def cli() -> None:
    """Kanaloa: rules engine, move hints and bot simulations for the board game.

    POSITION arguments are a file path or '-' for standard input, in the
    kanaloa-position/1 JSON format. Start with:

        kanaloa new --seed 1 | kanaloa show -
    """


@cli.command()
@click.option("--players", type=click.IntRange(3, 4), default=4, show_default=True, help="Number of players (R3).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Seed for the deal; the same seed deals the same game. Random when omitted (then printed on stderr).")
@click.option("--preset", type=click.Choice(["yucata", "tabletop"]), default="yucata", show_default=True,
              help="yucata: unlimited bridges; tabletop: 20 bridges per color (R13).")
@click.option("--board", default="oro", show_default=True, help="Built-in board name or board file path.")
@click.option("--viewer", type=click.Choice(COLORS), default=None,
              help="Print the position as this color sees it instead of the full position.")
def new(players: int, seed: int | None, preset: str, board: str, viewer: str | None) -> None:
    """Deal a new game and print its position (JSON)."""
    from .position import Position

    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
        click.echo(f"kanaloa: dealt with --seed {seed}", err=True)
    pos = Position.new(players=players, seed=seed, preset=preset, board=board)
    if viewer is not None:
        if viewer not in pos.colors:
            raise OptionError(f"--viewer {viewer!r}: not playing; the colors are {', '.join(pos.colors)}")
        pos = pos.as_viewer(viewer)
    click.echo(pos.dumps())


@cli.command()
@click.argument("position", metavar="POSITION")
@click.option("--color/--no-color", "use_color", default=None,
              help="Color the output (default: only on a terminal).")
def show(position: str, use_color: bool | None) -> None:
    """Draw the board, the cards and the turn state of POSITION."""
    from .display import render_position

    pos = read_position(position)
    if use_color is None:
        use_color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    click.echo(render_position(pos.to_json(), pos.board, use_color=use_color))


@cli.command()
@click.argument("position", metavar="POSITION")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of moves.")
def moves(position: str, as_json: bool) -> None:
    """List the legal moves of the player to move in POSITION."""
    pos = read_position(position)
    listed = pos.move_strings()
    if as_json:
        emit_json(listed)
    else:
        for text in listed:
            click.echo(text)


@cli.command()
@click.argument("position", metavar="POSITION")
@click.argument("moves", nargs=-1, required=True, metavar="MOVE...")
def play(position: str, moves: tuple[str, ...]) -> None:
    """Apply MOVEs to POSITION in order and print the resulting position.

    Each MOVE is one argument in the move notation, e.g. 'ALOA-BAFI/ALOA'
    or 'green: take RASI' (quote moves that contain spaces).
    """
    pos = read_position(position)
    for text in moves:
        pos.play(text)
    click.echo(pos.dumps())


@cli.command()
@click.argument("position", metavar="POSITION")
@click.option("--iterations", type=int, default=None,
              help="Search budget in iterations (default 5000 when no --time is given).")
@click.option("--time", "seconds", type=float, default=None, help="Search budget in seconds of wall time.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed of the search; the same position, iterations and seed give the same hint.")
@click.option("--top", type=int, default=5, show_default=True, help="How many candidate moves to list.")
@click.option("--json", "as_json", is_flag=True, help="Print the hint as JSON.")
def hint(position: str, iterations: int | None, seconds: float | None, seed: int, top: int, as_json: bool) -> None:
    """Suggest a move for the player to move in POSITION, from what that player knows.

    Prints the move, the plan to the end of the turn, and the leading
    candidates with their visits and estimated chance of winning.
    """
    from .hint import check_budget, hint as make_hint

    iterations, seconds = check_budget(iterations, seconds)
    pos = read_position(position)
    found = make_hint(pos, iterations=iterations, seconds=seconds, seed=seed, top=top)
    if as_json:
        emit_json(found.to_json())
        return
    click.echo(f"move: {found.move}")
    click.echo(f"plan: {', '.join(found.plan)}")
    click.echo("candidates:")
    width = max(len(c.move) for c in found.candidates)
    for cand in found.candidates:
        click.echo(f"  {cand.move:<{width}}  visits {cand.visits:>7}  win {100 * cand.win:5.1f}%")
    click.echo(f"{found.iterations} iterations in {found.seconds:.2f} s")


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``kanaloa`` console script."""
    cli.main(args=argv)


if __name__ == "__main__":  # pragma: no cover
    main()
