"""The scripted brain: the town lives on rules and tables, with no language model.

Modules: util (stable hashing, text helpers), lexicon (importance, emoji, object states,
troubles), activities (what an item is and how it breaks down), places (hours, refining
and choosing areas), timeline + freetime + plans (the day), decompose, traits, news,
talk + talk_* (reacting and dialogue), reflect (questions, insights, summaries),
answer/ (answers planned from the understood act), interview + interview_plans.
The tunable numbers are module constants: talk.TALK_* and *_FACTOR (how often people
chat), traits.DECLINE_* (turning invitations down), plans.* (meal times, item counts).
"""

from .brain import ScriptedBrain

__all__ = ["ScriptedBrain"]
