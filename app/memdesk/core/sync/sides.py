"""The base and the remote as the merge sees them: each memory's digest from a git tree, and
its text read only when the merge needs it (one cat-file process for all that changed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from memdesk.core.errors import MemdeskError
from memdesk.core.sync.files import IDENTITY, MAX_FILE_BYTES, Unit, id_of_path, identity_units
from memdesk.core.sync.git import Entry, Mirror
from memdesk.core.sync.merge import Side


@dataclass
class TreeSide:
    mirror: Mirror
    tree: dict[str, Entry]
    identity: dict[str, Unit] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)  # memory id -> its file
    refused: dict[str, str] = field(default_factory=dict)  # id or path -> why
    _texts: dict[str, Unit] = field(default_factory=dict)

    @classmethod
    def read(cls, mirror: Mirror, commit: str | None) -> TreeSide:
        side = cls(mirror, mirror.tree(commit))
        for path, entry in side.tree.items():
            memory_id = id_of_path(path)
            if memory_id is None:
                continue
            if entry.size > MAX_FILE_BYTES:
                side.refused[memory_id] = f"{path} is {entry.size:,} bytes, far past a memory's"
            else:
                side.paths[memory_id] = path
        identity = side.tree.get(IDENTITY)
        if identity is not None:
            side._read_identity(identity)
        return side

    def _read_identity(self, entry: Entry) -> None:
        if entry.size > MAX_FILE_BYTES:
            self.refused[IDENTITY] = f"{IDENTITY} is {entry.size:,} bytes, far past the profile's"
            return
        text = self.mirror.read([entry.sha])[entry.sha].decode("utf-8", "replace")
        try:
            units = identity_units(text)
        except MemdeskError as exc:
            self.refused[IDENTITY] = f"{IDENTITY}: {exc.message}"
            return
        self.identity = {u.id: u for u in units}

    @property
    def ids(self) -> set[str]:
        return set(self.paths) | set(self.identity)

    def side(self) -> Side:
        digests = {memory_id: self.tree[path].sha for memory_id, path in self.paths.items()}
        digests.update((memory_id, unit.digest) for memory_id, unit in self.identity.items())
        return Side(digests, self.load)

    def prefetch(self, ids: set[str]) -> None:
        wanted = {i: self.paths[i] for i in ids if i in self.paths and i not in self._texts}
        blobs = self.mirror.read([self.tree[p].sha for p in wanted.values()])
        for memory_id, path in wanted.items():
            self._texts[memory_id] = Unit(memory_id, _text(blobs[self.tree[path].sha]))

    def load(self, memory_id: str) -> Unit:
        if memory_id in self.identity:
            return self.identity[memory_id]
        if memory_id not in self._texts:
            self.prefetch({memory_id})
        return self._texts[memory_id]


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")
