"""An agent's session from start to end: the session-start briefing, the context block, what
tool calls are observed and noted, what the user said found in a transcript (gap-fill),
and the L2 summary archived at the end.

May import the basics, `search`, `guard`, `memory` and `review` (what a session end is not
sure of goes to the Inbox); never `files`, `views` or the service.
"""
