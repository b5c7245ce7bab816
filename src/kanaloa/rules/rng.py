"""The seeded random stream shared by the compiled core and the reference.

Both implementations draw every chance event (dealing, reshuffles) from this
generator, so that the same seed gives the same game in either of them.  It is
SplitMix64: a 64-bit state advanced by a constant and mixed on output.
``below(n)`` is ``next() % n`` (the tiny modulo bias is irrelevant for decks of
at most a few hundred cards, and it is trivial to reproduce in C).
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """A SplitMix64 stream; ``state`` is the whole of it (a uint64)."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        """Advance the stream and return the next uint64."""
        self.state = (self.state + GOLDEN) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return an integer in ``range(n)``; ``n`` must be positive."""
        return self.next() % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place: for i from len-1 down to 1 swap items[i] and items[below(i+1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
