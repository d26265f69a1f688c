"""Words before a statement that only introduce it ("for the record,", "quick note on
tooling:", "Let me set the record straight, since you keep getting it wrong:"): the statement
is what follows them. Words before a colon that are a task, a report or a statement of their
own are no lead-in."""

from __future__ import annotations

import re

_I = re.IGNORECASE

# A longer framing of what follows ("Let me set the record straight, since you keep getting it
# wrong:", "In case it comes up again:"): its words describe the telling, not the statement.
FRAMING = (
    r"(?:let me|in case|important|to be clear|to clarify|once and for all|before (?:we|you)|"
    # what the statement answers: "about the commit part of your suggestion: I don't …"
    r"(?:about|regarding|as for|as to) (?:the|your|that|this|my) |"
    r"since you|as you|just so|one (?:thing|more thing)|(?:a|one) (?:quick|small|last)|"
    r"(?:quick|small|little|last) (?:thing|note|point|detail)|"
    # who the person is, told once: "A word about myself, so you needn't ask again: …"
    r"(?:a (?:word|note|bit|few words) )?about (?:me|myself))\b"
    r"[^:.!?]{0,80}:\s+"
)
# Words before a colon that say what follows is a task, a report or a review's nit, or that
# are a statement themselves ("we're a goreleaser shop: releases are built in CI"): kept, so
# the rules of `heard` read them.
NOT_A_LEAD_IN = (
    "todo|fixme|task|step|next(?! time)|status|progress|update|latest|current|numbers|results|"
    "where (?:we|i|things) (?:are|stand)|"
    "nit|nitpick|done|finished|proposal|idea|suggestion|option|alternative|draft|wish|thought|rfc|"
    "(?:we're|we are|i'm|i am) an?|plan|[\\w-]+'s (?:view|take|opinion|position|stance)|"
    # a ruling whose code holds a colon: "don't sprinkle type: ignore around"
    "don't|dont|do not|never|avoid"
)
# "wrong place — it's /api/stripe/webhook not /api/webhooks/stripe": what is wrong is the
# agent's last move; what follows says what is right
WRONG_ONE = re.compile(
    r"^(?:wrong|not the right) (?:place|file|folder|dir|directory|path|spot|name|one|port|"
    r"branch|table|column|field|key|bucket|repo|url|endpoint|version|value)\s*[,:;—–-]+\s*(?=\w)",
    _I,
)
LEAD_IN = re.compile(
    r"^(?:(?:oh,?\s+)?and\s+|also,?\s+|so,?\s+|but\s+|btw,?\s+|by the way,?\s+|fyi,?\s+|fwiw,?\s+|"
    r"p\.?s\.?[,:]?\s+|"
    r"(?:again,?\s+)?for the (?:second|third|fourth|fifth|last|\w+th) time[,:]\s+|"
    r"(?:in case|if) it (?:matters|helps)[,:]?\s+|"
    # an apology or a call for attention before what the person says: "Sorry, to be clear: …"
    r"(?:sorry|listen|look|side ?note),\s+|"
    # what sets a value right: "oh wait, the port is 5432 now, not 5433"
    r"(?:oh,?\s+)?wait\s*[,:—–-]+\s*|correction\s*[,:—–-]+\s*|"
    # the person stopping the work to tell something: "actually hold on, Mara does the UI"
    r"(?:actually,?\s+)?(?:hold on|hang on|wait|nvm|never ?mind|one sec)\s*[,:—–-]+\s*|"
    r"per (?:the|our) (?:team(?:'s)? )?(?:decision|convention|agreement|policy)[\w ]{0,20},\s+|"
    r"(?:hey|hi|hello)(?: there)?[,!]?\s+|"
    r"for the record,?\s+|for context,?\s+|just so you know,?\s+|heads[- ]up(?: though)?[,:]?\s+|"
    r"quick (?:note|context|correction|reminder)(?: (?:on|about|for) [\w ./-]{1,30})?[,:]\s+|"
    r"(?:one thing|something) to (?:keep in mind|remember|know)[,:]\s+|keep in mind[,:]?\s+|"
    r"before i forget\s*[,:—–-]+\s*|"
    # a pause in the work: "while that runs — the servers run as …"
    r"(?:while|whilst) (?:(?:that|it|this|those|the [\w-]+)(?:'s| is| are)? (?:runs?|running|"
    r"builds?|building|compiles?|compiling|installs?|installing|deploys?|deploying|churns?|"
    r"churning|loads?|loading|finish(?:es)?|cooks?|bakes?|goes|spins? up)|we wait)\s*[,—–]\s+|"
    r"(?:meanwhile|in the meantime|unrelated(?:ly)?|random thought)\s*[,—–]\s+|"
    r"note(?: that)?[,:]?\s+|style (?:note|preference)(?: (?:on|for) [\w ]{1,20})?[,:]\s+|"
    r"for this (?:repo|repository|project|crate|codebase|service|team)[,:]\s+|"
    r"going forward,?\s+|from now on,?\s+|as a rule,?\s+|in general,?\s+|generally,?\s+|"
    # where what follows was settled: "we talked this through as a team last week: …"
    r"(?:we|the team) (?:talked (?:this|it) (?:through|over)|agreed|decided|settled (?:this|it)|"
    r"discussed (?:this|it)|went over (?:this|it))(?: as a team| in (?:standup|planning|retro)| "
    r"with [\w ]{1,20})?(?: (?:last|this) \w+| yesterday| on \w+)?\s*[:—–]\s+|"
    r"personally,?\s+|"
    r"please,?\s+|ok(?:ay)?,?\s+|agreed,?\s+|yes,?\s+|right(?!\s+now\b),?\s+|sure,?\s+|just\s+|"
    r"(?:oh and )?for (?:logging|tests|testing|tooling|formatting|linting|deploys) "
    r"(?:in|on|here)[\w ]{0,20}:\s+|"
    # a short lead-in before a colon ("Before we start:"), not a to-do's "TODO:" nor a report's
    # "Status:" nor "anyway next thing:" (heard reads those)
    rf"(?!(?:[a-z']+\s){{0,3}}?(?:{NOT_A_LEAD_IN})\b[^:]{{0,30}}:)(?:[a-z']+\s){{0,3}}[a-z']+:\s+|"
    rf"{FRAMING})+",
    _I,
)
