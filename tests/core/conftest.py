"""Fixtures for service tests."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def dump(service):
    """Everything in the database as a comparable value: the full JSON export minus its date,
    plus the retrieval log. Compare before and after to prove a failed call changed nothing."""

    def snapshot() -> dict:
        data = json.loads(service.export("json"))
        del data["exported_at"]
        data["retrieval_log"] = service.retrieval_log(limit=10_000)
        return data

    return snapshot
