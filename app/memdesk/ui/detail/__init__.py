"""The detail panel: a memory rendered, edited, its history and diffs."""
