"""Rules at the moment of action: scripted tool calls through the real PreToolUse hook.

    python bench/actions.py [--year N] [--show]

Frozen data (bench/data/roundtrip/actions.jsonl, README_v2.md): tool calls an agent would
make in the six sessions' repositories, each with the rule it falls under (a labelled
statement or an environment fact, stored first in its canonical words, as a person would
by hand), whether the rule forbids exactly that call, and the evidence words that must reach
the agent; and calls no rule is about (noise). With --year N each project first holds N
memories of a year's use (bench/year_store.py).

Each call runs in a fresh session of its repository: SessionStart, then `memdesk hook
PreToolUse` twice, as installed by default (remind) and with --deny-forbidden. Prints the
share of forbidden calls whose rule reached the agent before they ran, those the host was
told to deny, relevant calls given their rule, calls wrongly denied, noise calls given
anything, hook failures, and PreToolUse latency beside a same-run `python -c pass`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import json
import os
import statistics
import tempfile
import uuid
from collections import defaultdict

from bench import year_store
from bench.rawrpc import Server, as_installed
from bench.roundtrip import STACKS, Hooks, _timed, add_by_hand

DATA = Path(__file__).resolve().parent / "data" / "roundtrip"


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


def _rules() -> list[dict]:
    labels = json.loads((DATA / "labels.json").read_text(encoding="utf-8"))
    rules = [{**st, "session": s["name"]} for s in labels["sessions"] for st in s["statements"]]
    return rules + _rows("env_facts.jsonl")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--year", type=int, default=0)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    calls = _rows("actions.jsonl")
    with tempfile.TemporaryDirectory(prefix="mdact-") as folder:
        root = Path(folder)
        db, sock = root / "a.db", str(root / "a.sock")
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMDESK_")}
        env |= {"MEMDESK_SOCKET": sock, "HOME": str(root / "home")}
        if args.year:
            year_store.fill(db, list(STACKS), args.year)
        server = Server(db, sock)
        hook = Hooks(db, as_installed(env))
        repos = {}
        for name, files in STACKS.items():
            repo = root / "work" / name
            (repo / ".git").mkdir(parents=True)
            for file, text in files.items():
                (repo / file).write_text(text, encoding="utf-8")
            repos[name] = repo
        try:
            for rule in _rules():
                add_by_hand(db, env, rule)
            results = [_call(hook, repos, call, root) for call in calls]
        finally:
            server.stop()
    _report(calls, results, hook, args.show)


def _call(hook: Hooks, repos: dict[str, Path], call: dict, root: Path) -> tuple[dict, dict]:
    repo = repos[call["session"]]
    tool_input = _moved(call["tool_input"], call["session"], repo)
    base = {"session_id": str(uuid.uuid4()), "cwd": str(repo), "transcript_path": ""}
    hook.run("SessionStart", {**base, "source": "startup"})
    payload = {**base, "tool_name": call["tool_name"], "tool_input": tool_input}
    reminded = hook.output("PreToolUse", payload)
    denied = hook.output("PreToolUse", payload, "--deny-forbidden")
    hook.run("SessionEnd", {**base, "reason": "other"})
    return reminded, denied


def _moved(tool_input: dict, session: str, repo: Path) -> dict:
    """The call's paths inside this run's copy of the repository."""
    text = json.dumps(tool_input).replace(f"/work/{session}", str(repo))
    return json.loads(text)


def _report(calls, results, hook: Hooks, show: bool) -> None:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses, noise = [], []
    for call, (reminded, denied) in zip(calls, results, strict=True):
        given = (reminded.get("additionalContext") or "").casefold()
        got_rule = bool(call["evidence"]) and all(e.casefold() in given for e in call["evidence"])
        was_denied = denied.get("permissionDecision") == "deny"
        if call["id"] is None:
            if given:
                noise.append(f"  {json.dumps(call['tool_input'])[:100]} -> {given[-200:]!r}")
            counts["noise calls given anything"][0] += bool(given)
            counts["noise calls given anything"][1] += 1
        elif call["forbidden"]:
            counts["forbidden: rule reached the agent"][0] += got_rule
            counts["forbidden: rule reached the agent"][1] += 1
            counts["forbidden: host told to deny"][0] += was_denied
            counts["forbidden: host told to deny"][1] += 1
        else:
            counts["relevant: rule reached the agent"][0] += got_rule
            counts["relevant: rule reached the agent"][1] += 1
            counts["relevant: wrongly denied"][0] += was_denied
            counts["relevant: wrongly denied"][1] += 1
        if call["id"] is not None and not got_rule:
            misses.append(
                f"  {call['id']} {call['tool_name']} {json.dumps(call['tool_input'])[:120]}"
            )
    print("| action-time | share |")
    print("|---|---|")
    for key, (hit, n) in counts.items():
        print(f"| {key} | {hit}/{n} = {hit / max(1, n):.2f} |")
    print(f"\nhook runs that failed or complained: {hook.failures}")
    baseline = [_timed([sys.executable, "-c", "pass"]) for _ in range(30)]
    took = sorted(hook.took["PreToolUse"])
    print(
        f"PreToolUse p50 {statistics.median(took):.0f} ms, p95 "
        f"{took[int(len(took) * 0.95) - 1]:.0f} ms (python -c pass p50 "
        f"{statistics.median(baseline):.0f} ms)"
    )
    if show:
        print("\nrule not given:\n" + "\n".join(misses))
        print("\nnoise calls given something:\n" + "\n".join(noise))


if __name__ == "__main__":
    main()
