"""Undo and redo over the learner's walkthrough states.

A :class:`History` is immutable: the states before the present one (``past``, oldest first), the
present, and the states undone since the last new move (``future``, next first). Every new state the
learner reaches (a drag, K, the mode, a grade, a preset) is *observed*; undo and redo step through
what was observed. A new move after an undo forgets the undone states, as in every editor.

>>> from dataclasses import replace
>>> from irlab.walkthrough.state import DEFAULT_STATE
>>> history = History(DEFAULT_STATE).observe(replace(DEFAULT_STATE, k=3)).observe(replace(DEFAULT_STATE, k=5))
>>> history.present.k, history.undo().present.k, history.undo().undo().present.k
(5, 3, None)
>>> history.undo().redo().present.k
5
>>> history.undo().observe(replace(DEFAULT_STATE, k=7)).can_redo
False
"""

from __future__ import annotations

from dataclasses import dataclass

from irlab.walkthrough.state import WalkthroughState

MAX_STEPS = 200
"""States kept for undo; the oldest are dropped beyond this (a lecture is a few dozen moves)."""


@dataclass(frozen=True)
class History:
    """The learner's states: those to undo to, the present one, and those to redo."""

    present: WalkthroughState
    past: tuple[WalkthroughState, ...] = ()
    future: tuple[WalkthroughState, ...] = ()

    @property
    def can_undo(self) -> bool:
        return bool(self.past)

    @property
    def can_redo(self) -> bool:
        return bool(self.future)

    def observe(self, state: WalkthroughState) -> History:
        """``state`` as the new present; the old present becomes undoable. The same state is no new step."""
        if state == self.present:
            return self
        return History(state, (*self.past, self.present)[-MAX_STEPS:], ())

    def undo(self) -> History:
        """Back one state (no change when there is nothing to undo)."""
        if not self.past:
            return self
        return History(self.past[-1], self.past[:-1], (self.present, *self.future))

    def redo(self) -> History:
        """Forward one undone state (no change when there is nothing to redo)."""
        if not self.future:
            return self
        return History(self.future[0], (*self.past, self.present), self.future[1:])
