"""What is told of a moment rather than of how things stay: a story of the past, a remark on
what was just done, and how things are now ("the deploy is done, port 8080 is open now").
`heard.not_a_statement` reads a sentence with them."""

from __future__ import annotations

import re

_I = re.IGNORECASE
# A remark on what was done, and a belief looked back on: "you should never have removed
# that check", "I never thought CSS could make me cry".
LOOKED_BACK = re.compile(
    r"^(?!.*\b(?:do that again|from now on|going forward|in future|in the future|must|should|"
    r"please|(?:always|never) (?!\w+s\b)\w+)\b)(?:(?:in |on |for )?your (?!answers|replies|"
    r"explanations|responses|messages|commits|commit messages|prs|summaries|reviews|"
    r"code reviews)[\w-]+\b|"
    # (what the agent made, as what a clause is about: not "tell me the path you picked")
    r".*(?:^|[,;]\s*|\bbut\s+|\band\s+|\bin\s+)(?:the|this|that) [\w -]{1,30} you (?:just )?"
    r"(?:wrote|added|made|generated|created|"
    r"changed|drafted|pasted|built|gave|suggested|proposed|picked|chose|put|ran|used)\b)|"
    r"^(?!.*\b(?:do that again|from now on|going forward|in future|in the future)\b)"
    r"(?:.*(?:^|\bbut\s+|[,—-]\s*)you (?:wrote|added|moved|changed|made|removed|renamed|put|"
    r"created|generated|deleted|broke|swapped|used|forgot|missed|left|dropped|mixed up|reversed|"
    r"inverted|hardcoded|hard-coded|duplicated|skipped|introduced|copied|commented out)\b|"
    r".*\b(?:after|since|with) your (?:change|fix|commit|patch|pr|edit|refactor|update)\b)|"
    # what might have been: "I'd never have found that without the logs"
    r"\b(?:should|shouldn't|should not|could|couldn't|would|wouldn't|(?<=\w)'d)"
    r"(?: never| not| ever)? have (?:been )?"
    r"(?:[a-z]+(?:ed|en|t|ne)|found|come|made|done|seen|known|got|had|run|become)\b|"
    r"(?:^|[,.;]\s*)you should (?:never |not |always )?\w+\b[^.;]{0,120}?"
    r"\b(?:here|there|(?:this|that) "
    r"(?!repo|project|codebase|team)\w+)\b|"
    r"\b(?:i|we) (?:never|always|had never) (?:thought|knew|expected|"
    r"imagined|realized|realised|noticed|understood|guessed|believed|assumed|dreamed)\b",
    _I,
)
# How things are at the moment: "the deploy is done, port 8080 is open now".
STATUS = re.compile(
    # progress, and a step done: "Thirty-one of the 58 views are converted", "Pilot done: …"
    # (not "the lookback of 28 days is 2688 steps": a count comes first)
    r"\b(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|\w+ty|"
    r"hundred|half|most|all|some|none|few|many)(?:-\w+)?|\d+) of (?:the )?\d+ [\w-]+ "
    r"(?:are|is|have|has)\b|"
    # what a run showed: "3 of the 5 watered plots come back dry"
    r"\b\d+ of (?:the )?\d+ (?:[\w-]+ ){1,2}(?:come|came|fail|failed|pass|passed|show|showed|"
    r"go|went|get|got|end up|ended up|stay|stayed|break|broke|turn|turned)\b|"
    r"^\w+(?: \w+)? (?:done|finished|complete|completed)\s*:|^the remaining\b|"
    # told as a report: "quick status: the backfill is running on …, we're at 2023-09 out of 24"
    r"^(?:\w+ )?(?:status|progress)(?: update| report| check)?\s*:|"
    # done by now: "the FCM project is set up already" (not a rule drawn from it: "…, so
    # never paste keys in chat")
    r"^(?!.*\bso,? (?:we|i|never|always|please|don'?t|do not)\b).*(?:\b(?:is|are|was|were|'s) "
    r"(?:all )?(?:set up|configured|in place|sorted|installed|created|deployed|provisioned|done) "
    r"already\b|\balready (?:set up|configured|in place|sorted out|installed|provisioned)\b)|"
    # where a piece of the work already is: "chart's in charts/ledger-api already"
    r"\b(?:is|are|'s|'re) (?:in|at|on|under) [\w./-]+ already\b|"
    # what a graph or a log showed: "prod graph shows RSS going from ~200MB to 1.8G"
    r"^(?:the |our |my |this |that )?(?:[\w-]+ ){0,2}?(?:graph|dashboard|chart|plot|logs?|"
    r"trace|profile|profiler|metrics|heap dump|flame ?graph|htop|grafana|sentry) "
    r"(?:shows|showed|says|said)\b|"
    # where the work stands, told as done: "ok so the repo is set up, conda env works"
    r"^(?!.*\bso,? (?:we|i|never|always|please|don'?t|do not)\b)[^,;]{1,40}\b(?:is|are) "
    r"(?:all )?(?:set up|installed|configured|provisioned)(?=\s*(?:[,;.!]|$|and\b|now\b))|"
    r"(?:^|,\s*)(?![\w .-]*\b(?:how|where|what|whatever|if|when|unless|as)\b)"
    r"[\w .-]{1,30}? (?:works|(?:builds|runs|boots|compiles)(?= (?:now|again|fine|ok)))"
    r"(?: now| again| fine| ok)?"
    r"[.!]*$|"
    # what the person hands over: "here's a chunk from buoy B3", "here is the output"
    r"^(?:(?:ok(?:ay)?|so|and|also),?\s+)?(?:here'?s|here is|here are|attached is|below is) "
    r"(?:a|an|the|my|some|what)\b[^.;:]{0,40}?\b(?:chunk|snippet|sample|excerpt|part|bit|piece|"
    r"copy|dump|logs?|output|trace(?:back)?|screenshot|error|diff|lines?|rows?|extract)\b|"
    r"\b(?:we're|we are|i'm|i am|it's|it is) (?:at|on) [\w.-]+ (?:out )?of (?:the )?\d+\b|"
    # what was just done: "Pushed to refs/meta/config on staging and tried 3 test changes"
    r"^(?:just )?(?:pushed|deployed|redeployed|merged|reverted|rebuilt|restarted|rolled back|"
    r"bumped|reran|re-ran)\b(?! (?:branches|commits|changes|builds|images)\b)|"
    r"\b(?:is|are) (?:up|down|live|green|red|out|merged|deployed)[.!]?$|\b(?:is|are) at \d+ ?%|"
    # what just happened to a release: "release/4.12 is cut, versionCode 41200", "2.4.2 is out
    # and 3 distros already picked it up", "going thru the checklist now"
    r"\b(?:is|are) (?:cut|tagged|released|shipped|merged|deployed)(?=\s*[,;]|\s+(?:and|now|"
    r"already)\b)|"
    # someone already did it ("3 distros already picked it up"; not "commits that are already
    # pushed", which names the commits)
    r"\b(?:we|i|they|it|he|she|[a-z]+s) already (?:picked|went|got|made|took|did|started|"
    r"finished|bumped|upgraded|shipped|merged|pulled|moved)\b|"
    # out as in released, said of a version ("thiserror is out" rules a crate out)
    r"\b(?:v?\d+(?:\.\d+)+|release|version|build|beta|rc\d*|patch|hotfix) (?:is|are) out\b|"
    r"\bgoing (?:thru|through)\b|"
    # ("sampling is fixed at 30 Hz": a setting)
    r"\b(?:is|are) (?:now )?(?:rebooted|restarted|uploaded|approved|rolled back|reverted|"
    r"fixed(?!\s+(?:at|to|on)\b)|"
    r"resolved|finished|queued|warm|cold|stuck(?!\s+(?:on|at|with)\s+[a-z]+\s+v?\d)|blocked|"
    r"waiting|pending|broken|down)\b"
    # (not a policy: "everything else is blocked at the firewall")
    r"(?!\s+(?:at|by) (?:the |our )?(?:firewall|proxy|gateway|vpn))|"
    r"\b(?:waiting on|waiting for)\b|'s (?:done|finished|back|out|off) (?:with|from)\b|"
    # (not a purpose: "… so errors.Is keeps working up the stack")
    # (nor a preference: "I'd rather keep tuning numbers as consts")
    r"(?<!\bto )(?<!please )(?<!\brather )(?<!\bprefer to )(?<!\bwe )"
    r"\bkeeps? (?!in\b|being\b|working\b|(?:every|any|some|no)thing\b)"
    r"\w+ing\b|"
    r"\b(?:is|are) (?:still )?(?!running (?:on|at|in)\b|listening|"
    r"serving|hosting|pointing|using|living|going to|expecting|targeting|pinned to)"
    # (a name: "staging is hotdesk-staging on fly")
    r"(?!(?:some|no|any|every)?thing\b|string\b|spring\b|[a-z]+-staging\b)"
    r"[a-z]+(?:-[a-z]+)?ing\b(?![.\w/-])|"
    r"\d+ ?% (?:done|complete|through)|(?-i:\bETA\b)|\b(?:the|an|no|new) eta\b|\bis a mess\b|"
    # a state that holds until something happens: "we're on ktor 2.3.12 till the 3.0 branch
    # lands", "everything is on regbox2 while the new VM is provisioned", "staging stays on
    # 0.14.2 until Karin signs off"; in the middle of it, or just managed it. (What it rules
    # meanwhile is a rule: "pinned to bevy 0.14 until avian ships 0.15, so no 0.15 apis".)
    r"\b(?:till|until|while) (?:the |a |we |it |our |[A-Z][a-z]+ )[^.;]{0,40}?\b(?:lands?|"
    r"(?:is|are|gets?) (?:done|ready|merged|provisioned|tested|fixed|finished|migrated|approved|"
    r"rebuilt|back)|signs? off|ships?|goes out|finish(?:es)?)\b(?![^;]{0,30}?,\s+so\b)|"
    r"\bin the middle of\b|\bi'?ve (?:just )?managed to\b|\bon hold\b|^at present\b|"
    # done while nobody watched: "the vendor's records loaded into the test catalogue overnight"
    r"(?<!\bget )(?<!\bgets )(?<!\bis )(?<!\bare )(?<!\bbe )\b\w{2,}ed\b[^.;]{0,50}?\bovernight\b|"
    # the day's plan: "plan for the afternoon: I wire up the source, then …"
    r"^(?:the |my |our )?plan (?:for (?:today|tonight|now|the (?:day|afternoon|morning|evening|"
    r"week|weekend))|is)\b|"
    # what began at an hour of the day: "gmail started bulk-foldering our receipts around 9am"
    r"\bstarted [^.;]{0,40}?\b(?:around|since) \d{1,2}(?::\d\d)? ?(?:am|pm)?\b|"
    r"\b\d+ of \d+ [\w -]{1,20}?(?:done|finished|complete|through)\b|"
    # (since a version is how long a rule has held: "that's been the rule since 1.0")
    # (not a season's or a year's: "the replica's on b2 since last spring" is how it is)
    r"\bsince (?:\d(?![\d.]*\.\d)|this|yesterday|"
    r"last(?!\s+(?:spring|summer|autumn|fall|winter|year|quarter)\b)|this morning|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)|"
    r"^since (?:upgrading|updating|switching|moving|migrating|bumping|the (?:upgrade|update|"
    r"migration|bump|last deploy|last release))\b|"
    # (not of whatever it is: "migrate.py applies whatever hasn't run yet")
    r"\b(?<!whatever )(?<!what )(?<!that )(?<!which )(?:hasn't|haven't|isn't|aren't) \w+(?: \w+)? "
    r"yet\b|"
    r"\b(?:is|are) \w+ at \d+ ?%|\bat \d+ ?% (?:cpu|memory|mem|"
    r"disk|load|capacity)\b|\b(?:currently|atm|in progress|mid-\w+|for a bit)\b|"
    r"\b(?:is|are) being \w+ed\b|\b(?:is|are) (?:throwing|returning|crashing|flapping|"
    r"restarting|rebuilding|refreshing|deploying|migrating|draining|rolling)\b|"
    r"\bout of the [\w -]{1,20}pool\b|"
    r"^now\b(?!,?\s+(?:that|we|i|you|let's|please)\b)|"
    # "ok so where we are: the raw extract is in data/raw/…"
    r"^(?:(?:ok(?:ay)?|so|right),?\s+)*(?:here's |this is )?where (?:we|i|things) (?:are|stand)\b|"
    r"(?<!\bgets )(?<!\bget )(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bbeen )(?<!\bwas )"
    r"\b(?:passed|failed|succeeded|finished|completed|timed out|went green|went red)\b"
    # (what is done with the ones that failed: "failed rows are always flagged")
    r"(?!\s+[\w-]+\s+(?:are|get|go|stay|must|should|always|never)\b)|"
    r"\b(?:pr|mr|pull request|merge request) ?#?\d+\b|\b(?:is|are) (?:getting|"
    r"looking|building|failing)\b|"
    # ("from now on show me the diff instead of pasting the config again": what not to do
    # anymore)
    r"^(?!.*\b(?:from now on|going forward|in future|next time|instead of|ever again)\b)"
    r".*?\bagain\b|"
    r"\bas of\b|\bjust (?:pushed|merged|deployed|released|shipped|fixed)\b|"
    # (not the way a thing is done: "index changes here are done only through sqitch")
    r"\b(?:is|are) (?:done|back|populated|flowing|reachable)\b"
    r"(?! by\b| (?:only|always|exclusively|through|via|using)\b)|\b(?:is|are) \w+ now\b|"
    r"\bnow (?:runs?|is|are|has|lives?|sits?|works?)\b|\b(?:is|are) now (?!on\b)\w+|"
    r"\bso far\b|\bhalfway\b|\bat this point\b|\balready \d+ ?%|"
    # a piece of work where it stands: "onboarding flow is in review", "invariant tests are
    # in, all green over 50k runs", "Tomasz left two comments"
    # (not a question's stranded "in": "guessing what tz a screenshot is in")
    r"\b(?:is|are) in (?:review|qa|testing|staging)\b|"
    r"\b(?:it|that|this|they|everything|(?:the|our|my|your) (?:[\w-]+ ){0,2}[\w-]+) (?:is|are) "
    r"in(?=\s*[,;]|\s*$)|"
    r"\ball green\b|\bleft (?:\w+ )?(?:comments?|notes?|a review)\b|"
    # when something of the moment is due: "deadline is in 9 days", "the demo's due friday"
    r"\b(?:deadline|due date|launch|demo|freeze|cutoff|cut-off|submission|presentation)s?\b"
    r"[^.;]{0,30}?\b(?:is|are|'s) (?:in \d+ \w+|due|tomorrow|on (?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)day|next week)\b|"
    r"^(?:the|this|that) (?:failure|error|crash|bug|flake|exception|problem|issue|slowness)s? "
    r"(?:is|are|seems?|happens?)\b|"
    r"\b(?:getting|seeing|hitting) (?:[\w-]+ ){0,3}(?:errors?|exceptions?|failures?|timeouts?|"
    r"warnings?|crashes)\b|"
    # a report's heading ("Status: …", "Current numbers: …"), "the current build takes …"
    r"^(?:status|progress|update|latest|current|numbers|results)(?: \w+)?\s*:|^(?:the )?current\b|"
    r"\b(?:is|are) still (?:on|at|in)\b|"
    # progress and a change on before: "the run is at epoch 14 of 40", "87% coverage, up from 81"
    r"\b(?:is|are|'s|'re|am) at (?:epoch|step|iteration|batch|stage|phase|round|chapter) \d|"
    r"\b(?:up|down) from \d|\b(?:we|i|it|they)(?:'re|'m|'s| are| am| is) at \d+(?:\.\d+)? ?%|"
    r"\bshould (?:work|be fine|be good|be ok(?:ay)?|be fixed|pass|go through) now\b|"
    # a state an event left: "staging is on 1.4.2 now after the deploy"
    r"\bnow,? (?:after|since) (?:the|my|your|our|that|this)\b|"
    # what the person is in the middle of: "i'm writing a tutorial for the sdk, can you …"
    r"^i'?m (?:currently |just |still )?(?:writing|working on|building|adding|fixing|debugging|"
    r"setting up|migrating|making|updating|looking at|going through|porting|refactoring|"
    r"reviewing|trying to|drafting|preparing|cleaning up|seeing|reading|investigating|"
    r"looking into|testing|chasing|profiling)\b|"
    r"^i(?:'ve| have) been (?:reading|looking|digging|going|staring|poking|playing|testing|"
    r"debugging|chasing|profiling|trying)\b|^i (?:had|took) a (?:quick )?look\b|"
    # where a piece of work stands: "we use kv in 3 of 5 routes now", "the runbook is drafted
    # and sent", "orders is live on staging", "board 3 of 5 is on the bench, 14h in"
    r"\b\d+ (?:of|out of) (?:the )?\d+\b[^.;]{0,40}\bnow\b|\bnow\b[^.;]{0,40}\b\d+ (?:of|out of) "
    r"\d+\b|^(?:\w+ )?\d+ (?:of|out of) \d+ (?:is|are)\b|"
    r"\b(?:is|are) (?:now )?(?:drafted|rebased|cleaned up|half done|pencil+ed in)\b|"
    r"\bdrafted and sent\b|\bhalf done\b|\bstill to do\b|\bjust the [\w -]{1,30} left\b|"
    r"\b(?:is|are) (?:now )?(?:deployed|live|released|rolled out) (?:to|on|in) (?:dev|staging|"
    r"prod|production|qa|test|canary|beta)\b(?![^.;]*\b(?:every|each|always|via|by|through|"
    r"automatically|nightly)\b)|"
    r"\b\d+ ?h(?:ours?)? in\b|\b(?:rebuilt|redeployed|rebased|reinstalled|upgraded|migrated) "
    r"fine\b|\bbehind (?:its|a|the) (?:feature )?flag now\b|"
    r"\b(?:is|are) at (?:about |around |roughly )?\d[\d,.]* ?(?:words|pages|lines|rows|tests)\b|"
    r"\bwe'?re (?:cutting|shipping|releasing|tagging|deploying) v?\d|"
    # what a run just showed: "came on … like it should", "smoke tests green", "LCP went from
    # 1.9s to 2.6s", "the echo test passes for 10 000 bytes"
    r"\blike it should\b|\b(?:tests?|checks?|ci|build|smoke tests?) (?:green|red)\b|"
    r"\btests? pass(?:es)? for\b|\bwent from [\d.]+ ?[a-z%]* to [\d.]+|"
    r"^(?:flashed|tested|reloaded|rebooted|redeployed|reran) (?:it|them|that)\b|"
    # a deadline of this piece of work: "we need it before Friday's release"
    r"\bbefore (?:(?:mon|tues|wednes|thurs|fri|satur|sun)day'?s?|this|next|tomorrow'?s?) "
    r"(?:release|deploy|demo|launch|freeze|meeting|review|standup|call)\b|"
    # what a capture of the moment shows: "The capture shows the stall is in the upload"
    r"^(?:the|this|that|my) (?:capture|trace|profile|profiler|log|logs|output|dump|stack ?trace|"
    r"flame ?graph|benchmark|heap dump|core dump|screenshot) (?:shows?|says|suggests|points)\b|"
    # a count done, and a verdict on what just ran: "6 of the 30 done", "…, all good"
    r"\b\d+ (?:of|out of) (?:the )?\d+ (?:are |is )?(?:done|left|remaining|finished|passing|"
    r"failing|migrated|converted|fixed)\b|"
    r",\s*(?:fine|all good|looks good|works|good|great|nice|ok(?:ay)?)\s*[.!]*$|"
    # what came of the person's own step: "I flashed the firmware and the board never comes out
    # of reset"
    r"^(?!.*\b(?:from now on|going forward|in future|in the future)\b)i (?:just |already )?"
    r"(?:[a-z]+ed|ran|built|did|put|set|wrote|took|tried|made|gave|hit|reran|rebuilt) "
    r"(?:[\w./-]+ ){0,5}?and (?:now |then |still )?(?:the|it|they|nothing|everything|that)\b",
    _I,
)
# What happened once, told as a story.
PAST = re.compile(
    # not a rule told to last, however long ago it was settled ("… fixed that years ago and
    # it's not changing")
    r"^(?!.*\b(?:it|that|this)(?:'s| is) not (?:going to |gonna )?chang(?:e|ing)\b)"
    r"(?!.*\b(?:it|that|this) (?:won'?t|will not) change\b)"
    # not what not to take over from before: "don't reuse the crops from the old dataset"
    r"(?!.*\b(?:don'?t|do not|never)\s+(?:re-?use|copy|carry over|port|bring over|take)\b"
    r"[^.;]{0,60}\bfrom the old\b)"
    # nor a move, which says where things are now: "our wiki moved to wiki.orbis.local"
    # ("X used to run on cron before we migrated" is still the story of before)
    r"(?!(?!.*\b(?:used to|(?:before|since) (?:we|i|the)|(?:first|original|old) version|back in|"
    r"in the first place)\b)"
    r"(?!^(?:\W*\w+,\s+)?last (?:spring|summer|autumn|fall|winter|year|month|week|quarter)\b"
    r"(?!.*\b(?:always|never|every|now|ever since)\b))"
    r".*\b(?:moved|migrated|switched) (?:over )?to\b)"
    # what must never happen, not what went wrong once: "i never want a locking build by
    # accident"
    # (nor what happens whenever it does: "logs a shift whenever someone taps by accident")
    r"(?!.*\b(?:(?:never|don'?t|do not) want|so (?:that )?(?:nobody|no one|nothing)|whenever)\b"
    r"[^.;]{0,60}"
    r"\b(?:by (?:mistake|accident)|accidentally)\b).*?"
    # (what holds since then holds now: "the replica's on backblaze b2 since last spring")
    r"\b(?<!since )(?:yesterday|last (?:week|night|time|month|friday|sprint|quarter|release|"
    r"year|spring|summer|autumn|fall|winter|incident|outage)"
    r"(?! of (?:each|every|the)\b)|"
    r"earlier today|the other day|by mistake|accidentally|by accident|this morning|used to|"
    # ("not the old with DAG() context manager" sets a way against the old one)
    # (nor what stays: "keep the old grid layout behind a setting")
    r"back when|in the old|(?<!not )(?<!instead of )(?<!over )(?<!than )(?<!keep )(?<!leave )"
    r"the old|previous(?!\s+(?:day|night|week|month|year|run|hour|quarter)(?:'s)?\b)|"
    r"years ago|went out|"
    # before an event of the past, not a step: "before the migration", not "before the tests"
    r"before the (?:[\w-]+ ){0,2}?(?:migration|outage|incident|rewrite|move|upgrade|switch|"
    r"reorg|merger|acquisition|launch|cutover|redesign|rebrand|split|fire|breach|crash|war)\b|"
    # "during the outage"; "during the build" is how things run
    r"during the (?!build|deploy|release|tests?|ci|night|day|week|run)|"
    r"(?:\d+|an?|one|two|three|four|five|six|a few|several|a couple of) (?:\w+ ago|(?:years?|"
    r"months?|weeks?|days?|quarters?|sprints?) back)|"
    r"at the last (?:demo|release|standup|retro|meeting|offsite|all-hands|launch|deploy|"
    r"review|sprint review|conference|workshop)|"
    # what a story led to: "that's why everyone here gets twitchy about idempotency"
    r"^(?!.*\b(?:always|never|must|from now on|going forward)\b)(?:and )?(?:that'?s|thats|"
    r"which is|this is) why|"
    # what the person happened to see or not: "i never saw an orphan there"
    r"\bi(?:'ve| have)? never (?:saw|seen|had|hit|noticed|ran into|run into|encountered|"
    r"came across|come across|once saw|once had|managed|bothered|got (?:to|around|round)|"
    r"quite (?:got|managed|figured))\b|"
    r"in the [\w.]+ days|i once|back in (?:v?\d+\.\d+\b|\d{4}|january|february|march|april|may|"
    r"june|july|august|september|october|november|december|the day)|"
    # what someone saw when it went wrong: "the front desk noticed when nobody confirmed"
    r"(?<!\bis )(?<!\bare )(?<!\bget )(?<!\bgets )(?<!\bbe )(?<!\bwas )(?<!\bwere )"
    r"\b(?:noticed|spotted|realized|realised|discovered|complained)"
    r"(?: (?:it|this|that|them))? when\b|"
    r"^before,\s+(?:i|we|they|the team)\s+(?:was|were|used to|had)\b|"
    # another project's story: "funny, on Drift Kings we recorded only inputs"
    r"^(?:\W*\w+,\s+)?on (?-i:[A-Z][\w-]*)(?: (?-i:[A-Z][\w-]*)){0,3},? (?:we|i|they) "
    r"(?:\w+ed|had|ran|did|built|wrote|used|kept|went|made)\b|"
    r"experimented|we had|in (?:19|20)\d\d|(?:is|are|dates?) (?:back )?from (?:19|20)\d\d\b|"
    # what happened then, told as when: "…, when we sold everything through eventbrite"
    r"\bwhen (?:we|i|they|the team|the company) (?:still |first )?(?:\w{3,}ed|sold|ran|had|"
    r"was|were|made|built|wrote|went|did|bought|began)\b|"
    # "nobody's touched it since we went in-house"
    r"\b(?:nobody|no one|noone)(?:'s| has)\s+(?:\w+ed|touched|run|used|opened|seen)\b[^.;]{0,40}?"
    r"\bsince\b|we once|during (?:covid|the pandemic|lockdown)|"
    r"^last (?:[\w-]+ )?(?:game|show|project|job|season|jam|gig|contract|client)\b|"
    r"\btook (?:me|us|them|him|her) (?:\w+ )?(?:minutes|hours|days|weeks|months|ages)\b|"
    r"\btook (?:me|us|them) (?:about |~)?\d+\s?(?:h|hrs?|hours?|mins?|minutes|days?)\b|"
    # "Before Falco we relied on auditd rules …"
    r"^before [\w-]+,? (?:we|i|they) (?:\w+ed|had|ran|used|was|were|did)\b|"
    r"^(?:we|i) \w+ed\b[^.;]{0,40}?\bin (?:january|february|march|april|may|june|july|"
    r"august|september|october|november|december)\b(?! (?:and|or|of each|every)\b)|"
    r"^back (?:with|on|in the days of)\b|"
    # "our last jam game used a singleton for everything", "on the last show we cached …"
    r"(?:our|my|the) last (?:[\w-]+ )?(?:game|show|project|job|company|season|jam|gig|contract|"
    r"client|team)\b[^.;]{0,40}?\b(?:\w{2,}ed|had|was|were|did|went|ran|took|got|broke)\b|"
    # how things were up to a year: "we ran CloudFormation nested stacks until 2021"
    r"(?:\w{3,}ed|ran|kept|had|was|were|did|went|wrote|built|stayed|cut)\b[^.;]{0,80}?\buntil "
    r"(?:about |around |roughly |circa |~)?(?:(?:early|mid|late)[- ])?(?:19|20)\d\d|"
    r"(?:first|original|initial|old) (?:version|release|prototype|implementation|draft)"
    r"(?: of [\w .-]{1,30}?)? was|(?:it|that) was my (?:fault|bad|mistake)|^(?:\W*\w+,? )?"
    r"my (?:fault|bad)|"
    r"once (?:ran|had|used|tried|deployed|went|did|moved|"
    r"shipped|spent|broke|lost)|i remember (?:we|when|that|how)|"
    r"^(?:i|we) (?:spent|wasted|went|lost|broke|forgot|chased|saw|took) |"
    # (not a schedule: "our rota week begins on Saturday", "deploys happen on Tuesday")
    r"(?<!weekly )(?<!every )(?<!each )(?<!nightly )(?<!begins )(?<!starts )(?<!ends )"
    r"(?<!opens )(?<!closes )(?<!runs )(?<!happen )(?<!happens )(?<!falls )"
    r"(?<!\bbegin )(?<!\bstart )(?<!\bend )(?<!\bopen )(?<!\bclose )(?<!\brun )(?<!\bfall )"
    # (nor what is needed then: "anything you still need on monday")
    r"(?<!need )(?<!needed )(?<!due )(?<!ready )"
    r"on (?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"i (?:haven't|have not|hadn't|didn't|did not) (?:seen|heard|noticed|read|checked|looked)|"
    r"ended up|after the [\w ]{0,20}?(?:outage|incident|migration|crash|rewrite|move|upgrade)|"
    r"it took (?:\w+ ){1,3}(?:minutes|hours|days|weeks|months)|"
    # where the person was then: "at my last job we did all of this in ArcGIS", "in my
    # dissertation I used 2SLS", "when I was a postdoc in Leiden", "last spring we ran …"
    r"at my (?:last|previous|old|former|first) (?:job|company|startup|employer|gig|place|team|"
    r"workplace|role|lab)|(?:in|during|for) my (?:dissertation|thesis|phd|master'?s?|postdoc|"
    r"internship|undergrad(?:uate)?|bachelor'?s?|first job|old job|previous job)|"
    r"when i was (?:a|an|at|in|still|working)|"
    r"(?:last|back in(?: the)?) (?:spring|summer|autumn|fall|winter|semester|term)|"
    r"over (?:christmas|the holidays|the summer|easter|thanksgiving|new year)|"
    r"before this (?:\w+ )?(?:existed|was built|was written)|^before this\b|"
    r"\bback in [\w.' -]{1,20} days\b|"
    r"in the first (?:version|release|iteration|sprint|prototype)\b(?! of (?:a|each|every)\b)|"
    r"^(?:the )?(?:v1|version 1|first version) was|"
    r"until (?:last (?!\w+ of\b)\w+|recently|they (?:killed|dropped|shut|changed|removed))|"
    r"\b(?:we|i|nobody|no one)(?: on [\w ]{1,20}?)?(?: has| have)? "
    r"(?:never |not )?forg(?:o|e)t(?:ten)? (?:that|this|it)|"
    # a month or season with what happened then: "In March the run on kelvin got preempted"
    r"^in (?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|spring|summer|autumn|fall|winter)(?: \d{4})?,? [^.;]{0,60}?"
    r"\b(?:\w{3,}ed|got|ran|had|was|were|did|went|lost|broke|took)\b)\b",
    _I,
)
# A story told in the past tense: "The game jam build shipped with exceptions enabled",
# "Our API returned 500s all night". Not where something is kept ("logs stored in Loki").
TOLD_AS_PAST = re.compile(
    # of no one in particular: "nobody got hurt but the client still brings it up"
    r"^(?:nobody|no one|everyone|everybody|someone|somebody) (?:got|was|were|had|did|went|"
    r"came|noticed|saw|said|knew|\w+ed)\b|"
    r"^(?!.*\b(?:is|are|am|must|should|always|never|every|each)\b)"
    # a decision is told in the past and holds now: "the team agreed that migrations get …"
    r"(?!.*\b(?:agreed|decided|settled on|voted) (?:that|to|on|for)\b)"
    # (a subject before the verb: "the shared research env has polars pinned" is no story)
    r"(?:the|our|my|a|an|this|that|his|her|their)\s+(?:[\w'-]+\s+){1,3}?"
    r"(?:\w{3,}ed|went|broke|ran|came|took|got|forgot|lost|blew|fell|sent|threw|made|found)\b"
    r"(?!\s+(?:by|to|from|via|through|as|in|on|at|into|under|for)\b)",
    _I,
)
