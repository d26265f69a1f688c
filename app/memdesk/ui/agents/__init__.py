"""What agents did: proposals from session ends, the agents roster, the retrieval log."""
