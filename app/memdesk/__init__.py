"""memdesk: a local-first memory manager for AI agents."""

__version__ = "0.1.0"
