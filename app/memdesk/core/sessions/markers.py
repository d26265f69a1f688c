"""What marks a lasting statement anywhere in a clause (clauses.py cuts a message into the
clauses it reads): what holds in general, the person's own habit or taste, the team's own
way, something ruled out, a plain fact with a concrete value, who someone is; and what marks
a task, a problem or a state of the moment instead."""

from __future__ import annotations

import re

_I = re.IGNORECASE

# "… grey instead of that red": a change to what is on screen now, not what holds in general.
NOT_WHAT_IS_THERE = r"(?!\s+(?:that|this|these|those|the current|the existing)\b)"

# What holds beyond the task at hand.
GENERAL = re.compile(
    r"\b(?:always|never|every(?:one|body|thing|where)?|all (?:our|of our|the|my)|"
    r"any(?:where)?|no exceptions|non-negotiable|house style|by default|as a rule|"
    r"in general|generally|the rule|"
    r"from now on|going forward|whenever|each time|every time|as usual|like the rest|"
    r"anyone who|anybody who|"
    # "anything" as what a clause is about, not as its object ("doesn't tell me anything")
    r"anything (?:that|which|new|else|in|under|marked|touching|older|newer|over|above|below|"
    r"with)|"
    # what anyone makes from now: "no printk in anything you commit"
    r"(?:anything|everything) (?:you|i|we) (?:ever )?(?:write|commit|give|generate|build|make|"
    r"add|ship|create|push|hand|send|produce|start|own|touch)|"
    r"like (?:all|every|the other) (?:our|of our|\w+)|as with all|same as every|as we do|"
    r"that's how (?:we|i|all|our)|the (?:whole )?(?:codebase|repo|crate|project|team)|"
    r"in this (?:repo|repository|project|codebase|crate|service|team|setup)|"
    rf"(?:instead of|rather than){NOT_WHAT_IS_THERE}|only)\b|"
    r",\s*not\s+(?:the\s+|a\s+)?[\w.#/@-]|\bnot the (?:usual|default)\b|"
    # how the agent's own words go is how they always go: "keep your explanations brief"
    r"\byour (?:explanations|answers|replies|responses|summaries|messages|commit messages)\b|"
    r",\s*ever\b",
    _I,
)

# A version held on purpose: "keep apiVersion pinned at 2024-03-01", "don't bump duckdb past
# 1.1.3", "we pin julia to 1.10 in CI", "we're held at 1.75"
_VERSION = r"v?\d+(?:[.-]\d+)+(?:\.x|[a-z]\d*)?\b"  # ("2022.3.21f1", "6.0b2")
PINNED = re.compile(
    # (not the task of pinning it now: "pin cosign to v2.2.4 in the installer step")
    rf"(?:(?<=\w )pin|\bpins|\bpinned|\bheld|\bhold|\bstays?|\bstuck|\blocked)\b[^,;]{{0,30}}?"
    rf"\b(?:to|at|on)\s+{_VERSION}|"
    rf"\b(?:don'?t|do not|never)\s+(?:bump|upgrade|update|go|move)\b[^,;]{{0,30}}?\b(?:past|"
    rf"beyond|above|over)\s+{_VERSION}",
    _I,
)

# Something ruled out, in whatever words.
RULED_OUT = re.compile(
    r"\b(?:is|are|'s)\s+(?:not allowed|off the table|out of scope|a no-go|not welcome|"
    # (not news: "build 214 is out to the beta group")
    r"out(?!\s+(?:to|on|in|for|of|now|there|today)\b)|"
    r"not a target|not supported|forbidden|banned|not something we)\b|\b(?:isn't|aren't)\s+"
    r"(?:welcome|allowed|a target|supported|something|where|the way|how)\b|\bno-go\b|"
    r"\bwe (?:don't|do not|never|no longer|dropped|avoid)\b|\bnobody\b|\bstays? out\b|"
    # what was taken out for another way: "we ripped it out in favour of valibot"
    r"\bwe (?:ripped|pulled|took|threw) (?:[\w.@/-]+ ){1,2}out (?:in favou?r of|for)\b|"
    r"\bwe (?:ditched|scrapped|got rid of|replaced|swapped) (?:[\w.@/-]+ ){1,2}"
    r"(?:in favou?r of|for|with)\b|"
    r"\bno (?:separate|manual|custom)\b|\boff[- ]limits\b|\bnot an option\b|\bnon-?starter\b|"
    r"\bout of bounds\b|\bnot permitted\b|"
    r"^no [\w -]{2,40} in (?:your|the|my|our) (?:answers|replies|responses|messages|commits|"
    r"commit messages|code|prs|output|summaries|docs)\b",
    _I,
)

# The person's habit or taste, and the team's own way.
# What the person lives with, which every answer has to fit ("I'm red-green colorblind so
# green vs red panels are the same colour to me", "I've got deuteranopia")
MY_CONDITION = (
    r"\bi(?:'m|\s+am|'ve got|\s+have(?: got)?)\s+(?:[\w()]+[- ]){0,2}(?:colou?r-?blind|"
    r"colou?r blind(?:ness)?|deuteranop\w*|protanop\w*|tritanop\w*|dyslexi\w*|"
    r"hard of hearing|partially sighted|low vision|rsi|a tremor)\b"
)
# What the person works in wherever they are, which every command given them has to fit
# ("I'm on fish btw, so bash-isms won't paste cleanly"; typed fast: "im on fish so …")
MY_SETUP = (
    r"\bi(?:'m|m|\s+am)\s+on\s+(?:fish|zsh|nushell|powershell|pwsh|windows|mac(?:os)?|linux|"
    r"wsl2?|nixos|ubuntu|debian|fedora)\b|\bmy (?:shell|os|terminal) is\b"
)
LIVES_WITH = re.compile(f"{MY_CONDITION}|{MY_SETUP}", _I)
FIRST_PERSON = re.compile(
    r"\bi(?:'d| would)? (?:much )?(?:rather|prefer)\b|"
    r"\b(?:isn'?t|aren'?t|is not|are not) (?:really )?my (?:thing|style|cup of tea)\b|"
    r"\bi (?:learn|work|read|think) best\b|"
    # where and with what the person works: "I work on a 4G hotspot most days"
    r"\bi (?:work|develop|code|study|program) (?:on|from|in|with) (?!(?:it|this|that|them)\b)|"
    # ("I really don't want …", "I personally never …": the adverb between)
    r"\bi (?:(?:really|honestly|personally|generally|usually|normally|typically|definitely|"
    r"absolutely|strongly|seriously) )?(?:stick (?:to|with)|always|never|"
    r"tend to|like|want(?! to\b| you\b)|go for|keep|only|find|hate|can't stand|"
    # not what the person sees or knows now: "I don't see a scheduler in train.py", "so I
    # don't forget to turn it back on"
    r"(?:don't|do not)(?! (?:see|find|get|know|understand|remember|forget|recall|follow|notice|"
    r"think)\b)|hold)\b|"
    r"\bi'm (?:not a fan of|strict about|fine with|partial to)\b|"
    r"\bmy (?:go-to|default|rule)\b|"
    r"\bi'm an? (?:[\w-]+ ){1,2}(?:person|dev|developer|engineer|designer|scientist|researcher)\b|"
    r"\b(?:what|how) i (?:go for|like|want)\b|\bthe way i like\b|\bhow i like\b",
    _I,
)

TEAM = re.compile(
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
# A word between a path's slashes or before its extension is part of one name, not a verb
# or a marker of the sentence ("3 failures, all in test/board_web/live/board_test.exs").
_NOT_IN_A_PATH = r"(?<![/\\])"
_NOT_IN_A_PATH_AFTER = r"(?![/\\]|\.\w)"

VALUE = re.compile(
    r"\bport\s+\d{2,5}\b|\bon\s+\d{4,5}\b|\b\d+(?:\.\d+){1,2}\b|\bv\d+(?:\.\d+)*\b|"
    r"\b[a-z0-9-]+(?:\.[a-z0-9-]+){2,}\b|\b(?:https?|s3|gs)://\S+|(?:^|\s)~?/[\w./-]+|"
    # a quantity in any case: "10MB", "16 GB", "4g"
    r"#[\w-]{2,}|\b[A-Z][A-Z0-9_]{3,}\b|\b\d+\s?(?i:cores?|gb|mb|kb|tb|g|minutes?|hours?|"
    r"seconds?|levels?|nodes?|replicas?|ms|fps|hz|khz|mhz|ghz|v|mah|rpm|requests?|workers?|h|hrs?|"
    r"mins?|"
    r"threads?|users?|days?|weeks?)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|"
    r"\b(?:weekly|nightly|daily|hourly|every other \w+)\b|\b\d\d?:\d\d\b|"
    r"\b\d+x\d+\b|"  # a size: "320x180", "1920x1080"
    r"\b[\w-]+/[\w./-]+\b|\b[a-z]+(?:-[a-z0-9]+)+\b|"
    # a number said of something ("minSdk is 24", "Postgres 16", "below 3.5 V")
    r"\b(?:is|are|of|at|to|below|above|under|over|=)\s~?\d+(?:\.\d+)?\b|"
    # ("I have 52 samples": a count after a verb or a little word names no version)
    r"\b(?!(?:have|has|had|got|with|about|around|only|just|than|and|or|for|all|last|first|"
    r"next|took|takes?|needs?|wants?|ran|runs?)\s)"
    r"[A-Za-z][\w+-]*[A-Za-z]\s\d{1,3}\b(?!\s*(?:%|times|more|less|of)\b)|"
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
CONCRETE = re.compile(
    r"\b(?:is|are) (?:our|my|the team's|what (?:we|i))\b|\bour \w[\w -]{1,30} (?:is|are|runs?|"
    r"uses?|lives?)\b|\bwe (?:keep|use|run|deploy|ship|build|pin|store|host)\b"
)

ENV_VERB = re.compile(
    # a verb in the present after its subject ("the API sends UTC", "QA tracks bugs in …")
    # (not a counted noun: "three attempts, backoff from 200ms" has no verb)
    rf"{_NOT_IN_A_PATH}(?:(?<=\w )(?:gets|get)\s\w+ed\b|"
    r"(?<=[a-z] )(?<!\btwo )(?<!three )(?<!\bfour )(?<!\bfive )"
    r"(?<!\bfew )(?<!\bmany )(?<!several )(?!(?:is|has|was|this|its|does|yes|always|"
    r"plus|less|across|unless|perhaps|thus|as|us)\b)[a-z]{2,}(?<![su])s\b|"
    r"\b(?:is|are|'s|'re|runs?|listens?|lives?|sits?|lands?|goes|go|points?|has|have|uses?|"
    r"targets?|installs?|deploys?|ships?|served|hosted|stored|scheduled|issued|comes? from|"
    r"reads? from|talks? to|expects?|ends?|cuts?|releases?|called)\b)"
    rf"{_NOT_IN_A_PATH_AFTER}",
    _I,
)

HANDLED_BY = re.compile(
    r"\b(?:is|are|gets|get) (?:handled|owned|maintained|run|managed|reviewed|approved|signed "
    r"off|looked after|done) by (?-i:[A-Z][\w-]+)|"
    # "anything touching the cluster goes through Marta", "…, she's the owner of that platform"
    r"\b(?:goes|go|has to go|have to go|must go|needs to go) (?:through|past|via) "
    r"(?-i:[A-Z][a-z][\w-]+)\b|\b(?:she|he)(?:'s| is) the (?:owner|maintainer|approver) of\b|"
    # "… needs a review from Priya", "requires sign-off from Ingrid"
    r"\b(?:needs?|requires?|gets?|has to get|must get) (?:an? )?(?:review|sign-?off|approval|"
    r"ok|okay|go-ahead|green light) (?:from|by) (?-i:[A-Z][a-z][\w-]+)\b|"
    # "Priya has to sign off on anything that changes the response schema"
    r"(?-i:\b[A-Z][a-z][\w-]+) (?:has to|must|needs to|should|will) (?:sign off on|approve|"
    r"review|ok|okay) (?:any|every|all)\w*\b|"
    # "Kenji is tech lead for the map tiles and signs off any schema change there", "she
    # approves every production promotion", "Lucía is the one who signs off experiments"
    r"\b(?:signs off(?: on)?|approves|okays) (?:any|every|all|anything|everything)\w*\b|"
    r"\bis the one who (?:signs off|approves|reviews|decides)\b",
    _I,
)

PEOPLE = re.compile(
    r"^(?:(?:Dr|Prof|Mr|Mrs|Ms)\.?\s)?(?:[A-Z][\w-]+(?:\s[A-Z][\w-]+)?)"
    r"(?:\s(?:from|on|in|of) (?:the )?[\w -]{2,20}?)?\s+"
    r"(?:is (?:my|our|the) [\w -]{2,30}|(?:co-)?(?:owns|"
    r"leads|maintains|handles|runs|reviews|manages|signs off|approves|is in charge of))\b",
)

# A chunk that asks for work now: its markers may still state a rule, which the person
# confirms ("add the test, table-driven like the rest of the repo").
TASK = re.compile(
    r"^(?:(?:now|next|then|first|so|ok(?:ay)?),?\s+)?(?:can you |could you |pls |please )?(?:to )?"
    r"(?:add|fix|write|run|rerun|create|tune|tweak|"
    r"update|build|start|check|open|move|split|make|look|rework|finish|bump|upgrade|init|hit|seed|rotate|"
    r"scale|backfill|cut|format|tidy|speed|handle|simplify|clean|get|draft|merge|commit|"
    r"benchmark|set up|setup|give|put|use|implement|refactor|remove|delete|deploy|install|"
    r"try|show|tell|send|test|wire|hook|migrate|generate|regenerate|review|read|compare|"
    r"go back|revert|undo|redo|roll back|restore|retry|swap|inline|extract|change|replace|"
    r"switch)\b|"
    # a request after where it applies: "In the Unity project, make …", "In docs/auth.md add …"
    # (not a scope: "in anything you write for me, …")
    r"^in [^,]{1,60}?,?\s+(?:please\s+)?(?<!\byou )(?<!\bwe )(?<!\bi )(?<!\bthey )"
    r"(?:make|add|change|fix|update|write|move|rename|remove|"
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
# (An indefinite pronoun is no verb: "anything that touches the schema needs a review" is a
# rule of the team, not a task.)
IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?!(?:the|a|an|our|my|this|that|these|those|all|every|each|some|no|we|"
    r"i|it|they|you|there|here|staging|prod|production|ci|for|in|on|at|with|from|to|by|after|"
    r"before|during|across|under|over|about|per|via|once|when|if|(?:any|every|no|some)"
    r"(?:thing|one|body|where)|whatever|whoever|wherever|whenever)\b)[a-z][\w-]*\s+(?:the|a|an|our|"
    r"my|this|that|these|those|all|every|some|it|them|me|us|your|its|their|"
    # what to look at, asked: "copy how order_flow.yaml is laid out", "see why it hangs"
    r"(?:how|why)(?! to\b))\b",
    _I,
)

# A thing that keeps failing the person ("never works for me", "which is why they never
# worked for me"): "never" says how often it breaks, not what is never done
FAILS_FOR_ME = re.compile(
    r"\b(?:never|doesn'?t|does not|didn'?t|did not|won'?t|hasn'?t|has not|haven'?t|have not)"
    r"(?: (?:ever|really|once|actually))? (?:been )?work(?:s|ed|ing)? (?:for|on) me\b",
    _I,
)
# What is wrong now, told to have it looked at: "The crane list returns 404 locally", "The
# PDF job is stuck retrying, see why".
PROBLEM = re.compile(
    r"\b(?:returns? (?:a )?\d{3}|throws?|drops?|crash(?:es)?|hangs?|leaks?|has gaps|have gaps|"
    # (not a version held: "we're stuck on 4.2.2", "stuck on python 3.9")
    r"stuck(?!\s+(?:on|at|with)\s+(?:[a-z]+\s+v?\d|v?\d+(?:\.\d+)+\b))|"
    r"janky|laggy|glitch\w*|misbehav\w*|"
    r"doesn't work|does not work|"
    # (not who refuses: "museum IT won't re-image the kiosks" is how things are kept)
    r"(?<!(?-i:[A-Z]{2}) )(?<!\bthey )(?<!\bshe )(?<!\bhe )(?<!\blegal )(?<!\bclient )"
    r"(?<!\bcouncil )(?<!\bvendor )(?<!\bsecurity )(?<!\bfinance )(?<!\bteam )(?<!\bboard )"
    r"(?<!\bcustomer )(?<!\bmanager )(?<!\bboss )(?<!\badmins )won't|"
    r"can't find|is missing|are missing|snaps?|flickers?)\b|"
    r",\s*(?:fix|check|see|look into|investigate|debug|figure out|sort out|deal with)\b|"
    # "…, update it to 3.12": what to change in the thing just named
    r",\s*(?:please\s+)?(?:update|upgrade|bump|fix|change|rewrite|replace|move|rename|remove|"
    r"delete|convert|migrate|port|refactor|clean up|tidy) (?:it|them|this|that)\b",
    _I,
)

# "Always the same error", "Never seen this before": a description, not a rule.
DESCRIBES = re.compile(
    r"^(?:always|never)\s+(?:the|a|an|this|that|something|anything|again|seen|been|had|"
    r"heard|done|gone|ever|so|too|\w+ed)\b",
    _I,
)

# How something is at the moment: "the README is outdated", "the spacing looks off".
STATE = re.compile(
    # (not what a rule says of whatever is so: "anything that looks wrong gets sent to her")
    r"(?<!\bthat )(?<!\bwhich )(?<!\bwhatever )(?<!\banything )(?<!\bsomething )"
    # (nor a habit: "is usually done by 4")
    r"\b(?:is|are|looks?|seems?|feels?)\s+"
    r"(?!(?:usually|normally|typically|generally|rarely|often)\b)"
    r"(?!(?:always|never)\s+(?:done|ready|broken|failing|red|green|missing|empty|stale|off)\b)"
    r"(?:\w+\s+)?"
    r"(?:outdated|broken|failing|wrong|off(?!\s+(?:from|to|for)\b)|"
    r"fine|ok|okay|great|slow|flaky|red|green|done|ready|stale|missing|empty|weird|confusing|"
    r"annoying|messy|ugly|better|worse)\b(?![- ]limits|\s+the\s+table)|"
    # a verdict on what is in front of us: "the diff looks like a rounding thing to me"
    r"\b(?:looks?|seems?|sounds?) like\b[^.;]{1,40}?\bto (?:me|us)\b|"
    # a verdict on what was just run: "the rule fires fine", "it compiles ok now"
    r"\b\w+s (?:fine|ok|okay|great|well)(?: now)?[.!]*$",
    _I,
)

# "I need the symbol upload fixed": a request, not a taste.
ASKS = re.compile(
    r"^i(?: need| want| would like|'d like) (?!.*\b(?:always|never|every)\b)(?:you to|it|this|"
    r"that|them|the \w+(?: \w+){0,3} (?:fixed|done|looked at|checked|sorted|updated)|"
    # "I'd like a check that flags any day where …": a thing to build, described
    r"an? (?:[\w-]+ ){1,3}?(?:that|which|to)\b)\b|^i need\b|"
    # the work the team has to do now: "we need to rebuild upstream jq 1.7.1 with a patch"
    r"^we (?:need|have|got) to (?!.*\b(?:always|never|every\w*|any\w*|all)\b)(?!(?:keep|stay|"
    r"use|make sure|be|stick|support|run on|follow|avoid|target|ship with)\b)",
    _I,
)

# "this goes for anything you write for me: …" points at what follows
POINTS_AHEAD = r"\s+(?:goes|is|applies|counts|holds) (?:for|to) (?:any|all|every|each)\w*\b"
# What the person says of themselves or the team with nothing but "it" or "them" for its
# object ("I like to sanity-check it", "I always mix them up") says nothing without the
# sentence before it
POINTS_BACK_ONLY = re.compile(
    r"^(?:i|we)\b[^,;:—–]*\b(?:it|them|that|this|those|these)(?:\s+(?:up|out|wrong|right|off|over|mixed"
    r"(?: up)?))?(?:\s+(?:too|as well|first|later|again|all the time))?[.!]?$",
    re.IGNORECASE,
)
POINTS_BACK_WORDS = 8


def points_back_only(said: str) -> bool:
    return len(said.split()) <= POINTS_BACK_WORDS and bool(POINTS_BACK_ONLY.match(said.strip()))


# "it", "this", "they" at the start point back at what the conversation held; "this repo"
# names what it is.
DEICTIC_START = re.compile(
    r"^(?:it|this|that|these|those|they|there|the one|this one|that one)\b"
    rf"(?!{POINTS_AHEAD})(?!\s+(?:repo|repository|project|codebase|app|"
    r"service|crate|package|module|team|monorepo|workspace|library)\b)|"
    # the same as what was just said: "same with /tickets/{id}", "same shape as staging"
    r"^(?:(?:and|but|oh|yeah|ok),?\s+)?(?:the )?same\b|"
    # the thing at hand, its subject left out: "needs to be idempotent, it'll run from cron"
    r"^(?:needs|has) to\b|"
    # an example of what was just said: "like someone dials a prefix we don't have"
    r"^(?:like|e\.g\.|say)\s+(?:someone|somebody|anyone|when|if)\b|"
    # where the file at hand is: "file is in do/02_clean/"
    r"^(?:the )?(?:file|script) (?:is|'s) (?:in|at|under)\b|"
    # a step of the script at hand: "one thing, step 3 uses cache:flush"
    r"^(?:one (?:more )?thing,?\s+)?step \d+\b",
    _I,
)

PROJECT_WORDS = re.compile(
    r"\b(?:we|we're|our|us|here|this (?:repo|repository|project|codebase|service|crate|app)|"
    r"the (?:repo|project|codebase|team|service|crate|app|suite)|ci|staging|prod|production)\b",
    _I,
)

# What ties a sentence to how the person, the team or this repository works, or marks it as
# told for good: a statement with none of it is as often what the person sees now.
TIED = re.compile(
    rf"{_NOT_IN_A_PATH}\b(?:we|we're|we've|our|ours|us|here|"
    r"this (?:repo|repository|project|codebase|service|"
    r"crate|app|team|org|company|monorepo|package|module|library|workspace|firmware|board|"
    r"cluster|machine|box|laptop|club|lab|clinic|school|site|office|shop|museum|station)|"
    r"in (?:this|our) \w+|"
    # told to last: "…, and it's not changing"
    r"(?:it|that|this)(?:'s| is) not (?:going to |gonna )?chang(?:e|ing)|"
    r"(?:it|that|this) (?:won'?t|will not) change|"
    r"(?:it|that|this|they)(?:'s| is|'re| are) not (?:getting|being|going to be) "
    r"(?:upgraded|updated|replaced|changed|moved)|"
    r"the (?:whole )?(?:team|company|repo|repository|project|codebase|crate|app|suite|rule)|"
    r"[\w-]+'s (?:rule|policy|convention)|"
    r"prod|production|staging|ci|i|i'm|i'd|my|me|"
    r"let's|let us|fyi|fwiw|for what it'?s worth|just so you know|for the record|"
    r"for future reference|for context|btw|by the way|"
    r"background(?: info)?(?=\s*:)|(?:quick |some |bit of )?context(?=\s*:)|"
    r"heads[- ]up|note|remember|preference|"
    r"by default|as a rule|from now on|going forward|house style|no exceptions|,\s*ever|"
    # what it means for the work: "…, so long jobs need keepalives"
    r"so (?:[\w-]+ ){1,6}(?:needs?|must|has to|have to)|"
    # where things are and what they are built on: said of how things stay
    r"lives|live|listens|hosted|deployed to|deploys to|pinned|named|called|source of truth|"
    r"owned by|maintained by|managed (?:by|with)|points (?:to|at)|on port|runs on|run on|"
    r"builds with|built with|is on|are on|lands? in|goes to|go to|stays?|for good|permanently|"
    # ("on target the valves open fine": where it was run, not what it is built for)
    r"talks? to|(?<!\bon )(?<!\bon the )targets?|uses|comes? in at|"
    r"(?:is|are) (?:cut|published|served|released|signed)|"
    r"served (?:from|by)|hosted (?:on|at|by)|"
    r"(?:stored|kept|recorded|measured|expressed|priced|billed|quoted) (?:\w+ )?(?:in|as|on|under)|"
    r"written to|logs? to|syncs? to|maintains|owns|keep(?:ing)? in mind|bear(?:ing)? in mind|"
    r"\d+[ -]?(?:cores?|gb|tb|v?cpus?|gpus?))\b"
    rf"{_NOT_IN_A_PATH_AFTER}",
    _I,
)
# A value said of something is tied to how things stay by those, or by a word of habit.
# "each" before what it counts ("each deploy"); "200 samples each" is how many, not how often
ANCHORED = re.compile(rf"{TIED.pattern}|\b(?:always|never|every)\b|\beach\b(?=\s+[a-z])", _I)
# Said only of the person or the team ("I", "we", "my"), of CI or of "the app", a value is as
# often how the work stands now ("the LED blinks 3 times as soon as I plug in the second
# sensor", "we're at 14 findings") as how things stay: 107 right to 43 wrong in the read sets.
_ONLY_WHO = frozenset(
    {"i", "i'm", "i'd", "me", "my", "we", "we're", "we've", "us", "ci", "each", "the app"}
)


# "each" before a span of time is a schedule ("due the first Monday of each quarter")
_EACH_TIME = re.compile(
    # a process that recurs: "the nightly export gets dumped into …", "runs weekly"
    r"\b(?:nightly|daily|weekly|hourly|monthly) (?:run|batch|build|job|export|import|sync|"
    r"report|backup|release|deploy|cron|snapshot|dump|handoff|rotation|standup)s?\b|"
    r"\b(?:runs?|goes out|kicks? off|happens?|ships?) (?:nightly|daily|weekly|hourly|monthly)\b|"
    r"\beach (?:day|night|morning|evening|week|weekday|month|quarter|year|sprint|release|"
    r"deploy|shift|hour|minute|season|term|semester)\b",
    _I,
)


def anchored(sentence: str) -> bool:
    """Whether `sentence` is tied to how things stay by more than who says it."""
    return bool(_EACH_TIME.search(sentence)) or any(
        m.group().lower() not in _ONLY_WHO for m in ANCHORED.finditer(sentence)
    )


# A switch the team made ("the old e2e gate got ripped out last quarter", "we dropped moment
# last year"): what is said to hold beside it is the way chosen, not how things happen to be
SWITCHED = re.compile(
    r"\b(?:got|was|were|been|being)\s+(?:ripped out|dropped|removed|retired|replaced|killed|"
    r"deprecated|switched off|turned off|scrapped|ditched)\b|"
    r"\b(?:we|i)(?:'ve| have)?\s+(?:ripped out|dropped|removed|retired|replaced|killed|ditched|"
    r"scrapped|got rid of|moved (?:off|away from)|migrated (?:off|away from)|switched "
    r"(?:off|away from|from))\b(?!\s+the ball\b)|"
    # the thing between the verb and its particle: "we ripped jest out last spring"
    r"\b(?:we|i)(?:'ve| have)?\s+(?:ripped|took|pulled|threw) (?!(?:it|them|that|this)\b)"
    r"[\w.@/-]+(?: [\w.@/-]+)? out\b",
    _I,
)


# What the person tells the agent on purpose, to keep in mind ("ugh. fyi every amount is a
# Long in minor units", "does the signing change the body? heads up, Priya owns the payload
# contract"): a groan, a question or a doubt elsewhere in the message is not about it, nor is
# it one more item of the task beside an earlier statement (`one_lead`). Only as said to the
# agent: "I vaguely remember that …" and "someone has to remember to click it" are not.
TOLD_TO_KEEP = re.compile(
    r"\b(?:btw|fyi|fwiw|heads[- ]up|(?:just )?so you know|for the record|for context|"
    r"keep in mind|note that)\b|(?:^|[.,;:(—–-]\s*)(?:and |also )?remember\b",
    _I,
)
