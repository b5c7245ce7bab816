"""Random play for learning (``kanaloa.pettingzoo``): the PettingZoo AEC loop beside the batched API.

Group ``random play for learning (Kanaloa, 4 players)``: steps of uniformly
random legal play through the AEC environment (``last``, the mask, ``step``)
and through ``GameBatch`` (every game stepped with one call, the actions drawn
in C), with the budgets and seeds of ``kanaloa bench``
(``kanaloa.tools.benchmark``), so the suite times what the command reports.
Needs the extra pettingzoo.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from kanaloa.pettingzoo import GameBatch, make_env
from kanaloa.tools.benchmark import (
    FAMILY_GAME,
    FULL,
    LEARNING_RULES,
    LEARNING_SEED,
    aec_random_steps,
    batch_random_steps,
)

GROUP = "random play for learning (Kanaloa, 4 players)"
AEC_STEPS = 2000  # steps per round of the AEC loop
BATCH_CALLS = 20  # calls per round, each stepping every game of the batch


def test_the_pettingzoo_aec_loop(benchmark, rate):
    env = make_env(FAMILY_GAME, **LEARNING_RULES)
    benchmark.group = GROUP
    rate(benchmark, AEC_STEPS, "steps")
    assert benchmark(aec_random_steps, env, AEC_STEPS, LEARNING_SEED) == AEC_STEPS


def test_the_batched_api(benchmark, rate):
    batch = GameBatch(FAMILY_GAME, FULL.batch_slots, LEARNING_SEED, **LEARNING_RULES)
    benchmark.group = GROUP
    rate(benchmark, FULL.batch_slots * BATCH_CALLS, "steps")
    assert benchmark(batch_random_steps, batch, BATCH_CALLS) == FULL.batch_slots * BATCH_CALLS
