"""A remote's earlier versions of memories, from its history: those a range of its commits
wrote (another machine's edits between two syncs), or all a memory's file ever held. One
`git log` for every memory asked of, their sizes in one `cat-file --batch-check`, their texts
in a `cat-file --batch` per READ_BYTES; only plain files of a memory's size, and only as many
as fit in what is left of the sync's budget (`TreeSide.room`): with the changed files it
reads, a sync reads no more than TAKE_BYTES."""

from __future__ import annotations

from memdesk.core.errors import MemdeskError
from memdesk.core.sync.files import MAX_FILE_BYTES, MEMORIES, Unit, id_of_path
from memdesk.core.sync.merge import same_words
from memdesk.core.sync.sides import READ_BYTES, TreeSide, text_of


def versions(
    side: TreeSide, commits: str, ids: set[str], paths: list[str] | None = None
) -> dict[str, list[Unit]]:
    """Of `ids`, each file version the commits `commits` wrote (newest first) but the one the
    side's tree holds, as many as the side's room holds; `paths` narrow the log (every
    memory's file by default)."""
    newest = {side.tree[side.paths[i]].sha for i in ids if i in side.paths}
    found: dict[str, list[str]] = {}
    for path, sha in side.mirror.written(commits, paths or [f"{MEMORIES}/"]):
        memory_id = id_of_path(path)
        if memory_id in ids and sha not in newest and sha not in found.setdefault(memory_id, []):
            found[memory_id].append(sha)
    sizes = side.mirror.sizes([sha for shas in found.values() for sha in shas])
    kept: dict[str, list[str]] = {}
    for memory_id, shas in sorted(found.items()):
        for sha in shas:
            size = sizes.get(sha, MAX_FILE_BYTES + 1)  # not a blob: never read
            if size <= min(MAX_FILE_BYTES, side.room):
                side.room -= size
                kept.setdefault(memory_id, []).append(sha)
    texts = _read(side, [sha for shas in kept.values() for sha in shas], sizes)
    return {i: [Unit(i, texts[sha]) for sha in shas] for i, shas in kept.items()}


def unchanged_here(side: TreeSide, head: str, local: dict[str, Unit], ids: set[str]) -> set[str]:
    """Of `ids`, memories shared again whose last agreed state is not known, those whose
    state here has the words of a version the remote once held: kept to itself, this machine
    did not change them (asked as "changed here", they had not)."""
    if not ids:
        return set()
    paths = [f"{MEMORIES}/{i[:2]}/*{i}.md" for i in sorted(ids)]  # any name the file had
    held = versions(side, head, ids, paths)
    return {i for i, units in held.items() if any(_same(local[i], u) for u in units)}


def _same(here: Unit, there: Unit) -> bool:
    try:
        return same_words(here.fields(), there.fields())
    except MemdeskError:  # a version that cannot be read holds no words of this machine's
        return False


def _read(side: TreeSide, shas: list[str], sizes: dict[str, int]) -> dict[str, str]:
    """The blobs' texts, READ_BYTES at a time (cat-file's output is held whole)."""
    texts: dict[str, str] = {}
    batch: list[str] = []
    size = 0
    for sha in [*shas, ""]:
        if sha and size + sizes[sha] <= READ_BYTES:
            batch.append(sha)
            size += sizes[sha]
            continue
        texts.update((s, text_of(data)) for s, data in side.mirror.read(batch).items())
        batch, size = ([sha], sizes[sha]) if sha else ([], 0)
    return texts
