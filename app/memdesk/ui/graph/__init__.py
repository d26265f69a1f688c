"""The Graph view: memories, their links, and hubs for projects and tags."""
