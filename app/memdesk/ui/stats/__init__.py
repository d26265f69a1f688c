"""The Stats dashboard."""
