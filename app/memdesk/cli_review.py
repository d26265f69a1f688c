"""`memdesk inbox --ask`: the Inbox one item at a time, decided with a key each.

A session start tells the person that something they said waits for their OK; listing keys and
pasting them into `--accept` was two commands and a copy for each item. Each decision is
applied as it is made, so quitting half-way keeps what was decided.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from memdesk.cli_output import one_line
from memdesk.core import MemdeskError
from memdesk.core.display import visible

KEYS = "[y] keep  [n] drop  [e] edit, then keep  [s] skip  [q] quit"
_ANSWERS = {"y": "keep", "k": "keep", "n": "drop", "d": "drop", "e": "edit", "s": "skip"}
_QUIT = {"q", "quit"}
# A sync item's keys say what each does: "[y] keep" took the other machine's version, which
# a tryout read as keeping this one's.
_SYNC_KEYS = {
    "sync_disagree": "[y] take {remote}'s version  [n] keep this machine's  "
    "[e] edit, then keep  [s] skip  [q] quit",
    "sync_deleted_there": "[y] delete it here too  [n] keep it  [s] skip  [q] quit",
    "sync_deleted_here": "[y] delete it again  [n] keep it  [s] skip  [q] quit",
    "sync_deleted_by_team": "[y] delete it here too  [n] keep it  [s] skip  [q] quit",
    "sync_new_unsigned": "[y] take it as yours  [n] delete it everywhere  [e] edit, then take  "
    "[s] skip  [q] quit",
}
_SAID = {"keep": "  kept", "drop": "  dropped"}
_SYNC_SAID = {"keep": "  done", "drop": "  kept this machine's"}


def ask(
    svc: Any,
    items: list[dict[str, Any]],
    read: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
) -> dict[str, int]:
    """Put each item to the person and apply their answer; how many were kept, dropped and
    left waiting. The end of the input is a quit."""
    done = {"kept": 0, "dropped": 0, "left": len(items)}
    for number, item in enumerate(items, 1):
        synced = item["type"] in _SYNC_KEYS
        say(f"\n[{number}/{len(items)}] {_heading(item)}")
        if synced:
            say(visible(_sync_texts(item)))
        else:
            say(visible(_indented(item["content"])))
            for memory in _concerned(item)[:3]:
                say(visible(f"  concerns: {one_line(memory['content'], 100)}"))
        keys = _SYNC_KEYS[item["type"]].format(remote=item.get("agent")) if synced else KEYS
        answer = _answer(read, keys)
        if answer is None:
            break
        if answer == "skip":
            continue
        try:
            shown = {item["key"]: item["content"]}  # a sync may bring newer words meanwhile
            if answer == "drop":
                svc.reject([item["key"]], as_shown=shown)
            else:
                words = _new_words(read) if answer == "edit" else None
                svc.accept([item["key"]], content=words, as_shown=shown)
        except MemdeskError as exc:  # decided meanwhile in the window, or the words refused
            say(visible(f"  not done: {exc.message}"))
            continue
        done["kept" if answer != "drop" else "dropped"] += 1
        done["left"] -= 1
        said = _SYNC_SAID if synced else _SAID
        say(said["drop" if answer == "drop" else "keep"])
    return done


def _heading(item: dict[str, Any]) -> str:
    who = item.get("agent")
    if item.get("heard"):
        return f"you said this in a session{_with(who)}{_in(item)}; keep it for agents?"
    if item["type"] in ("unsure", "flagged"):
        return f"held back from agents{_by(who)} ({one_line(item['why'] or '', 80)})"
    if item["type"] in _SYNC_KEYS:  # whole: its last sentence says what each answer does
        return f"{item['type']} with {one_line(who or '', 30)}:\n{_wrapped(item['why'] or '')}"
    return f"{item['type']}{_by(who)}: {one_line(item['why'] or '', 80)}"


def _concerned(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The memories a proposal would change; a held-back memory concerns only itself."""
    return [] if item["key"].startswith("memory:") else item["memories"]


def _in(item: dict[str, Any]) -> str:
    project = item.get("project")
    return f" in {one_line(project, 40)}" if project else ""


def _by(agent: str | None) -> str:
    return f" by {one_line(agent, 30)}" if agent else ""


def _with(agent: str | None) -> str:
    return f" with {one_line(agent, 30)}" if agent else ""


def _sync_texts(item: dict[str, Any]) -> str:
    """Both versions, each named: which one is whose was not said."""
    remote = one_line(item.get("agent") or "", 30)
    here = [m["content"] for m in item["memories"][:1]]
    if item["type"] != "sync_disagree" or not here:
        return _indented(item["content"])
    return f"  on {remote}:\n{_indented(item['content'])}\n  here:\n{_indented(here[0])}"


def _wrapped(text: str) -> str:
    return textwrap.fill(
        one_line(text, 2_000), width=96, initial_indent="  ", subsequent_indent="  "
    )


def _answer(read: Callable[[str], str], keys: str) -> str | None:
    """The person's answer, asked again until it is one of `keys`; None to stop."""
    # "k" and "d" only where keeping is the item's: for a sync item "keep" names either side
    offered = {key for key in _ANSWERS if f"[{key}]" in keys} | (
        {"k", "d"} if keys == KEYS else set()
    )
    while True:
        try:
            typed = read(f"  {keys}: ").strip().lower()
        except EOFError:
            return None
        if typed in _QUIT:
            return None
        if typed[:1] in offered:
            return _ANSWERS[typed[:1]]


def _new_words(read: Callable[[str], str]) -> str | None:
    """The words to keep instead; None (keep as shown) when the person types nothing."""
    try:
        return read("  keep these words instead: ").strip() or None
    except EOFError:
        return None


def _indented(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.splitlines() or [""])
