"""Where one sentence of a user's message ends and the next begins, for both readers that cut
a message into sentences: the table's (`message_sentences`) and the clause reader's
(`clauses`). The two must cut alike, or a statement one of them hears whole the other reads in
halves. Beside the stops themselves, the person's correction of what the agent said and a
request asked after a statement start sentences of their own.
"""

from __future__ import annotations

# A request asked after what the person states, in the same sentence ("I always unroll them
# into plain loops, so could you rewrite the grouping as a loop?"): the question mark is the
# request's, not the statement's.
ASKED_AFTER = r",\s+(?:so\s+|and\s+)?(?=(?:can|could|would|will)\s+you\b[^.!?\n]*\?)"
# Where a sentence ends: after . ! or ?, not after "e.g." and its kind ("name modules with a
# Live suffix, e.g. RoomLive" is one sentence). The table and the clause reader both split so.
# Not after an abbreviation: "my supervisor is Prof. Okonkwo" is one sentence. Nor after a "!"
# standing alone: an operator named in prose ("I never use the ! shortcut"), nor after a "?"
# standing alone before a word in lower case ("use ? or expect, never unwrap").
SENTENCE_END = (
    r"(?<=[.!?])(?<!\s!)(?!(?<=\s\?)\s+(?-i:[a-z]))"
    # "… incremental model? or only when i pass --full-refresh": the question goes on
    r"(?!(?<=\?)\s+or\b)"
    r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<!\bcf\.)(?<!\bincl\.)(?<!\bexcl\.)"
    r"(?<!\bapprox\.)(?<!\besp\.)"
    + "".join(
        rf"(?<!\b[{t[0]}{t[0].lower()}]{t[1:]}\.)"
        for t in ("Mr", "Mrs", "Ms", "Dr", "Prof", "St", "Sr", "Jr")
    )
)
# What the agent said, then the person's correction of it ("you said this goes out with the
# Heroku deploy — that's wrong, we deploy to Fly.io"): the claim is the agent's, what follows
# "that's wrong" is the person's statement, so the two are read apart.
SAID_WRONG = (
    r"(?:\s*[—–]\s*|\s+--?\s+|[,;:]\s*|,?\s+but\s+)(?=(?:no,?\s+)?that(?:'s| is) (?:wrong|"
    r"not right|incorrect|not true|not the case|outdated|out of date)\b)|"
    # "you wrote partitionBy(…) — no, we partition by farm_id": what is true, after a dash
    r"\s*[—–]\s*(?=(?:no|nope|actually),\s+\w)"
)
