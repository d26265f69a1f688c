"""What a tool call is about, in the words a standing rule would use: the programs a shell
command runs, and the path, file name, extension and language of a file an edit touches.

"npm install marked" is about npm; "uv run pytest -k slow" about uv and pytest; an edit of
/repo/ledger/db/migrations/0007_add.py about python, .py, migrations and that folder. Only
these cues count: a rule that shares nothing but "install" with the command is not about it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Any

# Commands that run another one: the program that matters is the one they run.
_WRAPPERS = frozenset(
    "sudo env time nohup exec command xargs watch nice timeout doas then do else { } !".split()
)
# Runners whose next word names a tool of its own ("npx prettier", "uv run pytest").
_RUNNERS = {
    "npx": 1, "bunx": 1, "pnpx": 1, "uvx": 1, "pipx": 2,
    "uv": 2, "poetry": 2, "pdm": 2, "hatch": 2, "pnpm": 2, "yarn": 2, "npm": 2, "bun": 2,
    "cargo": 1, "go": 1, "python": 2, "python3": 2, "docker": 1, "kubectl": 1, "git": 1,
}  # fmt: skip
# Subcommands and flags every tool has: what they name is the tool's, not a rule's.
_GENERIC_ARGUMENTS = frozenset(
    "run test tests build create get set list show start stop check exec new init update open "
    "close view status help version all dev add install remove rm delete apply watch verbose "
    "quiet yes force-color color output file name".split()
)
_READERS = frozenset(
    "ls cat less more head tail grep rg ag find fd tree wc pwd echo printf which whereis stat "
    "du df file diff sort uniq cut jq yq true false sleep date env printenv".split()
)
_READING_SUBCOMMANDS = {
    "git": {"log", "status", "diff", "show", "blame", "branch", "remote", "ls-files", "grep"},
    "go": {"doc", "list", "env", "version"},
    "cargo": {"tree", "metadata", "search"},
    "docker": {"ps", "images", "logs", "inspect"},
    "kubectl": {"get", "describe", "logs"},
    "npm": {"ls", "list", "view", "outdated"},
    "pnpm": {"ls", "list", "outdated", "why"},
}
_SEGMENTS = re.compile(r"&&|\|\||[;|\n&()`]|\$\(")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
LANGUAGES = {
    ".py": "python", ".pyi": "python", ".ipynb": "jupyter", ".ts": "typescript",
    ".tsx": "typescript", ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".rs": "rust", ".go": "go", ".rb": "ruby", ".java": "java",
    ".kt": "kotlin", ".swift": "swift", ".c": "c", ".h": "c", ".cpp": "c++", ".cc": "c++",
    ".cs": "c#", ".php": "php", ".sql": "sql", ".sh": "shell", ".bash": "bash", ".zsh": "zsh",
    ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".json": "json", ".md": "markdown",
    ".css": "css", ".scss": "scss", ".html": "html", ".vue": "vue", ".svelte": "svelte",
    ".tf": "terraform", ".proto": "protobuf", ".csv": "csv", ".graphql": "graphql",
    ".dockerfile": "docker", ".lua": "lua", ".ex": "elixir", ".exs": "elixir",
}  # fmt: skip
_FILE_TOOLS = ("file_path", "path", "notebook_path")
_NEW_TEXT = ("new_string", "content", "new_source")
MAX_EDIT, MAX_ADDED = 20_000, 40
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]{3,}")
_ARGUMENT = re.compile(r"[a-z0-9][a-z0-9._/-]{2,80}")
# Words of code itself, in the languages agents edit most: never a reason to give a rule.
_CODE_WORDS = frozenset(
    "return import class const async await print false true none null self super while break "
    "continue raise yield lambda assert except finally public private static final string "
    "function value values result results error errors items index count "
    "number length object array list dict type types param params args kwargs data config "
    "option options value_ with_ from_ should expect assert_eq unwrap println format match "
    "struct impl where trait pub_ package module require define undefined interface extends "
    "implements override virtual protected readonly mutable append update delete create "
    "insert select table column columns field fields event events state props render".split()
)
# A command is read segment by segment, each once however often it repeats: 4,000 characters
# of padding, or 1,000 `true;`, put `npm install` past what was read, and past the rule.
MAX_SEGMENTS, MAX_SEGMENT = 500, 2000
CUT = "\n…\n"  # where a hook left out the middle of a text too long to send (api/sent.py)
_SHELLS = frozenset("bash sh zsh dash ksh fish".split())


@dataclass(frozen=True)
class Cues:
    """Words that make a rule about this call. `programs` are what runs, in the order given;
    `path` is the file's path as given; the rest are words a rule may name."""

    programs: tuple[str, ...] = ()
    words: frozenset[str] = field(default_factory=frozenset)
    path: str = ""
    # names the call brings in: an edit's new identifiers, a command's arguments
    added: frozenset[str] = field(default_factory=frozenset)
    said: frozenset[str] = field(default_factory=frozenset)  # a command's every word
    # part of the command was never read (cut by the hook, past the segments read, a program
    # behind more than a segment's worth of padding): no rule could be checked against it
    unread: bool = False

    def __bool__(self) -> bool:
        return bool(self.programs or self.words or self.path or self.added or self.unread)


def of_call(tool: str, args: Any, root: str | None = None) -> Cues:
    """The cues of one tool call: Bash's command, or an edited or written file (its path
    taken inside `root`, where the agent works: the repository's own folder name is no cue)."""
    if not isinstance(args, Mapping):
        return Cues()
    command = args.get("command")
    if isinstance(command, str) and tool.lower() in ("bash", "shell", "run_shell_command"):
        return _of_command(command)
    for key in _FILE_TOOLS:
        path = args.get(key)
        if isinstance(path, str) and path.strip():
            cues = _of_path(_inside(path.strip(), root))
            return replace(cues, added=_added(args))
    return Cues()


def _inside(path: str, root: str | None) -> str:
    if root and path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1 :]
    return path


def _added(args: Mapping[str, Any]) -> frozenset[str]:
    """The names an edit or a new file brings in that were not there ("monkeypatch" where a
    rule says "never monkeypatch datetime"): identifiers, not the language's keywords."""
    new = next((args[k] for k in _NEW_TEXT if isinstance(args.get(k), str)), "")
    old = args.get("old_string") if isinstance(args.get("old_string"), str) else ""
    before = set(_IDENTIFIER.findall(old[:MAX_EDIT].lower()))
    out: list[str] = []
    for word in _IDENTIFIER.findall(new[:MAX_EDIT].lower()):
        if word not in before and word not in _CODE_WORDS and word not in out:
            out.append(word)
    return frozenset(out[:MAX_ADDED])


# A here-document: its lines are data for the command that reads it ("cat > app.py <<'EOF'"
# with a file of 600 lines), commands only when a shell reads them.
_HEREDOC = re.compile(
    r"<<-?\s*(['\"]?)([A-Za-z_][\w-]*)\1[^\n]*\n(.*?)(?:\n\s*\2\s*(?:\n|$)|$)", re.S
)


def _heredocs_as_data(command: str) -> str:
    def replaced(found: re.Match[str]) -> str:
        line = command[command.rfind("\n", 0, found.start()) + 1 : found.start()].split()
        ran = bool(line) and PurePosixPath(line[0]).name in _SHELLS
        kept = found.end(3) if ran else found.start(3)
        return found[0][: kept - found.start()] + "\n"

    return _HEREDOC.sub(replaced, command)


def _of_command(command: str, depth: int = 0) -> Cues:
    command = _named_outright(_heredocs_as_data(command))
    programs: list[str] = []
    words: set[str] = set()
    arguments: list[str] = []
    said: set[str] = set()
    segments = list(dict.fromkeys(s.strip() for s in _SEGMENTS.split(command) if s.strip()))
    unread = len(segments) > MAX_SEGMENTS or CUT in command
    variables: dict[str, str] = {}
    before: list[str] = []  # the segment before: what a shell reading its input is given
    for segment in segments[:MAX_SEGMENTS]:
        tokens = _tokens(segment[:MAX_SEGMENT])
        long = len(segment) > MAX_SEGMENT
        said.update(t.lower() for t in tokens[:50] if len(t) <= 100)
        wrapped = False
        while tokens and (
            _ASSIGNMENT.match(tokens[0])
            or tokens[0] in _WRAPPERS
            or (wrapped and tokens[0].startswith("-"))  # the wrapper's own options
        ):
            if tokens[0] in ("sudo", "doas"):  # "never use sudo" is about it
                programs.append(tokens[0])
            if _ASSIGNMENT.match(tokens[0]):
                name, _, value = tokens[0].partition("=")
                variables[name] = value
            wrapped = wrapped or tokens[0] in _WRAPPERS
            tokens = tokens[1:]
        if tokens and (value := _VARIABLE.fullmatch(tokens[0])):
            tokens = [variables.get(value[1] or value[2], tokens[0]), *tokens[1:]]
        if tokens and " " in tokens[0].strip():  # `env -S "npm install"`, `$N` of "npm ci"
            tokens = _tokens(tokens[0]) + tokens[1:]
        if not tokens:
            unread = unread or long  # "X=<2,000 characters> npm install"
            continue
        said_before, before = before, tokens
        program = PurePosixPath(tokens[0]).name.lower()
        inner = _wrapped_command(program, tokens, said_before)
        if inner is not None and depth < 3:  # `bash -c 'npm install'`, `eval "…"`
            found = _of_command(inner, depth + 1)
            programs += found.programs
            words |= found.words
            arguments += sorted(found.added)
            said |= found.said
            unread = unread or found.unread
            continue
        if not re.fullmatch(r"[a-z0-9][a-z0-9._+-]*", program) or _reads_only(program, tokens):
            continue
        programs.append(program)
        rest = [t for t in tokens[1 : 1 + _RUNNERS.get(program, 0)] if not t.startswith("-")]
        if program.startswith("python") and tokens[1:2] == ["-m"]:
            rest = tokens[2:3]
        for word in rest:
            name = PurePosixPath(word).name.lower()
            if re.fullmatch(r"[a-z][a-z0-9._-]*", name):
                words.add(name)
        for token in tokens[1:]:
            arguments += _argument_names(token)
    kept = (a for a in arguments if a not in words and a not in _GENERIC_ARGUMENTS)
    named = frozenset(list(dict.fromkeys(kept))[:MAX_ADDED])
    return Cues(
        tuple(dict.fromkeys(programs)),
        frozenset(words),
        added=named,
        said=frozenset(said),
        unread=unread,
    )


def _wrapped_command(program: str, tokens: list[str], before: list[str]) -> str | None:
    """The command a shell, `eval` or `find -exec` is given to run, read as a command of its
    own (`before`: the segment piped in)."""
    if program == "eval":
        return " ".join(tokens[1:])
    if program in _SHELLS:
        for flag in ("-c", "<<<"):  # `bash -c '…'`, `bash <<< '…'`
            if flag in tokens[1:]:
                at = tokens.index(flag)
                return tokens[at + 1] if at + 1 < len(tokens) else None
        reads_input = not any(not t.startswith("-") for t in tokens[1:])
        if reads_input and before[:1] in (["echo"], ["printf"]):  # `echo 'npm ci' | bash`
            return " ".join(before[1:])
        return None
    if program in ("find", "fd") and (runs := _RUNS.search(" ".join(tokens))):
        return runs[1]  # `find . -exec npm install \;`
    return None


# What a command names outright however it is put: `$(which npm)`, `` `command -v npm` ``,
# `npm${IFS}install`.
_LOOKED_UP = re.compile(
    r"\$\(\s*(?:which|command\s+-v|type\s+-[pP])\s+([\w.+/-]+)\s*\)|"
    r"`\s*(?:which|command\s+-v|type\s+-[pP])\s+([\w.+/-]+)\s*`"
)
_IFS = re.compile(r"\$\{IFS\}|\$IFS\b")
_VARIABLE = re.compile(r"\$\{(\w+)\}|\$(\w+)")
_RUNS = re.compile(r"\s-(?:exec|execdir|ok|okdir|x|X|-exec)\s+(.+?)(?:\s+(?:\\?;|\+)\s*$|$)")


def _named_outright(command: str) -> str:
    command = _LOOKED_UP.sub(lambda m: m[1] or m[2], command)
    return _IFS.sub(" ", command)


def _argument_names(token: str) -> list[str]:
    """What an argument names: a package ("thiserror", "pkg/errors" of
    github.com/pkg/errors@v0.9.1), an image ("redis" of redis:7-alpine), a port, a host."""
    if token.startswith("-"):  # a flag names itself ("--force", "--title") and its value
        flag, _, token = token.lower().lstrip("-").partition("=")
        return [n for n in [flag, *_argument_names(token)] if _ARGUMENT.fullmatch(n)]
    token = token.lower()
    if "://" in token:
        host, _, path = token.split("://", 1)[1].partition("/")
        return [host.split(":")[0], *_path_names(path)]
    names = []
    for piece in re.split(r"[=:@,]", token):
        names += _path_names(piece) if "/" in piece else [piece]
    names += [part for name in names if "-" in name for part in name.split("-")]
    return [n for n in names if _ARGUMENT.fullmatch(n)]


def _path_names(path: str) -> list[str]:
    parts = [p for p in path.split("/") if p and p not in (".", "..")]
    return parts[-1:] + (["/".join(parts[-2:])] if len(parts) > 1 else [])


def _reads_only(program: str, tokens: list[str]) -> bool:
    """Looking around (ls, grep, git log) breaks no rule: no reason to speak up."""
    if program in _READERS:
        return True
    second = next((t for t in tokens[1:] if not t.startswith("-")), "")
    return second in _READING_SUBCOMMANDS.get(program, ())


def _tokens(segment: str) -> list[str]:
    try:
        return shlex.split(segment, comments=True)
    except ValueError:  # an open quote: plain words are enough to find the program
        return segment.split()


def _of_path(path: str) -> Cues:
    pure = PurePosixPath(path)
    words = {pure.name.lower(), pure.stem.lower()}  # "tsconfig.json" and "tsconfig"
    suffix = pure.suffix.lower() or ("." + pure.name.lower() if pure.name == "Dockerfile" else "")
    if suffix:
        words.add(suffix)
        if suffix in LANGUAGES:
            words.add(LANGUAGES[suffix])
    folders = [part.lower() for part in pure.parent.parts[-3:] if part not in ("/", ".", "..")]
    # A folder of many ("dags", "migrations") names one of them too ("DAG files").
    words.update(folders + [f[:-1] for f in folders if f.endswith("s") and len(f) > 3])
    return Cues((), frozenset(w for w in words if len(w) > 1), path)
