"""Memories themselves: a new memory's draft and checks, adding (with near-duplicates), editing,
correcting, status changes (Trash, restore, purge), history and reads, the identity profile's
limit, and the steps that undo a window action exactly.

May import the basics (actor, clock, errors, events, rules, validate), `search` (filters,
word statistics, neighbours) and `guard`; never a room above it (review, sessions, files,
views) or the service.
"""
