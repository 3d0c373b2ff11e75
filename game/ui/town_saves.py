"""The town scene's part that saves (F5), loads (F9) and autosaves the game.

`TownSaves` is a part of `town_scene.TownScene` (it works on the scene's own state).
"""

from __future__ import annotations

from game.core.clock import fmt_time
from game.core.errors import SmallvilleError
from game.sim import saves
from game.sim.simulation import ClockMode
from game.ui import theme
from game.ui.input import Command

CONFIRM_SECONDS = 5.0  # F9 must be pressed again within this to load over unsaved play
QUICKSAVE = "quicksave"


class TownSaves:
    """F5, F9 and the periodic autosave, each said in a toast."""

    def _save(self, command: Command) -> None:
        if self.sim.recorded:
            self.notes.push("A replay cannot be saved: it is the recorded run.", theme.ACCENT)
            return
        name = self.app.options.save_name or QUICKSAVE
        try:
            if self._autosaving_into(name) or self._held_elsewhere(name):
                return
            path = saves.save_game(self.sim, name)
        except (SmallvilleError, OSError) as exc:
            self.notes.push(f"could not save: {exc}", theme.ACCENT)
            return
        self.notes.push(f"saved as {name} ({path})", theme.GOOD)

    def _autosaving_into(self, name: str) -> bool:
        """F5 into this game's own autosave folder: an autosave now. A save there waited
        10 s on the lock this game holds for its autosaves, then was refused."""
        if not self.autosaver.holds(saves.name_folder(name)):
            return False
        if self.autosaver.now():
            self.notes.push(f"{name} is this game's autosave: autosaving now", theme.GOOD)
        else:
            self.notes.push(f"An autosave into {name} is being written: try F5 in a moment.")
        return True

    def _held_elsewhere(self, name: str) -> bool:
        """Another game holds that save's folder for its autosaves: said at once (the
        save would freeze the window for the lock's wait, then be refused)."""
        held = saves.claim(saves.name_folder(name), wait=0.0)
        if held is not None:
            held.release()
            return False
        self.notes.push(
            f"could not save: another game is autosaving as {name}; "
            "save under another name (play --save NAME)",
            theme.ACCENT,
        )
        return True

    def _load(self, command: Command) -> None:
        name = self.app.options.save_name or QUICKSAVE
        if self.confirm_load_until <= self.notes.clock:
            self.confirm_load_until = self.notes.clock + CONFIRM_SECONDS
            self.notes.push(
                f"Press F9 again to load {name}: play since your last save is lost.", theme.ACCENT
            )
            return
        self.confirm_load_until = 0.0
        try:  # the window plays a loaded game on its real-time clock, whatever the save ran
            # the same endpoint, model and caps as the game began with
            sim = saves.load_with(name, self.app.options, mode=ClockMode.REALTIME)
        except (SmallvilleError, OSError) as exc:
            self.notes.push(f"could not load {name}: {exc}", theme.ACCENT)
            return
        self.app.replace_town(sim, self.visitor.name if self.visitor else "Visitor")
        self.app.notify(sim.load_note or f"loaded {name}")

    def _autosave(self) -> None:
        """A periodic autosave: a snapshot here, the writing on a thread; a brief toast.
        What is not routine (another game holds `autosave`, so this one saves under its
        own name) stays up as a toast and in the log."""
        for report in self.autosaver.tick():
            color = theme.GOOD if report.ok else theme.MUTED
            self.notes.push(report.text, color, brief=report.brief)
            if not report.brief:
                self.feed.note(fmt_time(self.sim.now), report.text)
