"""An agent's session from start to end: the session-start briefing, the context block, what
tool calls are observed and noted, what the user said found in a transcript (gap-fill),
the L2 summary archived at the end, and what each session was given and then acted on.

May import the basics, `search`, `guard`, `memory` and `review` (what a session end is not
sure of goes to the Inbox); never `files`, `views` or the service.
"""
