"""What is wrong now, told to have it looked at: a bug report, a run's outcome, a remark on
the work at hand, however often the fault shows. Said of how a thing behaves, "always" and
"every" are how often it goes wrong, not a rule (`core/sessions/heard.py` asks these)."""

from __future__ import annotations

import re

_I = re.IGNORECASE

# The person's own setup, and what fails for them because of it ("I'm on fish, so the export
# FOO=bar stuff doesn't work for me"): it says what they use, not what is broken.
_MY_SETUP = (
    r"(?:i'?m|im|i am) on (?!(?:it|that|this|a|an|the|my|holiday|vacation|leave|call)\b)|"
    r"my (?:shell|os|editor|machine|laptop) is"
)
# What is wrong now, told to have it looked at ("The export button does nothing on Safari",
# "the sensor task stops logging after 6 hours"), a run's outcome ("412 passed, 1 failed"), and
# a remark on the work at hand ("you moved parse_args but foo still imports it", "I like the
# approach but …"). Not a rule that holds whenever it applies ("CI fails on any warning").
WRONG_NOW = re.compile(
    rf"^(?!.*\b(?:{_MY_SETUP}|always|never|ever(?! since)|every|each|any|whenever|must|should|"
    r"from now on|going forward|"
    r"nothing (?:newer|older|else)|pinned|(?:i|we)(?:'d| would) rather|"
    r"for the record|fyi|for future reference|keep in mind|note that|remember|"
    r"so (?:a single|one single|any single|any one) [\w-]+)\b)"
    # (not the noun: "no full stops", "the bus stops table")
    r".*(?:\b(?:(?<!full )(?<!bus )(?<!tab )(?<!pit )stops|stopped|freezes|froze|jumps|"
    r"crashes|crashed|hangs|hung|breaks(?! with\b)|"
    r"broke|fails(?! (?:if|when|unless|on)\b)|segfaults?|panics|deadlocks|times out|timed out|"
    r"flakes (?:on|in|out|again|sometimes|constantly|randomly|every|a lot)|spikes|stutters|"
    r"drifts|overwrites|falls through|does nothing|nothing happens|"
    r"(?:is|are)n't working|(?:is|are) not working|show(?:s)? up as|busted|inverted|garbled|"
    r"garbage|corrupted|truncated|flakiness|mismatch|silently|segfault|off by (?:one|"
    r"exactly|\d))\b|\bdoesn'?t (?:work|load|render|show|fire|save|update|reset|start|build|"
    r"compile|respond)\b|\b(?:is|are) (?:still |so |really )?flaky\b|"
    r"\b(?:is|are) (?:\w+ )?(?:blank|unresponsive)\b|"
    r"\bno (?:error|errors|warning|warnings|request|output|response|logs?|conflict warning)\b|"
    r"\b\d+ (?:passed|failed|skipped|errors|warnings)\b|"
    r"\b(?:passes|passed|builds|built) (?:now|locally|fine)\b|"
    r"\b(?:plan|output|log|trace|profile|snapshot|explain|profiler) shows\b|"
    r"\bnow instead of\b|\binstead of ~?\d|"
    r"^(?:the )?(?:failing|flaky|broken|slow|offending|culprit) (?:one|test|case|step|file|line|"
    r"call|query|request|job)|\b(?:errors?|failures?|warnings?|crashes) (?:come|comes|came) "
    r"from\b|(?:^|\bbut\s+|[,—-]\s*)you (?:wrote|added|moved|changed|made|removed|renamed|"
    r"put|created|generated)\b|\b(?:the|this|that|your) [\w-]+ you (?:just )?(?:wrote|added|"
    r"made|generated|created|changed)\b|(?:jump|bounce)s? around|\bfreeze\b|\bstutter\b|"
    r"\b[45]\d\ds\b|^(?:getting|seeing|hitting|got)\b|"
    # (not what is asked after a rule: "…, so once it's fixed grab me screenshots")
    r"(?<!\bso once )(?<!\bso when )(?<!\bso after )"
    r"\bit'?s (?:pushed|merged|deployed|live|up|green|red|fixed)\b|"
    # (not where it is: "it's in eu-west-2")
    r"\bit'?s in(?=\s*(?:[.,;:!?)]|$|now\b|already\b|and\b))|"
    r"\bi (?:like|love) (?:the|this|that|your) (?:approach|idea|change|fix|diff|refactor|"
    r"direction|solution|plan|version|design|naming|layout)\b|"
    r"\bi (?:hate|love) [\w ]{1,30} so much\b|"
    r"^(?:great|nice|good|cool|solid|thanks)(?: \w+){0,2},? but\b|"
    # what the agent's code does, told to it: "but you copy the whole repo before pip install"
    r"(?:^|[,;]\s*|\bbut\s+)you (?!always|never|should|must|can|need|have to|may|might|will|"
    r"don't|do not|'ll|'re|are|were|get|reach|access|find|need|log|ssh)[a-z]+s?\b"
    r"(?= (?:the|a|an|it|them|this|that|every|each|all)\b)|"
    # behaviour seen now and then, how long something takes now
    r"\b(?:randomly|intermittently|once in a while|out of nowhere|for some (?:users|people|"
    # (not one wanted or any one: "if you need a weird header, build it", "any weird rate")
    r"reason))\b|(?<!need a )(?<!want a )(?<!any )\b(?:weird|suspicious|strange|bizarre|wtf)\b|"
    # what a thing does now and then: "the sorter feed sometimes sends the code lowercase"
    r"\b(?:the|this|that|our|their|its) [\w./ -]{1,40}?\bsometimes (?:\w+ly )?\w+s\b|"
    # what was tried just now, and a reviewer's remark on the code at hand
    r"^(?:tried|ran|reproduced)\b|\bi (?:tried|reproduced|ran|checked|verified|tested)\b|"
    r"\brepro(?:duced|s)?\b|"
    r"^(?:careful,? (?:that|this|these|those|you|here|there)|looks good|lgtm|nit(?:pick)?)\b|"
    r"(?:^|[,—-]\s*)you'?re \w+ing\b|"
    r"\b(?:doesn't|does not|don't|do not) actually\b|"
    # where a diagnosis points: "…, so it's the rendering side"
    r"\bso it'?s (?:the|a|on the|in the) [\w -]{0,20}?(?:side|end|part|layer|problem|issue|bug|"
    r"culprit)\b|"
    r"\btakes? (?:about |around |~)?\d+(?:\.\d+)? ?(?:s|ms|secs?|seconds|mins?|minutes)\b)",
    _I,
)

# What a thing does wrong, however often it does it ("the date picker closes on every
# keystroke", "htmx always replaces the whole page instead of the errors div", "the window
# opens then immediately closes"): "always" and "every" tell how often the bug shows, not a
# rule. A rule says so (must, should, make sure) or is the team's ("our worker restarts …").
_ACTS = (
    r"opens|closes|resets|reloads|replaces|drops|jumps|re-?renders|refreshes|redirects|"
    r"disappears|vanishes|flickers|duplicates|doubles|wipes|clears|loses|skips|ignores|"
    r"reconnects|restarts|scrolls|blinks|spins|loops|pops up|shows up|submits|fires|"
    r"triggers|deletes|overwrites|truncates|rounds|returns|renders|prints|sends|shows|"
    r"emits|logs (?:me|you|us|them|users?) out|kicks (?:me|you|us|them|users?) out|"
    r"cuts? off|crops|clips|overlaps|misaligns"
)
# what only a fault does, so "whenever" tells when it shows ("sound cuts out whenever …")
_FAULTS = (
    r"goes (?:up|down)|grows|climbs|creeps up|balloons|leaks|spikes|lags|cuts out|dies|"
    r"crashes|segfaults|errors out|times out|jumps? to|spikes? to|drops? to|resets? to|allocates"
)
_HOW_IT_SHOWS = (
    r"\bevery time (?:i|you|someone|somebody|the user|a user)\b|"
    r"\b(?:on|after) (?:every|each) (?:keystroke|key ?press|click|tap|render|save|reload|"
    r"refresh|scroll|resize|frame|navigation|login|page ?load)\b|\binstead of\b|"
    r"\bthen (?:immediately |instantly |just )?\w+s\b|\bonly (?:in|on) \w+|"
    r"\b(?:in|on) (?!(?:prod|production|staging|ci|main)\b)[\w ]{1,20} only\b|"
    r"\bon (?:my|his|her|their) (?:laptop|machine|phone|device|box|mac|pc|desktop)\b"
)
MISBEHAVES = re.compile(
    r"^(?!.*\b(?:we|our|us|must|should|need to|needs to|make sure|by design|on purpose|"
    r"intended|intentionally|expected|unless|so (?:always|never|don't|do not|no|nothing))\b)"
    r"(?!(?:please|always|never|just|only|don't|do not)\b)"
    r".*?(?<=\w )(?:always |just |then |immediately |instantly |still |also )*"
    rf"(?:(?:{_ACTS})\b[^.;]{{0,80}}?(?:{_HOW_IT_SHOWS})|"
    rf"(?:{_FAULTS})\b[^.;]{{0,80}}?(?:{_HOW_IT_SHOWS}|\bwhenever\b|\bevery (?:time|few|other|"
    r"\d+)\b|\b(?:randomly|sometimes|always)\b))",
    _I,
)

# A fault, in the words bug reports and reviews use: what fails, breaks, hangs, leaks, drops,
# comes out wrong, too low, upside down, twice; an HTTP error; nan. Said of how a thing
# behaves, "always" and "every" tell how often the fault shows ("uploads over 10mb always fail
# with 413"): only what makes it a rule keeps it ("must", "so keep …", "we …", "I always …").
_FAULT_WORDS = (
    # (not a kind of test: "always write a failing test first")
    r"fail|fails|failed|(?<!\ba )failing|break|breaks|broke|broken|crash|crashes|crashed|hang|"
    r"hangs(?! off\b)|"
    # (not a pin: "a Raspberry Pi 4 stuck on python 3.11")
    r"freezes|stuck(?!\s+(?:on|at|with)\s+[a-z]+\s+v?\d)|flaps?|flapping|flickers?|"
    r"stutters?|lags?|janky|glitch\w*|"
    r"overshoots?|undershoots?|drifts?|leaks?|leaking|"
    # (not a delivery: "Navis drops the file into the bucket at 02:30")
    r"drops(?!\s+(?:the|a|an|its|their|our|each|every)\s+[\w.-]+\s+(?:into|in|onto|to)\b)|"
    r"dropped|dropping|loses|lost|skips|"
    r"skipped|ignores|ignored|misses|missed|duplicates?|duplicated|twice|rejects?|rejected|"
    r"declined|denied|refused|times out|timed out|hits? (?:a |the )?timeout|nan|inf|"
    r"undefined|exception|traceback|panics?|segfaults?|oom|out of memory|black screen|"
    r"blank|upside down|shifted|(?<!\bsigned )(?<!\bsign )(?<!\bsigns )off by|wrong|incorrect|"
    r"too (?:low|high|slow|big|small|long)|"
    # a figure that does not match: "subscriber counts are ~40 higher than what ops reports"
    r"(?:~|about |around |like )?\d[\d.,]*%?\s*(?:higher|lower|bigger|smaller|slower)\s+than\b|"
    r"\d+x too|overflows?|saturates?|corrupt\w*|garbage|garbled|truncate[sd]?|silently|"
    r"mangled|mangles|messed up|borked|wonky|"
    r"randomly|intermittent\w*|crawls|sawtooth|gaps|rubberbands?|loops? back|bounces|"
    # ("go with 480 for no-route": a pick of a status, not one that came back)
    r"(?:returns?|got|gets?|getting|(?<!\bgo )(?<!\bstick )with|throws?) (?:a |an )?[45]\d\d|"
    r"[45]\d\d(?:s| errors?)|"
    r"crashloopbackoff|"
    r"never (?:actually |really )?(?:sets|gets|clears|tightens|sticks|fires|runs|returns|closes|"
    r"finishes|completes|loads|saves|arrives|shows|updates|stops|ends|works|goes (?:down|up|"
    r"away)|comes back|recovers|shrinks|frees|releases|exits|asserts|checks|verifies|"
    r"validates|awaits)|never actually|"
    # tried, and no change: "lowered lr to 1e-5, still happens"
    r"still (?:happens|fails|crashes|hangs|broken)|same (?:error|result|problem)|"
    r"no difference|didn'?t help|did not help|"
    # the one that misbehaves among its peers: "every other box is instant"
    r"(?:every|all (?:the )?|the) other (?:[\w-]+ )?(?:box|boxes|machine|machines|host|hosts|node|"
    r"nodes|server|servers|device|devices|browser|browsers|one|ones|user|users|env|envs) "
    r"(?:is|are|works?|seems?|looks?) (?:fine|instant|ok|okay|normal|fast|quick|good)|"
    # a value stuck where it should move: "the readings are always exactly 0x7FFF"
    r"always (?:exactly |just )?(?:0x[0-9a-f]+|zero|null|nil|none|empty|nan|-1|0)|"
    r"only (?:checks|logs|says|covers|tests|handles|once)|works [\w ]{0,24}?(?:but|except)|"
    r"(?:runs|renders|loads|builds|compiles|works) (?:fine |ok |okay )?but|stopped \w+|"
    r"(?:goes|jumps|drops|spikes|climbs) (?:up |back |down )?to ~?\d+ ?%?|jumps back|snaps back|"
    r"even though|nothing (?:has )?changed|though\s*[.!]?$|"
    r"(?:doesn'?t|does not|isn'?t|aren'?t) (?:work|load|stick|connect|start|render|save|show|"
    r"fire|close|update|compile|build|run|finish)|(?:won'?t|can'?t|cannot) (?:connect|start|"
    r"render|save|load|compile|finish)"
)
_RULE_WORDS = (
    rf"{_MY_SETUP}|must|should|shall|make sure|please|need to|needs to|has to|by default|"
    # (not a workaround: "have to restart the api each time")
    r"have to (?!restart|reboot|rerun|retry|refresh|reload|clear|kill|re-?run)|"
    r"as a rule|from now on|going forward|for the record|fyi|note that|keep in mind|"
    # what a strict setting does to any one case: "maxIssues: 0 so a single warning breaks it"
    r"so (?:a single|one single|any single|any one) [\w-]+|"
    r"remember|rule|policy|convention|no exceptions|non-negotiable|(?:for|in) this (?:repo|"
    r"repository|project|codebase|crate)|so (?:keep|don't|do not|"
    r"always|never|use|avoid|make|add|run)|we|we're|our|us|i (?:always|never|prefer|like|"
    # a habit told with any verb: "i stick to %-style args, so the formatting is skipped"
    r"want|hate|stick (?:to|with)|tend to|go for|can't stand)|i'd rather|always use|never use|"
    r"don't use|owns?|owned by|maintains|is the|"
    r"are the|nothing (?:newer|older|else)|pinned|for good|by design|on purpose|expected|"
    # a rule told by what breaks: "CI fails on any warning", "unless there's a comment"
    r"any|anything|everything|anyone|if|unless|because|ever(?! since)|"
    # what breaks when a need is not met: "tests need --features headless or they hang"
    r"(?:need|needs|require|requires)\b[^,.;]{1,60}\bor (?:else )?(?:they|it|you|we)|"
    # a setting: "the staging db is configured to reject writes after 6pm"
    r"(?:configured|set up|designed|meant|supposed|built) to|"
    r"go(?:es)? to (?!(?:~|back|up|down)?\s*\d|(?:nan|inf|zero|null|none|garbage|0)\b)|"
    # a correction's opener: what follows is what is true
    r"that's (?:wrong|not right|incorrect)|that is (?:wrong|not right|incorrect)"
)
FAULT = re.compile(
    # ("-98 for refused": the name of an answer, not a fault)
    # (nor one way ruled out against another: "…, never dropped")
    rf"^(?!.*\b(?:{_RULE_WORDS})\b).*(?<!\bfor )(?<!, never )\b(?:{_FAULT_WORDS})\b"
    # (what is done with the ones that failed: "failed rows are always flagged")
    r"(?!\s+[\w-]+\s+(?:are|get|go|stay|must|should|always|never)\b)",
    _I,
)


# A fault told first, then what was expected: "the rounding in `convert()` goes the wrong way
# for negative amounts, -0.005 should come out as -0.01" (the "should" is the expectation).
WRONG_WAY = re.compile(
    r"^[^,;]{0,80}\b(?:goes|go|rounds?|sorts?|turns?|points?|runs?|scrolls?|rotates?|flips?|"
    r"counts?) the wrong way\b",
    _I,
)


# Why something failed just now: "the dim_store failure is because store 117 got reopened
# under a new key" explains this run, however lasting its words sound.
DIAGNOSED = re.compile(
    r"^(?:the |this |that |our )?(?:[\w./-]+ ){0,3}?(?:failure|error|crash|bug|breakage|"
    r"exception|timeout|flake|regression|mismatch|red build|500)s? (?:is|are|was|were|comes?|"
    r"came) (?:\w+ )?(?:because|due to|caused by|from)\b|"
    # where it is: "the soak bug is in step 4" (not "the timeout is in seconds")
    r"^(?:the |this |that |our )?(?:[\w./-]+ ){0,3}?(?:bug|crash|leak|breakage|regression|"
    r"culprit)s? (?:is|are|was|were) (?:\w+ )?(?:in|inside|at|on line)\b",
    _I,
)
