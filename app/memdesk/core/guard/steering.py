"""Words that try to steer the model reading them: drop its instructions, take a new role,
reveal its prompt, hide things from the person, send data away, or run a command on cue;
and the fake role lines, tags and control tokens that pose as the system speaking. Each rule
reads the casefolded forms of `views.readings`."""

from __future__ import annotations

import re

from memdesk.core.guard.views import Reading

DROP = "tells the reader to drop its instructions"
ROLE = "tries to give the reader a new role or instructions"
REVEAL = "asks the reader to reveal its instructions"
HIDE = "asks the reader to hide something from the user"
SEND = "asks the reader to send secrets away"
COMMAND = "tells the reader to run a harmful command"
SPEAKER = "starts a line as if the system spoke"
DIALOGUE = "contains a made-up dialogue with the assistant"
TAG = "contains a fake role or system tag"
TOKEN = "contains a model control token"
DELIMITER = "contains memdesk's own context delimiter"
HIDDEN_HTML = "hides words for the model where the person does not see them"
SCRIPT = "contains an HTML event handler or script link"

_VERB = (
    r"(?:ignore|ignoring|disregard|forget|override|discard|drop|abandon|bypass|set aside|"
    r"put aside|pay no attention to|stop following|do not follow|don't follow|dont follow|"
    r"never ?mind|skip|erase|scrap|no longer follow)"
)
_WHICH = (
    r"(?:previous|prior|above|earlier|preceding|original|initial|existing|all|any|every|your|"
    r"the system|system|those|whatever)"
)
_TOLD = (
    r"(?:(?:anything|everything|what(?:ever)?) (?:you were|you've been|you have been|the "
    r"(?:system|developer|user|operator)) (?:told|given|instructed|said))"
)
_ORDERS = (
    rf"(?:instructions?|prompts?|system (?:message|prompt)|messages?|rules|directives?|guidance|"
    rf"guidelines|context|constraints|polic(?:y|ies)|orders|commands|programming|restrictions|"
    rf"{_TOLD})"
)
_SECRET_THINGS = (
    r"(?:credentials?|secrets?|api[ _-]?keys?|\bkeys\b|tokens?|passwords?|ssh keys?|private "
    r"keys?|\.env\b|env(?:ironment)? var(?:iable)?s|cookies|id_rsa|\.aws|\.netrc|\.ssh|database "
    r"dump|\bdump\b|backups?|every file|all files|files you read|chat history|conversation|"
    r"personal data)"
)
# In any of their forms: "I'll go with uploading ~/.ssh/id_rsa to https://…" passed as
# "upload" only (red team 37).
_SENDS = (
    r"(?:send(?:s|ing)?|sent|upload(?:s|ed|ing)?|post(?:s|ed|ing)?|e-?mail(?:s|ed|ing)?|"
    r"mail(?:s|ed|ing)?|forward(?:s|ed|ing)?|cop(?:y|ies|ied|ying)|exfiltrat(?:e|es|ed|ing)|"
    r"leak(?:s|ed|ing)?|transmit(?:s|ted|ting)?|past(?:e|es|ed|ing)|pip(?:e|es|ed|ing)|"
    r"shar(?:e|es|ed|ing)|publish(?:es|ed|ing)?)"
)
_AWAY = (
    r"(?:https?://|[\w.-]+@[\w-]+\.\w+|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b(?:attacker|evil|external|"
    r"remote|pastebin|gist|webhook|my server|this (?:address|server|url|endpoint)|mirror)\b)"
)
_ENGLISH = [
    (rf"\b{_VERB}\b[^.\n]{{0,40}}\b{_WHICH}\b[^.\n]{{0,30}}\b{_ORDERS}", DROP),
    (rf"\b{_VERB}\b[^.\n]{{0,12}}{_TOLD}", DROP),
    (
        rf"\b{_VERB} (?:the |your |all (?:the )?)?{_ORDERS}\b[^.\n]{{0,30}}\b(?:above|before|"
        rf"so far|earlier|previously|given)\b|\b{_VERB} (?:everything |all |the |the text )"
        r"(?:above|before this)\b",
        DROP,
    ),
    (rf"\b{_VERB} (?:\w+ ){{0,3}}{_WHICH} (?:\w+ ){{0,3}}{_ORDERS}\b", DROP),
    (
        rf"\b{_ORDERS}\b[^.\n]{{0,30}}\b(?:are|is|have been|has been|were)\b[^.\n]{{0,15}}\b"
        r"(?:outdated|void|revoked|cancel+ed|obsolete|lifted|suspended|superseded|replaced by "
        r"(?:this|these|the following))",
        DROP,
    ),
    (rf"\b{_ORDERS}\b[^.\n]{{0,40}}\bno longer appl(?:y|ies)\b", DROP),
    (
        r"\byou are now\b|\byou are no longer\b|\bfrom (?:now on|this point(?: forward| on)?|here"
        r" on),? you\b|\bnew (?:system )?(?:instructions?|orders|task)\s*:|\bpretend (?:you are|to"
        r" be|that you)\b|\brole-?play as\b|\bact as (?:an? |the |my )?(?:unrestricted|unfiltered|"
        r"uncensored|jailbroken|evil|root|admin|administrator|system|shell|obedient)\b|\b(?:"
        r"developer|god|dan|jailbreak|unfiltered|unrestricted|sudo) mode\b|\bjailbr(?:eak|oken)\b|"
        r"\bstay in character\b|\byour new (?:persona|role|identity|name) is\b|\bassume the (?:"
        r"role|identity) of\b|\bsimulate an? (?:ai|model|assistant)\b|\bnever refuses?\b|\byou "
        r"(?:must|will) (?:now )?(?:obey|comply)\b|\bcomply with every\b|\bignore safety\b",
        ROLE,
    ),
    (
        r"\b(?:ai|assistant|model|agent|bot|you)\b[^.\n]{0,30}\b(?:without|with no|has no|have "
        r"no)\b[^.\n]{0,10}\b(?:restrictions|limits|limitations|filters|guidelines|content "
        r"policy|rules|safety)\b",
        ROLE,
    ),
    (
        r"\btreat (?:this|it|that|the next line|the following|these)\b[^.\n]{0,20}\bas (?:a |an "
        r"|your |the |my )?(?:new |highest[- ]priority |top[- ]priority |primary )?(?:system "
        r"prompt|system message|instructions?|commands?|orders)\b",
        ROLE,
    ),
    (
        r"\b(?:reveal|print|show|output|repeat|recite|dump|echo|display|write out|tell me|give "
        r"me|disclose|leak|spell out)\b[^.\n]{0,30}\b(?:system prompt|system message|developer "
        r"message|hidden (?:prompt|instructions|rules)|initial prompt|original prompt|(?:your|the)"
        r" (?:instructions|rules|prompt|configuration|guidelines|directives)|everything above|the "
        r"text above|context window|what you were told)",
        REVEAL,
    ),
    (
        r"\b(?:system prompt|system message|developer message|your instructions|were you told)\b"
        r"[^\n]{0,60}\b(?:word for word|verbatim)\b|\b(?:word for word|verbatim)\b[^\n]{0,60}\b"
        r"(?:instructions|system prompt|system message)\b",
        REVEAL,
    ),
    (
        r"\b(?:do not|don't|dont|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|"
        r"notify(?:ing)?|alert(?:ing)?|let(?:ting)?|report(?:ing)?)\b[^.\n]{0,25}\b(?:the user|"
        r"the human|the person|the developer|the operator|anyone|anybody|the owner)\b",
        HIDE,
    ),
    (
        r"\b(?:the user|the human|the person|they|nobody|no one)\b[^.\n]{0,20}\b(?:must not|"
        r"mustn't|should not|shouldn't|must never|should never|will never|won't)\b[^.\n]{0,10}\b"
        r"(?:notice|know|find out|see|learn|suspect|be told)\b",
        HIDE,
    ),
    (
        r"\b(?:hide|conceal|keep)\b[^.\n]{0,30}\bfrom (?:the user|the human|the person|the "
        r"developer|them|anyone)\b|\bsuspects? nothing\b|\bleave out the fact\b|\b(?:don't|do not"
        r"|never) report (?:it|this|back)\b|\bwithout (?:asking|telling|informing|notifying)"
        r"(?: or \w+)? (?:anyone|anybody|the user|them)\b",
        HIDE,
    ),
    (
        r"\b(?:silently|quietly|secretly|covertly)\b[^.\n]{0,40}\b(?:disable|delete|remove|add|"
        r"send|upload|run|install|change|modify|rotate|wipe|exfiltrate|copy|forward)|\b(?:disable"
        r"|delete|remove|send|upload|wipe|exfiltrate|forward)\w*\b[^.\n]{0,40}\b(?:silently|"
        r"quietly|secretly|covertly)\b",
        HIDE,
    ),
    (
        rf"\b{_SENDS}\b[^\n]{{0,60}}{_SECRET_THINGS}[^\n]{{0,60}}\b(?:to|at|into|on)\b"
        rf"[^\n]{{0,40}}{_AWAY}",
        SEND,
    ),
    (
        rf"{_SECRET_THINGS}[^\n]{{0,40}}\b{_SENDS}\b[^\n]{{0,40}}\b(?:to|at|into)\b"
        rf"[^\n]{{0,20}}{_AWAY}",
        SEND,
    ),
]
# Commands that move secrets off the machine or destroy it, and fetched scripts run on cue.
_COMMANDS = [
    r"\b(?:cat|type|head|tail|base64|env|printenv)\b[^|\n]{0,60}\|\s*(?:curl|wget|nc|ncat|"
    r"netcat|socat|ssh|scp)\b",
    r"(?:curl|wget|https?://)[^\n]{0,80}\$\((?:cat|env|printenv|base64|whoami)\b",
    r"\b(?:curl|wget)\b[^\n]{0,60}(?:-d|--data[a-z-]*|-f|--form|-t|--upload-file)\s+['\"]?@?"
    r"(?:~|\$home|/etc|\.env|\.ssh|\.aws|id_rsa|-\s)",
    r"\b(?:scp|rsync)\b[^\n]{0,40}(?:\.ssh|id_rsa|id_ed25519|\.aws|\.env\b|\.netrc|"
    r"\.git-credentials)",
    r"\brm\s+-\w+\s+(?:/|~/?|\$home/?)(?=\s|$|\*)|\brm\b[^\n]{0,20}(?:\.ssh|\.git-credentials|"
    r"\.aws|\.gnupg)",
]
_CUE = (
    r"\b(?:next time you|whenever you|every time you|each time you|before (?:any|every|each)|"
    r"after (?:any|every|each)|each session|every session|when you see|first run|"
    r"from now on|going forward|for (?:every|each|all)|always)\b"
)
# a fetched script run by a shell, in a command or in words: "piping the install script from
# http://… into sh for every setup from now on"
_ON_CUE = (
    r"\b(?:curl|wget)\b[^|\n]{0,100}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\bgit push --mirror\b|"
    r"\bpip(?:e|es|ed|ing)\b[^\n]{0,80}https?://[^\n]{0,80}\b(?:in)?to\s+(?:sudo\s+)?"
    r"(?:ba|z)?sh\b"
)

_ROLE_NAMES = r"(?:system|assistant|ai|human|user|developer|operator|admin|tool|model)"
_ROLE_LINE = re.compile(rf"(?m)^[ \t>*_#\[(]*{_ROLE_NAMES}[\])*_]*\s*:")
_SPOKEN = [
    r"(?m)^[ \t>*_#\[(]*(?:system|assistant|ai|developer|model|operator|admin)[\])*_]*\s*:\s*"
    r"(?:you\b|ignore|disregard|the user\b|the agent\b|from now|new\b|i will\b|i'll\b|i am going"
    r"|sure\b|of course|understood|okay\b|ok,|done\b|priority|security|grant|authori[sz]|run\b|"
    r"delete|execute|override|treat|always|never|memdesk)",
    r"(?m)^\W*(?:system|admin|administrator|developer|operator|security)\s+(?:message|notice|"
    r"override|alert|instruction|update|prompt)s?\b\s*[:!-]",
    r"(?m)^\s*\[\s*(?:system|admin|developer|sys|instructions?)\s*\]",
    r"(?m)^\s*#{1,6}\s*(?:system|instructions?|response|assistant|developer)\s*:?\s*$",
    r"[\"']?\brole[\"']?\s*[:=]\s*[\"']?(?:system|assistant|developer)\b",
]
_OPEN, _CLOSE = (
    "[<\u2039\u3008\u300a\u27e8\u276c\uff1c\u00ab]",
    "[>\u203a\u3009\u300b\u27e9\u276d\uff1e\u00bb]",
)
_TAGS = [
    (
        rf"{_OPEN}\s*/?\s*(?:system|assistant|developer|instructions?|im_start|im_end|tool_call|"
        rf"tool_result|function_calls?|invoke|start_of_turn|end_of_turn|sys)\b[^<>\n]{{0,40}}"
        rf"{_CLOSE}|{_OPEN}\s*/\s*(?:user|human)\s*{_CLOSE}",
        TAG,
    ),
    (r"<\|[a-z_ ]{2,20}\|>|\[/?(?:inst|sys)\]|<</?sys>>", TOKEN),
    (rf"{_OPEN}\s*/?\s*memory\s*[-_\u2010-\u2015 ]?\s*context\s*{_CLOSE}", DELIMITER),
    (r"<[a-z]+\b[^<>]{0,200}\bon[a-z]+\s*=|javascript:", SCRIPT),
]
_AGENT_WORDS = re.compile(
    r"\b(?:ignore|disregard|system|assistant|agent|model|ai|you|instructions?|prompt|override|"
    r"leak|exfiltrate|upload|send|delete|disable|silently|rules|comply|obey)\b"
)
_HIDDEN_PARTS = [
    re.compile(r"<!--(.*?)-->", re.S),
    re.compile(r"(?m)^\s*\[//\]:\s*#\s*\((.*)\)"),
    re.compile(
        r"<(\w+)[^<>]{0,200}(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|\bhidden\b|"
        r"colou?r\s*[=:]\s*['\"]?(?:white|#fff\b|#ffffff)|opacity\s*:\s*0)[^<>]{0,200}>(.{0,500}?)</\1>",
        re.S,
    ),
]

# Substrings a rule cannot match without (one of each group): most texts hold none, and the
# expressions are not run for them.
_V = (
    "ignor",
    "disregard",
    "forget",
    "overrid",
    "discard",
    "drop",
    "abandon",
    "bypass",
    "aside",
    "attention",
    "follow",
    "mind",
    "skip",
    "erase",
    "scrap",
)
_WHO = ("user", "human", "person", "developer", "operator", "anyone", "anybody", "owner")
_ENGLISH_NEEDS = [
    (_V,),
    (_V, ("told", "given", "instructed", "said")),
    (_V, ("above", "before", "so far", "given", "earlier", "previously")),
    (_V,),
    (("outdated", "void", "revoked", "cancel", "obsolete", "lifted", "suspended", "superseded",
      "replaced by"),),
    (("no longer appl",),),
    (("you are", "from ", "new ", "pretend", "play as", "act as", " mode", "jailbr", "character",
      "your new", "assume the", "simulate", "refuse", "obey", "comply", "safety"),),
    (("without", "with no", "has no", "have no"),),
    (("treat ",),),
    (("reveal", "print", "show", "output", "repeat", "recite", "dump", "echo", "display",
      "write out", "tell me", "give me", "disclose", "leak", "spell out"),
     ("prompt", "message", "instruction", "rule", "configuration", "guideline", "directive",
      "above", "context window", "told")),
    (("word for word", "verbatim"),),
    (("not ", "n't", "dont", "never", "without"), _WHO),
    (("must", "should", "will never", "won't"),
     ("notice", "know", "find out", "see", "learn", "suspect", "be told")),
    (("from ", "suspect", "leave out", "report", "without "),),
    (("silently", "quietly", "secretly", "covertly"),),
    (("send", "sent", "upload", "post", "mail", "email", "forward", "copy", "copi", "exfiltrat",
      "leak", "transmit", "paste", "pasting", "pipe", "piping", "share", "sharing", "publish"),
     ("credential", "secret", "key", "token", "password", "env", "cookie", "id_rsa", ".aws",
      ".netrc", ".ssh", "dump", "backup", "file", "chat history", "conversation", "personal")),
    (("send", "sent", "upload", "post", "mail", "email", "forward", "copy", "copi", "exfiltrat",
      "leak", "transmit", "paste", "pasting", "pipe", "piping", "share", "sharing", "publish"),
     ("credential", "secret", "key", "token", "password", "env", "cookie", "id_rsa", ".aws",
      ".netrc", ".ssh", "dump", "backup", "file", "chat history", "conversation", "personal")),
]  # fmt: skip
_COMMAND_NEEDS = [(("|",),), (("$(",),), (("curl", "wget"),), (("scp", "rsync"),), (("rm ",),)]
_SPOKEN_NEEDS = [
    ((":",),),
    (("message", "notice", "override", "alert", "instruction", "update", "prompt"),),
    (("[",),),
    (("#",),),
    (("role",),),
]
_TAG_NEEDS = [
    (("<", "\u2039", "\u3008", "\u300a", "\u27e8", "\u276c", "\u00ab"),),
    (("<|", "[inst", "[/inst", "[sys", "[/sys", "<<"),),
    (("context",),),
    (("<", "javascript:"),),
]


# Each group of words a rule needs one of, numbered; a rule is tried when the text holds a
# word of each of its groups (checking group by group cost a third of the guard's reading).
_GROUPS: dict[frozenset[str], int] = {}


def _rules(
    pairs: list[tuple[str, str]], needs: list[tuple[tuple[str, ...], ...]]
) -> list[tuple[re.Pattern[str], str, frozenset[int]]]:
    return [
        (
            re.compile(pattern),
            why,
            frozenset(_GROUPS.setdefault(frozenset(g), len(_GROUPS)) for g in groups),
        )
        for (pattern, why), groups in zip(pairs, needs, strict=True)
    ]


_RULES = (
    _rules(_ENGLISH, _ENGLISH_NEEDS)
    + _rules([(p, COMMAND) for p in _COMMANDS], _COMMAND_NEEDS)
    + _rules([(p, SPEAKER) for p in _SPOKEN], _SPOKEN_NEEDS)
    + _rules(_TAGS, _TAG_NEEDS)
)
# What a text holding none of the rules' words is tried with (the rules that need none; in
# the order of _RULES): most texts, whose 31 rules were each looked at and passed over.
_UNCONDITIONAL = tuple(rule for rule in _RULES if not rule[2])
_GROUPS_OF: dict[str, set[int]] = {}
for _group, _number in _GROUPS.items():
    for _word in _group:
        _GROUPS_OF.setdefault(_word, set()).add(_number)
_NEEDED = frozenset(_GROUPS_OF)
# Words are looked up by their first three letters (a text has few), the rest always checked.
_BY_PREFIX: dict[str, list[str]] = {}
for _word in sorted(_NEEDED):
    if re.match("[a-z]{3}", _word):
        _BY_PREFIX.setdefault(_word[:3], []).append(_word)
_ALWAYS = [word for word in _NEEDED if not re.match("[a-z]{3}", word)]
_TOKEN = re.compile("[a-z]{3,}")


def _present(words: str) -> set[str]:
    prefixes = {token[:3] for token in _TOKEN.findall(words)}
    found = {word for word in _ALWAYS if word in words}
    for prefix in prefixes & _BY_PREFIX.keys():
        found.update(word for word in _BY_PREFIX[prefix] if word in words)
    return found


_CUED = re.compile(_CUE), re.compile(_ON_CUE)
# What every match of _ON_CUE starts with: a text holding none of them is not searched.
_ON_CUE_WORDS = ("curl", "wget", "git push --mirror", "pip")


def find(reading: Reading) -> list[str]:
    """Why the text read as `reading` steers its reader."""
    found: list[str] = []
    met = set().union(*(_GROUPS_OF[word] for word in _present(reading.words)))
    texts = reading.forms + reading.flowing
    for pattern, why, needs in _RULES if met else _UNCONDITIONAL:
        if why in found or not needs <= met:
            continue
        if any(pattern.search(text) for text in texts):
            found.append(why)
    plain = reading.plain
    cue, on_cue = _CUED
    if (
        COMMAND not in found
        and any(word in plain for word in _ON_CUE_WORDS)
        and cue.search(plain)
        and on_cue.search(plain)
    ):
        found.append(COMMAND)
    speakers = {m.group().strip(" \t>*_#[(]):").strip() for m in _ROLE_LINE.finditer(plain)}
    if len(speakers) >= 2 and speakers & {"assistant", "ai", "system", "model"}:
        found.append(DIALOGUE)
    if any(_hides_words(pattern, plain) for pattern in _HIDDEN_PARTS):
        found.append(HIDDEN_HTML)
    return found


def _hides_words(pattern: re.Pattern[str], text: str) -> bool:
    for match in pattern.finditer(text):
        inner = match.group(match.lastindex or 0)
        if len(inner.split()) >= 3 and _AGENT_WORDS.search(inner):
            return True
    return False
