"""The language-model brain: every typed question through the one call path, frugally.

Economy (the original spent ~54 requests and ~26k tokens per agent per game hour):

- A broad plan item is decomposed once into hours and their 5-15 minute actions, and each
  action comes back with its spot (from the sector's own tree), its object's state, its
  emoji and its importance: the architecture keeps them on the plan item, so the later
  questions (where, which state, which emoji, how important) are never asked.
- An identical question from the same resident is answered from a memo keyed by the
  question's own fields (`Question.memo_key`); a plan that already names one of the
  offered places needs no area question.
- What the simulation itself produces is rated by the scripted rules and never reacted
  to by the model: someone asleep, talking or waiting; an object in the state a
  resident's action gave it (the observation says so). Having decided to carry on, a
  resident does not reconsider the same person for an hour.
- A conversation is one request for both sides (Converse), which also rates it.
- What a resident notices at once is weighed in one request (ReactEach), and a spot
  chosen among several comes with what choosing it asks next, the object's state and the
  emoji (SpotDetails): questions a job asked one after another, each waiting for the last.
- The texts a decomposition makes certain (each action's memory, each hour's retrieval
  query) are embedded at once, in one request.

Reproducibility: every memo is keyed by the asking resident, and a question a resident's
overlapping jobs (its decision, a thought, a decision asked ahead) ask at the same time
is sent once while the other waits for it, so in lockstep the same requests are sent in
every run at any worker count; nothing is handed from one question to the next.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from game.brains.audit import AuditLog, public_url, url_secrets
from game.brains.budget import BudgetGuard
from game.brains.embed import CachedEmbedder
from game.brains.llm.client import ChatClient
from game.brains.llm.embedder import open_embedder
from game.brains.llm.recording import ReplayCache
from game.brains.llm.specs import SPECS
from game.brains.questions import (
    ChooseSector,
    ChooseSpot,
    Chunk,
    DecomposeHours,
    DecomposeSteps,
    Details,
    Emoji,
    Question,
    RateImportance,
    React,
    ReactEach,
    Spot,
    SpotDetails,
)
from game.brains.scripted import ScriptedBrain
from game.brains.usage import Pricing, UsageMeter
from game.core.config import LLMSettings, cache_dir, data_dir
from game.core.records import CONTINUE, PlanItem, Reaction, ReactionKind
from game.world.town import split

log = logging.getLogger("smallville.llm")

A = TypeVar("A")
# After "continue" about someone, not asked again for this long: people who share a
# house or a workplace meet all day, and one considered decision per morning, afternoon
# or evening is how often a person weighs "shall I talk to them now?".
REACT_QUIET = timedelta(hours=3)
MEMO_SIZE = 20000  # remembered answers (each keyed by its resident)


class Memo:
    """A small thread-safe LRU map from a question's class and memo key to its answer."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            if key not in self._data:
                return None
            self._data.move_to_end(key)
            return self._data[key]

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)


class LLMBrain:
    """Answers typed questions through any OpenAI-compatible endpoint.

    `notices` collects what a person should be told (the endpoint is down, the budget is
    spent, the offline embedder is in use): the HUD shows new entries, a headless run
    prints them. `fatal` is non-empty when a run must stop (strict mode, replay miss).
    """

    name = "llm"

    def __init__(self, settings: LLMSettings, seed: int = 0) -> None:
        self.settings = settings
        self.model = settings.model
        self.base_url = public_url(settings.base_url or "https://api.openai.com/v1")
        self.notices: list[str] = []
        self._notice_lock = threading.Lock()
        self.scripted = ScriptedBrain(seed)
        self.meter = UsageMeter(Pricing(settings.prices(), settings.prices(cheap=True)))
        self.guard = BudgetGuard(self.meter, settings.budget_usd, settings.max_calls)
        secrets = [settings.api_key(), *url_secrets(settings.base_url)]
        self.audit = AuditLog(audit_path(settings), secrets=secrets)
        self.cache = open_cache(settings)
        self.client = ChatClient(
            settings,
            self.scripted,
            self.meter,
            self.guard,
            self.audit,
            self.cache,
            notify=self.notify,
        )
        if self.audit.problem:  # logged once already by the audit log: kept, not said again
            self.notices.append(self.audit.problem)
        self.memo = Memo()
        self._flights: dict[Hashable, threading.Event] = {}  # memo keys being asked now
        self._flying = threading.Lock()
        self.quiet = Memo()  # (resident, subject) -> when it last chose to carry on
        self.embedder: CachedEmbedder = open_embedder(
            self.client,
            settings.embeddings,
            settings.embed_model,
            settings.embed_batch,
            self.notify,
        )

    # -- reporting ------------------------------------------------------------------------
    @property
    def fatal(self) -> str:
        return self.client.fatal

    @property
    def unwritten(self) -> list[str]:
        """Files the run asked for that could not be written whole (a full disk under the
        audit log or the recording): the run goes on, but must not end as a success."""
        recording = self.cache.unwritable if self.cache is not None else ""
        return [p for p in (self.audit.problem, recording) if p]

    def notify(self, message: str) -> None:
        with self._notice_lock:
            if message in self.notices:
                return
            self.notices.append(message)
        log.warning("%s", message)

    def usage(self) -> dict[str, Any]:
        """The run report's "model" section and the HUD's usage line."""
        out = self.meter.snapshot()
        out.update(
            model=self.settings.model,
            cheap_model=self.settings.cheap_model or self.settings.model,
            embedder=self.embedder.name,
            output_mode=self.client.output_mode,
            mode_steps=list(self.client.ladder.steps),
            endpoint_down=self.client.down,
            budget_spent=self.guard.exhausted,
            notices=list(self.notices),
        )
        return out

    def restore_usage(self, saved: dict[str, Any]) -> None:
        """A loaded game keeps counting where its save left off."""
        self.meter.restore(saved)

    def cancel(self) -> None:
        """Drop the requests in flight (within a second): the run or the window ends."""
        self.client.close()

    def close(self) -> None:
        self.client.close()
        self.audit.close()
        if self.cache is not None:
            self.cache.close()

    # -- asking -------------------------------------------------------------------------------
    def knows(self, kind: type[Question[Any]]) -> bool:
        return kind in SPECS

    def ask(self, question: Question[A]) -> A:
        """A rule that needs no request, else a remembered answer, else the model."""
        if isinstance(question, SpotDetails):
            settled = self._spot_settled(question)
            if settled is not None:
                return settled  # type: ignore[return-value]
        name = SPECS[type(question)].name
        found = self._without_request(question)
        if found is not None:
            self.meter.count("skipped", name, question.agent)
            return found
        key = question.memo_key()
        if key is None:
            return self._request(question)
        memo_key = (type(question), key)
        while True:
            with self._flying:
                found = self.memo.get(memo_key)
                flight = self._flights.get(memo_key) if found is None else None
                mine = found is None and flight is None
                if mine:
                    flight = self._flights[memo_key] = threading.Event()
            if found is not None:
                self.meter.count("cache_hits", name, question.agent)
                return found
            if mine:
                return self._ask_once(question, memo_key, flight)
            flight.wait()  # the same question is out: its answer will be the memo's

    def _ask_once(self, question: Question[A], memo_key: Hashable, flight: threading.Event) -> A:
        """Ask a remembered question while the same one from another job waits for it,
        so a resident's jobs that overlap send it once, as they would one after another
        (the request count is the same in every run)."""
        try:
            answer = self._request(question)
            if _worth_keeping(answer):
                self.memo.put(memo_key, answer)
            return answer
        finally:
            with self._flying:
                del self._flights[memo_key]
            flight.set()

    def _request(self, question: Question[A]) -> A:
        if isinstance(question, RateImportance):
            return self._rate(question)
        if isinstance(question, ReactEach):
            return self._react_each(question)
        answer = self.client.ask(SPECS[type(question)], question, question.agent)
        if isinstance(question, React):
            self._remember_calm(question, answer)
        if isinstance(question, (DecomposeHours, DecomposeSteps)):
            self._prefetch(question, answer)
        return answer

    def _without_request(self, q: Question[Any]) -> Any:
        """Answers the question's own data settles: a plan that names an offered place,
        a routine sight, a person just considered."""
        if isinstance(q, ChooseSector):
            parts = split(q.hint)
            return parts[0] if parts and parts[0] in q.options else None
        if isinstance(q, ChooseSpot):
            return next((s for s in q.spots if q.hint and s.address == q.hint), None)
        if isinstance(q, React):
            return CONTINUE if self._calm(q) else None
        return None

    # -- importance: only the memories nothing else rated -----------------------------------
    def _rate(self, q: RateImportance) -> tuple[int, ...]:
        """The actor's own rating where the data has one, the scripted rules for routine
        sights, a memo for texts this resident rated before; one request for the rest."""
        mine = [self._known(q, d) for d in q.drafts]
        missing = [d for d, k in zip(q.drafts, mine, strict=True) if k is None]
        if missing:
            unique = tuple({d.text: d for d in missing}.values())
            rated = self.client.ask(
                SPECS[RateImportance], RateImportance(q.persona, unique), q.agent
            )
            for d, score in zip(unique, rated, strict=True):
                self.memo.put((RateImportance, q.agent, d.text), int(score))
            mine = [self.memo.get((RateImportance, q.agent, d.text)) if k is None else k
                    for d, k in zip(q.drafts, mine, strict=True)]  # fmt: skip
        return tuple(max(1, min(10, int(k or 1))) for k in mine)

    def _known(self, q: RateImportance, d) -> int | None:
        if d.known:
            self.meter.count("skipped", "importance", q.agent)
            return d.known
        if d.routine:
            self.meter.count("skipped", "importance", q.agent)
            return self.scripted.ask(RateImportance(q.persona, (d,)))[0]
        found = self.memo.get((RateImportance, q.agent, d.text))
        if found is not None:
            self.meter.count("cache_hits", "importance", q.agent)
        return found

    # -- reacting: calm about routine sights and people just considered --------------------
    def _calm(self, q: React) -> bool:
        obs = q.observation
        if not obs.is_agent and obs.routine:
            return True
        since = self.quiet.get((q.agent, obs.subject))
        return since is not None and timedelta(0) <= q.ctx.now - since < REACT_QUIET

    def _remember_calm(self, q: React, answer: Reaction) -> None:
        if answer.kind is ReactionKind.CONTINUE:
            self.quiet.put((q.agent, q.observation.subject), q.ctx.now)

    def _react_each(self, q: ReactEach) -> tuple[Reaction, ...]:
        """The sights a resident is calm about carry on without a request, as each would
        alone; the rest go in one request, or as a React of its own when one is left."""
        calm = [self._calm(a) for a in q.asked]
        for _ in range(sum(calm)):
            self.meter.count("skipped", SPECS[React].name, q.agent)
        left = tuple(a for a, c in zip(q.asked, calm, strict=True) if not c)
        if len(left) == 1:
            answers: tuple[Reaction, ...] = (self._request(left[0]),)
        elif left:
            answers = self.client.ask(SPECS[ReactEach], replace(q, asked=left), q.agent)
            for a, answer in zip(left, answers, strict=True):
                self._remember_calm(a, answer)
        else:
            answers = ()
        found = iter(answers)
        return tuple(CONTINUE if c else next(found) for c in calm)

    # -- where, and what follows from it: one request where there were two -----------------
    def _spot_settled(self, q: SpotDetails) -> tuple[Spot, Details | None] | None:
        """A plan that names an offered spot settles it (counted as the spot question it
        stands for), and only what follows is asked, as it would be alone; otherwise
        None: one request asks both."""
        spot = self._without_request(q.choose)
        if spot is None:
            return None
        self.meter.count("skipped", SPECS[ChooseSpot].name, q.agent)
        then = q.then[q.choose.spots.index(spot)]
        if isinstance(then, Emoji):
            return spot, Details("", self.ask(then))
        return spot, None if then is None else self.ask(then)

    def _prefetch(self, q: DecomposeHours | DecomposeSteps, answer: Any) -> None:
        """Have the texts this answer makes certain to come (each action's memory, also
        what others will see, and each hour's retrieval query) ride along with the next
        embedding request anyone makes: no request of their own, and the perceptions and
        retrievals that need them later find them kept."""
        if not self.embedder.name.startswith("openai:"):
            return
        name = q.agent
        if isinstance(q, DecomposeHours):
            hours = [c.item.description for c in answer]
            steps = [s for c in answer for s in c.steps]
        else:
            hours, steps = [], list(answer)
        texts = hours + [f"{name} is {s.description}" for s in steps]
        if texts:
            self.embedder.later(texts)


def _worth_keeping(answer: Any) -> bool:
    """A decomposition answered by the scripted fallback (no emoji on any action) is not
    remembered: the model is asked again next time."""
    if isinstance(answer, tuple) and answer and isinstance(answer[0], Chunk):
        return any(s.emoji for c in answer for s in c.steps)
    if isinstance(answer, tuple) and answer and isinstance(answer[0], PlanItem):
        return any(s.emoji for s in answer)
    return True


def audit_path(settings: LLMSettings) -> Path | None:
    if not settings.audit:
        return None
    if settings.audit_file:
        return Path(settings.audit_file).expanduser()
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return data_dir() / "saves" / "audit" / f"llm-{stamp}.jsonl"  # beside the saves


def open_cache(settings: LLMSettings) -> ReplayCache | None:
    if not (settings.record or settings.replay):
        return None
    path = Path(settings.cache_file).expanduser() if settings.cache_file else None
    return ReplayCache(path or cache_dir() / "llm-cache.sqlite3", replay=settings.replay)
