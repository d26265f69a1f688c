"""Retrieval: any typed text becomes a safe FTS5 query; hits are ranked by BM25 and a nudge.

The recipe was chosen on LoCoMo with bench/retrieval.py (figures in docs/benchmarks.md):
stopword-free OR of the query's words; a memory is indexed with its neighbours' text at a
lower weight; memories written on a date the query names get a bonus; then mild recency and
source trust. All weights live in `WEIGHTS`.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime

import peewee

from memdesk.core import rules
from memdesk.core.search import dates, decay, frequency, rare_first, scoped
from memdesk.core.search.filters import Filters
from memdesk.store import Memory, unspaced
from memdesk.store.fts import scope_token, status_token

_WORD = re.compile(r"[^\W_]+")
# A general English list (NLTK's, plus modal and function words it lacks). A larger list
# (Glasgow) removed useful words and cost 0.015 recall@10.
STOPWORDS = frozenset(
    """
    i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
    yourselves he him his himself she she's her hers herself it it's its itself they them their
    theirs themselves what which who whom this that that'll these those am is are was were be
    been being have has had having do does did doing a an the and but if or because as until
    while of at by for with about against between into through during before after above below
    to from up down in out on off over under again further then once here there when where why
    how all any both each few more most other some such no nor not only own same so than too
    very s t can will just don don't should should've now d ll m o re ve y ain aren aren't
    couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't
    ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't
    weren weren't won won't wouldn wouldn't would could might must shall may also yet us ever
    every whose whether within without upon onto among toward towards across although though
    however
    """.split()
)
MAX_TERMS = 32


@dataclass(frozen=True)
class Weights:
    """How a hit's score is made.

    relevance = -(bm25 over the columns below) + date_bonus if the memory was written on a
    date the query names; score = relevance * (1 + importance * memory.importance *
    decay.multiplier + trust[source]), the multiplier from age and recalls (0.3..1.5, see
    `memdesk.core.search.decay`). Importance, decay and trust only reorder near-ties: a strong
    recency term lowered recall in the bench.
    """

    # content, tags, context, scope (scope only filters)
    columns: tuple[float, float, float, float] = (1.0, 0.5, 0.3, 0.0)
    date_bonus: float = 5.0
    importance: float = 0.1  # a new memory of default importance 0.5: +5%
    # "system": what a session end heard the user say, their own words (next to "user")
    trust: dict[str, float] = field(
        default_factory=lambda: {"user": 0.06, "agent": 0.03, "system": 0.05}
    )
    # BM25 candidates re-scored per search (at least 2k): the nudge only reorders near-ties.
    pool: int = 20


WEIGHTS = Weights()
MIN_PREFIX = 3  # letters of a word being typed before it is matched as a prefix


def terms(text: str) -> list[str]:
    """Distinct lowercase words, stopwords dropped (kept when nothing else is left); a run of
    Chinese, Japanese or Korean becomes its pairs of characters (see store/unspaced.py)."""
    found = [part for w in _WORD.findall(_folded(text)) for part in unspaced.query_words(w)]
    words = list(dict.fromkeys(found))
    kept = [w for w in words if w not in STOPWORDS] or words
    return kept[:MAX_TERMS]


def _folded(text: str) -> str:
    """`text` in the form and case the index reads: compatibility forms unified (full-width
    Ｐｎｐｍ, half-width ｶﾀｶﾅ, the ligature in "ﬁle"; a decomposed "é" composed), lower case
    as FTS5 folds it. Not casefold(): it turns ß into "ss" ("Außenlager" never found itself);
    İ lowers to an i with a dot of its own, which split "İstanbul" in two."""
    return unicodedata.normalize("NFKC", text).lower().replace("i\u0307", "i")


def _quoted(words: list[str]) -> str:
    # Every term is an FTS5 string, so operators and punctuation a user types are plain text.
    return " OR ".join(frequency.term(w) for w in words)


def _excluded_statuses(filters: Filters) -> str:
    """Statuses to drop inside FTS5. Excluding is cheap (few memories are inactive or deleted);
    requiring "active" would walk a token present in nearly every row."""
    unwanted = [s for s in rules.STATUSES if filters.statuses and s not in filters.statuses]
    if not unwanted:
        return ""
    return " NOT {scope} : (" + " OR ".join(f'"{status_token(s)}"' for s in unwanted) + ")"


def match_expression(wanted: str, filters: Filters) -> str:
    """The MATCH text for the `wanted` terms, narrowed inside FTS5 to the filters' project,
    task, layers and statuses (scope tokens): FTS5 then ranks only the memories that pass,
    never a global pool filtered afterwards."""
    expression = f"({wanted})"
    project = None if filters.with_global else filters.project  # "or none": not a token
    for prefix, name in (("p", project), ("t", filters.task)):
        if name:
            expression = f'{{scope}} : "{scope_token(prefix, name)}" AND {expression}'
    if filters.layers and set(filters.layers) != set(rules.LAYERS):
        layers = " OR ".join(f'"l{layer}"' for layer in filters.layers)
        expression = f"{{scope}} : ({layers}) AND {expression}"
    return expression + _excluded_statuses(filters)


# Filters FTS5 applies itself (scope tokens); any other one needs the joined, exact path.
IN_INDEX = frozenset({"layers", "statuses", "project", "task"})


# What a hit carries: enough to show and rank it, no more (a search must stay ~1 ms).
HIT_COLUMNS = (
    "uuid",
    "content",
    "layer",
    "kind",
    "tags",
    "project",
    "task",
    "created_at",
    "updated_at",  # what was last confirmed: an old one is marked in injection (staleness)
    "source",
    "agent",
    "importance",
    "inject",  # False: never brought up unasked (context block), still found when searched
    "writer",  # whose machine it came from through sync: a teammate's is quoted as theirs
)


def search(
    text: str, filters: Filters, k: int, weights: Weights = WEIGHTS, *, typing: bool = False
) -> list[dict]:
    """The top `k` hits as dicts of HIT_COLUMNS plus `score`, best first. With `typing`, a
    last word not yet ended (no space after it) matches every word it begins ("sha" finds
    "sharding"): the person's search as they type. Shorter than MIN_PREFIX, it is a word:
    "s" would match a large share of every word there is (400 ms at 100k memories). Typed
    words narrow, as in any search box: when enough memories hold every one of them, those
    are the hits."""
    words = terms(text)
    if not words:
        return []
    last = _WORD.findall(_folded(text))[-1:]
    if typing and last and len(last[0]) >= MIN_PREFIX and text[-1].isalnum() and last[0] in words:
        words = [w for w in words if w != last[0]] + [last[0] + frequency.PREFIX]
    return _ranked(words, filters, k, weights, dates.mentioned(text), narrowing=typing)


def containing_any(words: list[str], filters: Filters, k: int) -> list[dict]:
    """The best memories holding any of `words` (plain BM25, no date bonus)."""
    return _ranked(words, filters, k, WEIGHTS, None) if words else []


def _ranked(
    words: list[str],
    filters: Filters,
    k: int,
    weights: Weights,
    named: peewee.Expression | None,
    *,
    narrowing: bool = False,
) -> list[dict]:
    limit = max(weights.pool, 2 * k)
    in_index = all(k in IN_INDEX for k, v in filters.__dict__.items() if v)
    rows = None
    if in_index and (filters.project or filters.task):
        rows = scoped.ranked(
            words,
            filters,
            match_expression,
            weights.columns,
            weights.date_bonus,
            limit,
            named,
            _SELECTED_SQL,
        )
    if rows is None:
        # The date bonus needs created_at, which only the joined path has.
        def rank(match: str, n: int) -> list:
            if in_index and named is None:
                return _prefetched(match, filters, weights, n)
            return _exact(match, filters, weights, n, named)

        def newest(match: str, n: int) -> list | None:
            if in_index and named is None:
                return _newest_prefetched(match, filters, weights, n)
            return None

        bonus = weights.date_bonus if named is not None else 0.0
        rows = rare_first.ranked(
            words, limit, rank, _quoted, bonus, narrowing=narrowing, newest=newest
        )
    now = datetime.now(UTC)
    scored = sorted(
        ((_fuse(-row[-1], row, now, weights), row) for row in rows),
        key=lambda pair: pair[0],
        reverse=True,
    )
    return [{**dict(zip(HIT_COLUMNS, row, strict=False)), "score": s} for s, row in scored[:k]]


# Read for ranking only, after HIT_COLUMNS (a hit's dict leaves them out).
RANK_COLUMNS = ("recall_count", "last_recalled_at")
_SELECTED = (*HIT_COLUMNS, *RANK_COLUMNS)
_IMPORTANCE, _SOURCE, _CREATED, _RECALLS, _LAST = map(
    _SELECTED.index, ("importance", "source", "created_at", "recall_count", "last_recalled_at")
)
_SELECTED_SQL = ", ".join(f"t1.{name}" for name in _SELECTED)


def postings(word: str, limit: int) -> list[int]:
    """Row ids of (at most `limit`) memories that hold `word`. Any column counts: limiting
    the match to content costs several times more than comparing a few extra candidates."""
    found = Memory._meta.database.execute_sql(
        "SELECT json_group_array(rid) FROM "
        "(SELECT rowid AS rid FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)",
        (f'"{word}"', limit),
    ).fetchone()[0]
    return json.loads(found)  # one text value: far cheaper than a Python row per memory


def rows_passing(ids: list[int], filters: Filters) -> list[tuple[str, str, str | None]]:
    """(uuid, content, project) of the memories among `ids` that pass `filters`, newest first."""
    return _rows_among("id", ids, filters)


def rows_named(uuids: list[str], filters: Filters) -> list[tuple[str, str, str | None]]:
    """(uuid, content, project) of the memories among `uuids` that pass `filters` now."""
    return _rows_among("uuid", uuids, filters)


def _rows_among(column: str, keys: list, filters: Filters) -> list[tuple[str, str, str | None]]:
    where, params = _where_sql(filters)
    # CROSS JOIN keeps the list outermost: otherwise SQLite may walk a whole status index.
    return Memory._meta.database.execute_sql(
        "SELECT t1.uuid, t1.content, t1.project FROM json_each(?) AS chosen "
        f"CROSS JOIN memory AS t1 ON t1.{column} = chosen.value WHERE {where} "
        "ORDER BY t1.id DESC",
        (json.dumps(keys), *params),
    ).fetchall()


def rows_since(after_id: int, filters: Filters) -> list[tuple[str, str, str | None]]:
    """(uuid, content, project) of the memories written after `after_id` that pass
    `filters`, newest first."""
    where, params = _where_sql(filters)
    # NOT INDEXED: the newest few by their ids, not a walk of every active memory's status
    # index (6.8 ms a call at 100k, 100 calls under the write lock of one batch)
    return Memory._meta.database.execute_sql(
        "SELECT t1.uuid, t1.content, t1.project FROM memory AS t1 NOT INDEXED "
        f"WHERE t1.id > ? AND {where} ORDER BY t1.id DESC",
        (after_id, *params),
    ).fetchall()


@functools.lru_cache(maxsize=256)
def _where_sql(filters: Filters) -> tuple[str, tuple]:
    """`filters` as SQL over the memory table aliased t1, with its parameters."""
    return _sql(filters.where())


def _sql(condition: peewee.Expression) -> tuple[str, tuple]:
    sql, params = Memory._meta.database.get_sql_context().sql(condition).query()
    return sql, tuple(params)


# Raw SQL: this is the hot path of every search, and building it with the query builder cost
# more than running it. FTS5 ranks every memory that matches and passes the filters (they are
# inside the MATCH), keeps the best few, and only those are joined for their columns.
_PREFETCH = """
SELECT {columns}, best.r
FROM (
    SELECT rowid AS rid, bm25(memory_fts, ?, ?, ?, ?) AS r
    FROM memory_fts WHERE memory_fts MATCH ? ORDER BY r LIMIT ?
) AS best
JOIN memory AS t1 ON t1.id = best.rid
ORDER BY best.r
""".replace("{columns}", _SELECTED_SQL)


def _prefetched(wanted_terms: str, filters: Filters, weights: Weights, wanted: int) -> list:
    """The best `wanted` matches when every filter is inside the MATCH."""
    match = match_expression(wanted_terms, filters)
    return Memory._meta.database.execute_sql(
        _PREFETCH, (*weights.columns, match, wanted)
    ).fetchall()


# FTS5 walks its matches newest first and stops at the limit: bm25 is computed for those only.
_NEWEST = _PREFETCH.replace("ORDER BY r LIMIT ?", "ORDER BY rowid DESC LIMIT ?")


def _newest_prefetched(wanted_terms: str, filters: Filters, weights: Weights, wanted: int) -> list:
    """The newest `wanted` matches, each with its bm25, when every filter is inside the MATCH."""
    match = match_expression(wanted_terms, filters)
    return Memory._meta.database.execute_sql(_NEWEST, (*weights.columns, match, wanted)).fetchall()


# Every other filter, and the date bonus, need the memory row. CROSS JOIN makes FTS5's matches
# the outer loop: left to itself SQLite walked the status index (every active memory) first,
# ~1 s for a date-named question in a million memories.
_EXACT = """
SELECT {columns}, bm25(fts.memory_fts, ?, ?, ?, ?) - ? * ({named}) AS r
FROM memory_fts AS fts CROSS JOIN memory AS t1 ON t1.id = fts.rowid
WHERE fts.memory_fts MATCH ? AND {where}
ORDER BY r LIMIT ?
""".replace("{columns}", _SELECTED_SQL)


def _exact(
    wanted_terms: str,
    filters: Filters,
    weights: Weights,
    wanted: int,
    named: peewee.Expression | None,
) -> list:
    where, params = _where_sql(filters)
    dated, dated_params = _sql(named) if named is not None else ("0", ())
    sql = _EXACT.replace("{named}", dated).replace("{where}", where)
    match = match_expression(wanted_terms, filters)
    return Memory._meta.database.execute_sql(
        sql, (*weights.columns, weights.date_bonus, *dated_params, match, *params, wanted)
    ).fetchall()


def _fuse(relevance: float, row: tuple, now: datetime, weights: Weights) -> float:
    weight = row[_IMPORTANCE] * decay.multiplier(row[_CREATED], row[_RECALLS], row[_LAST], now)
    return relevance * (1 + weights.importance * weight + weights.trust.get(row[_SOURCE], 0.0))
