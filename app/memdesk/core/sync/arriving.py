"""What a remote changed, as this machine takes it: each file checked, and refused when it
fails a check (a team remote's file of another project or of the identity, one in the name of
the person's machines that they did not write: `vouching`), or kept here, unapplied, when it
changes what the person chose not to share with that remote (private, `sync local`, a project
synced through a team remote)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from memdesk.core.authorship import Authorship
from memdesk.core.errors import MemdeskError
from memdesk.core.rules import JUDGING
from memdesk.core.sync import mending, moved, writers
from memdesk.core.sync.config import Config, Remote
from memdesk.core.sync.files import IDENTITY, Unit
from memdesk.core.sync.incoming import Incoming, checked_all
from memdesk.core.sync.merge import (
    DELETED_BY_TEAM,
    DISAGREE,
    NEW_UNSIGNED,
    TEAMMATE,
    UNSIGNED,
    Conflict,
    Outcome,
)
from memdesk.core.sync.sides import TreeSide
from memdesk.store import Memory, among

_TEAM_CANNOT = "a team remote cannot speak for you"


@dataclass
class Arrivals:
    """What a remote changed, sorted: `incoming` to merge, `refused` (why, by id), `kept`
    here by the person's choice (why, by id: not a failed check, so not told as one),
    `waiting` for a voucher, `older` than the state last agreed (why, by id), and `unsigned`: the
    person's own remote's new words in this machine's name, which it never wrote (asked), and
    `new_unsigned`: new memories there in its name (asked too, never taken unasked)."""

    incoming: dict[str, Incoming] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)
    kept: dict[str, str] = field(default_factory=dict)
    waiting: set[str] = field(default_factory=set)
    older: dict[str, str] = field(default_factory=dict)
    unsigned: set[str] = field(default_factory=set)
    new_unsigned: set[str] = field(default_factory=set)
    unreadable: set[str] = field(default_factory=set)  # a broken file, a link, far too big
    met: set[str] = field(default_factory=set)  # writers of identity lines that wait


def checked_changes(
    theirs: TreeSide,
    base: TreeSide,
    ids: set[str],
    remote: Remote,
    config: Config,
    authors: Authorship,
) -> Arrivals:
    """Each changed memory checked, and only what this remote carries: a team remote sends
    its projects' knowledge and archive, never the identity profile nor another project's
    memories (a team remote's identity.md once became the person's profile for every agent).
    A team remote cannot speak for the person either: a version in the name of this machine
    that this machine does not hold, or in the name of the person's other machine that it did
    not vouch for in the person's own remote (`vouching`), is refused; those are also returned
    as waiting (looked at again at each sync: that machine's voucher may come later). The
    person's own remote, once it agreed a state with this machine, may neither add a memory
    in this machine's name nor put new words there in its name unasked (`new_unsigned`,
    `unsigned`): the person may have written the file by hand, as the remote's README invites,
    or someone else can write that remote. Nor does a remote take a memory back to a version
    older than the one it held at the last sync (`base`): this machine's version is sent."""
    excluded, joined = config.excluded(remote), config.joined
    out = Arrivals(refused=dict(theirs.refused), unreadable=set(theirs.refused) - theirs.deferred)
    incoming, refused, older = out.incoming, out.refused, out.older
    own = moved.is_own(remote)
    base.prefetch(ids & base.ids)  # in one read, not one git call per file
    held = dict(
        Memory.select(Memory.uuid, Memory.version).where(Memory.uuid.in_(among(ids))).tuples()
    )
    for memory_id, found in checked_all([theirs.load(i) for i in sorted(ids)]).items():
        where = theirs.paths.get(memory_id, IDENTITY)
        if isinstance(found, MemdeskError):
            mend = f"; {mending.MEND}" if memory_id in held else ""
            refused[memory_id] = f"{where}: field {found.field}: {found.message}{mend}"
            out.unreadable.add(memory_id)
            continue
        if not found.deleted and not remote.takes(
            found.columns["project"], found.columns["layer"], excluded
        ):
            project = found.columns["project"]
            if _chosen_not_to_share(remote, project, found.columns["layer"], excluded):
                out.kept[memory_id] = f"{where}: {_kept_here(project, config.local)}"
            else:
                refused[memory_id] = f"{where}: {_not_carried(remote, found.columns)}"
            continue
        agreed = _agreed(base, memory_id)
        if (version := _version(agreed)) and found.columns["version"] < version:
            # Older than the state both sides last agreed on (a file saved and committed again,
            # a branch reset): the person's edit undone, their deletion brought back, unasked.
            older[memory_id] = (
                f"{where}: version {found.columns['version']} is older than version {version}, "
                "which this remote held at the last sync; a remote cannot take a memory back "
                "(this machine's version goes back to it)"
            )
            continue
        # (taken as the person's only when this machine first joins the remote: a restore,
        # which leaves no agreed state either, took an identity line a new writer had pushed)
        if own and (base.tree or joined) and (waits := writers.waiting_identity(found, authors)):
            refused[memory_id] = f"{where}: {waits}"
            out.waiting.add(memory_id)
            out.met.add(found.columns["writer"])
            continue
        why = _speaks_for_the_person(found, held, authors, own, not base.tree, agreed)
        if why and own and memory_id in held:
            out.unsigned.add(memory_id)
        elif why and own:
            out.new_unsigned.add(memory_id)
            continue
        elif why:
            you = "someone else can write your own remote" if own else _TEAM_CANNOT
            refused[memory_id] = f"{where}: {why}; {you}"
            if found.columns.get("writer") in authors.machines:
                out.waiting.add(memory_id)
            continue
        incoming[memory_id] = found
    _links_within(remote, excluded, incoming)
    if not (own and not joined):  # joining: the writers there are the person's machines
        _judging_only_their_own(incoming, authors)
    return out


def unsigned_asked(arrived: Arrivals, local: dict[str, Unit], theirs: TreeSide) -> list[Conflict]:
    """The person's own remote's new words in this machine's name, asked as two machines'
    disagreement is: taken unasked, a file pushed there by someone else reworded the
    person's rule for every agent (red team 40). A new memory in its name is asked too:
    refused with one line, nothing reached the Inbox, while the person's other machine took
    it as theirs, and the machines stayed apart for good (sync tryout, stop 91, #1)."""
    reworded = [
        Conflict(DISAGREE, i, local[i], theirs.load(i), by=UNSIGNED)
        for i in sorted(arrived.unsigned & local.keys())
    ]
    new = [Conflict(NEW_UNSIGNED, i, None, theirs.load(i)) for i in sorted(arrived.new_unsigned)]
    return reworded + new


def new_unsigned_notices(arrived: Arrivals, theirs: TreeSide, writer: str) -> list[str]:
    """What a sync says of the new memories in this machine's name it asks about."""
    return [
        f"{theirs.paths.get(i, i)}: new in this machine's name ({writer}), which never wrote "
        "it; your other machines may have taken it as yours. It waits in the Inbox: accept "
        "takes it, reject deletes it on every machine"
        for i in sorted(arrived.new_unsigned)
    ]


def _links_within(remote: Remote, excluded: set[str], incoming: dict[str, Incoming]) -> None:
    """A remote links only to what it carries: a team remote's file linked the person's
    global memory as superseded."""
    targets = {to for found in incoming.values() for to, _ in found.links}
    targets |= {f.columns["supersedes"] for f in incoming.values() if f.columns.get("supersedes")}
    if not targets:
        return
    rows = Memory.select(Memory.uuid, Memory.project, Memory.layer)
    outside = {
        uuid
        for uuid, project, layer in rows.where(Memory.uuid.in_(among(targets))).tuples()
        if not remote.takes(project, layer, excluded)
    }
    for found in incoming.values():
        found.links = [(to, relation) for to, relation in found.links if to not in outside]
        if found.columns.get("supersedes") in outside:  # nor names it as what it replaces
            found.columns["supersedes"] = None


def _judging_only_their_own(incoming: dict[str, Incoming], authors: Authorship) -> None:
    """Another writer's file may say its memory replaces, duplicates or updates only what
    that writer wrote; of anyone else's memory it is only related. A writer new to the
    person's own remote filed a note that "supersedes" the person's rule: shown so in the
    window, and meant so once the person confirmed that writer for something else."""

    def someone_elses(found: Incoming) -> bool:
        columns = found.columns
        return bool(
            authors.someone_else(
                columns["writer"], found.id, columns["project"], columns["content"]
            )
        )

    judges = {
        i: f.columns["writer"] for i, f in incoming.items() if not f.deleted and someone_elses(f)
    }
    if not judges:
        return
    targets = {to for i in judges for to, _ in incoming[i].links}
    targets |= {incoming[i].columns.get("supersedes") for i in judges} - {None}
    held = Memory.select(Memory.uuid, Memory.writer).where(Memory.uuid.in_(among(targets)))
    writer_of = dict(held.tuples())
    writer_of |= {i: f.columns.get("writer") for i, f in incoming.items() if i in targets}
    for memory_id, writer in judges.items():
        found = incoming[memory_id]
        found.links = [
            (to, relation if relation not in JUDGING or writer_of.get(to) == writer else "related")
            for to, relation in found.links
        ]
        if writer_of.get(found.columns.get("supersedes")) != writer:
            found.columns["supersedes"] = None


def _speaks_for_the_person(
    found: Incoming,
    held: dict[str, int],
    authors: Authorship,
    own: bool,
    unagreed: bool,
    agreed: dict[str, Any] | None,
) -> str | None:
    writer = found.columns.get("writer")
    if found.deleted or writer is None or own and unagreed:
        return None
    if writer == authors.mine:
        if _never_sent(found, held, agreed):
            return f"claims to be written by this machine ({writer}), which did not send it"
        return None
    if (
        not own
        and writer in authors.machines
        and not authors.vouches_for(writer, found.id, found.columns)
    ):
        return (
            f"claims to be written by your machine {writer}, which has not vouched for it "
            "in your own remote (looked at again at each sync)"
        )
    return None


def _never_sent(found: Incoming, held: dict[str, int], agreed: dict[str, Any] | None) -> bool:
    """A version in this machine's name that it never wrote: a new memory, or new words at
    a version it holds or past it. Anyone else's words go out in their own name, whatever
    they change (a version names whoever wrote its words); a change beside this machine's
    words (its tags; its retirement by the person's other machine) keeps its name, also when
    this machine reworded it meanwhile: the words are then the ones both last agreed on (the
    laptop's new tags on the desktop's memory were asked on the desktop as a forgery, and
    the two machines stayed apart; sync tryout, stop 91, #2). The same version with other
    words once reworded the person's rule through their own remote, with no Inbox item (red
    team 40)."""
    if found.id not in held:
        return True
    words = found.columns.get("content")
    if agreed is not None and "deleted" not in agreed and words == agreed.get("content"):
        return False
    return found.columns["version"] >= held[found.id] and not _words_here(found)


def stopped_sharing(
    remote: Remote,
    excluded: set[str],
    incoming: dict[str, Incoming],
    local: dict[str, Unit],
    paths: Mapping[str, str],
) -> dict[str, str]:
    """Of what the remote changed, the memories this machine holds but no longer shares with
    it (made private, its project kept local or moved to a team remote): a sync never changes
    them (another machine's edit overwrote them, the version went backwards, and a team got
    the overwritten text), it says why."""
    candidates = [i for i in incoming if i not in local]
    out = {}
    for uuid, visibility, project, layer in (
        Memory.select(Memory.uuid, Memory.visibility, Memory.project, Memory.layer)
        .where(Memory.uuid.in_(among(candidates)))
        .tuples()
    ):
        where = paths.get(uuid, uuid)
        if visibility != "shared":
            out[uuid] = f"{where}: changed on {remote.name}, but private here: not applied"
        elif not remote.takes(project, layer, excluded):
            out[uuid] = (
                f"{where}: changed on {remote.name}, but {project or 'its project'} is not "
                "synced with it from here: not applied"
            )
    return out


def teammates_changes(
    remote: Remote,
    outcome: Outcome,
    incoming: dict[str, Incoming],
    local: dict[str, Unit],
    authors: Authorship,
) -> None:
    """A team remote's change to a memory the person wrote is asked in the Inbox, not
    applied, unless it is only a teammate's new words in their own name (those reach agents
    named as theirs). A teammate's deletion sent the person's rule to the Trash with no word;
    their `inactive` or `inject: false` put it out of every briefing; their name put on the
    person's words made it theirs to retire next; its layer, tags or date changed in the
    person's name passed as the person's (red team 41). Until the person answers the remote
    keeps its version and this machine its own; keeping it shares it with the team again.
    The person's other machine's change is taken when that machine vouched for it."""
    if moved.is_own(remote):
        return
    for unit in list(outcome.take):
        found, mine = incoming.get(unit.id), local.get(unit.id)
        if found is None or mine is None:
            continue
        here = mine.fields()
        if here.get("writer") != authors.mine and here.get("writer") not in authors.machines:
            continue  # a teammate's own memory is theirs to change
        writer = found.columns.get("writer")
        if (
            not found.deleted
            and writer in authors.machines
            and authors.vouches_for(writer, unit.id, found.columns)
        ):
            continue  # the person's other machine did it (or took it, asked there)
        if not found.deleted and _only_their_words(unit.fields(), here, authors):
            continue
        outcome.take.remove(unit)
        outcome.kept.add(unit.id)
        if found.deleted:
            outcome.conflicts.append(Conflict(DELETED_BY_TEAM, unit.id, mine, unit))
        else:
            outcome.conflicts.append(Conflict(DISAGREE, unit.id, mine, unit, by=TEAMMATE))


# What a version changes whoever makes it: its number, when, and what is derived from others.
_EVERY_VERSION = frozenset({"version", "updated", "successor", "reason"})


def _only_their_words(theirs: dict[str, Any], here: dict[str, Any], authors: Authorship) -> bool:
    """Whether the team's version changes nothing but the words, in a teammate's own name
    (a version names whoever wrote its words: a new name on the same words is no edit)."""
    changed = {k for k in theirs.keys() | here.keys() if theirs.get(k) != here.get(k)}
    writer = theirs.get("writer")
    own_name = writer != authors.mine and writer not in authors.machines
    return changed - _EVERY_VERSION == {"content", "writer"} and own_name


def _words_here(found: Incoming) -> bool:
    """Whether `found` carries the words this machine holds for that memory."""
    row = Memory.get_or_none(Memory.uuid == found.id)
    return row is not None and row.content == found.columns.get("content")


def _chosen_not_to_share(
    remote: Remote, project: str | None, layer: str, excluded: set[str]
) -> bool:
    """Whether `remote` would carry the project but for the person's choice here."""
    carried = remote.projects is None or (layer != "L0" and project in remote.projects)
    return carried and project in excluded


def _kept_here(project: str | None, local_projects: Collection[str]) -> str:
    if project in local_projects:
        return f"{project} is kept on this machine only (sync local): not applied"
    return f"{project} syncs through its team remote here: not applied"


def _not_carried(remote: Remote, columns: dict[str, Any]) -> str:
    """Why a team remote's file is refused: a team remote carries its projects alone."""
    if columns["layer"] == "L0":
        return "a team remote carries no identity profile"
    project = columns["project"] or "no project"
    return f"{project} is not among this remote's projects ({', '.join(remote.projects or [])})"


def _agreed(base: TreeSide, memory_id: str) -> dict[str, Any] | None:
    """The state this remote and this machine last agreed on, by its fields."""
    if memory_id not in base.ids:
        return None
    try:
        return base.load(memory_id).fields()
    except MemdeskError:  # refused when it came; nothing was agreed on
        return None


def _version(agreed: dict[str, Any] | None) -> int | None:
    version = (agreed or {}).get("version")
    return version if isinstance(version, int) else None
