"""What in a user's message is not a statement to keep: the sentences gap-fill never stores.

Questions, conditions and hedges, things said for the task at hand only ("for now", "in this
PR"), apologies, cancellations, sarcasm, reminders, others' views, stories, how things are
now and what is wrong now. What the user pasted is left out before (`pasted.py`). Each test
is a rule a reviewer can read; `bench/heard.py` and `bench/roundtrip.py` count what still gets
through.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memdesk.core.sessions import lead_ins, markers, pasted
from memdesk.core.sessions.dropped import DROPPED
from memdesk.core.sessions.faults import DIAGNOSED, FAULT, MISBEHAVES, WRONG_NOW, WRONG_WAY
from memdesk.core.sessions.habits import habit_when
from memdesk.core.sessions.irony import SARCASM, ironic
from memdesk.core.sessions.moments import LOOKED_BACK, PAST, STATUS, TOLD_AS_PAST
from memdesk.core.sessions.others_views import DISMISSED, DISTANCED, REPORTED
from memdesk.core.sessions.reactions import LIKED_AT_HAND, REACTED, TASTE_FOR_THIS
from memdesk.core.sessions.replies import ANSWER, MEANT
from memdesk.core.sessions.transient import TRANSIENT
from memdesk.core.sessions.undecided import DEFERRED, ON_TRIAL, UNDECIDED

_I = re.IGNORECASE
# "When you give me SQL, write the keywords in uppercase": whenever the agent does a thing of
# its work, how to do it; neither a question nor a condition of the moment ("when you're
# done", "when you push this").
WHENEVER_YOU = re.compile(
    # ("if you ever change how we hit that server, give #apt-ops a heads up")
    r"^(?:(?:when(?:ever)?|each time|every time|any ?time) (?:you|u)|if (?:you|u) ever) "
    r"(?!(?:are|'re|get|have|'ve|"
    r"finish|finished|done|can|could|need|want|push this|run this|see this)\b)"
    r"(?:write|give|show|send|make|add|create|generate|suggest|review|explain|answer|reply|"
    r"name|commit|touch|edit|change|open|draft|refactor|test|document|log|format|paste|post|"
    r"propose|summari[sz]e|quote|cite|build|deploy|release|migrate|scaffold|set up|install|"
    r"update|bump|rename|plot|chart|print|return|use|fix|patch|debug|implement|port|run)\b"
    r"(?!\s+(?:\w+\s+){0,2}?(?:this|that|it|these|those|them)\b)[^,?]{0,80}?"
    # then what to do, after a comma or straight on ("when you draft replies keep them short")
    r"(?:,\s+(?=\w)|\s+(?=(?:(?:just|only) )?(?:keep|use|give|put|add|make|include|avoid|never|"
    r"always|don'?t|"
    r"do not|please|write|show|mark|prefix|start|end|name|ask|check|sign)\b))(?!.*\?\s*$)",
    _I,
)
_WHO_A_RULE_IS_FOR = (
    r"(?: (?:else|from|under|over|with|without|in|on|at|outside|inside|below|above|older|"
    r"younger|not)\b[^?,;]{0,40}?)? (?:should|must|shall|can only|can't|cannot|may only|"
    r"may not|has to|needs to|gets|goes)\b"
)
QUESTION = re.compile(
    # also after a word that leads it in: "or should i just handwrite it", "seriously who
    # decided the date picker should be a canvas element"
    r"^(?:(?:or|and|but|so|seriously|honestly|like|also|wait|hmm+),?\s+)?"
    # ("do the feature flag", "ok do both": what to do, asked of the agent)
    r"(?:do(?!\s+(?:not|the|a|an|both|all|this|that|these|those|it|them|either|each|one|what|"
    r"whatever|everything|nothing|something)\b)|does|did|can|could|would|will|should|shall|is|are|was|were|have|has|"
    r"what|why|how|when(?!ever\b| i (?:ask|say|tell|type|want|need|mention)\b|"
    # (a case, not a question: "when you run tests just give me the failing ones")
    r" (?:you|u) (?!(?:do|did|are|were|will|can|could|should|have|had)\b)[^?]*$)|where|which|"
    # ("Anyone who turns down a plot twice goes to the bottom", "anyone under 16 can only
    # take U12": who a rule is for, not a question)
    r"who|whose|whats|any idea|anyone(?! who\b| that\b|" + _WHO_A_RULE_IS_FOR + r"))\b|"
    r"^(?:[a-z]+(?: [a-z]+)?,?\s+)?(?:can|could|would|will) (?:you|u)\b",
    _I,
)
# A question typed without its mark, wherever it is asked.
ASKED = re.compile(
    r",\s*any (?:clue|idea|ideas|thoughts)\b|\bany (?:clue|idea|ideas) (?:why|how|what|where)\b|"
    r"\b(?:can|could) (?:you|u) (?:check|tell|confirm)\b|"
    # asked in other words: "I want to know if old backups are deleted by themselves"
    r"\b(?:i|we) (?:want|would like|'d like) to (?:know|find out|understand) (?:if|whether|how|"
    r"why|what|when|which)\b|"
    # asked at the end: "… but it's only 40k rows, is it really a problem"
    # ("…, do it with pandas please" asks for work: after "do" only who does it)
    r",\s*(?:(?:is|are|was|were|does|did|should|would|could|can|will) (?:it|that|this|they|we|"
    r"i|there)|do (?:we|i|you|they)) (?:really |even |actually )?[^,.;!]{0,30}$"
    # what the agent uses or would do, asked last: "…, what are you using for that"
    r"|,\s*(?:what|which|how|where|why) (?:are|do|did|would|will|should) (?:you|u)\b[^,.;!]{0,40}$",
    _I,
)
HEDGE = re.compile(
    # (not what the person asks for each time: "when I ask to peek at a topic just hand me …")
    r"^(?:if|when(?! i (?:ask|say|tell|type|want|need|mention)\b)|unless|maybe|perhaps|"
    r"i think|i guess|i wonder|i'm not sure|not sure|"
    r"probably|what if|suppose|supposing|in case|hmm+,? maybe|ideally)\b|"
    r"\b(?:maybe|perhaps|not sure|might want|might need|could try|we could|at some point|"
    r"some ?day|eventually|i guess|i suppose|probably|i think|worth (?:a )?(?:look|trying)|"
    r"in a world where|had we|wonder (?:if|whether|why|how|what)|pretty sure|i suspect|"
    r"i'm guessing|i'd guess|i reckon|i'm assuming|"
    # (a definition's condition is no hedge: "counts as churned only if they haven't renewed")
    r"(?:would|'d|could|might|may)\b[^,.;]{0,40}?\bonly if|(?:don't|do not|doesn't|does not) "
    r"\w+ yet|"
    r"i bet|my (?:guess|hunch) is|should be (?:plenty|enough)|let's say|in theory|picture an?|"
    r"imagine|wondering|curious "
    r"(?:whether|if)|thinking about|not ready|tentatively|tbd|flip-flop\w*|possibly|"
    r"hypothetically|half thinking|i'm thinking|may or may not|i forget|can'?t remember|"
    # a half memory: "I remember some are plain yamls and some get generated"
    r"i (?:vaguely )?remember (?:some|that some|there)|"
    r"afaik|iirc|as far as i know|to my knowledge|if i (?:remember|recall) (?:correctly|right)|"
    r"don'?t remember|trying to (?:recall|remember|figure out|work out)|not certain|no idea|"
    r"dunno|(?:let'?s|lets) pretend|"
    r"pretend (?:we|that|it)|say we had|if we had|(?:seems?|seemed) to(?: be| have)?|"
    r"(?:appears?|appeared) to be|"
    r"i (?:always|often|sometimes|keep) (?:forget|forgetting|mix(?:ing)? up|confus\w+)|"
    r"i (?:can'?t|cannot|couldn'?t) (?:tell|say|see|figure out|work out|find)|i wonder|"
    r"i (?:never|don'?t|do not) (?:really )?know (?:how|what|why|when|where|if|whether)|"
    r"i (?:don'?t|do not) think|in the event(?: that)?|(?:may|might|could) have been)\b|"
    # what would follow if: "moving to SES would kill the milter setup", "I'd start with 2GiB"
    # (not a consequence told after the statement: "…, so this one would be 01-intro.md")
    r"^(?:(?!\b(?:so|where|which|even)\b)[^.;]){0,80}?(?:\bwould|'d) (?:also )?(?:have to|"
    r"need|be|kill|break|cost|start|go|make|get|take|mean|require|fail|work|help|end up)\b|"
    r"^\w+,\s+(?:if|suppose|say)\b|^whether\b",
    _I,
)
APOLOGY = re.compile(
    r"^(?:so\s+)?(?:sorry|my bad|oops|apologies)\b|\b(?:i'm sorry|sorry (?:about|for)|my bad|"
    r"oops|i apologi[sz]e)\b",
    _I,
)
CANCEL = re.compile(
    r"^(?:never ?mind|scratch that|forget (?:it|that|what i said)|ignore (?:that|what i said)|"
    # ("whatever the figure, I stick to …" is no dismissal)
    r"whatever(?!\s+(?:the|a|an|your|my|our|its|their|kind|type|language|tool|project)\b)"
    # (what it names does something: "whatever comes back from the go service gets parsed …")
    r"(?!\s+(?!works\b)[a-z]+s\b)|"
    r"not important|no worries|doesn't matter)\b|\bnever ?mind\b|"
    # taken back where it ends: "it's yarn, not npm, in this repo — wait no. It's pnpm."
    r"\b(?:wait,? no|no,? wait|scratch that)\W*$",
    _I,
)
REMINDER = re.compile(
    r"^(?:remind me|don't let me forget|make a note to|todo|fixme|note to self)\b", _I
)
# the next piece of work: "anyway next thing: the badge should show the count" (what an aside
# beside it tells is read on its own)
NEXT_WORK = re.compile(
    # (not what is so, told after it: "next: Priya owns the test suites for the labs, …")
    r"^(?:(?:ok(?:ay)?|so|anyway|now|right),?\s+)*next(?: thing| up| task| step| one)?\s*:"
    r"(?!\s*(?:[\w'/.-]+\s+){1,4}(?:owns|lives|live|must|has to|have to)\b)|"
    # "anyway thats context, what I actually need: figure out why …"
    r"^(?:(?:ok(?:ay)?|so|anyway|but),?\s+)*(?:that'?s|thats|that is) (?:all |just |the |some )?"
    r"(?:context|background)\b|"
    r"^(?:(?:ok(?:ay)?|so|anyway|now),?\s+)*what (?:i|we) (?:actually |really )?need"
    r"(?: (?:now|today|from you))?(?: is)?\s*:",
    _I,
)
# "every retry doubles the load, so...": a thought that trails off (asides._UNFINISHED is a
# chunk cut before its noun, which joins the next one)
# "…, so", "…all 16 pass which is... weird": cut off before what it was going to say
TRAILS_OFF = re.compile(
    # (not said in full: "XCTUnwrap or guard let, don't care which", "I think so")
    r"(?<!\bcare )(?<!\bmatter )(?<!\bmind )(?<!\bknow )(?<!\bpick )(?<!\bchoose )"
    r"(?<!\bthink )(?<!\bhope )(?<!\bguess )(?<!\bsaid )(?<!\bsays )(?<!\bsuppose )"
    r"\b(?:so|but|and|or|because|which)\s*(?:\.{2,}|…)?\s*$|"
    r"\bwhich (?:is|was|seems|looks)\s*(?:\.{2,}|…)?\s*$",
    _I,
)
# Thinking aloud: "…40ms a record, way under the timeout... unless the db got slow", "so if
# we pull 500 per poll", "oh wait", "…doesnt use lower... thats it isnt it".
THINKING = re.compile(
    r"(?:\.{3,}|…)\s*(?:unless|but|or|maybe|so|then|which|wait|hmm+|idk|i guess|probably|"
    r"that'?s (?:it|why))\b|^(?:hmm+,?\s+)?(?:so if|what if|i wonder|oh wait|wait,|maybe)\b|"
    r"\b(?:isn'?t it|aren'?t they|doesn'?t it|don'?t they|won'?t it)\s*$|\bmaybe,?\s+or\b|"
    # "so the spans show up in the collector but not in tempo... either …", "hmm if the client
    # is a singleton …", "perhaps every statement should …", "… thinking out loud"
    r"^so\b[^.?!]{0,200}(?:\.{3,}|…)|^hmm+,?\s+if\b|^perhaps\b|\bthinking (?:out loud|aloud)\b|"
    r"^hm+,?\s+maybe\b|(?:^|[.…]\s*)or maybe\b",
    _I,
)
# Venting about how things are ("i really hate how composer hides the logs"); how the agent
# should work is told otherwise ("I hate when answers restate my question").
VENTING = re.compile(
    r"\bi (?:really |just |absolutely |honestly |so )?(?:hate|can'?t stand|loathe|despise) "
    r"(?:how|that|the way)\b(?! you\b)|"
    # a mood, not a taste: "I hate android sometimes"
    r"\bi (?:really |just |absolutely |honestly |so )?(?:hate|can'?t stand|loathe|despise) "
    r"[^.;,]{1,40}?\b(?:sometimes|some days|at times|these days)\b|"
    # a grievance, however often it recurs ("every time", "always"): "the wifi in the hall is
    # useless, every year the same", "it always drifts and it bugs me so much"; not when it
    # is the reason for what the person asks ("British spelling please, it bugs me otherwise";
    # "drives me nuts" is more often such a reason than a grievance)
    r"^(?!.*\b(?:so,? (?:we|i|please|always|never)|please|pls|for me|show me|in general|"
    r"in anything|whenever you|from now on|going forward|i (?:prefer|want|like|'d rather|"
    r"would rather))\b|.*\bno (?!idea\b|clue\b|one\b|matter\b)[\w-]).*\b(?:(?:it|that|this) "
    r"(?:really )?bugs me|i (?:really |just )?hate it\b|(?:so|really|"
    r"super) (?:annoying|frustrating)|infuriating|nobody (?:[\w ]{0,20} )?(?:cares|can explain)|"
    r"(?:an|one) hour gone|every (?:single )?\w+ the same|the same mess|i'?m (?:so )?(?:sick|"
    r"tired) of|fed up)|"
    # "the TMX spec is a disaster", "SPF records are absurdly long", "it's the same nonsense on
    # every binary", "every single summer someone books …", "I age a year each time" (not a
    # rule with its grievance: "always through astro:assets — they send absurdly big jpgs")
    r"^(?!.*\b(?:(?:always|never|ever|whenever)\b(?! find\b| written\b| seen\b| had\b)|"
    r"please|pls|for me|in anything|from now on|going forward|so,? (?:we|i|please)|"
    r"i(?:'m| am) an? [\w-]+ person|"
    r"i (?:prefer|want|like|'d rather|would rather|steer clear|avoid|stick))\b|"
    r".*\bno (?!idea\b|clue\b|one\b|matter\b)[\w-])"
    r".*(?:(?:is|are) (?:a |an )?(?:absolute |complete |total )?(?:disaster|nightmare|joke|"
    r"garbage)\b|absurdly|ridiculous(?:ly)?\b|\bnonsense\b|spaghetti|takes forever|"
    r"\bso thin\b|\bevery single (?!one\b|time\b)\w+|\bi (?:age|lose) (?:a|an|whole|years?)\b|"
    r"\bi never find (?:it|them|anything)\b)",
    _I,
)
# A belief put in question: "i thought push_patch keeps the same process" (not "I thought I
# told you to use pnpm", a correction).
BELIEVED = re.compile(
    r"\bi(?:'d| would) have (?:thought|expected|assumed|guessed)\b|"
    r"\bi (?:thought|assumed|figured)\b(?! (?:about|of)\b)(?! i (?:told|said|asked|mentioned)\b)"
    r"(?! we (?:agreed|decided|said)\b)",
    _I,
)
# What is in front of us, done without: "we don't need the fallback in this function", "I'd
# rather you not split the file".
AT_HAND = re.compile(
    # "I'd prefer scoped labels for these", "I prefer that one here"
    r"\b(?:prefer|rather|like|want)\b[^.;]{0,60}?(?<!just )(?<!only )\bfor (?:this|these|that|"
    r"those)(?: (?:one|ones|"
    r"case|change|pr|task|ticket|step|part|bit))?\s*[.!]?$|\b(?:that|this) one here\b|"
    # (not where the person says it holds beyond: "…, not just in this file")
    r"(?<!\bnot just )(?<!\bnot only )(?<!\bnot )"
    r"\b(?:in|inside|within) (?:this|that|these|your|the new|the same) (?:\w+ )?(?:function|"
    r"method|loop|handler|class|file|types file|diff|pr|hunk|helper|hook|component|endpoint|"
    r"script|query|migration|test|template|module)s?\b(?! as\b)|"
    r"\b(?:in|inside) the (?:error|else|catch|except|fallback|retry|for|while|inner|outer) "
    r"(?:branch|path|case|block|clause|loop)\b|"
    r"\bwe (?:don't|do not) (?:need|want) (?:the|a|an|all (?:these|those|the)|any of (?:that|"
    r"this|these)|this|that|these|those)\b|"
    r"\bi'?d rather you (?:not |didn't |did not )?\w+ (?:the|this|that) (?:file|function|test|"
    r"class|module|component|method|query|script|pr|diff|change|commit|helper|loop)\b",
    _I,
)
# What only the clause it is in says: "look at why the pipeline went red — keep in mind CI
# has a 20 minute timeout" holds a statement beside the status.
CLAUSE_ONLY = (
    "a past event",
    "an answer to the agent",
    "how things are at the moment",
    "what is wrong now",
    # "can you add a retry (we're on boto3 1.34 here, don't use anything newer)": the question
    # is one part of the sentence (a condition is not: it governs all that follows)
    "a question",
    "the next piece of work",
)


# What the person forgets or does not understand: about them now, not how to work.
SELF_REPORT = re.compile(
    # what the person does not find in front of them: "I don't see a scheduler in train.py"
    r"\bi (?:don't|do not|can't|cannot|couldn't) (?:see|find|spot)\b|"
    r"\b(?:i|we) (?:(?:can )?never|still (?:don't|do not)|(?:don't|do not) (?:ever )?really) "
    r"(?:remember|recall|know|understand|get (?:why|how|it)|figure out|see why)\b|"
    r"\bi(?:'ve| have) never (?:really )?(?:understood|got|known|figured out)\b|"
    # "I've never touched it so can't say"
    r"\bi(?:'ve| have) never (?:touched|used|tried) (?:it|them|that|this)\b[^.;]{0,20}"
    r"\bcan'?t say\b|"
    r"\bi(?:'m| am) (?:a bit |so |totally |quite )?confused\b|"
    # what the person feels each time: "i always get confused by draft/publish", "I always
    # panic when the page goes red"; not as the reason for what they ask ("explain it step by
    # step please, I always get lost in long paragraphs")
    r"^(?!.*\b(?:please|pls|for me|to me|i (?:like|prefer|want|need)|so|otherwise)\b).*"
    r"\bi (?:always |still |often |usually )?(?:get (?:confused|lost|mixed up)|panic|freak "
    r"out)\b|"
    r"\bi(?:'ve| have) (?:always )?assumed\b|\bi never compared\b|"
    r"\bi(?:'ve| have) never been (?:entirely |quite |fully |really |totally )?(?:clear|sure)\b",
    _I,
)
# Two options named and nothing said of them: "pest vs phpunit for new tests", "Oban vs a
# plain Task.Supervisor for the emails".
WEIGHED = re.compile(
    rf"^(?!(?i:.*{markers.MY_CONDITION}))[^,;:]{{1,60}}\s(?:vs\.?|versus)\s[^,;:]{{1,60}}$"
)  # not "VS Code"


# A question asked as a request: "explain how the pagination should work", "walk me through
# why the cache misses" (what follows "how" is what the person asks about, not a rule); not
# one asked of every time ("explain what you'll change before you touch any file").
_EXPLAIN = re.compile(
    r"^(?![^.;!?]*\b(?:(?:before|after|whenever|every time|each time|when) (?:you|u)|always|"
    r"never|any|every)\b)(?:(?:ok(?:ay)?|so|now|next|then|and|also|pls|please|first),?\s+)*"
    r"(?:explain|describe|show me|tell me|walk me through|help me (?:understand|see|figure out)|"
    r"figure out|work out|find out|look into|remind me|summari[sz]e|outline|clarify)"
    r"(?: (?:to me|for me|quickly|briefly|again))?\s+(?:how|what|why|whether|if|where|when|which|"
    r"who)\b",
    _I,
)
# A value set right, said against the one it replaces: "the port is 5432 now, not 5433",
# "postgres is back on 5432": the change holds from now on, not only at the moment (a new user's
# correction was read as a status, and the old port went on being briefed).
CORRECTS_A_VALUE = re.compile(
    r"(?:,|\b(?:and|but))\s+(?:not|no longer|instead of|rather than)\s+(?:on |at |port |v)?"
    r"\d[\w.:/-]*"
    # what says otherwise, named after the value ("…, not 8080 like the old readme says")
    r"(?:\s+(?:like|as)\s+[^.;!?]{1,40}?\b(?:says?|said|claims?|claimed|states?|stated|"
    r"suggests?|shows?|showed|has it|had it))?"
    r"(?:\s*[.!]?\s*)$|\b(?:is|are|'s|'re) back (?:on|to|at) (?:port |v)?\d",
    _I,
)


# A move told as done ("we moved hosting from Fly.io to Render last week"): what is used now.
_MOVED = re.compile(
    r"\b(?:we|i)(?:'ve| have)? (?:moved|switched|migrated) (?:[\w.-]+ ){0,2}from [\w.@/-]+ "
    r"(?:over )?to\b",
    _I,
)


_SHOWS = re.compile(
    r"\bsays? (nothing|little|a lot|much|more|less|everything|something|anything) about\b", _I
)


_OR_ASKED = re.compile(r"\w\?\s+or\b", _I)


# What only the talk around it completes: what the person saw ("saw both in the codebase"),
# a question's example ("should we move the streak math to the backend? like make the
# server the source of truth"), where an answer applies ("yeah anywhere we print a time")
_FRAGMENT = re.compile(
    r"^(?:saw|noticed|spotted|found|tried|checked|looked at)\s+(?:it|this|that|both|them|"
    r"one|some|a|an|the)\b|"
    r"^like,?\s+(?:make|use|do|add|have|put|move|just)\b|"
    r"^(?:\W*(?:yeah|yep|yes|ok(?:ay)?|right),?\s+)?(?:anywhere|everywhere|wherever) "
    r"(?:we|i|it|they)\b[^,;:]*$",
    _I,
)


@lru_cache(maxsize=1024)
def not_a_statement(sentence: str) -> str | None:
    """Why `sentence` is not something to keep, or None."""
    body = sentence.strip()
    if wrong := lead_ins.WRONG_ONE.match(body):
        return not_a_statement(body[wrong.end() :])
    if body.startswith("“…”"):
        return "someone else's view"  # what it says is of a quotation left out (pasted.py)
    if ON_TRIAL.match(body):
        return "not decided"
    if habit := habit_when(body):
        # what the condition names ("if a test is flaky") is no fault of the moment
        return not_a_statement(body[habit.start("main") :])
    whenever = bool(WHENEVER_YOU.match(body))
    if (
        body.endswith("?")
        or _OR_ASKED.search(body)  # the question goes on with its other choice
        or not whenever
        and (QUESTION.match(body) or ASKED.search(body) or _EXPLAIN.match(body))
    ):
        return "a question"
    if markers.LIVES_WITH.search(body):
        return None  # what the person lives with, whatever the fault beside it
    # irony reads the quotes themselves; "AUC alone says nothing about calibration" tells
    # what a thing shows, no one's view
    mentioned = DISMISSED.sub(" ", _SHOWS.sub(r"shows \1", _gates_as_rules(unquoted(body))))
    corrects = bool(CORRECTS_A_VALUE.search(body) or _MOVED.search(body))
    for why, rule in (
        ("a condition or a hedge", None if whenever else HEDGE),
        ("said for the task at hand", TRANSIENT),
        ("said for the task at hand", None if markers.GENERAL.search(body) else _REPORT_BACK),
        ("an apology", APOLOGY),
        ("taken back", CANCEL),
        ("taken back", DROPPED),
        ("sarcasm", SARCASM),
        ("a reminder", REMINDER),
        ("the next piece of work", NEXT_WORK),
        ("a thought left unfinished", TRAILS_OFF),
        ("thinking aloud", None if corrects else THINKING),
        ("venting", VENTING),
        ("a belief in question", BELIEVED),
        ("someone else's view", None if whenever else REPORTED),
        ("someone else's view", DISTANCED),
        ("not decided", UNDECIDED),
        ("not decided", DEFERRED),
        ("a past event", None if corrects else PAST),
        ("a past event", None if corrects else TOLD_AS_PAST),
        ("how things are at the moment", None if corrects else _STATUS_OUTSIDE_UNLESS),
        ("what is wrong now", WRONG_NOW),
        ("what is wrong now", MISBEHAVES),
        ("what is wrong now", FAULT),
        ("what is wrong now", WRONG_WAY),
        ("what is wrong now", DIAGNOSED),
        ("a past event", None if corrects else LOOKED_BACK),
        ("an answer to the agent", ANSWER),
        ("said for the task at hand", AT_HAND),
        ("a reaction to what is at hand", TASTE_FOR_THIS),
        ("a reaction to what is at hand", REACTED),
        ("a reaction to what is at hand", LIKED_AT_HAND),
        ("what the last message meant", MEANT),
        ("what the person does not know", SELF_REPORT),
        ("two options weighed", WEIGHED),
        ("a fragment of the talk", _FRAGMENT),
    ):
        if rule is not None and (
            ironic(_CODE.sub("`…`", body)) if rule is SARCASM else rule.search(mentioned)
        ):
            return why
    return None


_CODE = re.compile(r"`[^`\n]*`")


class _OutsideUnless:
    """STATUS read outside an "unless …" clause: "skip the docstrings unless a function is
    doing something non-obvious" names a case, not how things are now."""

    _UNLESS = re.compile(r"\b(?:unless|except (?:when|if)|whenever)\b[^,;.]*", _I)

    def search(self, text: str) -> re.Match[str] | None:
        return STATUS.search(self._UNLESS.sub(" ", text))


_STATUS_OUTSIDE_UNLESS = _OutsideUnless()
# A request and what to report of it: "deploy the build to staging and tell me the URL" was
# proposed as the person's, and put to them at the next start as something they said.
_REPORT_BACK = re.compile(
    r"\band (?:then )?(?:tell|show|give|send) me (?:the|what|when|where|which|how|if|whether)\b",
    _I,
)


def tells_a_fault(text: str) -> bool:
    """Whether `text` tells what is wrong now, whatever else it reads as first."""
    return any(p.search(text) for p in (WRONG_NOW, MISBEHAVES, FAULT, WRONG_WAY, DIAGNOSED))


def unquoted(text: str) -> str:
    """`text` without what it quotes: a word in quotes is mentioned, not used ("when I say
    'tonight' that's PT" is said for good; "drafts get the label 'not yet'" is a rule)."""
    return pasted.QUOTED.sub("“…”", text)


def for_the_task_at_hand(text: str) -> bool:
    return bool(TRANSIENT.search(_gates_as_rules(unquoted(text))))


def _gates_as_rules(text: str) -> str:
    return _GATED.sub(lambda m: m[0].removesuffix("until") + "before", text)


# what may never happen before a condition holds is a rule, not a plan: "nothing gets retired
# until the python output diffs clean" ("nothing merges until next week" is for now)
_GATED = re.compile(
    r"\b(?:nothing|never|nobody|no one)\s(?:[\w'-]+\s){0,5}?until(?=\s(?:the|we|i|it|they)\b)"
    r"(?!\s(?:the end of|the (?:next|weekend|holidays?|release|launch|demo)\b))",
    re.IGNORECASE,
)
