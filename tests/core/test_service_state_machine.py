"""A model-based test of the service: every operation against a plain dict model.

Hypothesis runs add, add_many, update, correct, remove, restore, revert, purge, link, a search
by a word only one memory holds, export → import into a fresh database, and close → reopen,
and checks every memory's fields, status, version and links after each step.

MEMDESK_SERVICE_EXAMPLES=500 runs it longer by hand.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from memdesk.core import MemoryService, NotAllowed

words = st.sampled_from("alpha beta gamma delta port deploy tabs cache build".split())
texts = st.lists(words, min_size=1, max_size=4).map(" ".join)


class ServiceMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp())
        self.path = self.folder / "m.db"
        self.service = MemoryService.open(self.path)
        self.model: dict[str, dict[str, Any]] = {}
        self.history: dict[str, dict[int, tuple]] = {}  # id -> version -> (content, tags)
        self.before_trash: dict[str, str] = {}
        self.links: set[tuple[str, str, str]] = set()
        self.counter = 0
        self.copies = 0

    def teardown(self) -> None:
        self.service.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _unique(self, text: str) -> str:
        self.counter += 1
        return f"{text} uniq{self.counter}x"  # one word no other memory holds

    def _ids(self, *statuses: str) -> list[str]:
        return [i for i, m in self.model.items() if m["status"] in statuses]

    def _new(self, memory: dict[str, Any]) -> None:
        self.model[memory["id"]] = {
            "content": memory["content"],
            "tags": memory["tags"],
            "status": "active",
            "version": 1,
        }
        self.history[memory["id"]] = {1: (memory["content"], memory["tags"])}

    def _bump(self, memory_id: str, **fields: Any) -> None:
        m = self.model[memory_id]
        m.update(fields)
        m["version"] += 1
        self.history[memory_id][m["version"]] = (m["content"], m["tags"])

    def _status(self, memory_id: str, status: str) -> None:
        if status == "deleted":
            self.before_trash[memory_id] = self.model[memory_id]["status"]
        self._bump(memory_id, status=status)

    @rule(text=texts)
    def add(self, text: str) -> None:
        self._new(self.service.add(self._unique(text), dedup=False))

    @rule(batch=st.lists(texts, min_size=1, max_size=4))
    def add_many(self, batch: list[str]) -> None:
        items = [{"content": self._unique(t)} for t in batch]
        for memory in self.service.add_many(items, dedup=False):
            self._new(memory)

    @precondition(lambda self: self.model)
    @rule(data=st.data(), text=texts, tag=st.sampled_from(["a", "b"]))
    def update(self, data: st.DataObject, text: str, tag: str) -> None:
        memory_id = data.draw(st.sampled_from(list(self.model)))
        content = self._unique(text)
        if self.model[memory_id]["status"] != "active":
            # trashed or replaced: an edit there reaches no one, so it is refused
            with pytest.raises(NotAllowed):
                self.service.update(memory_id, content=content, tags=[tag])
            return
        self.service.update(memory_id, content=content, tags=[tag])
        self._bump(memory_id, content=content, tags=[tag])

    @precondition(lambda self: self._ids("active"))
    @rule(data=st.data(), text=texts)
    def correct(self, data: st.DataObject, text: str) -> None:
        old = data.draw(st.sampled_from(self._ids("active")))
        new = self.service.correct(old, self._unique(text))
        self._status(old, "inactive")
        self._new(new)
        self.model[new["id"]]["tags"] = self.model[old]["tags"]
        self.history[new["id"]][1] = (new["content"], self.model[old]["tags"])
        self.links.add((new["id"], "supersedes", old))

    @precondition(lambda self: self._ids("active", "inactive"))
    @rule(data=st.data())
    def remove(self, data: st.DataObject) -> None:
        memory_id = data.draw(st.sampled_from(self._ids("active", "inactive")))
        self.service.remove(memory_id)
        self._status(memory_id, "deleted")

    @precondition(lambda self: self._ids("deleted", "inactive"))
    @rule(data=st.data())
    def restore(self, data: st.DataObject) -> None:
        memory_id = data.draw(st.sampled_from(self._ids("deleted", "inactive")))
        self.service.restore(memory_id)
        status = self.model[memory_id]["status"]
        self._status(memory_id, self.before_trash[memory_id] if status == "deleted" else "active")

    @precondition(lambda self: any(len(h) > 1 for h in self.history.values()))
    @rule(data=st.data())
    def revert(self, data: st.DataObject) -> None:
        memory_id = data.draw(st.sampled_from([i for i, h in self.history.items() if len(h) > 1]))
        version = data.draw(st.sampled_from(sorted(self.history[memory_id])[:-1]))
        self.service.revert(memory_id, version)
        content, tags = self.history[memory_id][version]
        m = self.model[memory_id]
        if (m["content"], m["tags"]) != (content, tags):  # else nothing changes: no version
            self._bump(memory_id, content=content, tags=tags)

    @precondition(lambda self: self._ids("deleted"))
    @rule(data=st.data())
    def purge(self, data: st.DataObject) -> None:
        memory_id = data.draw(st.sampled_from(self._ids("deleted")))
        self.service.purge(memory_id)
        del self.model[memory_id], self.history[memory_id]
        self.links = {link for link in self.links if memory_id not in (link[0], link[2])}

    @precondition(lambda self: len(self.model) >= 2)
    @rule(data=st.data())
    def link(self, data: st.DataObject) -> None:
        a, b = data.draw(
            st.lists(st.sampled_from(list(self.model)), min_size=2, max_size=2, unique=True)
        )
        self.service.link(a, b, "related")
        self.links.add((a, "related", b))

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def search_by_its_own_word(self, data: st.DataObject) -> None:
        memory_id = data.draw(st.sampled_from(list(self.model)))
        word = self.model[memory_id]["content"].rsplit(" ", 1)[-1]
        hits = [h["id"] for h in self.service.search(word, k=5)["hits"]]
        expected = [memory_id] if self.model[memory_id]["status"] == "active" else []
        assert hits == expected

    @rule()
    def close_and_reopen(self) -> None:
        self.service.close()
        self.service = MemoryService.open(self.path)

    @rule()
    def export_then_import_into_a_fresh_database(self) -> None:
        exported = self.service.export("json")
        self.service.close()
        self.copies += 1
        fresh = MemoryService.open(self.folder / f"copy{self.copies}.db")
        try:
            fresh.import_json(exported)
            assert self._found(fresh) == self._expected()
        finally:
            fresh.close()
            self.service = MemoryService.open(self.path)

    def _expected(self) -> tuple[dict[str, Any], set[tuple[str, str, str]]]:
        return self.model, self.links

    def _found(self, service: MemoryService) -> tuple[dict[str, Any], set[tuple[str, str, str]]]:
        records = json.loads(service.export("json"))
        memories = {
            m["id"]: {k: m[k] for k in ("content", "tags", "status", "version")}
            for m in records["memories"]
        }
        links = {(link["from"], link["relation"], link["to"]) for link in records["links"]}
        return memories, links

    @invariant()
    def every_read_matches_the_model(self) -> None:
        assert self._found(self.service) == self._expected()


ServiceMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("MEMDESK_SERVICE_EXAMPLES", "30")),
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_service_matches_the_model = ServiceMachine.TestCase
