"""The method table's agent sessions: what an agent host's hooks call over a session's
life (its start, each prompt and tool call, its end), and the person's view of the agents,
what session ends proposed and what each session was given."""

from __future__ import annotations

from memdesk.api.method_spec import Method

SESSION_METHODS = [
    Method(
        "session.start",
        "Open (or resume) an agent session; returns {text} to inject: the identity, the "
        "briefing (this project's standing rules and facts and the global ones, best first), "
        "this task's working memory, and a recovery block if this agent's previous session on "
        "the task ended without session.end (that one is then archived as interrupted, unless "
        "its host process still runs); also {project, briefed: ids, more}, and for a host's "
        "hook, when a session opens, {waiting: {count, said, message}}: what the person said "
        "at the project's session ends since its previous session that waits in the Inbox.",
        {
            "session": "the host's session id",
            "agent": "agent name (default: the name given in system.hello)",
            "project": "project name: the session sees this project's memories and those of "
            "no project",
            "task": "task name",
            "cwd": "working folder",
            "host_pid": "process id of the agent host (a session whose host runs is live)",
            "briefing_chars": "integer 0..20000 (default 1700): the briefing's size; 0: none",
            "signals": "words of where the agent works (tools its manifests and lock files "
            "name, dependencies, branch, folder; at most 300): rules about what it uses rank "
            "higher, rules about a tool it does without lower",
            "resumed": "true when the host resumed the conversation (its context holds what "
            "the session was given): only what is new is returned",
        },
        ("session",),
    ),
    Method(
        "session.prompt",
        "The relevant-knowledge block for one user prompt, of the session's project or of "
        "none, searched with the prompt's related words too; leaves out the identity and "
        "what this session was already given. Logged against the session.",
        {
            "session": "session id",
            "prompt": "the user's prompt",
            "k": "integer 1..100 (default 5)",
            "budget_chars": "integer 200..100000 (default 1200)",
        },
        ("session", "prompt"),
    ),
    Method(
        "session.action",
        "Before a tool call: the standing rules that name what it runs or touches (a "
        "program of a shell command; a file's folder, name, extension or language), as a "
        "block to give the model, and deny: the reason to refuse the call when one of the "
        "user's own rules forbids exactly it (else null). Logged as an action injection.",
        {
            "session": "session id",
            "tool": "tool name (Bash, Edit, Write, …)",
            "args": "the tool's input (object): command, or file_path",
        },
        ("session", "tool"),
    ),
    Method(
        "observe",
        "Record one tool call; returns the observation {kind, importance, text}.",
        {
            "session": "session id",
            "tool": "tool name (Edit, Write, Read, Bash, Grep, TodoWrite, Task, …)",
            "args": "the tool's input (object)",
            "result": "the tool's result (any JSON)",
        },
        ("session", "tool"),
    ),
    Method(
        "working_memory",
        "The working-memory block of a session: current task, plan, modified files, recent "
        "errors, key decisions; rebuilt from every observation, never over the budget.",
        {"session": "session id", "budget_chars": "integer 100..100000 (default 2000)"},
        ("session",),
    ),
    Method(
        "session.end",
        "Close a session: corrections and preferences in the user's messages are stored "
        "(high confidence) or proposed (medium), and an L2 summary is filed. Returns "
        "{stored, proposed, skipped (each with why), summary}; ending again adds nothing new.",
        {
            "session": "session id",
            "transcript": "list of {role: user|assistant, content: text}",
            "summary": "what the session did, in the agent's words (optional)",
        },
        ("session",),
    ),
    Method(
        "agents.list",
        "Every agent that opened a session: last session, last seen, a one-line summary.",
        {},
    ),
    Method(
        "agents.control",
        "Pause an agent (it may neither read nor write), make it read-only, let its updates "
        "of its own notes replace them without an Inbox item, or let it act again (user role "
        "only).",
        {"agent": "agent name", "mode": "active | paused | read_only | updates_fine"},
        ("agent", "mode"),
    ),
    Method(
        "proposals.list",
        "What session ends proposed, newest first.",
        {"status": "pending (default) | accepted | dismissed | all"},
    ),
    Method(
        "proposals.decide",
        "Accept (stored as an L1 memory) or dismiss a proposal (user role only).",
        {"id": "proposal number", "accept": "true to store it, false to dismiss it"},
        ("id", "accept"),
    ),
    Method(
        "injections",
        "What memdesk gave each agent session's model (user role only), newest session "
        "first: each session start, prompt and tool-call injection with its characters, "
        "≈ tokens and memories, each marked acted_on or went_against by a later tool call.",
        {"sessions": "how many of the newest sessions (1..10000, default 50)"},
    ),
]
