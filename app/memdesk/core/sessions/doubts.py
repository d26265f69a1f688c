"""Signs that a statement heard at session end may not last, in the words it was read from:
a story of the past ("back then", "before I joined", "last year"), what happens to the person
now or each time they try ("right now", "so far", "every time I hit play"), a hedge
("maybe", "probably"), a complaint ("ugh", "ruins my afternoon"), a measurement ("1.9ms",
"dropped from 342 to 12"), a story told in the past ("nobody wrote down what he did"), where
a thing is for now ("the job is in the dev workspace now"), an ask for this task ("I want a
sharpen filter next"), words that point back to what was said before ("she signs off on
it"); and, anywhere in the message, another's view the person keeps at a distance ("that's
his view", "I don't share it"). Such a statement is the person's to confirm: proposed, not
stored.

Rules tuned on the sentences they came from read 0.95 precision there and 0.70-0.78 on
sessions they never saw, where some of what they stored wrongly bore one of these signs
(docs/benchmarks.md, stop 53).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memdesk.core.sessions import markers, pasted

_I = re.IGNORECASE
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MONTH = r"january|february|march|april|may|june|july|august|september|october|november|december"
# "the user" stands for "I" in a finding's words (third_person.person)
_PAST = (
    # (what holds since then is how it is now: "on backblaze b2 since last spring")
    r"back then|used to|(?<!the )(?<!since )last (?:year|month|week|time|quarter|sprint|release|"
    r"summer|winter|spring|autumn|fall)|in (?:19|20)\d\d|\w+ ago|yesterday|"
    r"before (?:i|we|they|the user) (?:joined|moved|switched|started)|"
    # what was before what is: "before Keycloak we ran a CAS server"; a time told first:
    # "last black friday the webhook went down"
    r"^last (?:[a-z]+ ){1,2}(?:we|i|the|it|our|they|everything)\b|"
    r"^before,? (?:\S+ ){0,3}?(?:we|i|they) (?:ran|used|had|were|was|kept|hosted)|"
    rf"when (?:i|the user) was|when they were|until (?:last|recently|{_MONTH})|"
    r"(?:the|my|our) (?:last|previous|old|first) (?:job|project|company|team|version|attempt|"
    r"employer|gig)"
)
_NOW = (
    r"right now|at the moment|currently|this (?:week|morning|afternoon|evening|sprint)|"
    r"after lunch|tonight|so far|(?<!just for )today|still|"
    # an occasion on a day ("the board demo is thursday"), not a window kept each week
    # ("… is tuesday 22:00–02:00", "sessions are Tuesday and Thursday evenings")
    rf"(?:is|'s|are) (?:on )?(?:this |next )?{_DAY}\b"
    rf"(?!\s*(?:\d|(?:and|or|to|through|[-–])\s*{_DAY}|(?:morning|afternoon|evening|night)s\b))"
    r"(?!.*\b(?:every|each|always|never)\b)|"
    # how far a change has come ("half migrated to v3"): so today, not next week
    r"(?:half(?:way)?|partly|partially|mostly)[- ](?:migrated|done|finished|converted|ported|"
    r"moved|through|written|implemented|updated|upgraded|wired|merged|deployed|rolled out)"
)
# What a run showed ("the sim loads the map fine but the pin sits in the sea"), unless a rule
# is said beside it ("we always run the api on 8081; the frontend works fine on 3000")
_RAN_FINE = re.compile(
    r"^(?!.*\b(?:always|never|every\w*|whenever|any\w*)\b).*"
    r"\b(?:loads|works|runs|renders|builds|boots|passes|starts|compiles)(?: \w+){0,2} "
    r"(?:fine|ok|okay)\b",
    _I,
)
_SUPPOSED = (
    # ("if you ever change how we hit that server, tell #apt-ops": a standing ask, not a guess)
    r"would mean|one day|someday|(?:i|the user) hopes?|they hope|if (?!(?:you|u) ever\b)\w+ ever|"
    r"should anyone|"
    r"would (?:need|force|require|have to|break)|on the roadmap|"
    r"next (?:month|quarter|sprint|year|week)|"
    # what the person would have done: a verdict on the work shown ("exactly how I'd have
    # done it"), not what they do
    r"(?:would|could|might)(?:n't| not)? have (?!to\b)\w+|(?:would|could|might)'ve|"
    r"(?:i|we|they|the user)'d have (?!to\b)\w+"
)
_VENTED = (
    r"ugh|argh|why does|why is|seriously|sigh|wtf|ffs|drives me|ruins?|ruined|"
    r"every (?:single )?time (?:i|the user|they|something|it)|can(?:no|')t work like this|"
    r"happens (?:always|every time)|always happens"
)
# a verdict on what is in front of us, and nothing more: "So the rule is too open." (not "…
# on perf-03, laptops are too noisy", a rule and its reason)
_JUDGED = re.compile(
    r"^(?:so,? )?(?:the |this |that |its? |our |your )?(?:[\w-]+ ){0,2}(?:is|are|was|were|'s) "
    r"(?:way |much |far |a bit |slightly |still )?too (?!many\b|much\b)\w+[.!]?$",
    _I,
)
_HEDGED = (
    r"maybe|probably|might|perhaps|not sure|i guess|i suppose|i wonder|"
    r"(?:never|not) (?:been |really |quite |entirely )*sure|yet"
)
_IN_WORDS = re.compile(
    # ("dropped from 40 to 12" is a change seen; "dropped from every report" is a rule)
    rf"\b(?:{_PAST}|{_NOW}|{_VENTED}|{_HEDGED}|{_SUPPOSED}|(?:dropped|went) from(?= ~?\d))\b",
    _I,
)
# "…, and we settled that months ago": how long a rule has held, no story
_SETTLED = re.compile(
    r"\b(?:we|they|the team|i|the user)\s+(?:settled|decided|agreed|standardi[sz]ed)"
    r"(?:\s+on)?\s+(?:that|this|it)\s+(?:\w+\s+)?ago\b",
    _I,
)
# what a mechanism does with whatever is not done yet: "migrate.py applies whatever hasn't run
# yet" (nothing of the moment)
_NOT_YET_OF_ANY = re.compile(
    r"\b(?:whatever|anything|everything|what|any [\w-]+) (?:that |which )?(?:hasn't|haven't|"
    r"isn't|aren't) (?:[\w-]+ ){0,2}?yet\b",
    _I,
)
_SUBJECT = (
    # ("the user's predecessor": "my" as a finding says it)
    r"(?:(?:the|a|an|our|my|his|her|their|the user's)\s+\w+"
    r"(?:\s+(?!(?:is|are|was|were|be|been|gets?)\b)\w+)?|"
    r"we|i|he|she|they|nobody|someone|somebody|everyone|everybody|the user)"
)
_ADVERB = r"(?:\w+ly\s+|always\s+|never\s+|ever\s+|just\s+|once\s+|even\s+|all\s+|only\s+)?"
_DID = (
    r"(?:was|were|did|had|wrote|spent|held|happened|meant|got|went|came|made|broke|fixed|"
    r"shipped|tried|thought|said|told|ran|found|lost|saw|forgot|left|kept|built|began|started|"
    r"ended|caused|crashed|failed|worked|needed|wanted|asked|added|removed|reverted|rewrote)"
)
# What happened, told as such: the statement's own verb in the past. A change that holds
# ("Dmitri took over as lead", "we moved to Argo") is not among these verbs, or is _ON_PURPOSE.
_TOLD_PAST = re.compile(
    rf"^(?:(?:on|in|at|during) (?:the|my|our) \w+ \w+,? )?{_SUBJECT}\s+{_ADVERB}{_DID}\b|"
    rf"^[^—(]*?\b(?:we|i|he|she|they|nobody|somebody|someone|the user)\s+{_ADVERB}"
    r"(?:had|wanted|asked|meant|spent|wrote|did|got|tried)\b",
    _I,
)
# "the job is in the dev workspace now": where things stand, unless it replaced something
# ("we format with Biome now, not Prettier")
_FOR_NOW = re.compile(
    # (nor against what is retired: "docclf-v2 now, docclf is the archived one", "v1 is dead")
    r"^(?!.*\b(?:not|instead|no longer|any ?more|gone|rather than|replaced|dead|archived|"
    r"deprecated|retired|dropped|ditched|the old one)\b).*"
    # (not a compound: "the now-playing info")
    r"(?<!from )(?<!-)\bnow\b(?! on\b)(?!-)",
    _I,
)
# The state of the work at this moment ("the accord table is in, 212 imported so far",
# "'Hesketh' is out of traffic at present", "live still shows the old one until Monday"):
# a report that will not hold next week
_AT_THE_MOMENT = re.compile(
    r"\b(?:at present|at the moment|currently|for the time being|so far|"
    r"since (?:lunch|this morning|yesterday|last night|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|"
    r"(?:till|until) (?:noon|tonight|tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"next week|the end of the (?:day|week|month))|this (?:fortnight|week|sprint)|"
    r"while (?:we|they|i|it|\w+) (?:test|prepare|finish|wait|fix|migrate|upgrade|rebuild|"
    r"move|sort out)\w*)\b",
    _I,
)
# What stays so only until something happens ("DEs are still on paper until Sofia types them
# in", "live still shows the old one until Monday"): the message reports where the work stands
_STILL_UNTIL = re.compile(r"\bstill\b[^.;!?]{0,50}\b(?:until|till)\b", _I)
# "I want a sharpen filter next": a thing asked for, with nothing said of always
_ASKED_FOR = re.compile(
    r"^(?!.*\b(?:always|never|any|anything|everything|whenever|every time|in general|"
    r"everywhere|how (?:i|we|they|the user) (?:work|works|roll|rolls|do things))\b).*"
    # (not a reason: "…, because I want to see where every name comes from")
    r"(?<!\bbecause )(?<!\bsince )(?<!\bcos )(?<!\bas )"
    r"\b(?:i|we|they|the user)\s+(?:needs?|wants?)\s+(?:a|an|some|to (?:add|fix|make|build|create|"
    r"move|run|try|see|get|deploy|merge|update|rename|test|finish|ship|migrate|upgrade|install|"
    r"debug))\s",
    _I,
)
# "she signs off on numerical changes": who she is was said before, and is lost
_POINTS_BACK = re.compile(
    r"^(?:he|she|he's|she's|that's|this is|that is|it's|it is|they're|those|these|that|this|it|"
    rf"they|him|her)\b(?!\s+one\s*:)(?!{markers.POINTS_AHEAD})"
    r"(?!\s+(?:repo|repository|project|codebase|app|service|crate|"
    r"package|module|team|monorepo|workspace|library)\b)",
    _I,
)
# "plan for tomorrow: 1) merge … 2) reseal the secrets once Priya's around 3) …": every step
# of a plan is this week's work (44 such messages in the bench, none durable)
_PLANNED = re.compile(
    r"^\W*(?:(?:my|the|our|tomorrow's|today's) )?(?:plan|todo|to-?do|to do|next steps?|agenda|"
    r"checklist|game plan)(?: list)?(?: for (?:today|tomorrow|tmrw|tmr|tonight|later|this \w+|"
    r"next \w+|the (?:rest of the )?(?:day|week|afternoon|morning)|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day))?\s*:",
    _I,
)
# "I see it always done in tutorials": what the person sees done, not what they do
# (opening the statement: "… and the user noticed you pasted …" backs a rule said first)
_SEEN = re.compile(
    r"^[^,;:—]{0,40}?\bthe user (?:sees|saw|notices|noticed|keeps seeing|has seen)\b", _I
)
# "Nobody produces to it", "We don't have one": a few words whose thing was said before
_ENDS_POINTING_BACK = re.compile(r"^\W*(?:\S+\s+){0,5}?(?:it|them|ones?|that|those|there)\W*$", _I)
# "better than I expected", "I didn't know it had that": a reaction to what was just shown
_SURPRISED = re.compile(
    r"\bthan (?:how )?(?:the user|they|i|we) (?:expected|remembered|thought|imagined|feared)\b|"
    r"\b(?:would|'d) never have thought\b|\b(?:didn't|did not) know\b|\bdry[- ]run\b",
    _I,
)
# "Use MPI_Cart_shift instead of computing the neighbours by hand": a step of this task, with
# nothing saying it holds beyond it
_BEYOND_THE_TASK = re.compile(
    r"\b(?:always|never|every\w*|any\w*|whatever|wherever|ever|from now on|in general|"
    r"by default|please|pls|here|in (?:this|our|every) \w+|not|your|rule|like|people|"
    r"everyone|everybody|nobody|our|budget|limit)\b",
    _I,
)
_OF_THIS_TASK = re.compile(r"\b(?:the|this|that|them|it|its|these|those)\b|\binstead$", _I)
_MEASURED = re.compile(r"\d(?:\.\d+)?\s?(?:ms|%)(?!\w)")
# A figure that bounds what is done is a rule ("our frame budget is 16.6 ms", "canaries start
# at 5%"), not a run's result.
_BOUND = re.compile(
    r"\b(?:budget|target|slo|sla|limit|timeout|under|at most|minimum|maximum|gate|threshold|"
    r"must|always|never|every|per|start|p\d\d)\b",
    _I,
)
_KEPT_APART = re.compile(
    r"\b(?:reckons|insists|adamant|of the opinion|maintains that|keeps (?:pushing|saying|"
    r"telling)|is convinced|swears by|(?:his|her|their) (?:view|point|preference|thing|call|"
    r"opinion|take|house style|way|idea|approach)|i (?:don't|do not) (?:share|agree|buy)|"
    r"doesn't mean|not convinced|(?:i'm|i am) not (?:there|sold|convinced) yet|"
    r"i think it depends)\b",
    _I,
)
# What the work must do because of what was just said ("… is one day per kilo, rounded up. So
# the due date calc should be ceil(weight_kg) days"): the task's consequence, told with a
# rule's words; what it follows from is the statement.
_CONSEQUENCE = re.compile(
    r"^(?:(?:ok(?:ay)?|and|then),?\s+)?so,?\s+(?:the|this|that|these|those|it|its|my|your)\b"
    r"(?:\s+[\w'./:()-]+){0,5}?\s+(?:should|must|needs? to|has to|have to|ought to)\b",
    _I,
)
# Said as a rule on purpose, or a change that holds ("our metrics moved to Prometheus last
# month"): no sign beside it makes it the person's to confirm.
_ON_PURPOSE = re.compile(
    r"\b(?:from now on|going forward|as a rule|for the record|for next time|keep in mind|"
    r"remember|in general|"
    # said to last: "the board settled that ages ago and it's not changing"
    r"(?:it|that|this)(?:'s| is) not (?:going to |gonna )?chang(?:e|ing)|"
    r"(?:it|that|this) (?:won'?t|will not|isn'?t going to|is not going to) change|"
    r"(?<!half )(?<!half-)(?<!halfway )(?<!partly )(?<!partially )(?<!mostly )"
    r"(?:moved|switched|migrated|changed|upgraded) (?:over )?to)\b",
    _I,
)


# A file the person hands over for the task ("the csv is in ~/Downloads/wk_sales.csv"):
# where it sits today, not where things are kept
_HANDED_OVER = re.compile(
    r"(?:~|/home/[\w.-]+|/Users/[\w.-]+)/(?:Downloads|Desktop)/|(?<![\w/.~])/tmp/", re.I
)


def doubtful(content: str, sentence: str, message_prose: str) -> bool:
    """Whether a finding's words (`content`, read from `sentence` of a message whose prose is
    `message_prose`) bear a sign that what they state may not last."""
    if _ON_PURPOSE.search(sentence) or markers.LIVES_WITH.search(sentence):
        return False  # what the person lives with lasts, said in whatever words
    # (a name in quotes counts as words here: "the 'Matchmaker' one" says which)
    pointing_back = _ENDS_POINTING_BACK.search(content)
    content = pasted.QUOTED.sub("", content)  # "drafts get the label 'not yet'" is a rule
    content = _after_the_switch(content)
    return bool(
        pointing_back
        or _follows_from_before(sentence, message_prose)
        or _AT_THE_MOMENT.search(sentence)
        or _STILL_UNTIL.search(message_prose)
        or _IN_WORDS.search(_SETTLED.sub("", _NOT_YET_OF_ANY.sub("", content)))
        or any(
            sign.search(content)
            for sign in (
                _TOLD_PAST,
                _ASKED_FOR,
                _POINTS_BACK,
                _SEEN,
                _SURPRISED,
                _JUDGED,
                _RAN_FINE,
            )
        )
        # ("everything goes through luxon now", after "we dropped moment"): the new way
        or _FOR_NOW.search(content)
        and not markers.SWITCHED.search(sentence)
        or _MEASURED.search(content)
        and not _BOUND.search(content)
        or _KEPT_APART.search(message_prose)
        or _PLANNED.match(message_prose)
        or _HANDED_OVER.search(content)
    )


def _after_the_switch(content: str) -> str:
    """What `content` says holds since a switch it tells before ("we dropped moment last
    year, everything goes through luxon now", "… and it's dayjs now") or after ("payments go
    through Adyen, we migrated off Stripe in 2023"): when the switch was is no doubt on what
    holds."""
    switch = markers.SWITCHED.search(content)
    if switch is None:
        return content
    if (before := content.rfind(", ", 0, switch.start())) > 0:
        return content[:before]
    joined = _JOINED.search(content, switch.end())
    return content[joined.end() :] if joined else content


_JOINED = re.compile(r",|\band\b")


def made_so_now(sentence: str, message_prose: str) -> bool:
    """Whether the message goes on to ask that what `sentence` says be made so now ("subject
    line should be 'Reminder: …' instead of the one with the emoji. swap it pls"): a change to
    the work at hand, which may or may not hold beyond it."""
    said = sentence.strip()[-60:]
    return any(_THEN_MAKE_IT_SO.match(message_prose, end) for end in _ends_of(said, message_prose))


# A short ask after a statement, to put it in place of what is there: "swap it pls", "change
# that." (Not "fix it": after a rule the work broke, the rule stands: "every migration here
# needs a working down function, CI runs rollback then latest. fix it")
_MAKE_IT_SO = re.compile(
    r"(?:(?:ok|so|now|then|and|just)\s+)?(?:pls\s+|please\s+)?(?:swap|change|replace|rename|"
    r"switch|flip)\s+(?:it|that|this|them|those)"
    r"(?:\s+(?:over|around|back|out|in|now|please|pls|plz|thx|thanks)){0,3}\s*[.!]*\s*$"
)
_THEN_MAKE_IT_SO = re.compile(r"[.!]*\s*" + _MAKE_IT_SO.pattern, _I)


def _follows_from_before(sentence: str, message_prose: str) -> bool:
    said = sentence.strip()
    if _CONSEQUENCE.match(said):
        return True
    # the "so" is read as a lead-in and left out of the sentence a finding keeps
    for start in _starts_of(said[:60], message_prose):
        if told := _SO_BEFORE.search(message_prose, 0, start):
            return bool(_CONSEQUENCE.match(told[1] + said))
    return False


# Where `part` is found in `text` (case aside), each place. Not a regex made of the sentence:
# compiled anew for each one, Python's cache of 512 overflowed, and a 1,000-message transcript
# of an agent's took 5.6 s to read.
def _starts_of(part: str, text: str) -> Iterator[int]:
    within, wanted = text.lower(), part.lower()
    if len(within) != len(text):  # a letter whose lower case is longer ("İ"): read as is
        within, wanted = text, part
    start = within.find(wanted)
    while start >= 0:
        yield start
        start = within.find(wanted, start + 1)


def _ends_of(part: str, text: str) -> Iterator[int]:
    return (start + len(part) for start in _starts_of(part, text))


_SO_BEFORE = re.compile(r"(?:^|[.!?]\s+)((?:\w+,?\s+)?so,?\s+)\Z", _I)


def for_this_task(pattern: str, content: str) -> bool:
    """Whether a "use …" or "keep …" heard by the table is said of something of this task
    ("for the date label", "out of it") and says nothing of beyond it; whatever is said of a
    branch of one piece of work ("push to my branch fix/resend-dupes, not main"); or where a
    thing is, told to point at the change asked right after it ("chart's in deploy/helm, bump
    the image tag")."""
    return (
        (
            pattern in ("use", "keep")
            and bool(_OF_THIS_TASK.search(content))
            and not _BEYOND_THE_TASK.search(content)
            and not markers.PINNED.search(content)  # "keep node pinned at 18.19, …"
        )
        or bool(_TOPIC_BRANCH.search(content) and not _FOR_EVERY_BRANCH.search(content))
        or pattern == "placement"
        and bool(_ASKED_THERE.match(content.partition(", ")[2]))
    )


# what is asked right after where a thing is: "chart's in deploy/helm/recon-service, bump
# the image tag" points the way for this change
_ASKED_THERE = re.compile(
    r"(?:just |pls |please )?(?:bump|make sure|add|update|fix|change|wire|hook|edit|move|"
    r"rename|grab|copy|pull|drop|tweak)\b",
    _I,
)


_FOR_EVERY_BRANCH = re.compile(
    r"\b(?:always|never|every\w*|any\w*|whatever|from now on|in general|by default|rule|"
    r"convention|named?|naming|prefix\w*)\b",
    _I,
)
_TOPIC_BRANCH = re.compile(
    r"\b(?:fix|feat|feature|bugfix|hotfix|chore|refactor|wip|spike)/[\w.-]+", re.IGNORECASE
)


# The table's patterns that hear a plain statement of a thing: what holds of it as often as
# what happens to it now ("Top alloc is in the coupon cache", "The drum loop is in").
_PLAIN_STATEMENTS = ("placement", "rule", "use", "contrast", "clause", "no_ever", "we_always")


def untied(pattern: str, content: str, sentence: str) -> bool:
    """Whether a plain statement has nothing tying it to how things stay: no one's habit or
    team, no "always", "every" or "only", no value, no person; the person confirms it."""
    return (
        pattern in _PLAIN_STATEMENTS
        and not any(
            marker.search(text)
            for text in (content, sentence)
            for marker in (markers.ANCHORED, markers.GENERAL, markers.VALUE, _NUMBER)
        )
        and not (markers.PEOPLE.match(content) or markers.HANDLED_BY.search(content))
    )


# a figure, or a polite imperative ("please use pnpm for installs"): asked as a rule
_NUMBER = re.compile(r"\d|\bplease\b", re.IGNORECASE)
