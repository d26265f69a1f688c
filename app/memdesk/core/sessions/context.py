"""The block an agent injects into its prompt: identity in full, then what is relevant."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Protocol

from memdesk.core import validate
from memdesk.core.actor import USER, Actor
from memdesk.core.authorship import Authorship
from memdesk.core.errors import ValidationError
from memdesk.core.memory import staleness
from memdesk.core.search import concepts
from memdesk.core.sessions import quoting


class Profile(Protocol):
    def identity(self, *, actor: Actor) -> dict[str, Any]: ...


class Searcher(Protocol):
    def search(self, query: str, **options: Any) -> Any: ...


PERSONS = ["user", "system"]  # sources whose words are the person's
MIN_BUDGET, MAX_BUDGET = 200, 100_000


def build_context(
    profile_of: Profile,
    recall: Searcher,
    own: Authorship,
    query: str,
    *,
    project: str | None = None,
    k: int = 10,
    budget_chars: int = 4000,
    actor: Actor = USER,
    identity: bool = True,
    given: Collection[str] = (),
    sessions_project: bool = False,
) -> dict[str, Any]:
    """The L0 profile in full (unless `identity` is False: a session had it at its start),
    then the top-`k` L1 memories for `query` of `project` or of none, never over budget.
    Memories in `given` (already given to this session) are not repeated; for a session
    (`sessions_project`), no project means the memories of none, not of every project. The
    query also searches the words related to its own (`concepts.related_words`)."""
    query = validate.query(query)
    budget = validate.integer(budget_chars, "budget_chars", MIN_BUDGET, MAX_BUDGET)
    k = validate.integer(k, "k", 1, 100)
    profile = profile_of.identity(actor=actor) if identity else {"text": "", "size": 0}
    parts = [quoting.OPEN]
    if profile["text"]:
        parts.append(f"## Identity\n{profile['text']}\n")
    used = sum(map(len, parts)) + len(quoting.CLOSE)
    if used > budget:
        raise ValidationError(
            f"budget_chars {budget} is too small for the identity profile "
            f"({profile['size']} characters); use at least {used}",
            field="budget_chars",
        )
    related = " ".join(concepts.related_words(query))

    def relevant(**only: Any) -> list[dict[str, Any]]:
        return recall.search(
            f"{query}\n{related}" if related else query,
            k=min(k + len(given), 100),
            layers=["L1"],
            project=project,
            with_global=True,
            only_global=sessions_project,
            actor=actor,
            **only,
        )["hits"]

    # The person's words are searched apart and come first: six agent notes repeating a
    # prompt's words took every place, and the person's rule for that prompt was not given.
    hits = relevant(source=PERSONS, record=False)  # the search below is the one logged
    seen = {hit["id"] for hit in hits}
    hits += [hit for hit in relevant() if hit["id"] not in seen]
    ids: list[str] = []
    heading = "## Relevant memories\n"
    stale = staleness.why_stale(
        {hit["id"]: hit["updated_at"] for hit in hits},
        viewer=actor.agent if actor.source == "agent" else None,
    )
    for hit in hits:
        if (
            hit["id"] in given
            or not hit["inject"]
            or concepts.only_by_sql_keyword(hit["content"], query)
        ):
            continue
        someone = own.someone_else(hit.get("writer"), hit["id"], hit["project"], hit["content"])
        text = quoting.injected(hit["content"], hit["source"], hit.get("agent"), someone)
        doubt = f"; may be outdated: {stale[hit['id']]}" if hit["id"] in stale else ""
        line = f"- [{hit['kind']}, {hit['created_at'][:10]}{doubt}] {text}\n"
        extra = len(line) + (len(heading) if not ids else 0)
        if used + extra > budget or len(ids) >= k:
            continue  # a shorter memory further down may still fit
        if not ids:
            parts.append(heading)
        parts.append(line)
        ids.append(hit["id"])
        used += extra
    text = quoting.block("".join(parts[1:]))
    return {"text": text, "ids": ids, "size": len(text)}
