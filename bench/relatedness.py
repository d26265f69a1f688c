"""Would a shipped static embedding model bring the rule a prompt needs? (issue #32 item 5)

    pip install wordllama && python bench/relatedness.py [--per-project 2000]

For each labelled statement of bench/data/roundtrip/labels.json, its canonical wording is put
among the person's own L1 memories of its project (and global ones) in a store "used for a
year" (bench/year_store.py), and ranked by cosine similarity to the statement's follow-up
prompt with WordLlama's bundled 256-dimension model (its weights ship inside the wheel; nothing
is downloaded). Prints the rank of the statement by the prompt's word overlap with it, and the
model's load time and resident memory. memdesk adopts a model only if it puts the rule near the
top where words do not (overlap "related" and "none").
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import json
import resource
import sqlite3
import statistics
import tempfile
import time

from bench import year_store

LABELS = Path(__file__).resolve().parent / "data" / "roundtrip" / "labels.json"


def load_model():  # noqa: ANN201 - wordllama is not a dependency of memdesk
    """WordLlama's bundled model, read from the wheel (0.4.0's `load()` looks for its tokenizer
    in a folder the wheel does not have and then tries the network)."""
    import wordllama
    from safetensors import safe_open
    from wordllama import WordLlama
    from wordllama.inference import WordLlamaInference

    root = Path(wordllama.__file__).parent
    tokenizer = WordLlama.load_tokenizer(root / "tokenizers" / "l2_supercat_tokenizer_config.json")
    with safe_open(root / "weights" / "l2_supercat_256.safetensors", framework="np") as f:
        return WordLlamaInference(f.get_tensor("embedding.weight"), tokenizer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-project", type=int, default=2000)
    args = parser.parse_args()
    started = time.perf_counter()
    model = load_model()
    loaded = time.perf_counter() - started
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    labels = json.loads(LABELS.read_text("utf-8"))
    db = Path(tempfile.mkdtemp()) / "year.db"
    year_store.fill(db, [s["name"] for s in labels["sessions"]], args.per_project)
    store = sqlite3.connect(db)
    ranks: dict[str, list[int]] = {}
    for session in labels["sessions"]:
        own = [
            text
            for (text,) in store.execute(
                "SELECT content FROM memory WHERE layer = 'L1' AND source = 'user' "
                "AND (project = ? OR project IS NULL)",
                (session["name"],),
            )
        ]
        for statement in session["statements"]:
            vectors = model.embed([*own, statement["canonical"]], norm=True)
            scores = vectors @ model.embed([statement["prompt"]], norm=True)[0]
            rank = int((scores > scores[-1]).sum()) + 1
            ranks.setdefault(statement["overlap"], []).append(rank)
    print(f"model load {loaded:.2f} s, RSS after load {rss:.0f} MB; ~{len(own)} rules a project\n")
    print("| overlap | n | median rank | in top 5 | in top 20 |\n|---|---|---|---|---|")
    for overlap, found in sorted(ranks.items()):
        top5, top20 = sum(r <= 5 for r in found), sum(r <= 20 for r in found)
        print(f"| {overlap} | {len(found)} | {statistics.median(found):.0f} | {top5} | {top20} |")


if __name__ == "__main__":
    main()
