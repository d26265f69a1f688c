"""A model-based test of the window's actions, agents writing in between.

Hypothesis drives the window's own commands (add, edit, correct, delete, restore, bulk retag,
set project and move layer (into a nearly full identity too), identity save, import, Empty
Trash) and agent writes over the service, and checks after every step that the database holds
exactly what a plain model says. At any point it may undo everything and redo everything: the
database must then be at the start and at the end state again, except where a step had to be
refused (an agent or Empty Trash changed what it touched), which the model predicts too.

MEMDESK_STATE_EXAMPLES=500 runs it longer by hand.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from PySide6.QtCore import QItemSelection, QItemSelectionModel, QSettings
from PySide6.QtWidgets import QApplication, QInputDialog, QMessageBox

from memdesk.core import IdentityFull, MemoryService, agent
from memdesk.core.memory.steps import capture
from memdesk.ui.dialogs import text_dialog
from memdesk.ui.dialogs.identity_editor import IdentityEditor
from memdesk.ui.dialogs.import_dialog import ImportDialog
from memdesk.ui.dialogs.new_memory_dialog import NewMemoryDialog
from memdesk.ui.main_window import MainWindow
from tests.ui.window_helpers import settle, typed_in_new_memory

FIELDS = ("content", "layer", "tags", "project", "status")
LIMIT = 1000
words = st.sampled_from("alpha beta gamma delta port deploy tabs cache build".split())
texts = st.lists(words, min_size=2, max_size=5).map(" ".join)
Model = dict[str, dict[str, Any]]


class WindowMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        QApplication.instance() or QApplication([])
        self.folder = Path(tempfile.mkdtemp())
        self.service = MemoryService.open(self.folder / "m.db")
        self.window = MainWindow(
            self.service,
            settings=QSettings(str(self.folder / "s.ini"), QSettings.Format.IniFormat),
        )
        self.warnings: list[str] = []
        self._patched = {
            (QMessageBox, "warning"): QMessageBox.warning,
            (QMessageBox, "question"): QMessageBox.question,
            (text_dialog, "ask_text"): text_dialog.ask_text,
        }
        QMessageBox.warning = lambda _p, _t, text, *a: self.warnings.append(text)  # type: ignore
        QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.Yes  # type: ignore
        self.model: Model = {}
        self.links: set[tuple[str, str, str]] = set()
        self.before_trash: dict[str, str] = {}
        # the window's undo stack as the model sees it: (before, after) of the changed fields
        self.stack: list[tuple[Model, Model]] = []
        self.agents_own: set[str] = set()  # what the agent wrote: all it may change
        self.index = 0
        self.counter = 0
        # an identity close to its limit, so moves and saves into L0 meet the refusal
        seed = self.service.add("Rules: " + "keep it short " * 65, layer="L0")
        self.model[seed["id"]] = {f: seed[f] for f in FIELDS}

    def teardown(self) -> None:
        for (owner, name), original in self._patched.items():
            setattr(owner, name, original)
        self.window.close()
        self.window.deleteLater()
        QApplication.processEvents()
        self.service.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- helpers -------------------------------------------------------------------------------

    def _text(self, base: str) -> str:
        self.counter += 1
        return f"{base} n{self.counter}"

    def _identity_size(self, model: Model) -> int:
        """The profile as agents get it: entries one per line, the line breaks counted."""
        sizes = [
            len(m["content"])
            for m in model.values()
            if m["layer"] == "L0" and m["status"] == "active"
        ]
        return sum(sizes) + max(0, len(sizes) - 1)

    def _view(self, key: str) -> list[str]:
        self.window.sidebar.select_key(key)
        self.window.browser.set_view_key(key)
        settle(self.window)
        return list(
            self.window.browser.model._pages.get(0, [])
            and [r["id"] for r in self.window.browser.model._pages[0]]
        )

    def _select(self, ids: list[str]) -> None:
        table = self.window.browser.table
        selection = QItemSelection()
        for memory_id in ids:
            row = self.window.browser.model.row_of(memory_id)
            assert row >= 0, memory_id
            index = self.window.browser.model.index(row, 0)
            selection.select(index, index)
        flags = QItemSelectionModel.SelectionFlag
        table.selectionModel().select(selection, flags.ClearAndSelect | flags.Rows)

    def _apply(self, changes: Model, refused: bool = False) -> None:
        """The window action changed `changes` (id -> new field values) unless refused;
        push its step on the model's stack."""
        settle(self.window)
        if refused:
            assert self.warnings, "a refusal must be shown"
            self.warnings.clear()
            return
        assert not self.warnings, self.warnings
        before = {i: dict(self.model[i]) if i in self.model else None for i in changes}
        for memory_id, fields in changes.items():
            if fields is None:
                self.model.pop(memory_id, None)
            else:
                self.model.setdefault(memory_id, {}).update(fields)
        after = {i: dict(self.model[i]) if i in self.model else None for i in changes}
        del self.stack[self.index :]
        self.stack.append((before, after))
        self.index += 1

    def _status(self, memory_id: str, status: str) -> dict[str, Any]:
        old = self.model[memory_id]["status"]
        if status == "deleted" and old != "deleted":
            self.before_trash[memory_id] = old
        return {"status": status}

    def _active(self) -> list[str]:
        # in the order the model learned them: uuids are random, a draw must not depend on them
        return [i for i, m in self.model.items() if m["status"] == "active"]

    # -- window actions ------------------------------------------------------------------------

    @rule(text=texts)
    def add(self, text: str) -> None:
        text = self._text(text)
        self.window.sidebar.select_key("all")
        original = NewMemoryDialog.ask
        NewMemoryDialog.ask = typed_in_new_memory(lambda layer: {"content": text, "layer": layer})
        try:
            self.window.new_memory()
        finally:
            NewMemoryDialog.ask = original  # type: ignore
        new_id = self.window.detail.memory_id
        fields = {"content": text, "layer": "L1", "tags": [], "project": None, "status": "active"}
        self._apply({new_id: fields})

    @precondition(lambda self: self._active())
    @rule(data=st.data(), text=texts)
    def edit(self, data: st.DataObject, text: str) -> None:
        memory_id = data.draw(st.sampled_from(self._active()))
        text = self._text(text)
        self.window.open_memory(memory_id)
        settle(self.window)
        self.window.detail.start_editing()
        self.window.detail.editor.content.setPlainText(text)
        self.window.detail.editor.save_button.click()
        m = self.model[memory_id]
        grows = len(text) - len(m["content"])
        full = m["layer"] == "L0" and self._identity_size(self.model) + grows > LIMIT
        self._apply({memory_id: {"content": text}}, refused=full)
        if full:
            self.window.detail.stop_editing()

    @precondition(lambda self: self._active())
    @rule(data=st.data(), text=texts)
    def correct(self, data: st.DataObject, text: str) -> None:
        memory_id = data.draw(st.sampled_from(self._active()))
        text = self._text(text)
        self.window.open_memory(memory_id)
        settle(self.window)
        text_dialog.ask_text = lambda *a, **k: (text, True)  # type: ignore
        self.window.correct_current()
        old = self.model[memory_id]
        full = (
            old["layer"] == "L0"
            and self._identity_size(self.model) + len(text) - len(old["content"]) > LIMIT
        )
        if full:
            self._apply({}, refused=True)
            return
        new_id = self.window.detail.memory_id
        self.links.add((new_id, "supersedes", memory_id))
        self._apply(
            {memory_id: self._status(memory_id, "inactive"), new_id: {**old, "content": text}}
        )

    @precondition(lambda self: self._active())
    @rule(data=st.data(), retired=st.booleans())
    def delete(self, data: st.DataObject, retired: bool) -> None:
        status, view = ("inactive", "inactive") if retired else ("active", "all")
        shown = [i for i, m in self.model.items() if m["status"] == status]
        if not shown:
            return
        ids = data.draw(st.lists(st.sampled_from(shown), min_size=1, unique=True))
        self._view(view)
        self._select(ids)
        self.window.delete_selected()
        self._apply({i: self._status(i, "deleted") for i in ids})

    @precondition(lambda self: any(m["status"] == "deleted" for m in self.model.values()))
    @rule(data=st.data())
    def restore(self, data: st.DataObject) -> None:
        trash = [i for i, m in self.model.items() if m["status"] == "deleted"]
        ids = data.draw(st.lists(st.sampled_from(trash), min_size=1, unique=True))
        self._view("trash")
        self._select(ids)
        self.window.restore_selected()
        after = {i: self.before_trash.get(i, "active") for i in ids}
        grows = sum(
            len(self.model[i]["content"])
            for i in ids
            if after[i] == "active" and self.model[i]["layer"] == "L0"
        )
        full = self._identity_size(self.model) + grows > LIMIT
        self._apply({i: {"status": after[i]} for i in ids}, refused=full)

    @precondition(lambda self: self._active())
    @rule(
        data=st.data(),
        field=st.sampled_from(["tags", "project", "layer"]),
        value=st.sampled_from(["ops", "web", "L0", "L1", "L2"]),
    )
    def bulk(self, data: st.DataObject, field: str, value: str) -> None:
        ids = data.draw(st.lists(st.sampled_from(self._active()), min_size=1, unique=True))
        self._view("all")
        self._select(ids)
        if field == "layer":
            value = value if value.startswith("L") else "L0"
            self.window.move_selected(value)
            new = {i: value for i in ids}
        else:
            QInputDialog.getText = lambda *a, **k: (value, True)  # type: ignore
            if field == "tags":
                self.window.retag_selected()
                new = self._retagged(ids, value)
            else:
                self.window.set_project_of_selected()
                new = {i: value for i in ids}
        changes = {i: {field: new[i]} for i in ids if self.model[i][field] != new[i]}
        after = {i: {**m, **changes.get(i, {})} for i, m in self.model.items()}
        full = self._identity_size(after) > LIMIT
        if changes or full:
            self._apply(changes, refused=full)

    def _retagged(self, ids: list[str], tag: str) -> dict[str, list[str]]:
        """Retag to `tag`: the tags all of them share are replaced by it; others are kept."""
        tags = {i: self.model[i]["tags"] for i in ids}
        gone = {t for t in tags[ids[0]] if all(t in tags[i] for i in ids)} - {tag}
        return {
            i: [t for t in tags[i] if t not in gone] + ([] if tag in tags[i] else [tag])
            for i in ids
        }

    @rule(line=texts)
    def identity_save(self, line: str) -> None:
        entries = sorted(
            (i for i, m in self.model.items() if m["layer"] == "L0" and m["status"] == "active"),
            key=lambda i: self.service.get(i)["created_at"] + i,
        )
        line = self._text(line)

        def edit_and_save(editor: IdentityEditor) -> int:
            editor.text.setPlainText((editor.text.toPlainText() + "\n" + line).strip())
            editor.save_button.click()
            return editor.result()

        original, IdentityEditor.exec = IdentityEditor.exec, edit_and_save  # type: ignore
        try:
            self.window.edit_identity()
        finally:
            IdentityEditor.exec = original  # type: ignore
        if self._identity_size(self.model) + len(line) + 1 > LIMIT:
            self.warnings.clear()  # the editor refuses to save (its own counter says why)
            return
        # a line typed is an entry of its own, after the others
        new_id = self.service.identity()["ids"][-1]
        assert new_id not in entries
        fields = {"content": line, "layer": "L0", "tags": [], "project": None}
        self._apply({new_id: {**fields, "status": "active"}})

    @precondition(lambda self: self.model)
    @rule(data=st.data(), text=texts)
    def import_file(self, data: st.DataObject, text: str) -> None:
        target = data.draw(st.sampled_from(list(self.model)))
        text = self._text(text)
        document = json.loads(self.service.export("json", ids=[target], status=None))
        document["memories"][0]["content"] = text
        document["links"] = []
        m = self.model[target]
        full = (
            m["layer"] == "L0"
            and m["status"] == "active"
            and self._identity_size(self.model) + len(text) - len(m["content"]) > LIMIT
        )

        def fake_exec(dialog: ImportDialog) -> int:
            try:
                dialog.applied, dialog.step = self.service.record(
                    lambda: self.service.import_json(json.dumps(document))
                )
            except IdentityFull:  # the dialog shows it; the model must expect it
                if not full:
                    raise
                return 0
            return 1

        original, ImportDialog.exec = ImportDialog.exec, fake_exec  # type: ignore
        try:
            self.window.import_memories()
        finally:
            ImportDialog.exec = original  # type: ignore
        if not full:
            self._apply({target: {"content": text}})

    @precondition(lambda self: any(m["status"] == "deleted" for m in self.model.values()))
    @rule()
    def empty_trash(self) -> None:
        self._view("trash")
        self.window.empty_trash()
        settle(self.window)
        gone = {i for i, m in self.model.items() if m["status"] == "deleted"}
        for memory_id in gone:
            del self.model[memory_id]
        self.links = {link for link in self.links if not gone & {link[0], link[2]}}

    # -- agents --------------------------------------------------------------------------------

    @rule(text=texts)
    def agent_adds(self, text: str) -> None:
        text = self._text(text)
        added = self.service.add(text, dedup=False, actor=agent("claude"))
        self.agents_own.add(added["id"])
        self.model[added["id"]] = {
            "content": text,
            "layer": "L1",
            "tags": [],
            "project": None,
            "status": "active",
        }

    @precondition(lambda self: self._untouched_agent_memories())
    @rule(data=st.data())
    def agent_retags(self, data: st.DataObject) -> None:
        memory_id = data.draw(st.sampled_from(self._untouched_agent_memories()))
        self.service.update(memory_id, tags=["agent"], actor=agent("claude"))
        self.model[memory_id]["tags"] = ["agent"]

    def _untouched_agent_memories(self) -> list[str]:
        touched = {i for before, _after in self.stack for i in before}
        return [
            i
            for i, m in self.model.items()
            if m["status"] == "active"
            and i in self.agents_own
            and i not in touched
            and m.get("tags") != ["agent"]
        ]

    # -- undo everything, redo everything ------------------------------------------------------

    @precondition(lambda self: self.stack)
    @rule()
    def undo_all_then_redo_all(self) -> None:
        while self.window.undo_stack.canUndo():
            self.window.undo_stack.undo()
            self._model_step(undo=True)
            settle(self.window)
            self.warnings.clear()
            self.check_database()
        assert self.index == 0
        while self.window.undo_stack.canRedo():
            self.window.undo_stack.redo()
            self._model_step(undo=False)
            settle(self.window)
            self.warnings.clear()
            self.check_database()
        assert self.index == len(self.stack)

    def _model_step(self, *, undo: bool) -> None:
        """What the window's stack does: apply the step if every memory still holds what
        the step left; else drop it (refused, obsolete)."""
        position = self.index - 1 if undo else self.index
        before, after = self.stack[position]
        expect, target = (after, before) if undo else (before, after)
        fine = all(
            (expect[i] is None and i not in self.model)
            or (
                expect[i] is not None
                and i in self.model
                and all(self.model[i][f] == expect[i][f] for f in _changed(before[i], after[i]))
            )
            for i in expect
        )
        if not fine:
            del self.stack[position]
            if undo:
                self.index -= 1
            return
        for memory_id, state in target.items():
            if state is None:
                self.model.pop(memory_id, None)
            else:
                fields = _changed(before[memory_id], after[memory_id])
                current = self.model.setdefault(memory_id, dict(state))
                current.update({f: state[f] for f in fields})
                if "status" in fields and state["status"] == "deleted":
                    self.before_trash[memory_id] = expect[memory_id]["status"]  # type: ignore
        self.index += -1 if undo else 1

    # -- the check -----------------------------------------------------------------------------

    @invariant()
    def check_database(self) -> None:
        ids = [m["id"] for m in self.service.list_memories(status=None, limit=10_000)]
        states = capture(ids)
        found = {i: {f: s[f] for f in FIELDS} for i, s in states.items() if s is not None}
        for state in found.values():
            state["tags"] = json.loads(state["tags"])
        assert found == self.model


def _changed(before: dict[str, Any] | None, after: dict[str, Any] | None) -> tuple[str, ...]:
    if before is None or after is None:
        return FIELDS
    return tuple(f for f in FIELDS if before.get(f) != after.get(f))


WindowMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("MEMDESK_STATE_EXAMPLES", "25")),
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
test_window_actions_match_the_model = WindowMachine.TestCase
