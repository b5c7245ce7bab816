"""Helpers shared by the tests that let bots play whole games of a variant (gods, Kahuna)."""

from __future__ import annotations

from collections import Counter

from kanaloa.play.bots import parse_bot_spec
from kanaloa.rules.ruleset import ruleset_for_state

# Every kind of bot, each with a budget small enough for whole games in a test.
SMALL = {"random": "random", "greedy": "greedy", "pimc": "pimc:iterations=60:dets=3",
         "ismcts": "ismcts:iterations=80", "hint": "hint:iterations=80"}


def play_out(board, state, specs, seed: int, most: int, kinds: Counter | None = None):
    """Play the core ``state`` to its end with the bots ``specs`` (by seat), seeded from ``seed``.

    Every choice must be a legal action and the game must end within ``most`` moves.  With ``kinds``,
    each move is counted there under (the mover's spec, the action's kind).  Returns ``state``, now over.
    """
    bots = [parse_bot_spec(spec) for spec in specs]
    for seat, bot in enumerate(bots):
        bot.start(ruleset_for_state(board, state.to_data()), 100 * seed + seat)
    moves = 0
    while not state.is_over:
        action = bots[state.to_move].choose(state)
        assert action in state.legal_actions(), f"{specs[state.to_move]} chose an illegal action {action}"
        if kinds is not None:
            kinds[(specs[state.to_move], action >> 16)] += 1
        state.apply(action)
        moves += 1
        assert moves < most, "the game did not end"
    return state
