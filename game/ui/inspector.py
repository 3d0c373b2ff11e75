"""The inspector: one resident's identity, plan, memory stream, reflections and relationships,
with an interview box and an inner-voice box.

Rows are rebuilt only when what they show changes (a new memory, another filter), and a
memory's row is laid out once and reused, so an open inspector costs nothing per frame
even on a resident with thousands of memories.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np
import pygame

from game.core.clock import fmt_time
from game.core.errors import SmallvilleError
from game.core.records import FactKind, MemoryKind, MemoryRecord, Source
from game.sim.player import Player, Ticket
from game.sim.view import READ_ONLY, ResidentView, SimView
from game.ui import theme
from game.ui.input import PanelAction
from game.ui.panel import BoxPanel, Dock
from game.ui.sprites import SpriteBank, slug
from game.ui.widgets import Button, Row, Span, TextBox


class Tab(Enum):
    ABOUT = "About"
    PLAN = "Plan"
    MEMORIES = "Memories"
    REFLECTIONS = "Reflections"
    ASK = "Ask"


@dataclass(frozen=True)
class Jump:
    """A link to one memory (evidence of a reflection): show it in the stream."""

    index: int


@dataclass(frozen=True)
class ShowMore:
    """The link under a long memory list: list another page."""


KIND_FILTERS: tuple[tuple[str, MemoryKind | None], ...] = (
    ("All", None),
    ("Observations", MemoryKind.OBSERVATION),
    ("Reflections", MemoryKind.REFLECTION),
    ("Plans", MemoryKind.PLAN),
    ("Chats", MemoryKind.CHAT),
)
NOW_TAG = "plan:now"  # the row of the plan's current action
PAGE = 200  # memories listed at a time (newest first); "show more" adds a page
WIDTH = 460


def address_text(address: str) -> str:
    """'Hobbs Cafe:cafe:piano' -> 'Hobbs Cafe: cafe: piano' ('' is the street)."""
    return address.replace(":", ": ") if address else "the streets of Smallville"


@dataclass
class Asked:
    """An interview question and the ticket its answer arrives on."""

    question: str
    ticket: Ticket | None = None
    error: str = ""


class Inspector(BoxPanel):
    """A side panel about one resident. It reads the simulation and sends it commands."""

    dock = Dock.SIDE
    size = (WIDTH, 400)
    min_height = 0

    def __init__(self, sim: SimView, name: str, sprites: SpriteBank) -> None:
        super().__init__()
        self.sim, self.name, self.sprites = sim, name, sprites
        self.tab = Tab.ABOUT
        self.close_button = Button("Close", PanelAction.CLOSE, size=16)
        self.talk_button = Button("Talk (T)", PanelAction.TALK, size=16)
        self.tab_buttons = [Button(t.value, t, size=17) for t in Tab]
        self.filter_buttons = [Button(label, kind, size=15) for label, kind in KIND_FILTERS]
        self.ask_button = Button("Ask", size=16)
        self.voice_button = Button("Think it", size=16)
        self.search = TextBox("search the memory stream...", size=17)
        self.question = TextBox("ask an interview question...", size=17)
        self.voice = TextBox("an inner voice: a thought they take as their own...", size=17)
        self.kind: MemoryKind | None = None
        self.limit = PAGE
        self.highlight: int | None = None  # memory index jumped to
        self.asked: list[Asked] = []
        self.whispered: list[tuple[str, str]] = []  # (game time, text)
        self._rows: dict[tuple, Row] = {}
        self._signature: tuple = ()
        self._pending_scroll = ""

    # -- what is shown --------------------------------------------------------------------
    @property
    def subject(self) -> str:
        return self.name

    @property
    def agent(self) -> ResidentView:
        return self.sim.agents[self.name]

    def _player(self) -> Player:
        """The commands object, or the reason there is none (a replay takes no commands)."""
        if self.sim.player is None:
            raise SmallvilleError(READ_ONLY)
        return self.sim.player

    def boxes(self) -> list[TextBox]:
        """The text boxes on the open tab (Tab cycles through these)."""
        if self.tab is Tab.MEMORIES:
            return [self.search]
        if self.tab is Tab.ASK:
            return [self.question, self.voice]
        return []

    def update(self, rect: pygame.Rect, dt: float = 0.0) -> None:
        self.rect = rect
        player = self.sim.player
        self._layout_header(player is not None and player.visitor_near(self.name))
        self.focus.boxes = self.boxes()
        for box in (self.search, self.question, self.voice):
            if box not in self.focus.boxes:
                box.focused = False
        top = self._layout_tab_controls()
        note = self.note_height()
        bottom = rect.bottom - (note + 14 if note else 10)
        relaid = self.list.place(pygame.Rect(rect.x + 14, top, rect.width - 24, bottom - top))
        signature = self._content_signature()
        if relaid or signature != self._signature:
            self.list.set_rows(self._build_rows(), keep_offset=signature[:2] == self._signature[:2])
            self._signature = signature
        if self._pending_scroll:
            self.list.scroll_to(self._pending_scroll)
            self._pending_scroll = ""

    def _layout_header(self, can_talk: bool) -> None:
        r = self.rect
        self.close_button.fit(r.right - 70, r.y + 10, pad=8)
        self.close_button.rect.right = r.right - 10
        self.talk_button.label = "Talk (T)" if can_talk else "Talk: walk closer"
        self.talk_button.enabled = can_talk
        self.talk_button.fit(0, r.y + 44, pad=8)
        self.talk_button.rect.right = r.right - 10
        x = r.x + 10
        for button in self.tab_buttons:
            button.on = button.key is self.tab
            x = button.fit(x, r.y + 84, pad=9, height=28).right + 4

    def _layout_tab_controls(self) -> int:
        """Place the controls above the list on the open tab; returns where the list starts."""
        r = self.rect
        top = r.y + 122
        if self.tab is Tab.MEMORIES:
            x = r.x + 14
            for button, (_, kind) in zip(self.filter_buttons, KIND_FILTERS, strict=True):
                button.on = kind == self.kind
                x = button.fit(x, top, pad=7, height=24).right + 4
            self.search.rect = pygame.Rect(r.x + 14, top + 30, r.width - 28, 28)
            return top + 66
        if self.tab is Tab.ASK:
            self.question.rect = pygame.Rect(r.x + 14, top + 22, r.width - 90, 28)
            self.ask_button.fit(r.right - 70, top + 22, height=28)
            self.voice.rect = pygame.Rect(r.x + 14, top + 78, r.width - 110, 28)
            self.voice_button.fit(r.right - 90, top + 78, height=28)
            return top + 118
        return top

    def _content_signature(self) -> tuple:
        agent = self.agent
        n = len(agent.memory)
        if self.tab is Tab.MEMORIES:
            return (self.tab, self.kind, self.search.text, self.limit, n, self.highlight)
        if self.tab is Tab.REFLECTIONS:
            return (self.tab, n)
        if self.tab is Tab.PLAN:
            return (self.tab, id(agent.plan), agent.plan.locate(self.sim.now))
        if self.tab is Tab.ASK:
            done = tuple(a.ticket.done() if a.ticket else True for a in self.asked)
            return (self.tab, len(self.asked), done, len(self.whispered))
        busy = self.sim.thinking(self.name)
        return (self.tab, agent.status, agent.summary, agent.action, busy, agent.location)

    def _build_rows(self) -> list[Row]:
        builders = {
            Tab.ABOUT: self._about_rows,
            Tab.PLAN: self._plan_rows,
            Tab.MEMORIES: self._memory_rows,
            Tab.REFLECTIONS: self._reflection_rows,
            Tab.ASK: self._ask_rows,
        }
        return builders[self.tab]()

    # -- About ------------------------------------------------------------------------------
    def _about_rows(self) -> list[Row]:
        agent, p = self.agent, self.agent.persona
        action = agent.action
        rows = [
            _pair("Traits", ", ".join(p.traits)),
            _pair("Now", f"{agent.emoji} {agent.status}".strip()),
        ]
        if action is not None:
            rows.append(_pair("Where", address_text(action.address)))
            rows.append(_pair("Until", f"{fmt_time(action.end)} ({action.kind.value})"))
        rows.append(_pair("Standing in", address_text(agent.location)))
        if self.sim.thinking(self.name):
            rows.append(Row([Span("... thinking (a decision is on its way)", theme.ACCENT)]))
        rows.append(_pair("Home", p.home))
        rows.append(_pair("Work", p.workplace or "-"))
        counts = agent.memory.counts()
        tally = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
        rows.append(_pair("Memories", f"{len(agent.memory)} ({tally or 'none yet'})"))
        rows.append(_section("Summary"))
        rows.append(Row([Span(agent.summary or p.seed, theme.TEXT, 17)]))
        rows.append(_section("Relationships"))
        rows += [_pair(other, what) for other, what in p.relationships] or [
            Row([Span("none recorded", theme.MUTED)])
        ]
        return rows

    # -- Plan -------------------------------------------------------------------------------
    def _plan_rows(self) -> list[Row]:
        plan = self.agent.plan
        if not plan.broad:
            return [Row([Span("No plan yet: the day is planned on waking.", theme.MUTED)])]
        cur_b, cur_h, cur_a = plan.locate(self.sim.now)
        rows = [_section(f"Plan for {plan.day or 'today'}")]
        for b, item in enumerate(plan.broad):
            rows.append(_plan_row(item, 0, b == cur_b))
            for h, chunk in enumerate(plan.hours.get(b, ())):
                rows.append(_plan_row(chunk, 1, b == cur_b and h == cur_h))
                for a, act in enumerate(plan.actions.get((b, h), ())):
                    now = b == cur_b and h == cur_h and a == cur_a
                    rows.append(_plan_row(act, 2, now))
        current = [row for row in rows if row.highlight]
        if current:
            current[-1].tag = NOW_TAG  # the finest current item: where the tab opens
        return rows

    # -- Memories ---------------------------------------------------------------------------
    def matching(self) -> list[int]:
        """Indices of the memories that pass the kind filter and the search, newest first."""
        view = self.agent.memory.view()
        mask = view.mask(None if self.kind is None else [self.kind])
        indices = np.flatnonzero(mask)[::-1].tolist()
        words = self.search.text.strip().lower()
        if words:
            indices = [i for i in indices if words in view.texts[i].lower()]
        return indices

    def _memory_rows(self) -> list[Row]:
        indices = self.matching()
        view = self.agent.memory.view()
        rows = [Row([Span(f"{len(indices)} memories", theme.MUTED, 15)])]
        for i in indices[: self.limit]:
            row = self._memory_row(view.record(i))
            row.highlight = i == self.highlight
            rows.append(row)
        if len(indices) > self.limit:
            rows.append(Row([Span("show more...", theme.LINK, 17, link=ShowMore())]))
        return rows

    def _memory_row(self, rec: MemoryRecord) -> Row:
        key = ("memory", rec.index)
        row = self._rows.get(key)
        if row is None:
            spans = [
                Span(f"#{rec.index}", theme.MUTED, 15),
                Span(f"{rec.created:%a} {fmt_time(rec.created)}", theme.MUTED, 15),
                Span(f"[{rec.kind.value}]", _KIND_COLOUR[rec.kind], 15),
                Span(f"importance {rec.importance}", theme.ACCENT, 15),
                Span(rec.text, theme.TEXT, 17),
            ]
            note = source_note(rec)
            if note:
                spans.append(Span(note, theme.MUTED, 15))
            if rec.evidence:
                spans.append(Span("because of", theme.MUTED, 15))
                spans += [Span(f"#{e}", theme.LINK, 15, link=Jump(e)) for e in rec.evidence]
            row = Row(spans, tag=str(rec.index))
            self._rows[key] = row
        return row

    # -- Reflections ------------------------------------------------------------------------
    def _reflection_rows(self) -> list[Row]:
        stream = self.agent.memory
        indices = stream.recent(len(stream), [MemoryKind.REFLECTION])[::-1]
        if not indices:
            return [
                Row([Span("No reflections yet: they come once enough has happened.", theme.MUTED)])
            ]
        room = self.list.rect.width - 24 - theme.font(15).size("evidence ")[0]
        rows: list[Row] = []
        for i in indices:
            rec = stream.record(i)
            rows.append(Row([Span(f"#{i}", theme.MUTED, 15), Span(rec.text, theme.TEXT, 17)]))
            rows += [_evidence_row(e, stream.text(e), room) for e in rec.evidence]
        return rows

    # -- Ask --------------------------------------------------------------------------------
    def _ask_rows(self) -> list[Row]:
        rows: list[Row] = []
        for asked in reversed(self.asked):
            rows.append(
                Row([Span("You asked:", theme.MUTED, 15), Span(asked.question, theme.LINK)])
            )
            rows.append(
                Row(
                    [
                        Span(f"{self.agent.persona.first_name}:", theme.MUTED, 15),
                        _answer_span(asked),
                    ]
                )
            )
        for when, text in reversed(self.whispered):
            rows.append(
                Row([Span(f"inner voice at {when}:", theme.MUTED, 15), Span(text, theme.ACCENT)])
            )
        return rows

    # -- input ------------------------------------------------------------------------------
    def click(self, pos: tuple[int, int]) -> PanelAction:
        """Act on a click inside the panel; Close and Talk are for the scene to do."""
        if self.close_button.hit(pos):
            return PanelAction.CLOSE
        if self.talk_button.hit(pos):
            return PanelAction.TALK
        for button, tab in zip(self.tab_buttons, Tab, strict=True):
            if button.hit(pos):
                self.open_tab(tab)
                return PanelAction.NONE
        if not self.focus.click(pos):
            self.focus.set(None)
        self._click_controls(pos)
        _, link = self.list.row_at(pos)
        if isinstance(link, Jump | ShowMore):
            self.follow(link)
        return PanelAction.NONE

    def _click_controls(self, pos: tuple[int, int]) -> None:
        if self.tab is Tab.MEMORIES:
            for button, (_, kind) in zip(self.filter_buttons, KIND_FILTERS, strict=True):
                if button.hit(pos):
                    self.kind, self.limit = kind, PAGE
        elif self.tab is Tab.ASK:
            if self.ask_button.hit(pos):
                self.ask(self.question.take())
            elif self.voice_button.hit(pos):
                self.whisper(self.voice.take())

    def open_tab(self, tab: Tab) -> None:
        self.tab = tab
        self.focus.set(None)
        if tab is Tab.PLAN:
            self._pending_scroll = NOW_TAG  # the plan opens at what they do now

    def follow(self, link: Jump | ShowMore) -> None:
        """A clicked link: jump to a memory, or list more memories."""
        if isinstance(link, Jump):
            self.jump_to(link.index)
        else:
            self.limit += PAGE

    def jump_to(self, index: int) -> None:
        """Show one memory in the stream: clear the filters and scroll to it."""
        self.tab, self.kind, self.search.text = Tab.MEMORIES, None, ""
        self.highlight = index
        self.limit = max(PAGE, len(self.agent.memory) - index + 1)
        self._pending_scroll = str(index)

    def submit(self, box: TextBox) -> None:
        """Enter asks or whispers; in the search box it keeps the focus (the list already
        shows what matches), so the next keys are still typing, never commands."""
        if box is self.question:
            self.ask(box.take())
        elif box is self.voice:
            self.whisper(box.take())

    def ask(self, question: str) -> None:
        """An interview question: the answer shows here and never enters the memory."""
        if not question:
            return
        try:
            self.asked.append(Asked(question, self._player().interview(self.name, question)))
        except SmallvilleError as exc:
            self.asked.append(Asked(question, None, str(exc)))

    def whisper(self, text: str) -> None:
        """An inner voice: the resident takes it as its own thought."""
        if not text:
            return
        try:
            self._player().inner_voice(self.name, text)
        except SmallvilleError as exc:
            self.tell(f"could not send the inner voice: {exc}")
            return
        self.whispered.append((fmt_time(self.sim.now), text))

    # -- drawing ----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        theme.panel(surface, self.rect)
        self._draw_header(surface)
        for button in (self.close_button, self.talk_button, *self.tab_buttons):
            button.draw(surface)
        self._draw_tab_controls(surface)
        self.list.draw(surface, _EMPTY.get(self.tab, ""))

    def _draw_header(self, surface: pygame.Surface) -> None:
        r, agent = self.rect, self.agent
        portrait = self.sprites.frame(slug(self.name), "down", 0, 64)
        surface.blit(portrait, (r.x + 10, r.y + 10))
        theme.blit_text(surface, self.name, (r.x + 82, r.y + 12), 28, theme.ACCENT)
        p = agent.persona
        line = f"{p.age}, {p.occupation}"
        width = self.talk_button.rect.x - r.x - 90
        theme.blit_text(
            surface, theme.ellipsize(line, theme.font(17), width), (r.x + 82, r.y + 40), 17
        )
        status = f"{agent.status}" + ("  (thinking...)" if self.sim.thinking(self.name) else "")
        theme.blit_text(
            surface,
            theme.ellipsize(status, theme.font(16), width),
            (r.x + 82, r.y + 60),
            16,
            theme.MUTED,
        )

    def _draw_tab_controls(self, surface: pygame.Surface) -> None:
        r = self.rect
        if self.tab is Tab.MEMORIES:
            for button in self.filter_buttons:
                button.draw(surface)
            self.search.draw(surface)
        elif self.tab is Tab.ASK:
            top = r.y + 122
            theme.blit_text(
                surface,
                "Interview: ask a question (the answer is not remembered)",
                (r.x + 14, top),
                16,
                theme.MUTED,
            )
            self.question.draw(surface)
            self.ask_button.draw(surface)
            theme.blit_text(
                surface,
                "Inner voice: a thought they take as their own",
                (r.x + 14, top + 56),
                16,
                theme.MUTED,
            )
            self.voice.draw(surface)
            self.voice_button.draw(surface)
        self.draw_note(surface, r.bottom - 8)


_KIND_COLOUR = {
    MemoryKind.OBSERVATION: (150, 200, 150),
    MemoryKind.REFLECTION: (230, 170, 250),
    MemoryKind.PLAN: (140, 190, 250),
    MemoryKind.CHAT: (250, 190, 120),
}
_EMPTY = {
    Tab.ASK: "Ask a question or give an inner voice above.",
    Tab.MEMORIES: "No memories match.",
}


def _pair(label: str, value: str) -> Row:
    return Row([Span(f"{label}:", theme.MUTED, 16), Span(value, theme.TEXT, 17)])


def _section(title: str) -> Row:
    return Row([Span(title, theme.ACCENT, 19)])


def _evidence_row(index: int, text: str, room: int) -> Row:
    """One memory a reflection rests on, cut to one line; a click jumps to it."""
    text = theme.ellipsize(f"#{index}: {text}", theme.font(15), room)
    return Row([Span("evidence", theme.MUTED, 15), Span(text, theme.LINK, 15, link=Jump(index))])


def _plan_row(item, depth: int, current: bool) -> Row:
    when = f"{item.start:%H:%M}-{item.end:%H:%M}"
    size = (18, 16, 15)[depth]
    colour = theme.ACCENT if current else (theme.TEXT, (210, 214, 226), theme.MUTED)[depth]
    spans = [Span("    " * depth + when, theme.MUTED, size), Span(item.description, colour, size)]
    if item.place and depth == 0:
        spans.append(Span(f"@ {item.place}", theme.MUTED, 15))
    row = Row(spans, tag=f"plan:{depth}")
    row.highlight = current
    return row


def _answer_span(asked: Asked) -> Span:
    ticket = asked.ticket
    if asked.error:
        return Span(f"(could not ask: {asked.error})", theme.BAD)
    if ticket is None or not ticket.done():
        return Span("thinking...", theme.MUTED)
    if ticket.error:
        return Span(f"(no answer: {ticket.error})", theme.BAD)
    return Span(ticket.result or "", theme.TEXT)


def source_note(rec: MemoryRecord) -> str:
    """How the resident came to know a memory, from its fields: a claim is marked as one."""
    fact = rec.fact
    parts = []
    if fact.kind is FactKind.CLAIM and fact.source is Source.VISITOR:
        parts.append(f"told by the visitor {fact.heard_from}: a claim")
    elif fact.kind is FactKind.CLAIM:
        parts.append(f"heard from {fact.heard_from}: a claim")
    elif fact.source in (Source.INNER_VOICE, Source.SEED):
        parts.append(f"{fact.source.value}")
    if fact.intent:
        parts.append(f"about: {fact.intent}")
    return f"({'; '.join(parts)})" if parts else ""
