"""The random streams of many seeded games: every seed a run uses, derived from the run's seed.

A tournament (``kanaloa simulate``), a soak, a fuzzing run and the puzzle
generator of ``kanaloa tactics`` each play many games from one seed.
Everything random in them flows from that seed and a game's index, never
from the process or machine that plays the game, so any number of workers
(or a cluster) plays the same games.  The derivations live here, once:

- ``stream_output(seed, i)``: output ``i`` (counting from 0) of the
  SplitMix64 stream (``kanaloa.rules.rng``) seeded with ``seed``, in O(1);
- ``deal_seed(seed, i)``: the seed that deals game (or deal) ``i`` of a run,
  ``stream_output(seed, i)``: exactly what ``kanaloa new --seed`` takes, so
  any game can be dealt again by hand;
- ``bot_seed(seed, game, seat)``: the seed the bot in ``seat`` of game
  ``game`` starts with (``Bot.start``): output ``SEED_STRIDE * game + seat``
  of the stream seeded with ``seed ^ BOT_SALT``; ``bot_seeds`` gives a
  game's seats at once;
- ``move_stream(deal_seed)``: the stream a soak game draws its random moves
  (and a crowded start's bridges) from, SplitMix64 seeded with
  ``deal_seed ^ MOVE_SALT``.

The salts keep the streams apart: no bot seed is a deal seed of the same
run, and no soak move stream is a deal.  Changing any of this changes every
recorded game of every seed.
"""

from __future__ import annotations

from ..rules.rng import GOLDEN, MASK64, SplitMix64

BOT_SALT = 0xD1B54A32D192ED03  # separates the bots' seed stream from the deal stream
MOVE_SALT = 0x5DEECE66DA3B9F17  # separates a soak game's move stream from its deal
SEED_STRIDE = 4  # bot seeds per game: one per seat of the largest table (games seat 2, 3 or 4 players)


def stream_output(seed: int, index: int) -> int:
    """Output ``index`` (from 0) of the SplitMix64 stream seeded with ``seed``, in O(1)."""
    return SplitMix64((seed + index * GOLDEN) & MASK64).next()


def deal_seed(seed: int, index: int) -> int:
    """The seed that deals game (or deal) ``index`` of the run seeded with ``seed``."""
    return stream_output(seed, index)


def bot_seed(seed: int, game: int, seat: int) -> int:
    """The seed the bot in ``seat`` of game ``game`` of the run seeded with ``seed`` starts with."""
    return stream_output(seed ^ BOT_SALT, SEED_STRIDE * game + seat)


def bot_seeds(seed: int, game: int, seats: int) -> tuple[int, ...]:
    """The seeds of the bots in seats ``0 .. seats - 1`` of game ``game``."""
    return tuple(bot_seed(seed, game, seat) for seat in range(seats))


def move_stream(deal: int) -> SplitMix64:
    """The stream a soak game dealt from ``deal`` draws its random moves from."""
    return SplitMix64(deal ^ MOVE_SALT)
