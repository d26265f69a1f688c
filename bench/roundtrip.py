"""The round trip: what a user says in one Claude Code session reaches the model in the next.

    python bench/roundtrip.py [--oracle] [--split dev|heldout|all] [--show-misses]
                              [--briefing-chars N] [--crowd N [--salad]] [--year N]
                              [--person-answers]

Runs the frozen sessions of bench/data/roundtrip/ (Claude Code JSONL transcripts with labelled
durable statements, hard negatives and follow-up prompts; see its README) through the real
`memdesk hook` command, a process per event as Claude Code runs it, against a `memdesk serve`
on a fresh temporary database (with --crowd N, one already holding N memories of months of
use in these projects and 30 others, 2% of no project; with --year N, each project already
holding N memories written by the person, session ends and agents: bench/year_store.py).
Each session works in its own git repository (its project), holding the manifest and lock
files of its stack (STACKS), as a real repository would.

1. Capture (skipped with --oracle): for each session, SessionStart, a UserPromptSubmit per
   user turn, then SessionEnd with the transcript. With --oracle each statement's canonical
   wording is stored directly (`memdesk add`, the project's for project statements), which
   separates injection from extraction.
2. Follow-up: for each statement, a fresh session in the same repository: SessionStart, the
   statement's follow-up prompt, SessionEnd. Delivered when every evidence string of the
   statement is in what the hooks gave the model (SessionStart + that prompt). Prompts that
   need nothing are asked the same way; what they are given is noise.

Prints delivered / total by word overlap and by kind, extraction precision and recall
(stored, and stored + proposed), hard negatives stored, characters injected at SessionStart
and per prompt, and hook latency per event.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # `bench.rawrpc` from anywhere

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime, timedelta

from bench import year_store
from bench.rawrpc import Server, as_installed
from bench.transcript import claude_code_jsonl

from memdesk.core import SYSTEM, MemoryService, agent
from memdesk.core.review.inbox import GAPFILL_TAG

DATA = Path(__file__).resolve().parent / "data" / "roundtrip"
FRESH = DATA.with_name("roundtrip_fresh")
CONCEPTS = (
    Path(__file__).resolve().parents[1]
    / "app"
    / "memdesk"
    / "core"
    / "search"
    / "data"
    / "concepts.txt"
)


def _memdesk() -> list[str]:
    """The installed `memdesk` command, as a hook install writes it."""
    script = Path(sys.executable).with_name("memdesk")
    return [str(script)] if script.exists() else [sys.executable, "-m", "memdesk"]


class Hooks:
    def __init__(self, db: Path, env: dict[str, str]) -> None:
        self.db, self.env = db, env
        self.took: dict[str, list[float]] = defaultdict(list)
        self.failures = 0

    def run(self, event: str, payload: dict) -> str:
        """The text the hook gave the model (additionalContext), "" when none."""
        return self.output(event, payload).get("additionalContext", "")

    def output(self, event: str, payload: dict, *options: str) -> dict:
        """The hook's hookSpecificOutput ({} when it printed nothing), timed."""
        started = time.perf_counter()
        done = subprocess.run(
            [*_memdesk(), "hook", event, "--db", str(self.db), *options],
            input=json.dumps({**payload, "hook_event_name": event}),
            capture_output=True,
            text=True,
            env=self.env,
            check=False,
        )
        self.took[event].append((time.perf_counter() - started) * 1000)
        if done.returncode != 0 or done.stderr.strip():
            self.failures += 1
            print(f"  hook {event} said: {done.stderr.strip()[:300]}", file=sys.stderr)
        out = done.stdout.strip()
        return json.loads(out)["hookSpecificOutput"] if out else {}

    def session(self, cwd: Path, prompts: list[str], transcript: Path | None = None) -> list[str]:
        """One session: [SessionStart text, each prompt's text]."""
        sid = str(uuid.uuid4())
        if transcript is not None:  # Claude Code names a session's transcript after it
            transcript = Path(shutil.copy(transcript, self.db.parent / f"{sid}.jsonl"))
        base = {"session_id": sid, "cwd": str(cwd), "transcript_path": str(transcript or "")}
        given = [self.run("SessionStart", {**base, "source": "startup"})]
        given += [self.run("UserPromptSubmit", {**base, "prompt": p}) for p in prompts]
        self.run("SessionEnd", {**base, "reason": "other"})
        return given


# The manifest and lock files each session's repository holds: what its stack is, as the
# SessionStart hook reads it (api/workspace.py).
STACKS = {
    "ledger-api": {"pyproject.toml": '[project]\nname = "ledger"\ndependencies = ["fastapi"]\n'
                   '[tool.ruff]\n', "tox.ini": "[tox]\n", "alembic.ini": "[alembic]\n"},
    "shop-web": {"package.json": '{"packageManager": "pnpm@9.1.0", "dependencies": '
                 '{"react": "18", "zustand": "4"}, "devDependencies": {"vitest": "1"}}',
                 "pnpm-lock.yaml": "lockfileVersion: 9\n", "tsconfig.json": "{}"},
    "platform-infra": {"Chart.yaml": "name: platform\n", "main.tf": "terraform {}\n"},
    "etl-pipeline": {"pyproject.toml": '[tool.poetry]\nname = "etl"\n',
                     "poetry.lock": "", "dbt_project.yml": "name: etl\n"},
    "transit-cli": {"go.mod": "module github.com/acme/transit\n\ngo 1.22\n",
                    ".golangci.yml": "linters: {}\n", ".goreleaser.yaml": "builds: []\n"},
    "tinyjson-rs": {"Cargo.toml": '[package]\nname = "tinyjson"\n[dev-dependencies]\n'
                    'criterion = "0.5"\n'},
}  # fmt: skip
CROWD_PROJECTS = 30  # beside the six sessions' own, which get their share too
CROWD_GLOBAL = 0.02  # the share of no project: what sessions heard about the user
CROWD_BY_AGENTS = 0.7  # of the project memories, what agents wrote (the rest: session ends)

# Months of use, written the way memories read: one statement each, a tool or two in it.
_TEMPLATES = (
    "The {noun} service runs on port {port} in {env}",
    "Use {tool} for {concern} in this repo",
    "We switched from {tool} to {tool2} for {concern} last quarter",
    "The {env} {noun} lives at {noun}-{env}.internal.example.com",
    "Never {verb} the {noun} tables without a backup",
    "The {noun} job runs every night at {hour}:00 UTC",
    "{Person} owns the {noun} module; ask before changing its API",
    "Keep {concern} settings in {noun}/config.toml, not in code",
    "The {noun} client retries three times with exponential backoff",
    "Run {tool} before pushing changes to the {noun} package",
    "The {noun} cache expires after {port} seconds",
    "{tool} is pinned to version {major}.{minor} because of a regression",
)
_ABOUT_THE_USER = (
    "The user prefers {tool} over {tool2} for {concern}",
    "The user would rather review {concern} changes in small pull requests",
    "The user works on the {noun} team and reads diffs before summaries",
    "The user's laptop runs {tool} {major}.{minor}",
    "The user likes {concern} output short and without colour",
    "Never {verb} anything in {env} without asking the user first",
)
_NOUNS = (
    "billing auth search inventory catalog payments gateway reports notifications ingest "
    "scheduler profile orders analytics export media webhook ledger accounts audit"
).split()
_PEOPLE = "Maria Dev Chen Ola Sam Priya Tom Ines Kofi Lena".split()
_VERBS = "truncate migrate reindex drop vacuum rewrite".split()
_CONCERNS = (
    "testing linting formatting packaging deployment migrations caching logging tracing "
    "type checking releases"
).split()


def _crowd(db: Path, size: int, salad: bool, projects: list[str]) -> None:
    """Months of use before these sessions: `size` memories of standing kinds dated over the
    past year, spread over CROWD_PROJECTS other projects and the sessions' own `projects`
    (most written by agents, the rest heard by session ends), and CROWD_GLOBAL of no project,
    about the user (heard by session ends). Written from templates with the concept map's
    tool words; with `salad`, nine random developer words each instead, all heard by session
    ends (an adversarial crowd: every prompt meets them and they rank as the statements do)."""
    rng = random.Random(7)
    tools = [
        w
        for line in (CONCEPTS.read_text(encoding="utf-8").splitlines())
        if line and not line.startswith("#")
        for w in line.split()
    ]
    filler = "the a we our to in for with on use uses keep never always before after".split()

    def text(templates: tuple[str, ...]) -> str:
        if salad:
            return " ".join(rng.choices(tools, k=5) + rng.choices(filler, k=4))
        return rng.choice(templates).format(
            noun=rng.choice(_NOUNS),
            port=rng.randrange(1024, 9999),
            env=rng.choice(["staging", "prod", "dev"]),
            tool=rng.choice(tools),
            tool2=rng.choice(tools),
            concern=rng.choice(_CONCERNS),
            verb=rng.choice(_VERBS),
            hour=rng.randrange(24),
            Person=rng.choice(_PEOPLE),
            major=rng.randrange(1, 9),
            minor=rng.randrange(20),
        )

    now = datetime.now(UTC)
    homes = [f"other{n}" for n in range(CROWD_PROJECTS)] + projects
    written: dict[bool, list[dict]] = {True: [], False: []}  # by an agent?
    for _ in range(size):
        about_user = rng.random() < CROWD_GLOBAL
        by_agent = not salad and not about_user and rng.random() < CROWD_BY_AGENTS
        written[by_agent].append(
            {
                "content": text(_ABOUT_THE_USER if about_user else _TEMPLATES),
                "kind": rng.choice(["fact", "preference", "decision"]),
                "project": None if about_user else rng.choice(homes),
                "created_at": (now - timedelta(days=rng.uniform(1, 365))).isoformat(),
            }
        )
    service = MemoryService.open(db)
    for by_agent, items in written.items():
        actor = agent("crowd-agent") if by_agent else SYSTEM
        for start in range(0, len(items), 5000):
            service.add_many(items[start : start + 5000], dedup=False, actor=actor)
    service.close()


def _person_answers(db: Path, env: dict[str, str], sessions: list[dict]) -> None:
    """What the person keeps when asked: what they meant (a labelled statement), not the rest."""

    def inbox(*args: str) -> str:  # a decision refused (retired by an earlier one) is skipped
        command = [*_memdesk(), "inbox", "--db", str(db), "--json", *args]
        return subprocess.run(command, env=env, capture_output=True, text=True).stdout

    statements = [st for s in sessions for st in s["statements"]]
    heard = json.loads(inbox("--heard"))
    meant = [i["key"] for i in heard if any(_matches(st, i["content"]) for st in statements)]
    rest = [i["key"] for i in heard if i["key"] not in meant]
    for decision, keys in (("--accept", meant), ("--reject", rest)):
        for key in keys:  # one at a time: an accept may retire another item
            inbox(decision, key)
    print(f"the person kept {len(meant)} and dropped {len(rest)} of what they were asked")


def add_by_hand(db: Path, env: dict[str, str], statement: dict) -> None:
    """A labelled statement in its canonical words, as the person would add it
    (`memdesk add`, the session's project for a project statement)."""
    where = ["--project", statement["session"]] if statement["scope"] == "project" else []
    subprocess.run(
        [*_memdesk(), "add", statement["canonical"], "--db", str(db), *where],
        env=env,
        check=True,
        capture_output=True,
    )


def _fresh_sessions() -> list[dict]:
    """The sessions of FRESH, each a folder whose session.json an author wrote as turns (see
    its README), in the shape of labels.json's."""
    sessions = []
    for path in sorted(FRESH.glob("*/session.json")):
        session = json.loads(path.read_text(encoding="utf-8"))
        session["split"] = path.parent.name
        for n, statement in enumerate(session["statements"], 1):
            statement["id"] = f"{path.parent.name}.{n}"
        for row in session.get("crowd", ()):
            row["project"] = session["name"]
        sessions.append(session)
    return sessions


def _user_prompts(transcript: Path) -> list[str]:
    prompts = []
    for line in transcript.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        message = record.get("message") or {}
        if record.get("type") == "user" and isinstance(message.get("content"), str):
            prompts.append(message["content"])
    return prompts


def _matches(statement: dict, text: str) -> bool:
    text = text.casefold()
    return all(e.casefold() in text for e in statement["evidence"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oracle", action="store_true", help="store the statements directly")
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="all")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument(
        "--briefing-chars",
        type=int,
        help="the session-start briefing's budget (MEMDESK_BRIEFING_CHARS); 0 turns it off, "
        "to measure per-prompt retrieval alone",
    )
    parser.add_argument(
        "--crowd",
        type=int,
        default=0,
        help="first fill the store with N memories of months of use (see _crowd)",
    )
    parser.add_argument(
        "--salad", action="store_true", help="--crowd of random developer words (adversarial)"
    )
    parser.add_argument(
        "--year",
        type=int,
        default=0,
        help="first give each project N memories of a year's use (bench/year_store.py)",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="run the sessions written as turns in bench/data/roundtrip_fresh/ instead",
    )
    parser.add_argument("--only", help="with --fresh: these sessions (names, comma separated)")
    parser.add_argument(
        "--person-answers",
        action="store_true",
        help="before the follow-ups, the person keeps what a session end heard them say and "
        "proposed when it is one of the labelled statements, and drops the rest, as they "
        "would when the next session start asks them (`memdesk inbox --heard`)",
    )
    args = parser.parse_args()
    if args.fresh:
        sessions = _fresh_sessions()
        if args.only:
            sessions = [s for s in sessions if s["name"] in args.only.split(",")]
    else:
        labels = json.loads((DATA / "labels.json").read_text(encoding="utf-8"))
        sessions = [s for s in labels["sessions"] if args.split in ("all", s["split"])]
    with tempfile.TemporaryDirectory(prefix="mdrt-") as folder:
        root = Path(folder)
        db, sock = root / "rt.db", str(root / "rt.sock")
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("MEMDESK_PROJECT", "MEMDESK_DB", "MEMDESK_AGENT")
        }
        env |= {"MEMDESK_SOCKET": sock, "HOME": str(root / "home")}
        if args.briefing_chars is not None:
            env["MEMDESK_BRIEFING_CHARS"] = str(args.briefing_chars)
        if args.crowd:
            _crowd(db, args.crowd, args.salad, [s["name"] for s in sessions])
        if args.year:
            more = [row for s in sessions for row in s.get("crowd", ())]
            held = year_store.fill(db, [s["name"] for s in sessions], args.year, more)
            print(f"store used for a year: {held:,} memories before the sessions")
        server = Server(db, sock)
        hooks = Hooks(db, as_installed(env))
        repos = {}
        for session in sessions:
            repo = root / "src" / session["name"]
            repo.mkdir(parents=True)
            if shutil.which("git"):
                subprocess.run(["git", "init", "-q", str(repo)], check=True)
            (repo / "sub").mkdir()
            for name, text in session.get("stack", STACKS.get(session["name"], {})).items():
                (repo / Path(name).name).write_text(text, encoding="utf-8")
            repos[session["name"]] = repo
        try:
            if args.oracle:
                for session in sessions:
                    for st in session["statements"]:
                        add_by_hand(db, env, {**st, "session": session["name"]})
            else:
                for session in sessions:
                    transcript = DATA / session.get("transcript", "")
                    if "turns" in session:
                        transcript = root / f"{session['name']}.jsonl"
                        text = claude_code_jsonl(
                            session["turns"], str(repos[session["name"]]), str(uuid.uuid4())
                        )
                        transcript.write_text(text, encoding="utf-8")
                    hooks.session(repos[session["name"]], _user_prompts(transcript), transcript)
                if args.person_answers:
                    _person_answers(db, env, sessions)
            rows = []
            for session in sessions:
                for st in session["statements"]:
                    # A later session started in a subfolder: the project is still the repo's.
                    start, prompt = hooks.session(repos[session["name"]] / "sub", [st["prompt"]])
                    rows.append((session, st, start, prompt))
                noise = [hooks.session(repos[session["name"]], [p]) for p in session["nothing"]]
                session["noise"] = [given[1] for given in noise]
        finally:
            server.stop()
        service = MemoryService.open(db)
        captured = service.list_memories(tags=[GAPFILL_TAG], limit=10_000)
        pending = [p["content"] for p in service.proposals("pending")]
        service.close()
    _report(args, sessions, rows, captured, pending, hooks)


def _report(args, sessions, rows, captured, pending, hooks) -> None:
    print(f"sessions: {', '.join(s['name'] + ' (' + s['split'] + ')' for s in sessions)}")
    mode = "oracle (statements stored directly)" if args.oracle else "end to end"
    if args.person_answers:
        mode += ", the person answering what they were asked"
    if args.briefing_chars is not None:
        mode += f", briefing budget {args.briefing_chars} characters"
    print(f"mode: {mode}\n")
    by = defaultdict(lambda: [0, 0])
    misses = []
    for session, st, start, prompt in rows:
        ok = _matches(st, start + "\n" + prompt)
        for key in (
            ("overlap", st["overlap"]),
            ("kind", st["kind"]),
            ("split", session["split"]),
            ("all", "all"),
        ):
            by[key][0] += ok
            by[key][1] += 1
        if not ok:
            misses.append(f"  {st['id']} [{st['overlap']}] {st['canonical']!r} <- {st['prompt']!r}")
    print("| delivered | n | share |")
    print("|---|---|---|")
    for key in sorted(by, key=lambda k: (k[0] != "all", k)):
        hit, n = by[key]
        print(f"| {key[0]}: {key[1]} | {hit}/{n} | {hit / n:.2f} |")
    if not args.oracle:
        _extraction(sessions, captured, pending)
    starts = [len(start) for _, _, start, _ in rows]
    prompts = [len(prompt) for _, _, _, prompt in rows]
    noise = [len(text) for s in sessions for text in s["noise"]]
    print(
        f"\ncharacters injected: SessionStart median {statistics.median(starts):.0f} "
        f"(max {max(starts)}); per prompt median {statistics.median(prompts):.0f} "
        f"(max {max(prompts)}); prompts needing nothing: median {statistics.median(noise):.0f}, "
        f"{sum(1 for n in noise if n)}/{len(noise)} given anything"
    )
    print("\n| hook | runs | p50 ms | p95 ms |")
    print("|---|---|---|---|")
    # Baseline in the same run: what this machine's interpreter takes to start and do nothing.
    hooks.took["(baseline: python -c pass)"] = [
        _timed([sys.executable, "-c", "pass"]) for _ in range(30)
    ]
    for event, took in sorted(hooks.took.items()):
        took.sort()
        p95 = took[max(0, int(len(took) * 0.95) - 1)]
        print(f"| {event} | {len(took)} | {statistics.median(took):.0f} | {p95:.0f} |")
    if args.show_misses and misses:
        print("\nnot delivered:\n" + "\n".join(misses))


def _timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return (time.perf_counter() - started) * 1000


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[\w./-]{4,}", text.casefold()) if w not in _RETOLD}


# what the rewrite into a memory changes: "my branch" -> "the user's branch"
_RETOLD = {"user", "user's", "their", "them", "they", "they're"}


def _restates(negative: str, memory: str) -> bool:
    """Whether `memory` holds a hard negative, in the words of its rewrite (a first-person
    sentence is stored as the user's: a prefix match missed "push to my branch …")."""
    said = _words(negative)
    if len(said) < 3:  # "ok merge it": too few words to tell, only the words themselves
        return negative.casefold().strip(" .!") in memory.casefold()
    return len(said & _words(memory)) >= 0.8 * len(said)


def _extraction(sessions, captured, pending) -> None:
    statements = [st for s in sessions for st in s["statements"]]
    negatives = [n for s in sessions for n in s["negatives"]]
    contents = [m["content"] for m in captured]
    stored = [st for st in statements if any(_matches(st, c) for c in contents)]
    shown = [st for st in statements if any(_matches(st, c) for c in contents + pending)]
    right = [c for c in contents if any(_matches(st, c) for st in statements)]
    wrong = [c for c in contents if c not in right]
    print(
        f"\nextraction: stored {len(contents)} memories, precision "
        f"{len(right) / max(1, len(contents)):.2f}; recall stored {len(stored)}/{len(statements)} "
        f"= {len(stored) / len(statements):.2f}; stored + proposed {len(shown)}/{len(statements)}"
        f" = {len(shown) / len(statements):.2f} ({len(pending)} proposals)"
    )
    bad = [n for n in negatives if any(_restates(n["sentence"], c) for c in contents)]
    print(f"hard negatives stored: {len(bad)}/{len(negatives)}")
    for c in wrong:
        print(f"  stored, not a labelled statement: {c!r}")


if __name__ == "__main__":
    main()
