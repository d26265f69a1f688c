"""Someone else's view, told by the user: not the user's rule. Who holds it (a colleague, a
reviewer, a contractor, "some folks", a named person), the words that report it (says,
thinks, keeps pushing, commented, "according to") and the marks of a view that is not
the person's ("his thing", "not a team decision")."""

from __future__ import annotations

import re

_I = re.IGNORECASE
# "my colleague keeps pushing for Poetry, but that's his thing". What the team's own documents
# say is the team's: "our style guide says …".
_NOT_OURS = r"(?<!our )(?<!our style )(?<!our team )(?<!our coding )(?<!our contributing )"
# "say" as a noun is no one's view: "has the final say", "no say in it"
_SAY_NOT_A_NOUN = r"(?<!\bfinal )(?<!\bthe )(?<!\ba )(?<!\bno )(?<!\bany )(?<!\bhave )"
# What a screen, a label or a log "says" is what it shows, no one's view: "the axis says km but
# distances in this app are shown in miles"
_THINGS_THAT_SHOW = (
    "axis label labels header heading title button screen banner tooltip badge sign footer "
    "legend column field placeholder prompt dialog popup toast error log output subject "
    # what a written text says: "anything that changes what the safety steps say …"
    "step steps text copy wording procedure instructions message messages email"
).split()
# "claims" as a noun is no one's view: "the claims db", "insurance claims"
_CLAIMS_NOT_A_NOUN = "".join(
    rf"(?<!\b{word} )" for word in "the our of for my your their her his insurance".split()
)
_SHOWS_TEXT = "".join(
    [rf"(?<!\b{thing} )" for thing in _THINGS_THAT_SHOW]
    + [rf"(?<!\b(?-i:{pointed}) )" for pointed in ("it", "this", "that", "which")]
)
REPORTED = re.compile(
    # (nor what a thing pointed at shows: "dont be surprised when it says 0 files"; "IT says"
    # is a department's)
    r"\b(?!(?-i:it|this|that|which)\b)"
    r"(?!(?:guide|docs|readme|runbook|handbook|playbook|policy|wiki|"
    + "|".join(_THINGS_THAT_SHOW)
    + r")\b)[A-Z][a-z]+ "
    r"(?:keeps (?:pushing|saying|asking)|thinks|says|wants|insists(?! on (?:it|that|this)\b)|"
    r"swears|"
    r"reckons|claimed|insisted)\b|(?-i:^[A-Z][a-z]+ (?:likes|loves|prefers|hates|raves))\b|"
    r"\bbrags?\b|\b(?:told|tells) (?:us|me)\b|\baccording to\b|"
    # what others ask for: "dispatchers want the board to update live", "the client wants a
    # quick preview" (the work asked, not how it is done here)
    r"\b(?:[a-z]+(?:ers|ors|ists|ants|ents)|users|customers|clients|ops|finance|sales|"
    r"marketing|support|management|stakeholders|legal|the (?:client|customer|business|pm|po))"
    r" (?:really )?(?:want|wants|would like|asked for|are asking for|keep asking for)\b|"
    r"'s (?:opinion|view|stance|proposal|pitch|take|suggestion|idea|line|mantra|motto|"
    r"refrain|pet theory)\b|"
    r"\bwrote (?:in [\w ]{1,30} )?that\b|"
    r"\b"
    + _NOT_OURS
    + r"(?:docs|documentation|guide|article|post|book) (?:recommends?|says?|suggests?)\b|"
    r"\bsomeone on\b|\b(?:they|he|she|everyone|everybody) (?:said|say|says|claim|claimed|swore|"
    r"swear|told (?:us|me))\b|"
    r"\b(?:my (?:colleague|coworker|co-worker|co-author|coauthor|co-founder|cofounder|partner|"
    r"supervisor|advisor|adviser|reviewer|client|manager|boss|lead|teammate|friend|team ?mate|"
    r"contractor|consultant|intern|freelancer|(?:old )?(?:teacher|mentor|professor)|nephew|niece|"
    r"uncle|aunt|brother|sister|dad|father|mom|mum|mother|brother-in-law)s?|"
    r"our (?:contractor|consultant|intern|freelancer|"
    r"vendor)s?|"
    r"(?:some|many|most|a few|a lot of|lots of|other|certain) (?:folks|people|users|devs|"
    r"developers|engineers|guys|commenters|posters|redditors|teams|colleagues|blogs)|"
    # someone from somewhere ("Dave from accounting", "a guy from ops"; not "read from there")
    r"(?:(?-i:[A-Z][a-z]+)|guys?|folks|person|people|one|someone|somebody|devs?|engineers?) "
    r"from (?:the )?(?!(?:me|us|my|our|there|here|it|them|this|that)\b)\w+|"
    r"the \w+ (?:folks|team|people|guys)|"
    r"(?:a|one|some) (?:contributor|reviewer|user|customer|blog post|article|friend|colleague|"
    r"coworker|co-worker|teammate)s?|someone|"
    r"somebody|people|he|she)\b[^.;]{0,80}?"
    r"\b(?:" + _SAY_NOT_A_NOUN + r"says?|said|"
    r"thinks?|thought|keeps? (?:pushing|saying|asking|insisting)|wants?|"
    # ("the audit team insists on it": what we do, held to by who checks it)
    r"insists?(?! on (?:it|that|this|them)\b)|argues?|argued|suggest(?:s|ed)?|"
    + _CLAIMS_NOT_A_NOUN
    + r"claims?|"
    r"believes?|swears?|swore|recommends?|"
    # (not "like" said of an amount: "somebody already burned like 4k last quarter")
    r"prefers?|likes?(?!\s+(?:\d|~|half\b|a (?:few|couple|dozen|bunch)\b))|loves?|"
    r"comment(?:s|ed)?|mention(?:s|ed)?|not(?:es|ed)|point(?:s|ed) out|"
    r"(?:never |always )?trusted|swore by)\b|"
    r"\b(?:their words|his thing|her thing|his call|her call|his hill|her hill|not mine|"
    r"one voice|(?:his|her|their) preference|not a team decision)\b|"
    # a role and a name, then their taste: "The biostatistician on the grant, Dr. Okafor,
    # prefers Fine-Gray for …"
    r"^(?:the |our |my )?[\w -]{1,40},\s+(?-i:(?:Dr|Prof|Mr|Ms|Mrs)\.?\s+)?(?-i:[A-Z][\w.'-]+)"
    r"(?: (?-i:[A-Z][\w.'-]+))?,\s+(?:prefers|likes|loves|wants|thinks|says|insists|swears by)\b|"
    # "Gary's convinced springs need swapping every 20k"
    r"^(?!(?:it|that|this|what|there|here)\b)[\w-]+['’]s (?:\w+ )?convinced\b|"
    # a wish of someone named: "Priya, our tech lead, would like every handler wrapped …"
    r"^(?!(?:the|our) team\b)(?:(?!(?:i|we|you|the team|our team)\b)[\w'’.,-]+\s+){1,7}?"
    r"(?:would (?:like|prefer|rather|love)|(?:is|was) of the (?:view|opinion))\b|"
    # whoever the subject, when it is not the user or the team: "A guy in the Matrix room
    # claims …", "My old supervisor always said …", "DHH's position is that …"
    # (nor a request: "do the RPC thing you suggested")
    r"^(?!(?:i|i'm|i've|we|we're|we've|you|let's|please|do|use|take|try|pick|go with|"
    r"our (?:[\w-]+ )?(?:guide|docs|"
    r"documentation|readme|runbook|handbook|playbook|policy|conventions?|standards?|rules|"
    r"wiki))\b)(?:[\w'’.,-]+\s+){0,7}?"
    + _SHOWS_TEXT
    + r"(?:always\s+|often\s+|once\s+|still\s+|kept\s+|keeps\s+)?(?:says|said|"
    + _CLAIMS_NOT_A_NOUN
    + r"claims|claimed|"
    r"swears|swore|thinks|thought|argues|argued|insists(?! on (?:it|that|this|them)\b)|insisted|"
    r"reckons|believes|believed|"
    r"suggests|suggested|recommends|recommended|preaches|preached|is convinced|was convinced|"
    r"swear(?= (?:that|we|by|it|you|\w+ is))|keep (?:saying|pushing|telling)|"
    + _SAY_NOT_A_NOUN
    + r"say|think|claim|"
    r"argue|insist|recommend|suggest|believe|reckon|want us to|feels|felt|(?<=\w )figures|"
    r"(?:is|was|are|were) pushing|has (?:this|the|an) idea|(?:has been |is |keeps )?preaching|"
    r"holds that|remark(?:s|ed)|"
    r"(?:is|was) (?:so )?(?:sure|certain)(?= (?:that|\w+ (?:will|is|are)))|"
    r"maintains(?= (?:that|one|we|you|every|all))|writes that|"
    r"opened an? (?:issue|pr|ticket|thread)[^.;]{0,20}? saying|is (?:a )?big fan of)\b|"
    r"\b(?:position|argument|view|take|stance|opinion) (?:is|was)\b|\bapparently\b|"
    # "the bosun's view: cargo listed by hold"
    r"^(?:the |my |our )?[\w-]+(?: [\w-]+)?'s (?:view|take|opinion|position|stance)\s*:|"
    r"\b(?:heard|hears|rumou?r)\b|\b(?:i|we) (?:read|saw|came across) (?:somewhere|online|"
    r"(?:on|in) (?:a |an |some )?(?:blog|forum|thread|article|post|reddit|hn|stack ?overflow))\b|"
    r"^per (?:the|our|their|his|her) [\w' ]{1,30}(?:report|"
    r"review|audit|rfc|doc|docs|proposal|recommendation|advice)\b|"
    # what the agent said or took for granted, told back to it ("you assumed we use jest,
    # but that's wrong: …"): its claim, not the person's
    r"^(?:(?:wait|hmm+|hold on|no|earlier|before|above|just now)[,\s]+)?you (?:just |earlier |"
    r"already )?(?:said|assumed|thought|mentioned|suggested|wrote|claimed|stated|implied|"
    r"guessed|figured|(?:seem|seemed) to think|(?:keep|kept) saying)\b"
    r"(?!\s+(?:it )?(?:yourself|right|correctly|earlier\b.{0,30}\bright))|"
    # the view said with other words: "my manager would rather we store everything in 4326",
    # "my co-author's rule is to winsorize", "my colleague from the other team is very strict"
    r"\bmy (?:co-?authors?|colleagues?|co-?workers?|manager|boss|lead|pi|advisor|adviser|"
    r"supervisor|professor|prof|mentor|cto|ceo|pm|architect|client|reviewer|teammates?)"
    r"(?:'s? (?:rule|view|opinion|take|stance|position|approach|habit) is|"
    r"(?: [\w-]+){0,4}? (?:would rather|'d rather|is adamant|is of the opinion|is (?:very |"
    r"pretty |super |really )?(?:strict|firm|dogmatic)|always [a-z]+s)\b)|"
    r"\b(?:is|are) (?:adamant|of the opinion)\b|\bha(?:s|ve) the (?:opinion|view|feeling) that\b|"
    # "Ingrid has this rule of thumb from her ASIC days", "Tomasz has a whole theory that …"
    r"\bha(?:s|ve) (?:a|this|that|his|her|their) (?:whole |pet )?(?:theory|rule of thumb)\b|"
    # someone named, then their taste: "Henrik would rather we never adopt blueprint",
    # "Dr. Haas, our epidemiologist, prefers incidence per 100,000"
    r"(?-i:^(?:[A-Z][\w.'-]*\s+){0,2}[A-Z][\w'-]+)(?:,\s*(?:our|my|the) [\w -]{1,40},)?\s+"
    r"(?:would rather|'d rather|prefers|would prefer|wants|insists)\b|"
    # a role's taste, the person named beside it or not: "Our architect, Kofi, wants everything
    # through the ORM", "The biostatistician on the grant, Dr. Okafor, prefers Fine-Gray"
    r"^(?:our|my|the) (?:[\w-]+ ){0,3}?(?:architect|cto|ceo|cfo|lead|manager|boss|director|vp|"
    r"head|chief|principal|pm|po|designer|reviewer|biostatistician|statistician|professor|"
    r"advisor|adviser|supervisor|colleague|teammate|founder)\b[^.;]{0,60}?"
    r"\b(?:wants|prefers|likes|loves|hates|would like|favou?rs)\b",
    _I,
)
# Another's view the person sets aside for their own: "dont pull in flutter_bloc even if some
# tutorial says so", "…, whatever sqlfluff's default says", "I know most tutorials put it in
# the inspector, but I'd rather …". What is left is the person's.
DISMISSED = re.compile(
    r"(?:,\s*|\s+)(?:even if|even though|whatever|no matter what|regardless of what|"
    r"despite what|never mind what)\s+[^.;,]{1,60}?\b(?:says?|said|wants?|recommends?|"
    r"suggests?|thinks?|prefers?|claims?|does|do)\b(?:\s+so\b)?|"
    # "not /gripper/command like every tutorial says", "NOT at midnight like the old README
    # claims"
    r"(?<=\S)\s+like (?:every|the|some|most|all|many|a lot of) (?:[\w'-]+ ){0,3}?(?:says?|said|"
    r"claims?|claimed|suggests?|suggested|recommends?|recommended)\b|"
    r"^(?:i know|i'm aware|i am aware|i reali[sz]e|granted)\b[^.;]{0,100}?,\s*but\s+"
    r"(?=(?:i|i'd|i'm|we|we're|we'd|here|in this|on this|our|my|for me)\b)",
    _I,
)
# The person's distance from a view just told: "i dont really buy it", "nobody else agrees",
# "I find that rather dogmatic", "her style; we've never agreed on it". It says nothing of its
# own to keep: what it is about is someone else's.
DISTANCED = re.compile(
    r"\bi (?:don'?t|do not|dont) (?:really |fully |quite |entirely )?(?:buy|agree|share)"
    r"(?: (?:it|that|this|him|her|them|with (?:it|that|this|him|her|them)))?(?=\s*[,.;:!]|\s*$)|"
    r"\bi (?:disagree|doubt)(?=\s*[,.;:!]|\s*$| (?:it|that|this|they|he|she)\b)|"
    r"\b(?:nobody|no one) (?:else )?agrees\b|"
    r"\bi(?:'m| am) not (?:switching|convinced|sold|planning (?:for|on) it|so sure|too sure|"
    r"sure about (?:it|that))\b|\bnot (?:so |too |really )?sure about (?:it|that|this)\b|"
    r"\bha(?:ve|s)(?:n't| not) formed (?:a|an|my) (?:view|opinion)\b|"
    r"\b(?:his|her|their) (?:thing|style|call|hill|opinion|view|rule|preference)"
    r"(?=\s*[,.;:!]|\s*$)|"
    r"\b(?:don'?t|do not) have a stake\b|\bnoting it\b|"
    r"\bi find (?:that|it|this) (?:[\w-]+ ){0,2}(?:dogmatic|mechanical|extreme|excessive|"
    r"overkill|rigid|strict|odd|weird|silly|pedantic|much)\b|"
    r"\bi'?ve explained\b[^.;]{0,60}\b(?:twice|again|times)\b|"
    r"\b(?:of course|naturally) (?:they|he|she) (?:would|do|does)\b|"
    r"\bwe(?:'ve| have) never agreed on (?:it|that|this)\b|"
    # passed on, not held: "I'm mentioning it because she'll review the draft", "I merely
    # pass it on", "the rest of the team is lukewarm"
    r"\bi'?m (?:just |only |merely )?(?:mentioning|passing on|passing along) (?:it|this|that)\b|"
    r"\bi (?:merely |just |only )?pass (?:it|this|that) (?:on|along)\b|\bjust flagging\b|"
    r"\bi have no (?:view|opinion|stake) on (?:it|this|that)\b|"
    r"\b(?:the rest of the team|the others|everyone else) (?:is|are|seems?) (?:lukewarm|split|"
    r"divided|on the fence|indifferent)\b",
    _I,
)
