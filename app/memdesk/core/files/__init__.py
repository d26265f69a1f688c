"""Memories in files: export (JSON, Markdown), import all-or-nothing, and backups (made,
listed, checked against memdesk's own schema, restored).

May import the basics, `search`, `guard` and `memory`; never `review`, `sessions`, `views`
or the service.
"""
