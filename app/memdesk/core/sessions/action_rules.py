"""The standing rules that apply to one tool call, given to the agent before it runs, and the
one that forbids it, if any ("never npm, pnpm only" before `npm install marked`).

A rule applies when it names one of the call's cues (`action_cues`): a program the command
runs, the file's folder, name, extension or language, or a name an edit brings in. It
forbids the call when that name
follows a negation ("never npm", "not docker compose", "instead of alembic/versions") or is
declared off limits ("npm is not allowed"). Only the person's own rules (written by them or
heard from them at a session's end) can have the host deny a call; an agent's note reminds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memdesk.core.authorship import EVERYONE_ELSE, Authorship
from memdesk.core.sessions import quoting
from memdesk.core.sessions.action_cues import Cues

MAX_RULES = 3
BUDGET = 900  # characters of the block: it is paid for before every matching call
LINE_CHARS = 300
# Sources whose rules are the person's words; an agent's notes only remind.
PERSONS = ("user", "system")
_NEGATION = r"(?:never|not|no|don't|do not|dont|avoid|instead of|rather than|without|stop using)"
_VERBS = (
    r"(?:(?:use|run|call|touch|put|add|write|edit|commit|invoke|with|the|any|ever|a|be|"
    r"have|get)\s+){0,3}"
)
_OFF_LIMITS = r"(?:is|are)\s+(?:not allowed|forbidden|banned|off[- ]limits|deprecated|not used)"


@dataclass(frozen=True)
class Applied:
    id: str
    content: str
    source: str
    agent: str | None
    forbids: bool
    named: int  # how many of the call's cues the rule names
    writer: str | None = None  # its machine, when it came through sync
    project: str | None = None


def applying(hits: Sequence[dict[str, Any]], cues: Cues) -> list[Applied]:
    """Of search hits, the rules about this call, those that forbid it first."""
    names = _names(cues)
    out = []
    for hit in hits:
        if not hit.get("inject", True):
            continue
        text = " ".join(hit["content"].split()).lower()
        named = [name for name in names if _names_it(text, name)]
        if not named:
            continue
        forbids = any(
            _forbids(text, name, names, cues.said) for name in named if _may_forbid(name, cues)
        )
        out.append(
            Applied(
                hit["id"],
                hit["content"],
                hit["source"],
                hit.get("agent"),
                forbids,
                len(named),
                hit.get("writer"),
                hit.get("project"),
            )
        )
    # the person's own rules before agents' notes: three notes "Never run npm publish on
    # Fridays" took the places of the person's rule, and with it the call's refusal
    out.sort(key=lambda a: (not a.forbids, a.source == "agent", -a.named))
    return out[:MAX_RULES]


def forbids(content: str, cues: Cues) -> bool:
    """Whether the rule `content` says no to what the call with `cues` runs or touches."""
    text = " ".join(content.split()).lower()
    names = _names(cues)
    return any(
        _forbids(text, name, names, cues.said)
        for name in names
        if _may_forbid(name, cues) and _names_it(text, name)
    )


def block(applied: Sequence[Applied], what: str, own: Authorship = EVERYONE_ELSE) -> str:
    """The context for the agent: the rules, the forbidding one marked, within BUDGET."""
    lines = []
    used = 0
    everyones = False  # a rule an agent or a teammate wrote is among them
    for rule in applied:
        text = " ".join(rule.content.split())
        if len(text) > LINE_CHARS:
            text = text[: LINE_CHARS - 1] + "…"
        mark = "[forbids this] " if rule.forbids else ""
        someone = _someone_else(rule, own)
        line = f"- {mark}{quoting.injected(text, rule.source, rule.agent, someone)}\n"
        if used + len(line) > BUDGET:
            break
        lines.append(line)
        used += len(line)
        everyones = everyones or someone is not None or rule.source not in PERSONS
    if not lines:
        return ""
    whose = "Standing rules" if everyones else "The user's standing rules"
    return quoting.block(f"## {whose} for this action ({what})\n" + "".join(lines))


UNREAD = (
    "memdesk could not read this whole command (too long, or too many parts), so the user's "
    "standing rules were not all checked against it. Run it in smaller parts"
)


def denial(applied: Sequence[Applied], own: Authorship = EVERYONE_ELSE) -> str | None:
    """The reason the host gives when the person chose to deny forbidden calls, in the rule's
    own words; None when no rule of the person's forbids the call. A teammate's rule synced
    here reminds, never denies: the host would name it the person's."""
    rule = next(
        (a for a in applied if a.forbids and a.source in PERSONS and _someone_else(a, own) is None),
        None,
    )
    if rule is None:
        return None
    return f'Blocked by the user\'s rule (memdesk): "{" ".join(rule.content.split())}"'


def _someone_else(rule: Applied, own: Authorship) -> str | None:
    return own.someone_else(rule.writer, rule.id, rule.project, rule.content)


def describe(cues: Cues) -> str:
    return " ".join(cues.programs) or cues.path[-80:]


def _names(cues: Cues) -> list[str]:
    names = list(cues.programs) + sorted(cues.words) + sorted(cues.added)
    if cues.path:
        parts = [p for p in cues.path.lower().split("/") if p]
        # Folder paths of two or three parts ("alembic/versions", "ledger/db/migrations").
        for size in (3, 2):
            names += ["/".join(parts[n : n + size]) for n in range(len(parts) - size)]
    return list(dict.fromkeys(n for n in names if len(n) >= 2))


def _names_it(text: str, name: str) -> bool:
    # A word with its common endings ("float" names "floats", "publish" "published").
    ending = "" if re.search(r"[^a-z]", name) else "(?:s|es|ed|d|ing|er|ers)?"
    return re.search(rf"(?<![\w.-]){re.escape(name)}{ending}(?![\w-])", text) is not None


def _may_forbid(name: str, cues: Cues) -> bool:
    """A rule forbids what runs, the place written to or what an edit brings in, not the
    language or extension: "not JavaScript" says nothing against editing a .ts file."""
    return (
        name in cues.programs
        or name in cues.added
        or "/" in name
        or name == cues.path.rsplit("/", 1)[-1].lower()
    )


# Words after a program in a rule that say where or how, not which of its commands.
_NOT_A_SUBCOMMAND = frozenset(
    "in on at to for with here there anywhere anymore ever again this that these those the a "
    "an and or but unless without inside outside from by directly command commands anything "
    "locally globally please it its our my your any every all when while if as so because "
    "since is are be was on, only either nor instead".split()
)
_NEXT_WORD = re.compile(r"\s+([a-z][a-z0-9-]*)")


def _forbids(text: str, name: str, names: list[str], said: frozenset[str] = frozenset()) -> bool:
    """The rule says no to `name` itself: "never npm", "not docker compose", "never
    monkeypatch datetime", "npm is not allowed"; not to a thing `name` only describes, a
    plural noun after it ("no terraform workspaces") or a path it begins ("not
    alembic/versions" says nothing against alembic)."""
    quoted = re.escape(name)
    ending = "" if re.search(r"[^a-z]", name) else "(?:s|es|ed|d|ing|er|ers)?"
    others = "|".join(re.escape(n) + "(?:s|es)?" for n in names if n != name)
    described = rf"(?!\s+(?!(?:{others})\b)[a-z]+s\b)" if others else r"(?!\s+[a-z]+s\b)"
    before = rf"\b{_NEGATION}\s+{_VERBS}`?{quoted}{ending}(?![\w/-]){described}"
    after = rf"(?<![\w./-])`?{quoted}`?\s+{_OFF_LIMITS}"
    return (
        any(_says_this_command(text[m.end() :], said) for m in re.finditer(before, text))
        or re.search(after, text) is not None
    )


def _says_this_command(rest: str, said: frozenset[str]) -> bool:
    """Whether what a rule names after the program is this call: "never git push --force"
    says nothing of `git commit`, "never run terraform apply" nothing of `terraform plan`
    (a red team's rule about one subcommand refused every use of the program)."""
    nxt = _NEXT_WORD.match(rest)
    if not said or nxt is None or nxt[1] in _NOT_A_SUBCOMMAND:
        return True
    # with its endings: "no terraform workspaces" is about `terraform workspace new`
    return any(
        word == nxt[1] or len(word) > 3 and nxt[1].startswith(word) and len(nxt[1]) - len(word) <= 3
        for word in said
    )
