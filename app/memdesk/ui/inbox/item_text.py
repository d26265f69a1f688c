"""How an inbox item reads: its kind's name, and its whole story as HTML (where it came
from, the memories it concerns, and for an update the words that changed)."""

from __future__ import annotations

import html
from typing import Any

from memdesk.core.display import visible
from memdesk.core.word_diff import opcodes

TYPE_NAMES = {
    "extract": "Heard in a session",
    "promote": "Share with all agents",
    "update": "Possible update",
    "merge": "Merge duplicates",
    "unsure": "Unsure write",
    "flagged": "Withheld by the guard",
    "overrun": "Agent over its write budget",
    "sync_disagree": "Differs between machines",  # changed on both, or asked for another reason
    "sync_deleted_there": "Deleted on the other machine, edited here",
    "sync_deleted_here": "Deleted here, edited on the other machine",
    "sync_deleted_by_team": "Yours, deleted by the team",
    "sync_new_unsigned": "New in this machine's name",
    "identity": "Identity change proposed",
}
ACCEPTING = {
    "extract": "Accept stores it as a memory.",
    "promote": "Accept lets every agent see this private memory.",
    "update": "Accept retires the older memories, linked as replaced by the newest one.",
    "merge": "Accept keeps the first memory with every tag and link of the others; the others "
    "are retired as its duplicates, their history kept.",
    "unsure": "Accept lets agents see it.",
    "flagged": "Accept releases it to agents as it is; Edit & accept to change it first.",
    "overrun": "Accept marks this notice seen. If the agent should not write this much, pause "
    "it or make it read-only (View ▸ Agents…)",
    "sync_disagree": "Accept takes the other machine's version; Reject keeps this one (the next "
    "sync sends it).",
    "sync_deleted_there": "Accept deletes it here too (to the Trash); Reject keeps it, edit and "
    "all.",
    "sync_deleted_here": "Accept deletes it again (to the Trash); Reject keeps it with the other "
    "machine's edit.",
    "sync_deleted_by_team": "Accept deletes it here too (to the Trash); Reject keeps it and "
    "shares it with the team again.",
    "sync_new_unsigned": "Accept takes it as your words; Reject deletes it on every machine "
    "(the next sync sends its deletion).",
    "identity": "Accept makes the identity profile read as proposed; every agent is given it "
    "at its next session start.",
}


def first_line(text: str) -> str:
    """The first line that says something, its invisible and direction-changing characters
    shown as what they are (a withheld `\u202eevil.exe` read "exe.live" in the Inbox, where
    the person releases it)."""
    return visible(next((line.strip() for line in text.splitlines() if line.strip()), ""))


def describe(item: dict[str, Any]) -> str:
    parts = [f"<h3>{TYPE_NAMES[item['type']]}</h3>"]
    if item["type"] == "update" and len(item["memories"]) >= 2:
        new, old = item["memories"][0], item["memories"][-1]  # newest first: since the oldest
        parts.append(f"<p>{word_diff(old['content'], new['content'])}</p>")
    else:
        parts.append(f"<p>{_text(item['content'])}</p>")
    parts.append(f"<p><i>Why:</i> {_text(item['why'])}</p>")
    if item["waits"]:
        parts.append(f"<p><b>Waits:</b> {_text(item['waits'])}</p>")
    if item["reason"]:
        parts.append(f"<p><i>Rejected because:</i> {_text(item['reason'])}</p>")
    sender = "remote" if item["type"].startswith("sync_") else "agent"  # a sync's: the remote
    source = [f"{sender} {item['agent']}"] if item["agent"] else []
    source += [f"session {item['session']}"] if item["session"] else []
    source += [f"{item['created_at'][:16].replace('T', ' ')}", f"support {item['support']}"]
    parts.append(f"<p><i>From:</i> {_text(', '.join(source))}</p>")
    if item["memories"]:
        rows = "".join(
            f"<li><a href='memory:{m['id']}'>{m['id'][:8]}</a> ({m['status']}, "
            f"{_text(m['agent'] or m['source'])}): {_text(first_line(m['content'])[:120])}</li>"
            for m in item["memories"]
        )
        parts.append(f"<p><i>Memories it concerns:</i></p><ul>{rows}</ul>")
    parts.append(f"<p><i>{ACCEPTING[item['type']]}</i></p>")
    if item["type"] == "update" and item["agent"] and _its_own(item):
        parts.append(
            f"<p><i>If {_text(item['agent'])}'s updates of its own notes need no review: View ▸ "
            "Agents…, its control “Active, its updates fine” (undoable).</i></p>"
        )
    return "".join(parts)


def _its_own(item: dict[str, Any]) -> bool:
    """Every memory of an update item is the proposing agent's own note."""
    return all(m["agent"] == item["agent"] and m["source"] == "agent" for m in item["memories"])


def word_diff(old: str, new: str) -> str:
    """`old` → `new` word by word: removed words struck through in red, added ones green."""
    a, b = old.split(), new.split()
    out = []
    for op, i1, i2, j1, j2 in opcodes(a, b):
        if op in ("delete", "replace"):
            out.append(f"<s style='color:#c0392b'>{_text(' '.join(a[i1:i2]))}</s>")
        if op in ("insert", "replace"):
            out.append(f"<b style='color:#1e8449'>{_text(' '.join(b[j1:j2]))}</b>")
        if op == "equal":
            out.append(_text(" ".join(a[i1:i2])))
    return " ".join(out)


def _text(value: str) -> str:
    return html.escape(visible(value)).replace("\n", "<br>")
