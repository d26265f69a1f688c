"""What each host reads from a hook's standard output: the context for its model, a refusal
of a tool call in the host's own shape, and a line for the person (hooks.py handles the events;
the shapes are from each host's captured runs under tests/data/)."""

from __future__ import annotations

import json
from typing import Any


def before_tool(found: dict[str, Any], deny: bool, agent: str) -> str:
    """Silent when no rule applies; the rules as context; or, when the person chose it and
    one of their rules forbids the call, the host's refusal with the rule's words."""
    if agent == "gemini-cli":
        if deny and found.get("deny"):
            return json.dumps({"decision": "deny", "reason": found["deny"]}, ensure_ascii=False)
        return ""
    if agent == "copilot-cli":
        if deny and found.get("deny"):
            refusal = {"permissionDecision": "deny", "permissionDecisionReason": found["deny"]}
            return json.dumps(refusal, ensure_ascii=False)
        return ""
    if agent == "cursor":
        if deny and found.get("deny"):
            refusal = {
                "permission": "deny",
                "agent_message": found["deny"],
                "user_message": found["deny"],
            }
            return json.dumps(refusal, ensure_ascii=False)
        return ""
    if deny and found.get("deny"):
        decision = {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": found["deny"],
        }
        return json.dumps({"hookSpecificOutput": decision}, ensure_ascii=False)
    return context("PreToolUse", found.get("text") or "")


# Hosts that show a hook's `systemMessage` to the person and never give it to the model
# (Codex takes it without showing it in `exec`: tests/data/codex-0.169.0/README.md).
TELLS_THE_PERSON = ("claude-code", "codex", "gemini-cli")


def told(started: dict[str, Any], agent: str) -> str | None:
    """The line for the person when what they said last time waits for their word."""
    said = started.get("waiting")
    return said["message"] if agent in TELLS_THE_PERSON and said else None


def context(event: str, text: str, agent: str = "claude-code", told: str | None = None) -> str:
    if not text and not told:
        return ""
    if agent == "copilot-cli":  # it reads only a top-level additionalContext
        return json.dumps({"additionalContext": text}, ensure_ascii=False)
    if agent == "cursor":  # over 10,000 characters it drops the context whole
        return json.dumps({"additional_context": text[:10_000]}, ensure_ascii=False)
    output: dict[str, Any] = {"systemMessage": told} if told else {}
    if text:
        output["hookSpecificOutput"] = {"hookEventName": event, "additionalContext": text}
    return json.dumps(output, ensure_ascii=False)
