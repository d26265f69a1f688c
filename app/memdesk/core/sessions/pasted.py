"""Text the user pasted rather than wrote: logs, tracebacks, prompts, diffs, compiler and
linter output, command output, SQL and tables, and what they quote of someone else's. What is
left, `prose`, is what extraction reads."""

from __future__ import annotations

import re
from functools import lru_cache

_I = re.IGNORECASE


# Lines a person pastes rather than writes: logs, tracebacks, prompts, diffs, compiler and
# linter output (a source position, a gutter, a level with a code: "error[E0502]:").
_LOG_LINE = re.compile(
    r"^\s*(?:\[?\d{4}-\d\d-\d\d[T ]\d|\d\d:\d\d:\d\d|traceback \(most recent|file \"|at \S+\(|"
    # ("%Warning-WIDTH: rtl/quad_dec.v:42:18: …", as verilator prints it)
    r"%?\w*(?:error|exception|warning)(?:-[\w-]+)?(?:\[\w+\])?:|(?:error|warn|warning|info|debug|fatal|"
    r"critical)(?:\[\w+\])?\s*[:\]•|-]|(?-i:(?:error|warn|info) [A-Z])|[+-]{3} |"
    r"@@ |\$ |>>> |# |[│●✕✓×^] |\^{3,}|-->|\d+\s+\||\|\s|==\d+==|\S+\.\w+:\d+(?::\d+)?:|"
    r"=\s*(?:help|note|hint):|"
    # R's errors as rlang prints them: "Error in `mutate()`:", "ℹ In argument: …", "Caused by
    # error:", "! `x` must be size 1432 or 1, not 1431."
    r"! |ℹ |caused by (?:error|warning)\b|(?:error|warning) in `[^`]{1,80}`\s*:|"
    # a database's error report: "LINE 3:  WHERE …", "HINT:  No function matches …"
    r"(?-i:LINE \d+:|HINT:|DETAIL:|CONTEXT:|STATEMENT:|QUERY:|SQL state:|Character: \d)|"
    r"(?-i:[A-Z]+_[A-Z_]+\b)|\d\d/\d\d/\d\d \d\d:\d\d|\*\* |[✘✔✖⚠] |"
    # (a level tag among a log line's first fields; "markers like [ERR ] and [WARN]" is prose)
    r"(?:\S+\s+){0,4}\[(?-i:ERROR|WARN|WARNING|INFO|DEBUG)\]|.*\S\s+\|\s+\S.*\s\|\s|"
    r"(?-i:\S+ (?:WARN|ERROR|INFO|DEBUG|FATAL|TRACE) )|"
    # a program's own complaint ("ld: symbol(s) not found for …", "bash: foo: command not found")
    r"(?-i:[a-z][\w.+-]{1,20}):(?: [\w()'.-]+:?){0,4}? (?:error|warning|fatal|undefined|cannot|"
    r"no such|not found|command not found|permission denied)\b|"
    # JSON, a chained cause, a process's tagged line ("[12044:0312/101522.331:ERROR:…]"), an
    # exception named "…Failed:", a subtitle's number and a transcript's speaker ("THE
    # WITNESS: …"), an OSC or MQTT address with its value ("/eos/out/cmd \"LIVE …\"")
    r"\[?\{\"|caused by:|\[\d+[:\]]|(?-i:[A-Z][a-z]+\w*(?:Failed|Failure)):|\d+$|"
    r"(?-i:[A-Z][A-Z.'-]+(?: [A-Z][A-Z.'-]+){1,3}):\s|/[\w.-]+(?:/[\w.-]+)+\s+[\"\d])",
    _I,
)
# Where in the source something happened, anywhere in the line ("(at Assets/Stamina.cs:31)").
_SOURCE_POSITION = re.compile(
    r"(?<![\w./-])[\w./-]+\.(?:py|pyi|rs|go|rb|js|jsx|ts|tsx|dart|java|kt|kts|cs|cpp|cc|c|h|hpp|ex|exs|hs|"
    r"swift|php|scala|clj|jl|lua|sh|vue|svelte|gd|r|ml|nim|sol):\d+(?::\d+)?\b|"
    r"\bin file \"[^\"]+\", line \d+",
    _I,
)


# What the user quotes inside their own sentence: mentioned, not said ("when I say 'tonight'").
QUOTED = re.compile(r"`[^`]*`|\"[^\"]*\"|“[^”]*”|(?<!\w)'[^'\n]*'(?!\w)")
_IN_BACKTICKS = re.compile(r"`[^`\n]+`")
# A statement of SQL pasted on a line of its own ("select * from orders o join users u …").
_SQL = re.compile(
    r"(?:select\s+(?:distinct\s+)?(?:\*|[\w.]+(?:\s*,\s*[\w.()*]+)*)\s+from\s+[\w.]+|"
    r"insert\s+into\s+[\w.]+\s*(?:\(|values\b|select\b)|delete\s+from\s+[\w.]+\s+where\b|"
    r"update\s+[\w.]+\s+set\s+\w+\s*=|(?:create|alter|drop)\s+(?:table|index|view)\s+[\w.]+)",
    _I,
)
# A row of a command's table ("billing-7c9d8f   1/1   Running   0   3d"): four columns or more.
_COLUMN_GAP = re.compile(r" {2,}")


def is_pasted(line: str) -> bool:
    stripped = line.strip()
    if not stripped:
        return False
    if line.startswith(("    ", "\t", ">")) or _LOG_LINE.match(stripped):
        return True
    # a position the user quotes in their own sentence ("the detector flags `metrics.go:118`",
    # "First: webhooks/dispatcher.go:88, where u comes from config") is a mention, not a
    # pasted line
    position = _SOURCE_POSITION.search(_IN_BACKTICKS.sub("`…`", stripped))
    if position and not _reads_as_prose(stripped) or _SQL.match(stripped):
        return True
    if len(_COLUMN_GAP.split(stripped)) >= 4:
        return True
    symbols = sum(1 for c in stripped if c in "{}[]();=<>|\\")
    return symbols >= 4 and symbols > len(stripped) / 12


# Words that carry a sentence; a trace or a compiler's line has few of them.
_GLUE = re.compile(
    r"\b(?:the|a|an|i|we|you|it|is|are|was|from|where|when|to|of|and|with|on|in|that|this|so|"
    r"if|but|for|comes|goes|instead|than|because)\b",
    _I,
)


def _reads_as_prose(line: str) -> bool:
    return len(line.split()) >= 12 and len(_GLUE.findall(line)) >= 5


# What someone or something else said, quoted by the user ("the ticket says: '…'", "kernel
# log: `…`", "my manager wrote in slack: '…'", "copied from the vendor docs: '…'"): their
# words, not the user's. The team's own documents speak for the team ("our guide says: '…'").
_ATTRIBUTED = re.compile(
    r"(?:(?<!\bi )(?<!\bwe )(?<!\byou )(?<!\bi've )(?<!\bwe've )\b(?:says|said|wrote|writes|"
    r"asked|asks|replied|answered|commented|flagged|warns|warned|put it)(?: \w+){0,3}\s*:?|"
    r"\b(?:copied|pasted|quoted|quoting|taken) from\b[^:\n]{0,40}:|"
    # (not the person's own lead-in: "quick note: `!!` doesn't appear in any kotlin I write")
    r"\b(?:log|logs|output|warning|error|message|(?<!quick )(?<!side )(?<!small )(?<!short )"
    r"(?<!a )note|notes|fragment|excerpt|snippet|quote|"
    r"ticket|comment|email|mail|slack|chat|issue|docs|doc|readme|spec|description|title|"
    r"changelog|announcement|memo|feedback|review|answer|reply|text|linter|scanner|compiler|"
    r"reads|states|report|reports)(?: \w+){0,3}\s*:)\s*$",
    _I,
)
_OURS = re.compile(
    r"\b(?:our|my) (?:[\w-]+ ){0,2}(?:guide|docs|doc|readme|wiki|runbook|handbook|playbook|"
    r"policy|conventions?|standards?|rules?|contributing|notes?)\b(?:(?!\b(?:from|by|of)\b).)*$",
    _I,
)


def _others_words(line: str) -> str:
    """`line` with what it quotes from someone or something else left out (“…”)."""
    kept, last = [], 0
    for quoted in QUOTED.finditer(line):
        before = line[max(last, quoted.start() - 80) : quoted.start()]
        theirs = _ATTRIBUTED.search(before) and not _OURS.search(before)
        kept += [line[last : quoted.start()], "“…”" if theirs else quoted[0]]
        last = quoted.end()
    return "".join([*kept, line[last:]])


CODE_SPAN = re.compile(r"`[^`\n]+`")
_HELD = str.maketrans({".": "\ue000", "!": "\ue001", "?": "\ue002", ";": "\ue003"})
_BACK = str.maketrans({"\ue000": ".", "\ue001": "!", "\ue002": "?", "\ue003": ";"})


def unwrapped(text: str) -> str:
    """`text` without the backticks around it, but not a closing one of code it holds ("use
    `raise ... from e`" read as "use `raise ... from e")."""
    return text.strip("`").strip() if text.count("`") % 2 else text


def split_outside_code(pattern: re.Pattern[str], text: str) -> list[str]:
    """`pattern.split(text)`, never inside `inline code`: "admonitions are always `!!! note`
    blocks" is one sentence, not one cut after "`!!!"."""
    held = CODE_SPAN.sub(lambda m: m[0].translate(_HELD), text)
    return [part.translate(_BACK) for part in pattern.split(held)]


@lru_cache(maxsize=256)  # the table and the clause reader each read a message's prose
def prose(message: str) -> str:
    """The words the user wrote in `message`: code blocks, pasted lines, a block of lines
    (no blank line between) that is mostly pasted, and whatever follows a line that
    introduces a paste ("Here's the commit message I wrote:") left out. The lines of a
    pasted log between its error lines ("Note that in CI this is true by default.") read
    like prose, and are not the user's."""
    message = re.sub(r"```.*?(?:```|$)", "\n", message, flags=re.DOTALL)
    kept = []
    for block in re.split(r"\n\s*\n", message):
        lines = block.splitlines()
        marked = [is_pasted(line) for line in lines]
        # a log's own lines go on indented after its first; a command's ("$ git log") output
        # runs to the end of its block
        for n in range(1, len(lines)):
            marked[n] = marked[n] or marked[n - 1] and lines[n].startswith("  ")
            marked[n] = marked[n] or any(line.lstrip().startswith("$ ") for line in lines[:n])
        if sum(marked) >= 2 and sum(marked) * 2 >= len(lines):
            continue
        spoken = False  # a speaker's turn goes on to the end of its block
        for line, was_pasted in zip(lines, marked, strict=True):
            if _INTRODUCES_PASTE.search(line):
                # ("i like pattern matching in function heads. heres the handle_params:"):
                # what the line said before the sentence that brings the paste is the
                # person's
                *before, last = re.split(r"(?<=[.!?])\s+", line)
                if before and _INTRODUCES_PASTE.search(last):
                    kept.append(" ".join(before))
                return "\n".join(kept)
            spoken = spoken or bool(_SPEAKER.match(line))
            if not was_pasted and not spoken:
                kept.append(_others_words(line))
        kept.append("")
    return "\n".join(kept).strip("\n")


# A turn of a chat the person pasted ("User: I always deploy with …", "### Assistant"): the
# person does not speak of themselves under a speaker's label; stored as theirs, a page's
# fake dialogue became their rule in every project (red team, stop 72).
_SPEAKERS = r"(?:user|human|assistant|ai|system|model|claude|chatgpt|gpt|gemini|copilot|bot|me|you)"
_SPEAKER = re.compile(
    # "User: …", "**Assistant:** …", or a heading of its own ("### User", "**Claude**")
    rf"^[ \t>]*(?:[*_\[(]*{_SPEAKERS}[\])*_]*\s*:|(?:#{{1,6}}\s*|\*\*){_SPEAKERS}(?:\*\*)?\s*$)",
    _I,
)
_INTRODUCES_PASTE = re.compile(
    r"\b(?:here's|here is|here are|from the|output|log|logs|trace|message|says|said|got this|"
    # "… never works when I paste it:"
    r"excerpt|snippet|paste|pasted|it prints|it returns|it dies with|"
    r"fails with|complains)\b[^:]*:\s*$",
    _I,
)
