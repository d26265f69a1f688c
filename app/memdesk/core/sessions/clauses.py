"""Lasting statements wherever they stand in a message: behind a lead-in ("for the record,",
"quick note on tooling:"), between dashes or in parentheses in the middle of a task, or told
with another verb ("I stick to …", "we're a poetry shop, so …").

The table of `gapfill_patterns` reads a clause from its start; this reads each chunk of a
message (sentences, dashed asides, parentheses, semicolons) for markers anywhere in it:
what holds in general (always, never, every, instead of, "…, not X", "like the rest of the
repo"), a person's habit or taste in the first person, the team's own way ("we log with
structlog"), something ruled out ("isn't welcome", "is off the table"), a plain fact about the
environment with a concrete value (a port, a version, a host, a path, a schedule), or who
someone is. A chunk that is a task instruction with such a marker inside ("write the test
with freezegun like the rest of the suite") is proposed: the person decides. Everything
`heard` says is not a statement stays out, judged on the whole sentence too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memdesk.core.sessions import embedded, heard, pasted
from memdesk.core.sessions.gapfill_patterns import HIGH, MEDIUM
from memdesk.core.sessions.third_person import person

_I = re.IGNORECASE
MAX_CHUNK = 300
_SENTENCES = re.compile(heard.SENTENCE_END + r"\s+(?=\S)|\n+")
_ASIDES = re.compile(
    r"\s+[—–]\s+|\s+--?\s+|[—–]|;\s+|\s*\(\s*|\s*\)\s*|"
    # a verdict on the work, then what holds: "naming is fine, but test files here are …"
    r"(?:(?<=\bfine)|(?<=\bgood)|(?<=\bok)|(?<=\bokay)|(?<=\bgreat)|(?<=\bcorrect)|(?<=\bright)|"
    r"(?<=\bworks)|(?<=\blgtm)),\s+but\s+"
)
_TAIL_TASK = re.compile(
    r",?\s+(?:and\s+)?then\s+.*$|,\s+and\s+(?:make|keep|run|send|show|tell|paste|ping|open|"
    r"compare|check|add|document|update|post|rerun|apply|push|commit|test|lock|draft|handle|"
    r"cover|link|screenshot|restart|watch|include|autogenerate)\b.*$",
    _I,
)
# A longer framing of what follows ("Let me set the record straight, since you keep getting it
# wrong:", "In case it comes up again:"): its words describe the telling, not the statement.
FRAMING = (
    r"(?:let me|in case|important|to be clear|to clarify|once and for all|before (?:we|you)|"
    r"since you|as you|just so|one (?:thing|more thing)|(?:a|one) (?:quick|small|last))\b"
    r"[^:.!?]{0,80}:\s+"
)
# Words before a colon that say what follows is a task, a report or a review's nit: kept, so
# the rules of `heard` read them.
NOT_A_LEAD_IN = (
    "todo|fixme|task|step|status|progress|update|latest|current|numbers|results|nit|nitpick|"
    "proposal|idea|suggestion|option|alternative|draft|wish|thought|rfc"
)
LEAD_IN = re.compile(
    r"^(?:(?:oh,?\s+)?and\s+|also,?\s+|so,?\s+|but\s+|btw,?\s+|by the way,?\s+|fyi,?\s+|fwiw,?\s+|"
    r"p\.?s\.?[,:]?\s+|"
    r"(?:again,?\s+)?for the (?:second|third|fourth|fifth|last|\w+th) time[,:]\s+|"
    r"(?:in case|if) it (?:matters|helps)[,:]?\s+|"
    # an apology or a call for attention before what the person says: "Sorry, to be clear: …"
    r"(?:sorry|listen|look|side ?note),\s+|"
    r"per (?:the|our) (?:team(?:'s)? )?(?:decision|convention|agreement|policy)[\w ]{0,20},\s+|"
    r"(?:hey|hi|hello)(?: there)?[,!]?\s+|"
    r"for the record,?\s+|for context,?\s+|just so you know,?\s+|heads[- ]up[,:]?\s+|"
    r"quick (?:note|context|correction|reminder)(?: (?:on|about|for) [\w ./-]{1,30})?[,:]\s+|"
    r"(?:one thing|something) to (?:keep in mind|remember|know)[,:]\s+|keep in mind[,:]?\s+|"
    r"before i forget\s*[,:—–-]+\s*|"
    r"note(?: that)?[,:]?\s+|style (?:note|preference)(?: (?:on|for) [\w ]{1,20})?[,:]\s+|"
    r"for this (?:repo|repository|project|crate|codebase|service|team)[,:]\s+|"
    r"going forward,?\s+|from now on,?\s+|as a rule,?\s+|in general,?\s+|generally,?\s+|"
    r"please,?\s+|ok(?:ay)?,?\s+|agreed,?\s+|yes,?\s+|right(?!\s+now\b),?\s+|sure,?\s+|just\s+|"
    r"(?:oh and )?for (?:logging|tests|testing|tooling|formatting|linting|deploys) "
    r"(?:in|on|here)[\w ]{0,20}:\s+|"
    # a short lead-in before a colon ("Before we start:"), not a to-do's "TODO:" nor a report's
    # "Status:" (heard reads those)
    rf"(?!(?:{NOT_A_LEAD_IN})\b)(?:[a-z']+\s){{0,3}}[a-z']+:\s+|"
    rf"{FRAMING})+",
    _I,
)
_TRAILING = re.compile(r"[\s,.!]*(?:\b(?:please|thanks|thank you|ok|okay)\??)?[\s.!]*$", _I)

# What holds beyond the task at hand.
_GENERAL = re.compile(
    r"\b(?:always|never|every(?:one|body|thing|where)?|all (?:our|of our|the|my)|any(?:where)?|"
    r"no exceptions|non-negotiable|house style|by default|as a rule|in general|the rule|"
    r"from now on|going forward|whenever|each time|every time|as usual|like the rest|"
    r"like (?:all|every|the other) (?:our|of our|\w+)|as with all|same as every|as we do|"
    r"that's how (?:we|i|all|our)|the (?:whole )?(?:codebase|repo|crate|project|team)|"
    r"in this (?:repo|repository|project|codebase|crate|service|team|setup)|instead of|"
    r"rather than|only)\b|,\s*not\s+(?:the\s+|a\s+)?[\w.#/@-]|\bnot the (?:usual|default)\b|"
    r",\s*ever\b",
    _I,
)
# Something ruled out, in whatever words.
_RULED_OUT = re.compile(
    r"\b(?:is|are|'s)\s+(?:not allowed|off the table|out of scope|a no-go|not welcome|out|"
    r"not a target|not supported|forbidden|banned|not something we)\b|\b(?:isn't|aren't)\s+"
    r"(?:welcome|allowed|a target|supported|something|where|the way|how)\b|\bno-go\b|"
    r"\bwe (?:don't|do not|never|no longer|dropped|avoid)\b|\bnobody\b|\bstays? out\b|"
    r"\bno (?:separate|manual|custom)\b|\boff[- ]limits\b|\bnot an option\b|\bnon-?starter\b|"
    r"\bout of bounds\b|\bnot permitted\b|"
    r"^no [\w -]{2,40} in (?:your|the|my|our) (?:answers|replies|responses|messages|commits|"
    r"commit messages|code|prs|output|summaries|docs)\b",
    _I,
)
# The person's habit or taste, and the team's own way.
_FIRST_PERSON = re.compile(
    r"\bi(?:'d| would)? (?:much )?(?:rather|prefer)\b|\bi (?:learn|work|read|think) best\b|"
    # where and with what the person works: "I work on a 4G hotspot most days"
    r"\bi (?:work|develop|code|study|program) (?:on|from|in|with) (?!(?:it|this|that|them)\b)|"
    r"\bi (?:stick (?:to|with)|always|never|"
    r"tend to|like|want(?! to\b| you\b)|go for|keep|only|find|hate|can't stand|don't|do not|"
    r"hold)\b|"
    r"\bi'm (?:not |no )?(?:a |a big |a huge )?(?:fan of|strict about|fine with|partial to)\b|"
    r"\bmy (?:go-to|default|rule)\b|"
    r"\bi'm an? (?:[\w-]+ ){1,2}(?:person|dev|developer|engineer|designer|scientist|researcher)\b|"
    r"\b(?:what|how) i (?:go for|like|want)\b|\bthe way i like\b|\bhow i like\b",
    _I,
)
_TEAM = re.compile(
    r"\b(?:the )?(?:single )?source of truth\b|"
    r"\b(?:the team|we|everyone) (?:agreed|decided|settled on|voted)\b|"
    r"\bwe(?:'re| are) an? [\w.+-]+(?: [\w.+-]+)? (?:shop|project|team|house)\b|\bwe (?:stick "
    r"(?:to|with)|rely on|use|cap|support|follow|log|drive|run|deploy|build|write|target|pin|"
    r"(?!should|could|might|may|will|would|can|need|had|did|were|was|went|just|tried|also)"
    r"[a-z]{3,}(?<!ed) (?:with|through|via|using|against|from|on|in|to)\b|"
    r"keep|do|release|ship|hash|route|wrap|format|lint|test|put|store|name)\b"
    # "we use this helper", "we use it in three places": the code at hand, not the team's way
    r"(?!\s+(?:this|that|these|those|it|them|the same|the other)\b)|\bour [\w -]{2,30}"
    r"(?:is|are|live|lives|run|runs|go|goes|use|uses|expects?|sit|sits|says|requires|"
    r"mandates|forbids|bans)\b",
    _I,
)
# A plain fact about the environment: a subject, a verb of being or placing, a concrete value.
_VALUE = re.compile(
    r"\bport\s+\d{2,5}\b|\bon\s+\d{4,5}\b|\b\d+(?:\.\d+){1,2}\b|\bv\d+(?:\.\d+)*\b|"
    r"\b[a-z0-9-]+(?:\.[a-z0-9-]+){2,}\b|\b(?:https?|s3|gs)://\S+|(?:^|\s)~?/[\w./-]+|"
    # a quantity in any case: "10MB", "16 GB", "4g"
    r"#[\w-]{2,}|\b[A-Z][A-Z0-9_]{3,}\b|\b\d+\s?(?i:cores?|gb|mb|kb|tb|g|minutes?|hours?|"
    r"seconds?|levels?|nodes?|replicas?|ms|fps|hz|khz|mhz|ghz|v|mah|rpm|requests?|workers?|"
    r"threads?|users?|days?|weeks?)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|"
    r"\b(?:weekly|nightly|daily|hourly|every other \w+)\b|\b\d\d?:\d\d\b|"
    r"\b[\w-]+/[\w./-]+\b|\b[a-z]+(?:-[a-z0-9]+)+\b|"
    # a number said of something ("minSdk is 24", "Postgres 16", "below 3.5 V")
    r"\b(?:is|are|of|at|to|below|above|under|over|=)\s~?\d+(?:\.\d+)?\b|"
    r"\b[A-Za-z][\w+-]*[A-Za-z]\s\d{1,3}\b(?!\s*(?:%|times|more|less|of)\b)|"
    # a name in the middle of the sentence ("runs on Intercom", "handled by Rafael Soto")
    r"(?<=[a-z,] )(?-i:[A-Z][\w.+-]*[A-Za-z0-9])|"
    # an identifier, typed in lower case as often as not ("binary_id", "ppx_expect")
    r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b|"
    # the named thing a statement is about ("ferryman's go services log json …")
    r"^(?!(?i:let|it|that|there|what|he|she|who|here|where|how|everyone|nobody|somebody|"
    r"someone|one)'s)[\w.-]+'s\s+\w",
)
# What a statement told inside a request holds when it is a fact of its own: a concrete value,
# or what the team's is ("chispa is our assertion library", "Hammer is what we use").
_CONCRETE = re.compile(
    r"\b(?:is|are) (?:our|my|the team's|what (?:we|i))\b|\bour \w[\w -]{1,30} (?:is|are|runs?|"
    r"uses?|lives?)\b|\bwe (?:keep|use|run|deploy|ship|build|pin|store|host)\b"
)
_ENV_VERB = re.compile(
    # a verb in the present after its subject ("the API sends UTC", "QA tracks bugs in …")
    # (not a counted noun: "three attempts, backoff from 200ms" has no verb)
    r"(?<=\w )(?:gets|get)\s\w+ed\b|(?<=[a-z] )(?<!\btwo )(?<!three )(?<!\bfour )(?<!\bfive )"
    r"(?<!\bfew )(?<!\bmany )(?<!several )(?!(?:is|has|was|this|its|does|yes|always|"
    r"plus|less|across|unless|perhaps|thus|as|us)\b)[a-z]{2,}(?<![su])s\b|"
    r"\b(?:is|are|'s|'re|runs?|listens?|lives?|sits?|lands?|goes|go|points?|has|have|uses?|"
    r"targets?|installs?|deploys?|ships?|served|hosted|stored|scheduled|issued|comes? from|"
    r"reads? from|talks? to|expects?|ends?|cuts?|releases?|called)\b",
    _I,
)
_HANDLED_BY = re.compile(
    r"\b(?:is|are|gets|get) (?:handled|owned|maintained|run|managed|reviewed|approved|signed "
    r"off|looked after|done) by (?-i:[A-Z][\w-]+)",
    _I,
)
_PEOPLE = re.compile(
    r"^(?:[A-Z][\w-]+(?:\s[A-Z][\w-]+)?)(?:\s(?:from|on|in|of) (?:the )?[\w -]{2,20}?)?\s+"
    r"(?:is (?:my|our|the) [\w -]{2,30}|(?:co-)?(?:owns|"
    r"leads|maintains|handles|runs|reviews|manages|signs off|approves|is in charge of))\b",
)
# A chunk that asks for work now: its markers may still state a rule, which the person
# confirms ("add the test, table-driven like the rest of the repo").
_TASK = re.compile(
    r"^(?:(?:now|next|then|first|so|ok(?:ay)?),?\s+)?(?:can you |could you |pls |please )?(?:to )?"
    r"(?:add|fix|write|run|rerun|create|tune|tweak|"
    r"update|build|start|check|open|move|split|make|look|rework|finish|bump|upgrade|init|hit|seed|rotate|"
    r"scale|backfill|cut|format|tidy|speed|handle|simplify|clean|get|draft|merge|commit|"
    r"benchmark|set up|setup|give|put|use|implement|refactor|remove|delete|deploy|install|"
    r"try|show|tell|send|test|wire|hook|migrate|generate|regenerate|review|read|compare|"
    r"go back|revert|undo|redo|roll back|restore|retry|swap|inline|extract|change|replace|"
    r"switch)\b|"
    # a request after where it applies: "In the Unity project, make …", "In docs/auth.md add …"
    r"^in [^,]{1,60}?,?\s+(?:please\s+)?(?:make|add|change|fix|update|write|move|rename|remove|"
    r"delete|create|put|set|insert|drop|replace)\b|"
    # a plan for now: "let's tune the gains", not "let's always squash", "let's route every …"
    r"^(?:let's|let us|lets)\s+(?!(?:always|never|stick|keep|standardi[sz]e|agree|go with|not)\b)"
    r"(?!.*\b(?:every|all|always|never|each|any|from now on|going forward)\b)|"
    # "now please reformat cli.py": please and a verb, not "please always …"
    r"^(?:(?:now|next|then|first|so|ok(?:ay)?),?\s+)?please\s+(?:to\s+)?(?!(?:always|never|don't|"
    r"do not|keep|use|prefer|avoid|stick|make sure|remember|note)\b)[a-z]+\b",
    _I,
)
# A request by its shape, whatever its verb: a first word that is not a subject, then an
# object ("Tag the new RDS instance …", "Hand-write the Error impls").
_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?!(?:the|a|an|our|my|this|that|these|those|all|every|each|some|no|we|"
    r"i|it|they|you|there|here|staging|prod|production|ci|for|in|on|at|with|from|to|by|after|"
    r"before|during|across|under|over|about|per|via|once|when|if)\b)[a-z][\w-]*\s+(?:the|a|an|our|"
    r"my|this|that|these|those|all|every|some|it|them|me|us|your|its|their)\b",
    _I,
)
# What is wrong now, told to have it looked at: "The crane list returns 404 locally", "The
# PDF job is stuck retrying, see why".
_PROBLEM = re.compile(
    r"\b(?:returns? (?:a )?\d{3}|throws?|drops?|crash(?:es)?|hangs?|leaks?|has gaps|have gaps|"
    r"stuck|janky|laggy|glitch\w*|misbehav\w*|doesn't work|does not work|won't|"
    r"can't find|is missing|are missing|snaps?|flickers?)\b|"
    r",\s*(?:fix|check|see|look into|investigate|debug|figure out|sort out|deal with)\b|"
    # "…, update it to 3.12": what to change in the thing just named
    r",\s*(?:please\s+)?(?:update|upgrade|bump|fix|change|rewrite|replace|move|rename|remove|"
    r"delete|convert|migrate|port|refactor|clean up|tidy) (?:it|them|this|that)\b",
    _I,
)
# "Always the same error", "Never seen this before": a description, not a rule.
_DESCRIBES = re.compile(
    r"^(?:always|never)\s+(?:the|a|an|this|that|something|anything|again|seen|been|had|"
    r"heard|done|gone|ever|so|too|\w+ed)\b",
    _I,
)
# How something is at the moment: "the README is outdated", "the spacing looks off".
_STATE = re.compile(
    r"\b(?:is|are|looks?|seems?|feels?)\s+(?:\w+\s+)?(?:outdated|broken|failing|wrong|off|"
    r"fine|ok|okay|great|slow|flaky|red|green|done|ready|stale|missing|empty|weird|confusing|"
    r"annoying|messy|ugly|better|worse)\b(?![- ]limits)",
    _I,
)
_POINTS_BACK = re.compile(
    r"^(?:that's|that is|this is|it's|which|so\b|not\b|since\b|as\b|because\b|e\.g\.|"
    r"i\.e\.|like\b)",
    _I,
)
# "I need the symbol upload fixed": a request, not a taste.
_ASKS = re.compile(
    r"^i (?:need|want|would like|'d like) (?!.*\b(?:always|never|every)\b)(?:you to|it|this|"
    r"that|them|the \w+(?: \w+){0,3} (?:fixed|done|looked at|checked|sorted|updated))\b|^i need\b",
    _I,
)
# What limits or acts on the clause before it: "just that function", "switch it and rerun".
_LIMITS = re.compile(
    r"^(?:just|only|but only|and only|not|except)\b|^(?:please\s+)?[a-z]+ (?:it|this|that|them)\b|"
    # "… before you commit — this time, I mean": the one-off says when what came before holds
    r"^(?:(?:but|and)\s+)?(?:this time|this once|for now|for today)\b",
    _I,
)
# A chunk cut off mid-clause by a dash ("lumen's task runner is just — see the justfile").
_UNFINISHED = re.compile(r"\b(?:is|are|was|the|a|an|of|to|with|just|for|and|or|on|in)\s*$", _I)
# What the person wants instead, told after their taste ("I hate mocks — give me real sqlite").
_SPELLS_OUT = re.compile(r"^(?:give me|use|show me|go with|stick to|keep|prefer|just)\b", _I)
_SUBORDINATE = re.compile(r"^(?:since|because|as|given|if|when|while|whenever|unless)\b", _I)
# "it", "this", "they" at the start point back at what the conversation held; "this repo"
# names what it is.
_DEICTIC_START = re.compile(
    r"^(?:it|this|that|these|those|they|there|the one|this one|that one)\b"
    r"(?!\s+(?:repo|repository|project|codebase|app|"
    r"service|crate|package|module|team|monorepo|workspace|library)\b)",
    _I,
)
_PROJECT_WORDS = re.compile(
    r"\b(?:we|we're|our|us|here|this (?:repo|repository|project|codebase|service|crate|app)|"
    r"the (?:repo|project|codebase|team|service|crate|app|suite)|ci|staging|prod|production)\b",
    _I,
)


_ANCHORED = re.compile(
    r"\b(?:we|we're|we've|our|ours|us|here|this (?:repo|repository|project|codebase|service|"
    r"crate|app|team|org|company|monorepo|package|module|library|workspace|firmware|board|"
    r"cluster|machine|box|laptop)|the (?:team|company)|prod|production|staging|ci|i|i'm|my|"
    r"fyi|for the record|for future reference|btw|by the way|heads[- ]up|note|remember|"
    r"always|never|every|by default|"
    # where things are and what they are built on: said of how things stay
    r"lives|live|listens|hosted|deployed to|deploys to|pinned|named|called|source of truth|"
    r"owned by|maintained by|managed (?:by|with)|points (?:to|at)|on port|runs on|run on|"
    r"builds with|built with|is on|are on|lands? in|goes to|go to|stays?|for good|permanently|"
    r"talks? to|targets?|uses|comes? in at|(?:is|are) (?:cut|published|served|released|signed)|"
    r"served (?:from|by)|hosted (?:on|at|by)|stored in|kept in|written to|logs? to|syncs? to|"
    r"keep(?:ing)? in mind|bear(?:ing)? in mind|\d+ ?(?:cores?|gb|tb|v?cpus?|gpus?))\b",
    _I,
)


@dataclass(frozen=True)
class Heard:
    confidence: str
    kind: str
    content: str
    sentence: str
    about_user: bool
    said: str  # the user's own words the content came from


def read(message: str) -> tuple[list[Heard], list[str]]:
    """The lasting statements of one user message, one per sentence, and the sentences that
    as a whole state nothing to keep (a question, a hedge, another's view, a passing ask, a
    story). A sentence whose chunks hold more than one statement ("I stick to named exports;
    I'd rather not see export default") is one statement, kept whole."""
    out: list[Heard] = []
    refused: list[str] = []
    for sentence in sentences_of(message):
        chunks = _chunks(sentence)
        if all(len(chunk) > MAX_CHUNK for chunk in chunks):
            continue  # nothing in it is short enough to be one statement
        why = heard.not_a_statement(_strip(sentence)) or (
            "said for the task at hand" if heard.for_the_task_at_hand(sentence) else None
        )
        # "…, so the 13B model won't fit locally; let's use the small checkpoint for now": a
        # one-off told after the statement is one clause of the sentence (told first, as in
        # "for now — …", it governs all that follows)
        later_one_off = (
            why == "said for the task at hand"
            and len(chunks) > 1
            and not heard.for_the_task_at_hand(chunks[0])
            # "… — just that function, the rest can stay", "… — switch it and rerun": about
            # what came before
            and not any(_LIMITS.match(c.strip()) for c in chunks[1:])
        )
        # "the app freezes on big files — Ahmed maintains the Qt parts — probably the UI
        # thread": a guess in its own aside is that aside's, when what opens is not hedged
        later_guess = (
            why == "a condition or a hedge"
            and len(chunks) > 1
            and heard.not_a_statement(_strip(chunks[0])) != why
        )
        clause_only = why in heard.CLAUSE_ONLY or later_guess
        if why and not later_one_off and (not clause_only or len(chunks) == 1):
            refused.append(sentence.strip())
            continue
        found = [
            heard_here
            for chunk in chunks
            if (heard_here := _judge(_strip(chunk), sentence)) is not None
        ]
        if not any(f.confidence == HIGH for f in found):
            told = [
                heard_here
                for statement, how in embedded.statements_in(sentence)
                if (heard_here := _told(statement, how, sentence)) is not None
            ]
            if told:
                out.extend(told)
                continue
        if len(found) == 1:
            out.append(found[0])
        elif found and len(sentence) <= MAX_CHUNK:
            whole = _strip(sentence)
            best = HIGH if any(f.confidence == HIGH for f in found) else MEDIUM
            about_user = all(f.about_user for f in found)
            out.append(_heard(best, found[0].kind, whole, sentence, about_user))
    return out, refused


def asks_for_work(text: str) -> bool:
    """Whether `text` is a request by its shape ("point the debug build at staging")."""
    return bool(_IMPERATIVE.match(text) or _ASKS.match(text))


def sentences_of(message: str) -> list[str]:
    """The message's sentences as the user wrote them (pasted text left out)."""
    return [s for s in _SENTENCES.split(pasted.prose(message)) if s.strip()]


def whole(sentence: str) -> str:
    """A sentence as a memory's text: lead-in and trailing courtesies off, said of the user."""
    content = person(_strip(sentence).rstrip(".!;, "))
    return content[:1].upper() + content[1:]


def _chunks(sentence: str) -> list[str]:
    """Dashed asides, parentheses and semicolon clauses; one that points back ("that's
    the budget", "not the usual 6379", "so …") stays with the one before it, and what goes on
    after a parenthesis ("… a plugin (I always run …) so I can toggle it?") with the sentence
    around it."""
    chunks: list[str] = []
    aside = -1  # the chunk a parenthesis just closed, when it stands alone
    start = 0
    for cut in [*_ASIDES.finditer(sentence), None]:
        chunk = sentence[start : cut.start() if cut else len(sentence)]
        start = cut.end() if cut else len(sentence)
        if not chunk.strip():
            continue
        after_aside, aside = aside == len(chunks) - 1 and len(chunks) >= 2, -1
        # a short aside ("(red/green)") belongs to what it stands beside, as does what follows
        # a reason or condition told first ("Since my machine is an M2, builds target arm64")
        joins = chunks and (
            _POINTS_BACK.match(chunk.strip(" ,"))
            or len(chunk.split()) < 3
            or _SUBORDINATE.match(chunks[-1].strip())
            or _UNFINISHED.search(chunks[-1])
            or _FIRST_PERSON.search(chunks[-1])
            and _SPELLS_OUT.match(chunk.strip(" ,"))
        )
        if joins and after_aside:
            chunks[-2] = f"{chunks[-2]} {chunk.strip()}"
        elif joins:
            chunks[-1] = f"{chunks[-1]}, {chunk.strip()}"
        else:
            chunks.append(chunk)
            if cut is not None and ")" in cut[0]:
                aside = len(chunks) - 1
    return chunks


def _strip(text: str) -> str:
    text = text.strip().strip("*_`\"'").strip()
    text = LEAD_IN.sub("", text)
    return _TRAILING.sub("", text).strip(" ,:")


def _told(statement: str, how: str, sentence: str) -> Heard | None:
    """A statement cut out of a request, when it holds on its own: what the user framed as a
    rule is one, said in any words; a reason or an aside only with a concrete value, a
    person, or what the team's is."""
    heard_here = _judge(statement, sentence)
    framed = how == embedded.FRAMED and heard_here is None and len(statement.split()) >= 3
    # a clause, not "the last tab" of "make the screen remember the last tab"
    framed = framed and bool(_ENV_VERB.search(statement))
    if framed and not heard.not_a_statement(statement):
        return _heard(HIGH, "fact", statement, sentence, about_user=False)
    if heard_here is None:
        return None
    # a plain fact told in passing with nothing tying it to how things stay is asked
    plain_fact = heard_here.confidence == MEDIUM and heard_here.kind == "fact"
    if heard_here.confidence != HIGH and not plain_fact:
        return None
    if how == embedded.TOLD and not (
        _CONCRETE.search(statement) or _VALUE.search(statement) or _PEOPLE.match(statement)
    ):
        return None
    return heard_here


def _judge(chunk: str, sentence: str) -> Heard | None:
    if len(chunk) > MAX_CHUNK or len(chunk.split()) < 4 or heard.not_a_statement(chunk):
        return None
    if _DESCRIBES.match(chunk) or _STATE.search(chunk):
        return None
    if _PROBLEM.search(chunk) and not _GENERAL.search(chunk):
        return None
    task = bool(_TASK.match(chunk) or _IMPERATIVE.match(chunk) or _ASKS.match(chunk))
    body = _TAIL_TASK.sub("", chunk).strip(" ,") if task else chunk
    about_user = bool(re.match(r"(?:i|i'm|i'd|my)\b", body, _I)) and not _PROJECT_WORDS.search(body)
    if _PEOPLE.match(body) or _HANDLED_BY.search(body) and not task:
        return _heard(HIGH, "fact", body, sentence, about_user=False)
    first_person = _FIRST_PERSON.search(body)
    general = _GENERAL.search(body) or _RULED_OUT.search(body) or heard.WHENEVER_YOU.match(body)
    if first_person and not task:
        return _heard(HIGH, "preference", body, sentence, about_user)
    if _TEAM.search(body) and not task and not _DEICTIC_START.match(body):
        return _heard(HIGH, "fact", body, sentence, about_user=False)
    if general:
        if task or _DEICTIC_START.match(body):
            return _heard(MEDIUM, "preference", body, sentence, about_user)
        return _heard(HIGH, "fact", body, sentence, about_user)
    if not task and _VALUE.search(body) and _ENV_VERB.search(body):
        if _DEICTIC_START.match(body):
            return None  # "it runs on 5173": which "it" is lost without the conversation
        # A value said of something with nothing tying it to how things stay (ours, here,
        # this repo, told for the record) is as often what happens now ("the model overfits
        # after epoch 8"): the person confirms it.
        anchored = _ANCHORED.search(sentence)
        return _heard(HIGH if anchored else MEDIUM, "fact", body, sentence, about_user)
    if task and first_person:
        return _heard(MEDIUM, "preference", body, sentence, about_user)
    return None


def _heard(confidence: str, kind: str, body: str, sentence: str, about_user: bool) -> Heard:
    content = person(body.rstrip(".!;, "))
    return Heard(confidence, kind, content[:1].upper() + content[1:], sentence, about_user, body)
