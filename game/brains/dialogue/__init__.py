"""Dialogue understanding: what a heard line *is* (a typed act), and a conversation's state.

Whatever a resident hears (the visitor's chat, an interview question, another resident's
line) becomes an `Act` before any rule sees it (`understand.py`; the exemplars and their
vote in `exemplars.py`, the town's words and the slots a line names in `slots.py`, a line's
form in `form.py`, what the conversation so far adds in `context.py`); a conversation keeps
its open question, topic and who said what as a `DialogueState` (`state.py`). Both brains
read the same act and state: the scripted brain plans its answer from them, the model
brain's prompt states them.
"""
