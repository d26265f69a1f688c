"""Shared fixtures. Qt runs offscreen so the suite needs no display."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from memdesk.core import MemoryService  # noqa: E402


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "memdesk.db"


@pytest.fixture
def service(db_path):
    svc = MemoryService.open(db_path)
    yield svc
    svc.close()
