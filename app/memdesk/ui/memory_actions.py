"""What the person asks of memories from the window: new, correct, edit (from the detail
panel), delete, restore, release, retag, move, set project, link (the Graph's drag), empty
the Trash. Mixed into the main window; each change is one undoable step through `run` (or
`perform`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QInputDialog

from memdesk.core import MemdeskError, VersionConflict
from memdesk.core.display import quoted_start
from memdesk.core.rules import LAYER_NAMES, RELATIONS
from memdesk.ui.ask import Button, confirm
from memdesk.ui.dialogs import text_dialog
from memdesk.ui.dialogs.new_memory_dialog import NewMemoryDialog
from memdesk.ui.list.memory_table_model import first_line
from memdesk.ui.undo_commands import discard_redo, noun, perform


class MemoryActions:
    """Mixin of MainWindow (its service, run, selection, detail panel and undo stack)."""

    @Slot()
    def new_memory(self) -> None:
        key = self.sidebar.current_key
        layer = key if key in LAYER_NAMES else "L1"
        shown: list[str] = []

        def submit(fields: dict[str, Any]) -> bool:
            same = self._same_words(fields)
            if same is not None and not confirm(
                self,
                "Already stored",
                f"“{first_line(same['content'])}” is stored already ({same['id'][:8]}). "
                "Add a second copy anyway?",
                Button.Save,
            ):
                shown.append(same["id"])  # the one the person meant to write, shown
                return True
            title = f"New memory {quoted_start(first_line(fields['content']))}"
            added = self.run(title, lambda: self.service.add(dedup=False, **fields))
            if added:
                shown.append(added["id"])
            return bool(added)

        if NewMemoryDialog.ask(self, layer, self.browser.filters().get("project"), submit):
            self.open_memory(shown[-1])

    def _same_words(self, fields: dict[str, Any]) -> dict[str, Any] | None:
        """An active memory of this project in the same words. The window adds without the
        service's merging (undo must take back exactly what it added), and so made a second
        copy without a word where the CLI said "already known"."""
        words = " ".join(fields["content"].split()).casefold()
        hits = self.service.search(fields["content"], k=5, record=False)["hits"]
        return next(
            (
                hit
                for hit in hits
                if " ".join(hit["content"].split()).casefold() == words
                and hit["project"] == fields.get("project")
            ),
            None,
        )

    @Slot()
    def correct_current(self) -> None:
        """Replace the current memory with a corrected one; the old one is retired, linked."""
        memory_id = self.detail.memory_id
        if not memory_id:
            return
        old = self.service.get(memory_id)
        text, ok = text_dialog.ask_text(
            self,
            "Correct memory",
            "The corrected text (the old one is kept, retired):",
            old["content"],
        )
        if not ok or not text.strip() or text.strip() == old["content"]:
            return
        title = f"Correct {quoted_start(first_line(old['content']))}"
        new = self.run(title, lambda: self.service.correct(memory_id, text))
        if new:
            self.open_memory(new["id"])

    @Slot()
    def delete_selected(self) -> None:
        ids = self.selected_ids()
        if ids and not self.in_trash:
            table = self.browser.table
            rows = [i.row() for i in table.selectionModel().selectedRows()]
            below = table.id_below(max(rows))  # found again wherever agents' writes move it
            if self.run(
                f"Delete {noun(len(ids))} to the Trash", lambda: self.service.remove_many(ids)
            ):
                table.select_after_reload(below, min(rows))

    @Slot()
    def restore_selected(self) -> None:
        ids = self.selected_ids()
        if ids:
            self.run(f"Restore {noun(len(ids))}", lambda: self.service.restore_many(ids))

    @Slot()
    def release_selected(self) -> None:
        """Agents may see the selected memories the injection guard withheld; undoable."""
        ids = self.selected_ids()
        if ids:
            self.run(
                f"Release {noun(len(ids))} to agents",
                lambda: [self.service.clear_flag(i) for i in ids],
            )

    @Slot()
    def empty_trash(self) -> None:
        count = self.sidebar.count_of("trash")
        question = f"Delete {noun(count)} in the Trash permanently? This cannot be undone."
        if confirm(self, "Empty Trash", question):
            try:
                self.service.empty_trash()
            except MemdeskError as exc:
                self.show_error(exc)
            else:
                discard_redo(self.undo_stack)
            self.hub.flush()

    def bulk_edit(self, text: str, changes: dict[str, Any]) -> None:
        """Apply the same field changes to every selected memory: one transaction, one undo
        step; refused as a whole (e.g. a move that would overfill the identity)."""
        ids = self.selected_ids()
        if ids:
            self.run(f"{text} ({noun(len(ids))})", lambda: self.service.update_many(ids, changes))

    @Slot()
    def retag_selected(self) -> None:
        """Edit the tags the selected memories share: a tag added goes on each, a tag removed
        comes off each, and each keeps its other tags (several memories never all get the
        first one's tags)."""
        ids = self.selected_ids()
        if not ids:
            return
        tags_of = {i: self.service.get(i)["tags"] for i in ids}
        shared = [t for t in tags_of[ids[0]] if all(t in tags_of[i] for i in ids)]
        label = (
            "Tags (comma-separated):"
            if len(ids) == 1
            else f"Tags all {noun(len(ids))} have (comma-separated). Add or remove tags here; "
            "each memory keeps its other tags:"
        )
        text, ok = QInputDialog.getText(self, "Retag", label, text=", ".join(shared))
        if not ok:
            return
        wanted = list(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))
        gone = set(shared) - set(wanted)
        new = {
            i: [t for t in tags if t not in gone] + [t for t in wanted if t not in tags]
            for i, tags in tags_of.items()
        }
        changed = [i for i in ids if new[i] != tags_of[i]]
        if changed:
            self.run(
                f"Retag ({noun(len(changed))})",
                lambda: [self.service.update(i, tags=new[i]) for i in changed],
            )

    @Slot()
    def set_quiet_selected(self) -> None:
        """The person's "don't bring this up again": kept, searchable, never injected. It
        toggles what the current memory has (a menu's check mark may be older than an edit)."""
        quiet = self.detail.injected
        text = "Don't bring up unasked" if quiet else "Bring up unasked again"
        self.bulk_edit(text, {"inject": not quiet})
        self.menus.show_quiet_state()

    def move_selected(self, layer: str) -> None:
        if layer == "L0" and not self._identity_for_every_project(self.selected_ids()):
            return
        self.bulk_edit(f"Move to {layer} {LAYER_NAMES[layer]}", {"layer": layer})

    def _identity_for_every_project(self, ids: list[str]) -> bool:
        """Whether the person wants memories of a project in the identity, which every agent
        is given in every project (a project's rule moved there went everywhere, unasked)."""
        projects = sorted({p for i in ids if (p := self.service.get(i)["project"])})
        if not projects:
            return True
        return confirm(
            self,
            "Move to L0 Identity",
            f"{'This memory belongs' if len(ids) == 1 else 'Some of these memories belong'} "
            f"to the project {', '.join(projects[:5])}{' and more' if len(projects) > 5 else ''}"
            ", but the identity is given in full to every agent, in every project. Move "
            f"{'it' if len(ids) == 1 else 'them'} anyway?",
            Button.Yes,
        )

    @Slot()
    def set_project_of_selected(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        text, ok = QInputDialog.getText(
            self, "Set project", f"Project for {noun(len(ids))} (empty for none):"
        )
        if ok:
            self.bulk_edit("Set project", {"project": text.strip() or None})

    @Slot(dict, dict)
    def _on_edit_requested(self, record: dict[str, Any], changes: dict[str, Any]) -> None:
        def save() -> dict[str, Any]:
            return self.service.update(record["id"], expected_version=record["version"], **changes)

        try:
            perform(self.undo_stack, self.service, "Edit memory", save, self.show_error)
        except VersionConflict:
            self.detail.conflict()
            return
        except MemdeskError as exc:
            self.show_error(exc)
            return
        self.hub.flush()
        self.detail.show_memory(record["id"])
        self.browser.table.setFocus()  # the arrows go on through the list, as before the edit

    @Slot(dict, dict)
    def _on_restore_and_save_requested(
        self, record: dict[str, Any], changes: dict[str, Any]
    ) -> None:
        def restore_and_save() -> dict[str, Any]:
            self.service.restore(record["id"])
            return self.service.update(record["id"], **changes)

        title = f"Restore and edit {quoted_start(first_line(record['content']))}"
        if self.run(title, restore_and_save):
            # shown where the person is: opening it cleared their search to find its row
            self.hub.flush()
            self.detail.show_memory(record["id"])

    @Slot(dict)
    def _on_save_as_new_requested(self, fields: dict[str, Any]) -> None:
        title = f"New memory {quoted_start(first_line(fields['content']))}"
        added = self.run(title, lambda: self.service.add(dedup=False, **fields))
        if added:
            self.detail.stop_editing()
            self.open_memory(added["id"])

    @Slot(dict, int)
    def _on_revert_requested(self, record: dict[str, Any], version: int) -> None:
        def revert() -> dict[str, Any]:
            return self.service.revert(record["id"], version, expected_version=record["version"])

        if self.run(f"Restore version {version}", revert):
            self.detail.show_memory(record["id"])

    @Slot(str, str)
    def link_memories(self, source: str, target: str) -> None:
        """Link two memories (the Graph's drag), asking which relation; undoable."""
        relations = [r for r in RELATIONS if r != "possible_update"]
        first, second = (_quoted_title(self.service.get(i)["content"]) for i in (source, target))
        relation, ok = QInputDialog.getItem(
            self,
            "Link Memories",
            f"How is {first} related to {second}?\n(for example: the first derived_from the "
            "second)",
            relations,
            0,
            False,
        )
        if ok:
            self.run("Link memories", lambda: self.service.link(source, target, relation))

    @Slot(str, str, str)
    def unlink_memories(self, source: str, target: str, relation: str) -> None:
        self.run("Remove link", lambda: self.service.unlink(source, target, relation))


def _quoted_title(content: str) -> str:
    """A memory named in a question: its first line, shortened, in quotes."""
    line = next((part.strip() for part in content.splitlines() if part.strip()), "")
    return f"“{line if len(line) <= 50 else line[:49] + '…'}”"
