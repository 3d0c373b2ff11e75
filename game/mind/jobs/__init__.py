"""The paper's cognition, as jobs: pure functions from a snapshot to a typed effect.

Each job runs on a worker thread. It reads an AgentSnapshot and a Surroundings (both
immutable), asks the brain typed questions (game/brains/questions.py), and returns an
effect of its own type (game/mind/effects.py); it never mutates an agent, a memory stream
or the town. The simulation applies effects on its own thread.

One module per job (`seed`, `wake`, `next_action`, `prepare`, `perceive`, `reflect`,
`converse`, `interview`, `visitor_chat`, `inner_voice`), over the parts several of them
share: `common` (Mind, Surroundings, memories to write, fanning out), `recall`
(retrieval and its embedding requests), `at_hand` (what a person always has at hand),
`planning` (the broad day plan) and `where` (grounding an action in the town).
`game.mind.cognition` gathers the jobs for the simulation.
"""
