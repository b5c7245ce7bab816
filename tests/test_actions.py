"""The action codes (``kanaloa.rules.actions``): a build's color slot (R15) set, read and cleared."""

from __future__ import annotations

import pytest

from kanaloa.rules import actions as A


@pytest.mark.parametrize("kind, a, arg", [(A.PLACE, 0, 0), (A.PLACE, 36, 15), (A.SWAP, 5, A.SWAP_AA),
                                          (A.SWAP, 36, A.SWAP_BB)])
def test_with_slot_sets_the_slot_and_keeps_the_rest(kind, a, arg):
    """Slot 0 or 1 over a code of either slot: ``build_slot`` reads it back, ``build_arg`` and the rest stay."""
    plain = A.encode(kind, a, arg)
    assert A.build_slot(plain) == 0 and A.build_arg(plain) == arg
    for start in (0, 1):
        for slot in (0, 1):
            code = A.with_slot(A.with_slot(plain, start), slot)
            assert A.build_slot(code) == slot
            assert A.build_arg(code) == arg
            assert (A.kind_of(code), A.arg_a(code)) == (kind, a)
    assert A.with_slot(plain, 0) == plain
    assert A.with_slot(A.with_slot(plain, 1), 0) == plain
    assert A.with_slot(plain, 1) == plain | (1 << A.SLOT_BIT)
