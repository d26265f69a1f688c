"""The agent client under the name issue 4 gives it: `from memdesk.client import Client`."""

from memdesk.api.client import Client, MemdeskError, ServerUnavailable
from memdesk.api.owner import connect_if_running

__all__ = ["Client", "MemdeskError", "ServerUnavailable", "connect_if_running"]
