"""The tone of a whole message: what makes all it states the person's to confirm rather than
a rule to keep (session-end extraction proposes it instead of storing it)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter

from memdesk.core.sessions import around, heard, irony, markers, pasted
from memdesk.core.sessions.undecided import DEFERRED, UNDECIDED

_I = re.IGNORECASE

# The tone of a whole message. Sarcasm or venting in one sentence colours the others ("I swear
# Terraform exists to punish me. Every plan shows 40 changes I didn't make."), as does a word
# in scare quotes ("Heroku's 'zero-downtime' deploy"), or an opening burst of praise.
# (not a name: the event for "signup", a badge called 'full', the 'temperament' field)
_SCARE_QUOTE = re.compile(
    r"(?<=\w )(?<!\bfor )(?<!\bcalled )(?<!\bnamed )(?<!\blabel )(?<!\blabelled )(?<!\bas )"
    # (nor a word mentioned: "never use 'simply' or 'just'", "say 'colour'")
    r"(?<!\buse )(?<!\bsay )(?<!\bwrite )(?<!\bword )(?<!\bwords )(?<!\bterm )(?<!' or )"
    # (nor the name of a thing: "realm 'admin'", "the partition 'long'"; nor one of a list of
    # examples: "'colour', 'initialise'")
    r"(?<!\brealm )(?<!\bproject )(?<!\bconfig )(?<!\bpartition )(?<!\bcluster )"
    r"(?<!\bfolder )(?<!\bschema )(?<!\bchannel )(?<!\bnamespace )(?<!\bprofile )(?<!', )"
    r"['‘\"“][a-z]+(?:-[a-z]+)*['’\"”](?=[\s,.!?])(?!,\s*['‘\"“])"
    r"(?!\s+(?:field|column|key|flag|option|setting|param|parameter|property|attribute|tab|"
    r"button|label|tag|badge|status|state|role|event|type|category|section|step|filter|mode|"
    r"table|value|command|branch|target|channel|queue|topic|bucket|template|variant|realm|schema|"
    r"partition|folder|cluster|project|persona|layer|modal|tickbox|checkbox|box|directory|"
    r"namespace|environment|profile|group|workspace|config)(?:s|es)?\b)"
)
# The person's own next step, said plainly ("I'll open the PR and tag her"): decided, and no
# doubt on what the message states beside it
NEXT_STEP = re.compile(
    r"^i'?ll (?:open|send|tag|ping|push|merge|file|raise|forward|tell|email|message|text|call|"
    r"post|review|"
    r"deploy|run|handle|book|schedule|upload|share)\b(?![^.;!?]*\b(?:maybe|probably|perhaps|"
    r"think|decide|see if|see whether|might)\b)",
    _I,
)
PRAISE = re.compile(
    r"^(?:oh,?\s+|yeah,?\s+|wow,?\s+)?(?:fantastic|brilliant|wonderful|great|lovely|perfect|"
    r"amazing|awesome|superb|splendid|excellent|terrific|marvell?ous|nice one|love it|"
    r"love that)\b\s*[,!.]",
    _I,
)


# What the person marks as lasting in the sentence itself ("let's pin the image by digest
# from now on", "…, it's how I work"): a groan or a joke elsewhere in the message is about the
# work at hand, not about this
_MARKED_LASTING = re.compile(
    rf"{around.STANDING.pattern}|"
    r"\b(?:that's|thats|it's|its|this is) (?:just )?how (?:i|we) (?:work|do (?:it|things)|"
    r"write|like)\b|\b(?:in|for|across) (?:every|all (?:my|our)) (?:repos?|repositories|"
    r"projects?|codebases?)\b|\bwhatever the (?:repo|project|codebase)\b|"
    # how long or how far a rule reaches: "…in logs, ever - mask them", "don't ever …",
    # "out for good", "in general", "on any project", "we don't use Control Tower at all"
    r"(?:,\s*|\s)ever(?=\s*(?:$|[,.;:!—–-]))|\bdon'?t ever\b|\bfor good\b|\bin general\b|"
    r"\b(?:on|in|for) any (?:project|repo|codebase|language)\b|"
    r"\b(?:don'?t|do not|doesn'?t|does not|never) (?:use|touch|need|want)\b[^.;]{0,40}\bat all\b|"
    # who decides what, and what anything of a kind must go through: "anything that touches
    # revenue recognition needs a sign-off from Marcus", "Priya owns the forecast model"
    r"(?:^|[,;:—–]\s*|\band\s+)(?:anything|everything|anyone)\b[^.;]{0,60}?\b(?:needs?|has to|"
    r"have to|must|goes|go)\b|\bowns\b",
    _I,
)


# How developers type to an agent while giving it work ("there's no spec folder lol. we're
# on minitest … put it in test/models/booking_test.rb"; "ugh yes. in general … use the
# module"): a laugh or a groan colours its own sentence (heard reads that one as sarcasm), not
# the rules the message states beside the task. Alone with a complaint it is a vent ("ugh.
# every single september the account requests pile up").
CASUAL = re.compile(r"\b(?:lol|lmao|ugh+)\b[.!,]*|\blet's just\b", _I)


def _gives_work(message: str) -> bool:
    said = [
        s.strip(" ,") for s in re.split(r"(?<=[.!?])\s+|\n+", CASUAL.sub("", pasted.prose(message)))
    ]
    said = [s for s in said if s]
    return bool(said) and (
        bool(_REPLIES.match(said[0])) or any(markers.TASK.match(s) for s in said)
    )


# an answer to what the agent just did or said: "no", "wait", "yep", "go for it"
_REPLIES = re.compile(
    r"^(?:no|nope|nah|yes|yeah|yep|yup|ok(?:ay)?|k|wait|hm+|ah|right|sure|great|nice|cool|"
    r"do it|go for it|not like that|actually|sorry)\b",
    _I,
)


SENTENCE_OR_LINE = re.compile(r"(?<=[.!?])\s+|\n+")


def lasts_whatever_the_tone(sentence: str) -> bool:
    """Whether `sentence` marks what it states as lasting, or as told to keep, untouched by
    the tone of the message around it (its own tone aside)."""
    marked = _MARKED_LASTING.search(sentence) or markers.TOLD_TO_KEEP.search(sentence)
    return bool(marked) and not doubted(sentence)


def doubted(message: str) -> bool:
    """Whether the message's tone makes what it states the person's to confirm."""
    if _gives_work(message):
        message = CASUAL.sub("", message)
    said = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", pasted.prose(message)) if s.strip()]
    if any(
        irony.ironic(s)
        or _SCARE_QUOTE.search(s)
        # "give full shifts a 'full' badge": a label
        and not (markers.TASK.match(s) or markers.IMPERATIVE.match(s))
        or UNDECIDED.search(s)
        and not NEXT_STEP.match(s)
        or DEFERRED.search(s)
        for s in said
    ):
        return True
    # a message thought aloud ("oh wait. index is on lower(code)… thats it isnt it"): its
    # sentences are guesses on the way, whichever one says so
    prose = pasted.prose(message)
    thought_aloud = heard.THINKING.search(prose)
    # ("oh wait, the port is 5432 now, not 5433" is no guess: it sets a value right)
    vented = _vented(message) or _RECURRING_FAULT.search(prose)
    if thought_aloud and not heard.CORRECTS_A_VALUE.search(message) or vented:
        return True
    if (
        DISTANCED.search(message)
        or _WISHED.search(prose)
        or _DOES_NOW.search(prose)
        or _RAN.search(_told(said))
        or _SUPPOSED.search(prose)
    ):
        return True
    # "Of course the GUI is the only way. Of course it only runs on Windows 7.": said twice,
    # an opener of irony
    said_again = Counter(m.group(0).casefold() for m in _EVERY.finditer(prose))
    if any(count > 1 for count in said_again.values()):
        return True
    if said and _asked_first(said):
        return True
    openers = [m[0].casefold() for s in said if (m := _IRONIC_OPENER.match(s))]
    if len(openers) > len(set(openers)):
        return True
    # ("Perfect. For the record, runbooks live in …": what is led in after the praise is said
    # on purpose, not carried on it)
    led_in = any(_LED_IN.match(s) for s in said[1:])
    # ("great. bump the chart version. …": thanks for the work, then the next step)
    next_step = len(said) > 1 and bool(
        markers.TASK.match(said[1]) or markers.IMPERATIVE.match(said[1])
    )
    return bool(said) and bool(PRAISE.match(said[0])) and not (led_in or next_step)


_LED_IN = re.compile(
    r"^(?:(?:now|and|also|oh|ok(?:ay)?),?\s+)?(?:for the record|for context|for future reference|"
    r"(?:a |some |quick )?(?:bit of )?(?:background|context)|one (?:more )?thing (?:about|on|for) "
    r"[\w ]{1,20}|(?:quick |style )note)\s*[,:]",
    _I,
)


def _told(said: list[str]) -> str:
    """The sentences that tell, not ask: "tell me why stage 7 took 40 min" asks of a run."""
    return " ".join(s for s in said if heard.not_a_statement(s) != "a question")


# A world that is not this one, said to be so ("…, but that's a budget fantasy", "no budget,
# so it's a dream", "I raise it only as a hypothetical", "assuming chains becomes mandatory,
# we'd sign in-cluster"): what it states holds there, not here.
_WISHED = re.compile(
    r"\b(?:hypothetical(?:ly)?|fantasy|pipe dream|(?:it'?s|just|only) a dream|wishful|"
    r"in an ideal world|if only)\b|(?:^|[.!?]\s+)(?:assuming|supposing|suppose|imagine)\b",
    _I,
)


# A question of fact asked first ("Does Router always strip the prefix? I never trust my
# memory on that one."): what the person adds is why they ask, not a rule they set. A request
# ("can you …?") is no such question, nor one about what the agent did ("where'd you put
# it?", "what did you call the env var?"), and an aside after it ("(the nas is a ds920+)")
# is told.
_QUESTION = re.compile(
    r"^(?:[\w ]{1,20}[,:]\s+)?(?:does|do|did|is|are|was|were|what|what's|whats|why|how|which|"
    r"when|where|who|should|can|could)\b"
    r"(?!(?:'d|d)?\s+(?:(?:did|do|does|have|had|would|will)\s+)?(?:you|u|we)\b)[^()—–]*\?$|"
    # whether a rule holds at all: "do we always need DIVIDE() or is a plain / ok? Kasia's old
    # measures use the slash everywhere"
    r"^(?:[\w ]{1,20}(?:[,:]|\s[—–])\s+)?(?:do|does|should|must) (?:we|i|you) (?:really |"
    r"actually |even |still )*(?:always |ever )?(?:need|have to|require)\b[^()]*\?$",
    _I,
)


def _asked_first(said: list[str]) -> bool:
    return (
        len(said) <= 3
        and bool(_QUESTION.match(said[0]))
        and not any(s.startswith("(") or _TOLD_BESIDE.search(s) for s in said[1:])
    )


# What the person marks as told beside the question, not as why they ask it ("how do i tail
# the logs? also, my terminal is wezterm", "why is the jar 300MB? btw we build with
# tools.build", "how do I start it? I use fish everywhere, so …")
_TOLD_BESIDE = re.compile(
    r"(?:^|[,;:—–-]\s*|\b(?:and|oh)\s+)(?:(?:btw|by the way|fyi|for reference|for context|"
    r"heads up|careful|oh,? and|side ?note|for the record)\b|also,)|\bfyi[.!]?$|"
    r"\b(?:i|we) (?:use|run|do|write|want)\b[^.?!]{0,40}\beverywhere\b",
    _I,
)


# What the person asks beside the frustration, in its sentence, is asked for good: "file-scoped
# namespaces pls, the extra indent level drives me nuts"
_ASKED_WITH_IT = re.compile(r"\b(?:please|pls|plz)\b|^keep\b", _I)


def _vented(message: str) -> bool:
    # the vent is found in the whole message ("every. single. time." spans sentences), the
    # request beside it in the vent's own sentence
    starts = [0, *(m.end() for m in SENTENCE_OR_LINE.finditer(message))]
    for vent in VENTED.finditer(message):
        n = bisect_right(starts, vent.start())
        sentence = message[starts[n - 1] : starts[n] if n < len(starts) else None]
        if not _ASKED_WITH_IT.search(sentence.strip()):
            return True
    return False


# A burst of frustration: what the message states beside it is the person's to confirm
# ("docker images eating 400GB because nobody ever prunes anything. i'm losing my mind").
VENTED = re.compile(
    # (not a groan that opens an answer to the agent: "ugh that's stale. the thresholds …")
    r"\b(?:losing my mind|so done with|i'?m done with|kill me|argh+|wtf|ffs|"
    r"ugh+(?![\s,.!]+(?:no|nope|ok(?:ay)?|fine|that'?s (?:stale|wrong|old|outdated|not))\b)|"
    r"(?:want|going) to scream|(?:so |really |very )?painful[.!]*\s*$|"
    r"(?:every|each) (?:single )?\w+,? the same (?:thing|story|mess)|"
    r"who (?:decided|thought|designed)|why (?:does|do|is|are|did) (?:every|all|everything|nobody|"
    r"no one)\b|drives me (?:nuts|crazy|insane|up the wall)|sick of|fed up|"
    # exasperation: "who did this", "useless", "every. time.", "Infuriating.", a shout, 😭
    r"who did this|useless[.!]*\s*$|unbelievable|infuriating|maddening|absurd|i have words|"
    r"(?:convinced|swear|bet|sure) (?:they|he|she|it) (?:do|does|did) (?:it|this|that) on purpose|"
    r"black magic|should be illegal|every\.\s*time|a wall of (?:yellow|red|warnings|errors)|"
    r"piling up|so dumb|every\.?\s+single\.?\s+(?:time|week|day|run|release)\b|"
    r"without (?:fail|exception)|such a joy|take it personally|, of course[.!]*\s*$|"
    r"(?:the same|same old) story|i hate (?:it|them|this|that|watching)|"
    r"(?-i:AGAIN|FOREVER))\b|[😭😤🙄🤦😩😫😡🤬]|"
    # worn out by it: "It is really tiring.", "every. single. diff.", "Every one.", "I spend
    # more time on SPI archaeology than …"
    r"\b(?:really |so |very |just )?(?:tiring|exhausting|draining|frustrating)[.!]*\s*$|"
    r"\bevery\.\s+single\.|(?:^|[.!?]\s+)every (?:single )?one[.!]|"
    # a complaint closed with one word: "40 seconds to start on this laptop. Always."
    r"(?:^|[.!?…]\s+)(?:always|honestly)[.!]+(?=\s|$)|"
    r"\bi spend more time (?:on|fighting|fixing)\b|"
    r"\b(?:always|every time|inevitably) end(?:s)? up\b|\bevery time i think\b|"
    # a judgement of a thing, or the time it takes from the person: "safari devtools are the
    # worst", "nxlog config from hell", "I lose forty minutes", "so annoying", "I cannot work
    # like this", "for no reason whatsoever", "like clockwork"
    r"\b(?:are|is) the worst\b|\bfrom hell\b|\bexasperat\w*|\b(?:so|really|very) annoying\b|"
    r"\bannoying[.!]*\s*$|\b(?:so )?tired of (?:it|this|that)\b|\bso tired of\b|"
    r"\bwant to quit\b|"
    r"\b(?:cannot|can'?t) work like this\b|\bfor no (?:good )?reason\b|\bdamn\b|^god,|"
    r"\blosing (?:my )?patience\b|\blike clockwork\b|\blaughabl[ey]\b|"
    r"\bi (?:lose|lost|waste|wasted) (?:\w+ ){0,2}(?:minutes|hours?|days|afternoons?|evenings?)\b|"
    r"\bi spend my (?:afternoon|morning|evening|day|weekend|night)s?\b|"
    r"\bi (?:do not|don'?t) understand how (?:they|anyone|people)\b|"
    r"\bthe same (?:dance|comment|mistake|finding|fight)\b|\bnothing ever just\b|"
    r"\bevery last one\b|\bmakes? me want to\b|\b(?:is|are) cursed\b|\bit'?s a curse\b|"
    # a one-word verdict, a word said again alone: "Terrible.", "… when the game gets fun.
    # always."
    r"(?:^|[.!?]\s+)(?:terrible|awful|horrible|ridiculous|always|every time)[.!]+\s*$|"
    # a last word of irony or disbelief, stop or not: "… and never tells anyone. insane",
    # "… every weekend and i find out monday. lovely", "Why. Who does this."
    r"[.!?]\s+(?:insane|lovely|marvell?ous|classic|typical|priceless|wonderful|fantastic|"
    r"crazy|nuts|madness|who does (?:this|that))[.!]*\s*$|"
    # what the thing leaves the person doing by hand: "I end up cleaning it by hand", "I have
    # to convert it by hand"
    r"\bi (?:always |then )?(?:end up|have to|had to) [\w ]{1,40}? (?:by hand|manually)\b|"
    r"\blike that forever\b|\bthe (?:second|moment) i look away\b|"
    r"\bthe (?:most|least) [\w ]{1,30}? (?:i|we)(?:'ve| have)? ever\b|"
    # what the thing does to the person: "the bane of my existence", "I could scream", "makes
    # me crazy", "I'm losing it", "I die a little inside", "I am so tired", "it never ends",
    # "is rubbish"
    r"\bbane of (?:my|our)\b|\b(?:i|we) could (?:scream|cry|weep)\b|"
    r"\b(?:drives|makes|driving|making) me (?:mad|crazy|nuts|insane)\b|"
    r"\b(?:i'?m|i am) (?:losing it|going mad|going crazy)\b|\blosing it[.!]*$|\bdie a little\b|"
    r"\b(?:i'?m|i am) (?:so |really |thoroughly |just |getting )?(?:tired|exhausted|weary|"
    r"worn out)\b|\bit never ends\b|\bnever a dull moment\b|"
    r"\b(?:is|are) (?:rubbish|terrible|awful|horrible|a torment|a lottery|garbage)\b",
    _I,
)
# A thing that misbehaves again and again ("arango web ui logs me out every 10 min", "the
# licence server falls over every time more than 6 people are logged in"): a complaint, not
# a rule, though it says "every time". Within one clause, and the thing's verb, not the
# person's ("drop a PDF preview each time" is an ask).
_FREQUENT = (
    r"(?:always|whenever|never once|(?:every|each) (?:single |blessed |bloody |other )?(?:time|"
    r"day|week|month|year|season|morning|afternoon|evening|night|weekend|quarter|summer|winter|"
    r"release|build|run|deploy|firmware|update|version|sale|restart|reboot|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day))"
)
_MISBEHAVES = (
    r"(?:breaks|broke|fails|crashe[sd]|dies|died|loses|forgets|forgot|flakes|falls over|"
    r"fell over|hangs|freezes|froze|times out|chokes|stalls|jitters|cracks|corrupts|eats|leaks|"
    r"goes (?:blank|flat|down)|contradicts|logs me out|misbehaves|overheats|disconnects|wipes|"
    r"mangles|garbles|explodes|blows up|messes up|jams|glitches|stutters|lags|locks up|"
    r"acts up|plays up|falls apart|gets stuck|stops working|goes offline|reboots itself)"
)
_CLAUSE = r"[^.!?;:()\u2013\u2014]{0,80}"
_RECURRING_FAULT = re.compile(
    rf"\b{_FREQUENT}\b{_CLAUSE}\b{_MISBEHAVES}\b|\b{_MISBEHAVES}\b{_CLAUSE}\b{_FREQUENT}\b", _I
)
# The person keeps a view they tell at arm's length ("Marek wraps every route in a try/except.
# that's his thing, I'm not sold on it"): the rule beside it is someone else's.
DISTANCED = re.compile(
    r"\b(?:not sold(?: on)?|(?:their|his|her) (?:opinion|view|theory|take)(?:,| not)|"
    r"not necessarily (?:ours|mine)|nice theory|(?:they|he|she)(?:'re|'s| are| is) (?:wrong|"
    r"adamant)|not something (?:i|we)(?:'ve| have)? agreed|"
    r"(?:i )?(?:don'?t|do not) buy (?:it|that|this|the)|"
    r"(?:his|her|their) (?:rule|stuff|thing|call|hill) for (?:his|her|their)\b|"
    r"(?:hmm+|meh)[.!]*\s*$|\bsomewhere in between\b|"
    r"\bi (?:don'?t|do not) (?:really |fully |quite |entirely )?share (?:that|this|his|her|their) "
    r"(?:view|opinion|take|stance)\b|"
    r"not (?:a|the|our) (?:house|team) (?:style|rule|convention|standard)|"
    r"(?:his|her|their) (?:wish|preference|choice) for (?:his|her|their)\b|"
    r"for (?:his|her|their) own\b|"
    # told beside another's view: "I don't fully agree but she's been doing sc longer", "I
    # merely relay it", "his hobby horse, nobody's acted on it", "he's pretty loud about it"
    r"\bi (?:don'?t|do not) (?:really |fully |quite |entirely |totally )?agree\b|"
    r"\bi (?:merely|just|only) (?:relay|pass on|report)\b|\bspeaking for (?:himself|herself|"
    r"themselves)\b|\b(?:reporting|relaying|passing on|quoting) (?:that|this|it|them|him|her),? "
    r"(?:(?:i'?m|i am) )?not (?:agreeing|endorsing|signing)\b|\bspeaking for (?:himself|herself|"
    r"themselves)\b|\b(?:his|her|their) (?:personal view|hobby ?horse|comment)\b|"
    r"\b(?:i'?m|i am) not sure (?:he|she|they)(?:'s|'re| is| are)? right\b|\bnice in theory\b|"
    # "my manager's take: …", "… that's the ops rule for their dashboards. not mine"
    r"\b(?:my|our|his|her|their) [\w-]+'s (?:take|view|opinion|position|stance|idea)\s*:|"
    r"(?:^|[.;]\s*)not mine\b|"
    r"\bloud about it\b|\bnobody'?s acted on it\b|"
    r"\bi (?:don'?t|do not) know enough to (?:judge|say|tell)\b|"
    r"\bbut (?:he|she|they)(?:'s| is|'re| are| has| have)(?: been)? (?:the|doing|in charge)\b|"
    # what disowns a view passed on, in a sentence of its own: "It was floated in the guild
    # meeting; nothing has been agreed", "That's his wish, the team hasn't agreed", "I am
    # passing this along", "I don't have strong feelings either way", "she might be right
    # but its not my decision" (the disowning sentence was itself stored as the person's)
    r"\b(?:not|never) (?:been |yet |really )?(?:agreed|decided|discussed|adopted)\b|"
    r"\b(?:nothing|no one|nobody)(?: has)? (?:been )?(?:agreed|decided)\b|"
    r"\b(?:that's|that is|it's|it is|just|purely|only) (?:his|her|their) (?:wish|idea|take|"
    r"preference|call|opinion|position|thing|request|taste)\b|"
    r"\bnot my (?:decision|call)\b|\bpassing (?:this|it) (?:along|on)\b|"
    r"\b(?:don't|do not) have (?:a |any )?strong (?:feelings?|views?|opinions?)\b|"
    r"\b(?:i'm|i am) not (?:so |that |entirely |really )?sure (?:it|this|that)(?:'s| is)? "
    r"(?:needed|necessary|right|worth|a good idea|the way)\b|\bnot (?:so |that |entirely )?"
    r"convinced\b|\btreat it as (?:an|a) (?:idea|suggestion)\b|\bfor completeness\b|"
    r"\b(?:might|may) (?:well )?be right,? but\b|\bno conclusion\b)",
    _I,
)
# What the code does now, told beside how it must be ("limiter must return Retry-After in
# seconds, round up. now it returns ms"): the must is a change to make, the person confirms it.
_DOES_NOW = re.compile(
    r"(?:^|[.!?;]\s+|,\s+but\s+)(?:but |and )?(?:right now|now|currently|at the moment),? "
    r"(?:it|this|that|they|the \w+) (?:returns?|does|gives?|shows?|sends?|prints?|logs?|rounds?|"
    r"uses?|writes?|emits?|renders?|truncates?|drops?)\b",
    _I,
)
# A run's result told beside it ("Dry run over 143 repos: 139 mirrored fine, 4 failed — all
# four have LFS objects over 2 GB"): what the message states is of that run.
_RAN = re.compile(
    r"\b\d+ (?:of \d+ )?(?:failed|passed|succeeded|errored|timed out)\b|\b\d+ \w+ed fine\b|"
    r"\b(?:dry|test|trial) run (?:over|of|on|across)\b|^(?:dry|test|trial) run:|"
    r"\b\d+ (?:missing|failing|failed|broken|flaky|skipped) [a-z]+\b|"
    # a command and what it gave: "curl -I https://shop.example.net -> 200 over h2"
    r"^(?:curl|wget|dig|ping|nc|kubectl|helm|git|npm|pnpm|yarn|cargo|go|make|docker|http)\b"
    r"[^\n]{0,80}?(?:->|=>|→)|"
    # "fuzz run on update_price, 50k runs: …", "The headless run completed: …", "reload went
    # clean, no flaps", "agda --safe src/Everything.agda: all 41 modules check"
    r"\b(?:fuzz|load|soak|stress|benchmark|headless|smoke|canary) run\b[^.:\n]{0,40}:|"
    r"\brun (?:completed|finished|passed|failed)\b|\bwent clean\b|"
    r"^[a-z][\w-]* (?:--?[\w-]+ )+[\w./-]+:|"
    # "current state: NoTwoHolders holds for 5 …"
    r"^(?:current |latest )?(?:state|status)(?: update| check)?:|"
    # "tried with the pi: /light comes in at ~30 msgs/sec"
    r"^tried (?:it |this |that )?(?:with|on|against|in)\b[^.:]{0,40}:|"
    # a setting tried and what it gave: "with the pooled allocator it builds in 38s, without
    # it 3m10s", "initial sync 51s, a rebuild after the edit took 1.3s"
    r"^with (?:the |a |an )?[^,.:;]{2,50}?[,:]?\s+(?:it |this |that |everything |[\w-]+ )?(?:works|"
    r"builds|passes|fails|succeeds|runs|compiles|loads|starts|finishes|completes)\b|"
    # what the person just did with the work, and the counts it gave: "I imported the 2023
    # records: 46 peals …", "i run it on the week data: 1 843 records"
    r"(?:^|[.!?]\s+)(?:i|we) (?:just )?(?:ran|reran|executed|imported|entered|tested|tried|"
    r"restarted|loaded|processed|converted|migrated|uploaded)(?: it| this| that| them)? "
    r"(?:it|this|that|them|the|my|our|with|on)\b[^.\n]{0,60}?\d|"
    r"(?:^|[.!?]\s+)(?:i|we) run (?:it|this|that|the \w+) (?:on|against|over)\b[^.\n]{0,60}?\d|"
    # a throughput measured: "GET at 410k ops/s", "(355.7 million rows/s)", "feeding at 4k
    # docs/s" (not a limit: "25 req/s per token")
    r"\b\d[\d.,]*\s?(?:[kmb]|million|billion)?\s?(?:ops|rows|docs|msgs|messages|events|"
    r"records|items|writes|reads|queries|inserts|lines|frames|samples|tokens)/s\b|"
    r"\b(?:took|needed|lasted|finished in|completed in) (?:about |around |~)?\d+(?:[.,]\d+)?"
    r"\s?(?:ms|s|sec|secs|seconds|m|min|mins|minutes|h|hours)\b",
    _I,
)
# The same "every …" said twice in one message: "The sandbox is down every Monday morning.
# Every Monday."; "every milestone someone checks in a 4GB texture … every milestone".
# (Counted, not matched with a backreference: that read a 96 KB message in 4 s.)
_EVERY = re.compile(r"\bevery (?!time\b|one\b)[a-z]+\b", _I)
# Said of the whole message: "moving transactional to SES would kill the milter setup.
# hypothetically."; "disable grace entirely. I want raw miss behaviour; we'll restore it
# afterwards."
_SUPPOSED = re.compile(
    r"\bhypothetically\b|\b(?:we|i)(?:'ll| will) (?:restore|revert|undo|switch|put|turn|"
    r"re-?enable)\b[^.;]{0,30}?\b(?:afterwards|after(?:ward)?|later|back)\b",
    _I,
)
_IRONIC_OPENER = re.compile(
    r"^(?:of course|naturally|obviously|sure|great|wonderful|perfect|clearly|surely)\b", _I
)
