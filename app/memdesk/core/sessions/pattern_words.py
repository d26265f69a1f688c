"""The words the gap-fill table's patterns are spelled with (`gapfill_patterns`): what may
follow "always", "never" or an opening "no" and still be no instruction (a description, a
reply), what counts as a person's role or a thing of their own, and the verbs and places a
fact about where something is is told with. Kept apart from the table so that each pattern
there reads as the shape of sentence it matches, and a word added to a list reaches every
pattern that shares it.
"""

from __future__ import annotations

# After "always"/"never", words that show a description ("always the same error", "never
# again"), not an instruction.
NOT_A_VERB = (
    r"(?:mind|the|a|an|this|that|these|those|my|your|it|again|ever|something|anything|"
    r"everything|nothing|so|too|been|was|is|works?|seen|heard|done|had|gone|thought|"
    # an imperative takes the base form: "never used this" describes, "never use" instructs
    # (not "seed", "feed", "embed": base forms that end so)
    r"(?!(?:seed|feed|proceed|heed|speed|weed|breed|embed|shred|shed)\b)\w+ed)\b"
)
ROLES = (
    r"engineer|developer|programmer|designer|manager|scientist|researcher|student|lead|"
    r"architect|analyst|administrator|admin|writer|founder|cto|ceo|consultant|teacher|sre"
)
MINE = (
    r"name|e-?mail|role|job|title|time ?zone|github(?: handle| username)?|username|handle|"
    r"pronouns|company|employer|team|editor|ide|shell|os|operating system|laptop|machine|"
    r"computer|desktop|keyboard|location|city|(?:preferred|favou?rite|default|main|primary) "
    r"[a-z ]{2,24}"
)

# After a "no" that opens a sentence, words that answer or report ("no idea", "no errors in
# the log"), not a thing ruled out.
NOT_FORBIDDEN = (
    r"(?:one|body|idea|problem|problems|worries|thanks|way|need|more|longer|matter|luck|change|"
    r"changes|difference|errors?|warnings?|output|response|reply|news|clue|rush|pressure|hurry|"
    r"doubt|issues?|data|rows?|results?|hits?|matches|logs?|sign|trace|i|we|you|it|they|that|"
    r"this|the|wait|no|nope|not)"
)

PRESENT = (
    r"(?:is|are|'s|'re|runs?|run|lives?|live|goes|go|sits?|happens?|happen|uses?|use|has|have|"
    r"hits?|points?|defaults?|comes?|needs?|gets?|starts?|deploys?|builds?|publishes|cuts?|"
    r"stays?|remains?)"
)
WHERE = (
    r"(?:at|in|on|under|to|from|via|through|with|by|every|automatically|only|behind|inside|"
    r"against)"
)
