"""The base and the remote as the merge sees them: each memory's digest from a git tree, and
its text read only when the merge needs it (one cat-file process for all that changed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from memdesk.core.errors import MemdeskError
from memdesk.core.sync.files import (
    IDENTITY,
    MAX_FILE_BYTES,
    MEMORIES,
    Unit,
    id_of_path,
    identity_units,
)
from memdesk.core.sync.git import Entry, Mirror
from memdesk.core.sync.merge import Side

TAKE_BYTES = 128 * 2**20  # files one sync reads: ~130,000 new memories of 1 KB, half as many edited
READ_BYTES = 16 * 2**20  # read from git at a time
SYMLINK = "120000"  # git's mode of a symbolic link
# Files under memories/ misnamed, each named in the sync's report; the rest are counted (a
# crafted remote's million of them made a 186 MB report, read again by `sync status`).
NAMED_MISNAMED = 100
_NAMED = f"memdesk names a memory's file ({MEMORIES}/xx/<words>--<id>.md)"


@dataclass
class TreeSide:
    mirror: Mirror
    tree: dict[str, Entry]
    identity: dict[str, Unit] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)  # memory id -> its file
    # Other files of the same id (a name from before slugs, written again by an older memdesk)
    others: dict[str, list[str]] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)  # id or path -> why
    deferred: set[str] = field(default_factory=set)  # past this sync's budget: the next reads
    room: int = TAKE_BYTES  # of the budget, what is left for earlier versions (`past`)
    _texts: dict[str, Unit] = field(default_factory=dict)

    @classmethod
    def read(cls, mirror: Mirror, commit: str | None) -> TreeSide:
        files, left_out = mirror.tree(commit)
        side = cls(mirror, files)
        misnamed = left_out  # deeper than a memory's file, past the first few
        named = 0
        for path, entry in side.tree.items():
            memory_id = id_of_path(path)
            if memory_id is None:
                if path.startswith(f"{MEMORIES}/"):  # a memory's file, misnamed: said, not lost
                    misnamed += 1
                    if named < NAMED_MISNAMED:
                        side.refused[path] = f"{path!r} is not named as {_NAMED}"
                        named += 1
                continue
            if entry.mode == SYMLINK:
                side.refused[memory_id] = f"{path} is a symbolic link, not a file"
            elif entry.size > MAX_FILE_BYTES:
                side.refused[memory_id] = f"{path} is {entry.size:,} bytes, far past a memory's"
            elif memory_id in side.paths:
                side.others.setdefault(memory_id, []).append(path)
            else:
                side.paths[memory_id] = path
        if misnamed > named:
            side.refused[f"{MEMORIES}/"] = (
                f"{misnamed - named:,} more files under {MEMORIES}/ are not named as {_NAMED}"
            )
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

    def within_budget(self, ids: set[str], base: TreeSide | None = None) -> set[str]:
        """Of `ids`, those whose files fit in TAKE_BYTES together (by the sizes the tree
        gives, nothing read), with their files in `base` (the state last agreed, read to
        compare: uncounted, a sync read twice its budget); the others are refused for this
        sync with the reason. A crafted repository of 8,000 files of 255 KB (5 MB compressed)
        took a sync to 3.9 GB."""
        kept, used = set(), 0
        later = (  # one text for all: a remote of a million files made a million of them
            f"not read yet: the remote changed more than {TAKE_BYTES / 2**20:g} MiB of "
            "memories at once; the next sync reads on"
        )
        for memory_id in sorted(ids, key=lambda i: self.paths.get(i, "")):
            size = self.size_of(memory_id)
            if base is not None and base is not self:
                size += base.size_of(memory_id)
            if used + size > TAKE_BYTES:
                self.refused[memory_id] = later
                self.deferred.add(memory_id)
                continue
            kept.add(memory_id)
            used += size
        self.room = TAKE_BYTES - used
        return kept

    def size_of(self, memory_id: str) -> int:
        """The size of the memory's file in this tree (0 where it has none)."""
        return self.tree[self.paths[memory_id]].size if memory_id in self.paths else 0

    def prefetch(self, ids: set[str]) -> None:
        wanted = [(i, self.paths[i]) for i in ids if i in self.paths and i not in self._texts]
        batch: list[tuple[str, str]] = []
        size = 0
        for memory_id, path in [*wanted, ("", "")]:
            if memory_id and size + self.tree[path].size <= READ_BYTES:
                batch.append((memory_id, path))
                size += self.tree[path].size
                continue
            # One cat-file process per batch: its output is held in memory whole.
            blobs = self.mirror.read([self.tree[p].sha for _i, p in batch])
            for batch_id, batch_path in batch:
                self._texts[batch_id] = Unit(batch_id, text_of(blobs[self.tree[batch_path].sha]))
            batch, size = ([(memory_id, path)], self.tree[path].size) if memory_id else ([], 0)

    def load(self, memory_id: str) -> Unit:
        if memory_id in self.identity:
            return self.identity[memory_id]
        if memory_id not in self._texts:
            self.prefetch({memory_id})
        return self._texts[memory_id]


def text_of(data: bytes) -> str:
    """A file's text; a byte that is not UTF-8 stays a lone surrogate, so the file is refused
    as any text that is not Unicode is (replaced by U+FFFD, a Latin-1 file was taken as other
    text than the remote holds)."""
    return data.decode("utf-8", "surrogateescape")
