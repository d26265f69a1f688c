"""Retrieval: turning any typed text into a safe FTS5 query, and ranking the hits.

Ranking fuses BM25 with mild recency and source trust. All weights live in `WEIGHTS`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

import peewee

from memdesk.core.filters import Filters
from memdesk.store import Memory

_TOKEN = re.compile(r"\w+")
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)
MAX_TERMS = 64
_FTS = peewee.Table("memory_fts", ["rowid"], alias="fts")


@dataclass(frozen=True)
class Weights:
    """How the final score is made: relevance first, then a gentle nudge.

    score = relevance * (1 + recency * 0.5 ** (age_days / half_life_days) + trust[source])
    where relevance is -bm25 (FTS5 returns lower-is-better) with per-column weights.
    """

    columns: tuple[float, float, float] = (1.0, 0.5, 0.3)  # content, tags, context
    recency: float = 0.1
    half_life_days: float = 90.0
    trust: dict[str, float] = field(
        default_factory=lambda: {"user": 0.1, "agent": 0.05, "system": 0.0}
    )
    pool: int = 50  # BM25 candidates re-ranked per search


WEIGHTS = Weights()


def terms(text: str) -> list[str]:
    """Distinct lowercase words of `text`, stopwords dropped (all kept if nothing else is left)."""
    words = list(dict.fromkeys(_TOKEN.findall(text.casefold())))
    kept = [w for w in words if w not in STOPWORDS] or words
    return kept[:MAX_TERMS]


def match_expression(words: list[str]) -> str:
    # Every term quoted: FTS5 operators and punctuation typed by a user are plain text here.
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


@dataclass(frozen=True)
class Hit:
    row: Memory
    score: float


def search(text: str, filters: Filters, k: int, weights: Weights = WEIGHTS) -> list[Hit]:
    words = terms(text)
    if not words:
        return []
    rank = peewee.SQL("bm25(fts.memory_fts, ?, ?, ?)", weights.columns)
    rows = (
        Memory.select(Memory, rank.alias("bm25"))
        .join(_FTS, on=(_FTS.rowid == Memory.id))
        .where(peewee.SQL("fts.memory_fts MATCH ?", (match_expression(words),)) & filters.where())
        .order_by(rank)
        .limit(max(weights.pool, k))
    )
    now = datetime.now(UTC)
    hits = [Hit(row, _fuse(row, now, weights)) for row in rows]
    hits.sort(key=lambda h: h.score, reverse=True)
    return hits[:k]


def _fuse(row: Memory, now: datetime, weights: Weights) -> float:
    relevance = -row.bm25
    age_days = max(0.0, (now - datetime.fromisoformat(row.created_at)).total_seconds() / 86400)
    recency = weights.recency * math.pow(0.5, age_days / weights.half_life_days)
    return relevance * (1 + recency + weights.trust.get(row.source, 0.0))
