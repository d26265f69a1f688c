"""What agents did: the agents roster and the retrieval log."""
