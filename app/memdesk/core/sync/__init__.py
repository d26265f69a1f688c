"""Sync through git: one person's machines, or a team, sharing memories as Markdown files in a
repository (files: the format; git: the commands; sides and local: what each side holds;
merge: the three-way decision; incoming: checking what arrives; syncing: the service's part).

May import the basics, `search`, `guard`, `memory` and `files` (an incoming memory is checked
as an import is); never `review`, `sessions`, `views` or the service.
"""
