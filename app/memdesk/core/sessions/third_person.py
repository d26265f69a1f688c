"""What the user said of themself, stored as said of "the user": "I prefer tabs" becomes
"the user prefers tabs", the verb after it agreeing; what the user quotes stays as written."""

from __future__ import annotations

import re

from memdesk.core.sessions import pasted

_I = re.IGNORECASE

# "I" in either case: people typing fast write "i hate mocks"; not the "i" of "i.e." nor "I/O",
# nor a flag ("curl -I").
_SUBJECT_I = r"(?<![-/])\b[Ii]"
_LONE_I = _SUBJECT_I + r"\b(?![.'’/-]\w)(?<![\w/-]i)"
# Each of the user's words and how it is said, naming "the user" and, once named, "they":
# "the user always runs prettier on the files they touched before they commit" reads as
# English where "… the files the user touched before the user commits" did not.
_CONTRACTED = (
    # ("I really don't like …": the adverb stays before the helping verb)
    (
        _SUBJECT_I + r"(?P<adverbs_c0>(?: (?:\w+ly|just|also|still|even))*) (?:don['’]t|dont)\b",
        "the user{} doesn't",
        "they{} don't",
    ),
    (_SUBJECT_I + r" do not\b", "the user does not", "they do not"),
    (_SUBJECT_I + r"['’]m\b", "the user is", "they are"),
    (_SUBJECT_I + r" am\b", "the user is", "they are"),
    (_SUBJECT_I + r"['’]ve\b", "the user has", "they have"),
    (_SUBJECT_I + r"['’]d\b", "the user would", "they would"),
    (_SUBJECT_I + r"['’]ll\b", "the user will", "they will"),
)
# "I" and the verb it is the subject of, after adverbs ("I really never use …"). Only the
# user's own "I" takes an agreeing verb: "the user" already in the text ("if the user clicks
# save") is someone else's subject, its verb already agreeing.
_I_AND_VERB = (
    # (verbs in -ly are no adverbs: "I apply", "I rely on")
    _LONE_I + r"(?P<adverbs>(?: (?:(?!(?:apply|rely|reply|supply|multiply|comply|imply|fly|tally|"
    r"rally|ally)\b)\w+ly|always|never|also|often|only|just|still|even|sometimes|"
    r"rarely|seldom|mostly|basically|kinda|pretty much|much|very much|no longer|"
    r"almost always|almost never))*) "
    # (an adverb before a helping verb is no verb: "I genuinely can't read them")
    r"(?P<v>(?![a-z]+ly (?:can|could|would|will|should|shall|do|does|did|must|may|might|won|"
    r"don|didn|doesn|am|have|had)\b)[a-z]+(?:-[a-z]+)*)\b(?!['’])"
)
_OTHERS = (
    (_LONE_I, "the user", "they"),
    (r"(?<![/\w])(?i:myself)(?![/\w])", "the user", "themselves"),
    (r"(?<![/\w])(?i:my)(?![/\w])", "the user's", "their"),
    (r"(?<![/\w])(?i:me)(?![/\w])", "the user", "them"),
)
_SAID = re.compile(
    "|".join(f"(?P<c{n}>{regex})" for n, (regex, *_) in enumerate(_CONTRACTED))
    + f"|(?P<verb>{_I_AND_VERB})|"
    + "|".join(f"(?P<o{n}>{regex})" for n, (regex, *_) in enumerate(_OTHERS))
)
# Someone else the text speaks of ("Jae owns android and I own iOS, so gradle questions go to
# him, not me"): there "they" could be them, so "the user" is named each time.
_SOMEONE_ELSE = re.compile(r"\b(?:he|him|his|she|her|hers|they|them|their|theirs|the user)\b", _I)
# Verbs that do not agree: modals, and the past ("the user rewrote", never "rewrotes").
_AS_IS = frozenset("can could will would shall should may might must ought used".split())
# Words after "I" that are no verb ("I too prefer", "it's I who decide", "me and I").
_NO_VERB = frozenset(
    """who whom which that what the a an and or but nor to in on at for with of from by it
    this these those not so too as if then when here there now alone either neither both all
    myself""".split()
)
# English's irregular past tenses: a closed list. With a prefix (rewrote, overrode, undid)
# they are past too. Not those said alike in the present ("I read diffs on my phone", "I put
# tests beside the code"): a statement kept is mostly of what the person does.
_IRREGULAR_PAST = frozenset(
    """did had was were arose awoke bore beat became began bent bit bled blew broke bred brought
    built burnt bought caught chose clung came crept dealt dug dove drew dreamt drank drove
    ate fell fed felt fought found fled flung flew forbade forgot forgave froze got gave went
    ground grew hung heard hid held kept knelt knew laid led leapt learnt left lent lit lost
    made meant met paid proved rode rang rose ran said saw sought sold sent shook shone shot
    showed shrank sang sank sat slept slid slung smelt spoke sped spent spilt spun spat
    sprang stood stole stuck stung stank strode struck strove swore swept swam swung took
    taught tore told thought threw trod woke wore wove wept won wound wrung wrote
    """.split()
)
_PREFIX = re.compile(r"^(?:re|over|under|mis|un|out|with|fore|up|down|by)(?=[a-z]{2})")


def person(text: str, *, named: bool = False) -> str:
    """`text` with the user's "I" and "my" said of "the user", the verb after it agreeing, and
    of "they" once the user is named (`named`: the words before `text` name them); what the
    user quotes stays as they wrote it ("stop ending with 'Let me know …'")."""
    pronouns = not _SOMEONE_ELSE.search(text)
    out, last = [], 0
    for quoted in [*pasted.QUOTED.finditer(text), None]:
        end = quoted.start() if quoted else len(text)
        said, named = _said_of_the_user(text[last:end], named=named, pronouns=pronouns)
        out.append(said)
        if quoted:
            out.append(quoted[0])
            last = quoted.end()
    return "".join(out)


def _said_of_the_user(text: str, *, named: bool, pronouns: bool) -> tuple[str, bool]:
    """`text` said of the user, and whether the user is named by its end."""

    def said(match: re.Match[str]) -> str:
        nonlocal named
        they = named and pronouns
        named = True
        if match["verb"]:
            verb = match["v"]
            if they:
                return f"they{match['adverbs']} {'were' if verb == 'was' else verb}"
            return f"the user{match['adverbs']} {_agreeing(verb)}"
        kind = next(k for k in match.groupdict() if k[0] in "co" and match[k] is not None)
        table = _CONTRACTED if kind[0] == "c" else _OTHERS
        return table[int(kind[1:])][2 if they else 1].format(match["adverbs_c0"] or "")

    return _SAID.sub(said, text), named


def _agreeing(verb: str) -> str:
    """The verb as "the user" takes it: "prefers", "has", "goes", "squash-merges"; a modal or
    a past tense as it is."""
    if verb in _AS_IS or verb in _NO_VERB or is_past(verb):
        return verb
    if verb == "have":
        return "has"
    head, dash, last = verb.rpartition("-")
    if dash:
        return f"{head}-{_agreeing(last)}"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# a verb of taste the person said of themself, said of "the user" ("I can't stand …" keeps its
# verb; "I don't like …" is "the user doesn't like …")
def likes(verb: str) -> str:
    verb = verb.lower()
    if verb in ("can't stand", "cannot stand"):
        return verb
    if verb == "don't like":
        return "doesn't like"
    return verb + "s"


def is_past(verb: str) -> bool:
    """Whether `verb` (lower case) is a past tense: regular, or one of English's irregular ones."""
    if verb.endswith("ed") and not verb.endswith(("eed", "bed", "shred")):
        return True
    return verb in _IRREGULAR_PAST or _PREFIX.sub("", verb) in _IRREGULAR_PAST
