"""What waits for the person: the Inbox (proposals, possible updates, merges, withheld
memories, notices), finding duplicates to merge, and the controls the person holds over
agents (pause, read-only, write budgets).

May import the basics, `search`, `guard` and `memory`; never `sessions`, `files`, `views` or
the service.
"""
