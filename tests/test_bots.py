"""Bots: the spec parser, and whole games played by every bot with 3 and 4 players.

Bots move for the seat to move in a full game state, but use only what that
seat knows; every game and every bot decision follows from explicit seeds.
"""

from __future__ import annotations

import pytest

from kanaloa.bots import GreedyBot, ISMCTSBot, PIMCBot, RandomBot, parse_bot_spec
from kanaloa.errors import OptionError

try:
    import kanaloa_core
    from kanaloa.core import core_board
except ImportError:  # the compiled core is not built in this checkout yet
    kanaloa_core = None

needs_core = pytest.mark.skipif(
    kanaloa_core is None or not hasattr(getattr(kanaloa_core, "CoreState", None), "determinise"),
    reason="the compiled core with determinise is not built",
)


# -- specs ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, cls",
    [("random", RandomBot), ("greedy", GreedyBot), ("pimc:iterations=200", PIMCBot), ("ismcts", ISMCTSBot),
     ("ISMCTS:Iterations=50", ISMCTSBot)],
)
def test_spec_names_the_bot(spec, cls):
    bot = parse_bot_spec(spec)
    assert isinstance(bot, cls)
    assert bot.spec == spec


def test_spec_options_reach_the_bot():
    bot = parse_bot_spec("ismcts:iterations=1000:c=0.7:margin=0.1:policy=random:seed=9")
    assert (bot.iterations, bot.seconds, bot.c, bot.margin, bot.seed) == (1000, None, 0.7, 0.1, 9)
    timed = parse_bot_spec("ismcts:time=0.25")
    assert (timed.iterations, timed.seconds) == (None, 0.25)
    pimc = parse_bot_spec("pimc:iterations=400:dets=4")
    assert (pimc.iterations, pimc.dets) == (400, 4)
    assert parse_bot_spec("greedy:width=50").width == 50


def test_search_bots_default_to_1000_iterations():
    assert parse_bot_spec("ismcts").iterations == 1000
    assert parse_bot_spec("pimc").iterations == 1000


@pytest.mark.parametrize(
    "spec, named",
    [
        ("", "empty"),
        ("alphazero", "'alphazero'"),
        ("ismcts:iterations", "'iterations'"),
        ("ismcts:iterations=lots", "'iterations'"),
        ("ismcts:iterations=0", "'iterations'"),
        ("ismcts:iterations=2.5", "'iterations'"),
        ("ismcts:time=0", "'time'"),
        ("ismcts:time=-1", "'time'"),
        ("ismcts:time=nan", "'time'"),
        ("ismcts:c=-0.1", "'c'"),
        ("ismcts:margin=2", "'margin'"),
        ("ismcts:policy=clever", "'policy'"),
        ("ismcts:depth=3", "'depth'"),
        ("ismcts:c=1:c=2", "'c'"),
        ("ismcts:iterations=10:time=1", "'time'"),
        ("random:iterations=10", "'iterations'"),
        ("greedy:width=0", "'width'"),
        ("pimc:dets=0", "'dets'"),
        ("random:seed=-1", "'seed'"),
    ],
)
def test_a_bad_spec_names_the_spec_and_the_key(spec, named):
    with pytest.raises(OptionError) as info:
        parse_bot_spec(spec)
    message = str(info.value)
    assert message.startswith(f"bot spec {spec!r}")
    assert named in message
