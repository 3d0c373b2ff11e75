"""Dialogue understanding: what a heard line *is* (a typed act), and a conversation's state.

Whatever a resident hears (the visitor's chat, an interview question, another resident's
line) becomes an `Act` before any rule sees it (`understand.py`); a conversation keeps its
open question, topic and who said what as a `DialogueState` (`state.py`). Both brains read
the same act and state: the scripted brain plans its answer from them, the model brain's
prompt states them.
"""
