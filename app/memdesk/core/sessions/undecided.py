"""What is not decided yet: a question left open or a choice put off ("let's not decide that
yet", "I'd rather not commit either way yet"), a proposal put to the agent, the person's next
steps. `heard` reads a sentence, and a whole message's tone, with them."""

from __future__ import annotations

import re

_I = re.IGNORECASE

# Not decided: "let's not decide that yet", "I haven't made up my mind".
UNDECIDED = re.compile(
    r"\b(?:let's not decide|haven't (?:decided|made up my mind)|not decided|undecided|"
    r"keep (?:that|the|this) (?:question|decision|topic) open|can wait|"
    r"not a decision|is a proposal|(?:the|my|our) intention is|(?:my|our) idea is\b|"
    r"subject to change|"
    r"decide (?:it |that |this )?later|not sure yet|"
    r"we'll see|up in the air|let's revisit|(?:we|i) might\b|might (?:switch|move|go|use)|"
    r"(?:no|not) (?:a )?(?:decision|commitment) yet|open question|on the fence|leaning|"
    r"let me think|i'm tempted|back and forth|no decision|toying with|playing with the idea|"
    r"kicking around|mulling|weighing (?:up )?whether|floating the idea|considering|"
    r"not commit(?:ting)? to|we may\b|nobody(?:'s| has)? agreed|no one(?:'s| has)? agreed|"
    r"not a team (?:rule|decision)|personal (?:style|preference|taste)|their (?:wish|call|"
    r"recommendation|idea)|not convinced|not doing it|(?:we|i) haven'?t decided|passing it on|"
    r"never seen it written|let'?s see(?! why\b| where\b)|as gospel|been wrong before|"
    r"grain of salt|on the table|can always\b[^.;]{0,40}\blater|"
    r"or might not|who knows(?=\s*[?.!,;]|\s*$)|torn between|"
    # a leaning ("kinda want …") or a proposal weighed ("collection idea is kinda nice but
    # …"); "the ctes are kinda messy" describes, and leaves the rules beside it standing
    r"kinda (?:want|wanna|prefer|like|lean|leaning|think|feel|tempted)|"
    r"(?:idea|approach|option|plan|suggestion)s? (?:is|are|was|sounds|looks) kinda|"
    r"(?:kind|sort) of (?:want|prefer|like)|"
    r"could be to|(?:we )?can revisit|revisit (?:it|this|that|later|if)|"
    r"(?:a |just a )?draft idea|(?:don't|do not) hold (?:me|us) to|rough idea|just an idea|"
    r"half-baked|not final|(?:not|nothing(?:'s| is)?) set in stone|"
    r"(?:writing|jotting|noting|putting) (?:it|this|that|these|them) down so (?:i|we) "
    r"(?:don'?t|do not|won'?t) forget|early thoughts?|let'?s discuss|to be discussed|"
    r"up for discussion)\b|^might\b|"
    # a proposal put to the agent: "proposal: every PR gets a preview env", "one option is …"
    r"^(?:proposal|idea|suggestion|option|alternative|draft|wish|thought|rfc)s?\s*:|"
    r"^(?:one|an|another|the other|a (?:possible|simpler|cheaper)) (?:option|idea|alternative|"
    r"approach|possibility|way) (?:is|would be|could be|might be)\b|"
    r"^i'?ll (?!always|never)\w+|"
    # a plan of the person's: "I'm going to try to finish the chapter by May", "my plan is to …"
    r"^(?:i'?m|i am|we'?re|we are) (?:going to|gonna|planning to|hoping to) (?!always|never)|"
    r"^(?:gonna|going to) (?!always|never|need\b|have to\b)|"
    r"^(?:my|our|the) plan (?:for [\w ]{1,20} )?is to (?!always|never)|"
    # the person's next steps: "once staging is up i'll smoke test the email and open the PR"
    r"^(?:once|after|as soon as|when|before|then|next|afterwards|after that)\b[^.;]{0,100}?"
    r"\b(?:i|we)(?:'ll| will|'m going to| am going to|'m gonna| are going to|'re going to) "
    r"(?!always\b|never\b)|"
    # what the person means to do, and when: "I intend to rerun March over the weekend", "next
    # month I want to try an e-ink display", "after the hotfix i want an alert on heap at 80%",
    # "I'd like to trial Pulumi ESC next quarter", "we'll likely move secrets in Q3"
    r"\b(?:i|we) (?:intend|plan) to (?!always\b|never\b)|"
    r"^(?:next|this coming|after (?:the|this|that)) [\w-]+(?: [\w-]+)?,? (?:i|we) (?:want|'d like|"
    r"would like|intend|plan|hope|aim|need)\b|"
    r"\b(?:i|we)(?:'d| would) like to (?:trial|try|evaluate|explore|pilot|experiment|look into)\b|"
    r"\b(?:we|i)'?ll (?:likely|probably|maybe|perhaps)\b|"
    r"\bpending (?:the|a|an) [\w -]{1,25}?(?:review|approval|decision|sign-?off|vote)\b|"
    r"\bprovided (?:that )?(?:the|it|we)\b[^.;]{0,40}?\b(?:goes|works|pans out|holds)\b|"
    r"^plan(?: is to|:)|\bnothing (?:is )?decided\b|\bon my list\b|"
    # a question put off: "let's not go there yet", "not ready to make that call", "let's keep
    # that open", "dunno yet", "jury's still out", "could go either way"
    r"\bnot ready to (?:make|decide|commit|call)|\blet'?s keep (?:that|it|this) open\b|"
    r"\blet'?s not (?:go there|design around|worry about|plan for)\b|\bdunno yet\b|"
    r"\bis still open\b|\bjury'?s (?:still )?out\b|\bcould go either way\b|"
    r"\b(?:it'?s )?a big if\b|\bdon'?t treat (?:that|it|this) as a rule\b|"
    # "not going to commit to that", "not ruling it in or out", "park it, not my call", "I'd
    # rather hold off on choosing", "depends on whether we sort out the partition table"
    r"\bnot (?:going to )?(?:commit|promising|ruling)\b|\b(?:don't|do not) know yet\b|"
    r"\bhold(?:ing)? off (?:on|with) (?:choosing|deciding|picking|that|it)\b|\bpark (?:it|that)\b|"
    r"\bnot (?:my|our) call\b|\b(?:pending|depends on) whether\b|"
    # a question of what if: "if we ever moved to k8s …? idle curiosity", "just a thought"
    r"\bif (?:we|they) ever\b|^(?:suppose|what if)\b|\bin the scenario where\b|"
    r"\bjust (?:a thought|curious)\b|\bidle curiosity\b",
    _I,
)
# A decision put off, in whatever words: a decision's verb held back for now ("I'd rather not
# commit either way yet", "I prefer not to decide now", "not settling it today"), a question
# left open ("something I'd like to leave open", "leave that for later"), or a later time
# named for it ("we will reconsider after the benchmarks", "I'd prefer to hear from product
# first"). Not "never commit to main": a deferral names when, or that it is either way.
# A choice that waits on a trial: "if its clearly smoother we switch, otherwise we stay"
ON_TRIAL = re.compile(
    r"^if\b[^,.;]{0,60}\b(?:is|are|'s|its|it's|runs|feels|looks|works|comes out) (?:clearly |"
    r"noticeably |much |way |a lot |actually |really )?(?:\w+er|better|worse|more \w+)\b"
    r"(?: than [^,.;]{1,30})?,?\s+(?:then\s+)?(?:we|i)(?:'ll| will)? (?:switch|move|migrate|go "
    r"with|adopt|stick with|keep|drop|use)\b",
    _I,
)
DEFERRED = re.compile(
    r"(?:\bnot|n't|\bnever)\s+(?:\w+\s+){0,3}?(?:decid|decision|commit|settl|choos|pick|chose|"
    r"make (?:up )?(?:my|our) mind)\w*\b[^.;!?]{0,40}?\b(?:yet|now|today|either way|one way or "
    r"(?:the )?other|for now|at this point|until|before|first)\b|"
    r"\bleav(?:e|ing) (?:(?:it|that|this|them|both|either)(?: question| choice| decision| topic)?|"
    r"the (?:\w+ )?(?:question|choice|decision))?\s*"
    r"(?:open|for later|undecided|unresolved|for another day|for (?:the )?(?:moment|time being))\b|"
    # "this we discuss in another moment, not now"
    r"\b(?:discuss|talk about|decide|settle|look at|come back to)\b[^.;!?]{0,20}?\b(?:in|at|on|"
    r"for) (?:another|a later|some other) (?:moment|time|day|point|session)\b|"
    r"\b(?:reconsider|revisit|re-?evaluate|decide|settle|pick)\b[^.;!?]{0,30}?\b(?:later|"
    r"after (?:the|we|i|it)|once|when (?:the|we|i|it))\b|"
    r"\b(?:hear (?:from|back from)|wait (?:for|until|till|on)|see (?:how|what|whether|if)|"
    r"observe|measure|benchmark)\b[^.;!?]{0,60}?\bfirst\s*[.!]?\s*$|"
    r"\b(?:don'?t|do not) (?:really )?(?:prefer|favou?r|mind|care which|have a preference)"
    r"(?: (?:one|either|any|which))?\b[^.;!?]{0,30}?\b(?:yet|either way|one way or|later|"
    r"for now)\b|"
    r"\b(?:don'?t|do not) (?:really )?(?:prefer|favou?r) (?:one|either)\b|"
    # put off: "the sale part with prices, not now, we see later", "I'd rather hold off on a
    # decision", "let's wait, I ask the vet first", "leave it and see if it bites us"
    r"(?:^|,\s*|\blater,?\s+)not now\b|\bhold(?:ing)? off on (?:a |the |any )?(?:decision|"
    r"deciding|whether|that|it)\b|\b(?:rather|let's|let us) wait\b|"
    r"\bleave (?:it|that|this) and see\b|\b(?:we|i)(?:'ll)? (?:see|think about (?:it|that|"
    r"this|the \w+(?: \w+)?)) later\b|"
    # "let's leave the 200-vs-4xx debate for another day", "about partitioning, keep it open",
    # "viper — not deciding", "about typescript in all the files, i dont know"
    r"\bleave (?:the|that|this) [\w -]{1,30}? for another day\b|\b(?:keep|leave) it open\b|"
    r"\bnot deciding\b|\b(?:say|answer) yes or no\b|"
    r"^(?:about|re|regarding|as for) [^,.;]{1,60},\s*(?:i|we) (?:don'?t|do not) know\b",
    _I,
)
