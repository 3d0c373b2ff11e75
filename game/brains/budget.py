"""The budget guard: past a cap on estimated cost or on calls, stop spending.

It only answers "may I send another request?" from the usage meter's totals; the caller
falls back to the scripted brain when the answer is no. The first refusal yields a
message (once), so the player and the log learn why the residents changed voice.
"""

from __future__ import annotations

import threading

from game.brains.usage import UsageMeter


class BudgetGuard:
    def __init__(self, meter: UsageMeter, budget_usd: float = 0.0, max_calls: int = 0) -> None:
        self.meter = meter
        self.budget_usd = max(0.0, budget_usd)
        self.max_calls = max(0, max_calls)
        self._lock = threading.Lock()
        self._spent_reason = ""
        self._started = 0  # requests let through: parallel workers cannot overshoot the cap

    @property
    def exhausted(self) -> str:
        """Why spending stopped, or '' while it may go on."""
        return self._spent_reason

    def allow(self) -> tuple[bool, str]:
        """(may send, message): the message is non-empty exactly once, on the first no."""
        with self._lock:
            if self._spent_reason:
                return False, ""
            reason = self._over()
            if not reason:
                self._started += 1
                return True, ""
            self._spent_reason = reason
            return False, reason + ": the residents continue on the scripted brain"

    def _over(self) -> str:
        if self.max_calls and self._started >= self.max_calls:
            return f"model call cap reached ({self.max_calls} calls)"
        if self.budget_usd and self.meter.cost >= self.budget_usd:
            return f"budget reached (${self.meter.cost:.4f} of ${self.budget_usd:.2f})"
        return ""
