"""Data the window's views are drawn from: the store as it was at a moment, the graph of
memories and links, the dashboard's counts, and text made safe to show.

May import the basics, `search` and `memory`; never `guard`, `review`, `sessions`, `files` or
the service.
"""
