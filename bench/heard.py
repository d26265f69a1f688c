"""Session-end extraction on statements said every which way, and on what must not be kept.

    python bench/heard.py [--show] [--heldout | --turns bench/data/dev_v4/turns.jsonl]

Frozen data of bench/data/roundtrip/ (README_v2.md), written by an author who never saw the
patterns: each labelled statement of labels.json re-said three ways (paraphrases.jsonl: a
lead-in, mid-turn, an aside), 48 plain environment facts (env_facts.jsonl), and 96 hard
negatives (negatives_v2.jsonl: reported opinions, non-commitments, hypotheticals, questions,
transient asks, pasted text, venting, past events). Each user turn goes through session-end
extraction alone (`gapfill.find`).

With --heldout, the final set instead (bench/data/heldout_v3/, 150 durable turns and 150
hard negatives of ten other projects, by a third author): used to report, never to tune.

A statement is heard when a finding's text holds all its evidence strings, as the person said
them or as a memory says them of "the user" (--verbatim: as said only): stored when that
finding is high confidence, shown when high or medium (the person is asked). Precision is of
what is stored: a stored finding is right when it carries its statement's evidence; every
other stored finding, on a statement's turn or a negative, is wrong.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json
from collections import defaultdict

from memdesk.core.sessions import gapfill
from memdesk.core.sessions.third_person import person

DATA = Path(__file__).resolve().parent / "data" / "roundtrip"
HELDOUT = DATA.parent / "heldout_v3" / "turns.jsonl"


def _rows(name: str | Path) -> list[dict]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _evidence() -> dict[tuple[str, str], list[str]]:
    labels = json.loads((DATA / "labels.json").read_text(encoding="utf-8"))
    return {
        (session["name"], st["id"]): st["evidence"]
        for session in labels["sessions"]
        for st in session["statements"]
    }


def _carries(content: str, evidence: list[str]) -> bool:
    text = content.casefold()
    return all(any(form in text for form in _as_stored(e)) for e in evidence)


def _as_stored(evidence: str) -> set[str]:
    """The evidence as a memory says it: memories speak of "the user" (then "they"), so the
    person's "my manager" is stored as "the user's manager" or "their manager", and "(I)
    count pages from 1" as "counts pages from 1" (`gapfill_patterns.person`). --verbatim
    scores the person's words only."""
    forms = {evidence.casefold()}
    if not VERBATIM:
        forms.add(person(evidence).casefold())
        forms.add(person(evidence, named=True).casefold())  # once named: "give them the diff"
        forms.add(person(f"I {evidence}").casefold().removeprefix("the user "))
    return forms


VERBATIM = "--verbatim" in sys.argv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print misses and false stores")
    parser.add_argument(
        "--verbatim",
        action="store_true",
        help="evidence in the person's words only (no 'the user')",
    )
    parser.add_argument("--heldout", action="store_true", help="the final held-out set")
    parser.add_argument("--turns", type=Path, help="another set of that shape (dev_v4)")
    args = parser.parse_args()
    if args.heldout or args.turns:
        turns = _rows(args.turns.resolve() if args.turns else HELDOUT)
        positives = [
            (f"{row['style']}", row["text"], row["evidence"])
            for row in turns
            if row["label"] == "durable"
        ]
        negatives = [row for row in turns if row["label"] == "none"]
    else:
        evidence = _evidence()
        positives = [
            (f"paraphrase: {row['style']}", row["text"], evidence[(row["session"], row["id"])])
            for row in _rows("paraphrases.jsonl")
        ] + [("environment fact", row["text"], row["evidence"]) for row in _rows("env_facts.jsonl")]
        negatives = _rows("negatives_v2.jsonl")
    by = defaultdict(lambda: [0, 0, 0])  # stored, shown, n
    right = wrong = 0
    misses, false_stores = [], []
    for group, text, needed in positives:
        found = gapfill.find([text])
        stored = [f for f in found if f.confidence == gapfill.HIGH]
        shown = [f for f in found if f.confidence in (gapfill.HIGH, gapfill.MEDIUM)]
        hit_stored = any(_carries(f.content, needed) for f in stored)
        hit_shown = any(_carries(f.content, needed) for f in shown)
        for key in (group, "all"):
            by[key][0] += hit_stored
            by[key][1] += hit_shown
            by[key][2] += 1
        for f in stored:
            if _carries(f.content, needed):
                right += 1
            else:
                wrong += 1
                false_stores.append(f"  [{group}] {f.content!r} <- {text!r}")
        if not hit_shown:
            misses.append(f"  [{group}] {text!r}")
    negative_stored: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in negatives:
        stored = [f for f in gapfill.find([row["text"]]) if f.confidence == gapfill.HIGH]
        wrong += len(stored)
        negative_stored[row["class"]][0] += bool(stored)
        negative_stored[row["class"]][1] += 1
        false_stores += [
            f"  [negative: {row['class']}] {f.content!r} <- {row['text']!r}" for f in stored
        ]

    print("| heard | stored | stored + proposed | n |")
    print("|---|---|---|---|")
    for key in sorted(by, key=lambda k: (k != "all", k)):
        stored, shown, n = by[key]
        print(f"| {key} | {stored / n:.2f} | {shown / n:.2f} | {n} |")
    precision = right / max(1, right + wrong)
    print(f"\nprecision of what is stored: {precision:.2f} ({right} right, {wrong} wrong)")
    print("\n| hard negatives | stored |")
    print("|---|---|")
    for cls, (bad, n) in sorted(negative_stored.items()):
        print(f"| {cls} | {bad}/{n} |")
    if args.show:
        print("\nnot heard:\n" + "\n".join(misses))
        print("\nstored wrongly:\n" + "\n".join(false_stores))


if __name__ == "__main__":
    main()
