"""A session written as turns ({"user": ..., "assistant": ...}) in Claude Code 2.1's transcript
format (JSONL records as the real CLI writes them: bench/data/roundtrip/*.jsonl), so that a
session an author wrote by hand reaches the SessionEnd hook as a real one would."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

VERSION = "2.1.197"


def claude_code_jsonl(turns: list[dict], cwd: str, session_id: str) -> str:
    clock = datetime(2026, 11, 10, 9, 0, tzinfo=UTC)
    base = {
        "isSidechain": False,
        "userType": "external",
        "entrypoint": "cli",
        "cwd": cwd,
        "sessionId": session_id,
        "version": VERSION,
        "gitBranch": "main",
    }
    lines = [
        {
            "type": "queue-operation",
            "operation": "enqueue",
            "timestamp": _stamp(clock),
            "sessionId": session_id,
        }
    ]
    parent = None
    for turn in turns:
        for role in ("user", "assistant"):
            if not turn.get(role):
                continue
            clock += timedelta(seconds=45)
            own = str(uuid.uuid4())
            record = {**base, "parentUuid": parent, "type": role, "uuid": own}
            record["timestamp"] = _stamp(clock)
            if role == "user":
                record["promptId"] = str(uuid.uuid4())
                record["permissionMode"] = "default"
                record["message"] = {"role": "user", "content": turn["user"]}
            else:
                record["message"] = {
                    "id": f"msg_{own[:24]}",
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "text", "text": turn["assistant"]}],
                    "stop_reason": "end_turn",
                }
            lines.append(record)
            parent = own
    return "".join(json.dumps(line) + "\n" for line in lines)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")
