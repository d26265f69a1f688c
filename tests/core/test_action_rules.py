"""Rules at the moment of action: before a shell command or a file edit, the standing rules
that name what it runs or touches reach the agent, and the one that forbids it is marked."""

from __future__ import annotations

import pytest

from memdesk.core import agent
from memdesk.core.sessions import action_cues

CLAUDE = agent("claude-code")


@pytest.fixture
def session(service):
    service.session_start("s1", actor=CLAUDE, project="web")
    return "s1"


def _act(service, session, tool, **args):
    return service.session_action(session, tool, args, actor=CLAUDE)


def test_a_command_a_rule_forbids_gets_that_rule_marked_and_a_reason_to_deny(service, session):
    service.add("This repo is pnpm only, never npm", project="web")
    service.add("Deploys go out on Tuesdays", project="web")

    found = _act(service, session, "Bash", command="cd app && npm install marked")

    assert "[forbids this]" in found["text"]
    assert "pnpm only, never npm" in found["text"]
    assert "Tuesdays" not in found["text"]
    assert (
        found["deny"]
        == 'Blocked by the user\'s rule (memdesk): "This repo is pnpm only, never npm"'
    )


def test_the_allowed_program_is_reminded_of_the_rule_but_never_denied(service, session):
    service.add("This repo is pnpm only, never npm", project="web")
    found = _act(service, session, "Bash", command="pnpm add marked")
    assert "pnpm only" in found["text"]
    assert "[forbids this]" not in found["text"]
    assert found["deny"] is None


def test_a_rule_naming_a_folder_forbids_writing_there(service, session):
    service.add("Migrations go in ledger/db/migrations, not alembic/versions", project="web")
    found = _act(service, session, "Write", file_path="/src/web/alembic/versions/0007_idx.py")
    assert found["deny"] is not None
    allowed = _act(service, session, "Write", file_path="/src/web/ledger/db/migrations/0007.py")
    assert allowed["deny"] is None
    assert allowed["text"] == ""  # reminded before the last call: not again in this session
    service.session_start("s2", actor=CLAUDE, project="web")
    fresh = _act(service, "s2", "Write", file_path="/src/web/ledger/db/migrations/0007.py")
    assert "ledger/db/migrations" in fresh["text"]


def test_a_reminder_comes_once_a_context_and_a_refusal_every_time(service, session):
    """A tryout with the real Claude Code (stop 86): the python3 rule came with a Bash call,
    a Write and an Edit of a .py file, three times in one session beside the briefing."""
    service.add("Format Python with ruff, never black", project="web")
    first = _act(service, session, "Edit", file_path="/src/web/app/models.py")
    assert "ruff" in first["text"]
    assert _act(service, session, "Write", file_path="/src/web/app/views.py")["text"] == ""
    refused = _act(service, session, "Bash", command="black app/")
    assert "ruff" in refused["text"]
    assert refused["deny"] is not None
    service.session_start(session, actor=CLAUDE, project="web")  # a compaction: a new context
    assert "ruff" in _act(service, session, "Write", file_path="/src/web/app/x.py")["text"]


def test_an_edit_gets_the_rules_of_its_language(service, session):
    service.add("Format Python with ruff, not black", project="web")
    found = _act(service, session, "Edit", file_path="/src/web/app/models.py")
    assert "ruff" in found["text"]
    assert found["deny"] is None  # a rule against black says nothing against editing models.py


def test_nothing_applies_nothing_is_said(service, session):
    service.add("This repo is pnpm only, never npm", project="web")
    assert _act(service, session, "Bash", command="ls -la && git status") == {
        "text": "",
        "ids": [],
        "deny": None,
    }
    assert _act(service, session, "Read", file_path=42)["text"] == ""


def test_an_agents_note_reminds_but_never_denies(service, session):
    service.add("Never run npm in this repo", project="web", actor=CLAUDE)
    found = _act(service, session, "Bash", command="npm ci")
    assert "[forbids this]" in found["text"]
    assert found["deny"] is None


def test_agents_notes_that_repeat_the_call_never_take_the_persons_rule_or_its_refusal(
    service, session
):
    """Three agent notes "Never run npm publish on Fridays" of importance 1.0 took the
    places of the person's rule, and the hook no longer refused the call."""
    service.add("Never run npm publish from a laptop", project="web")
    for when in ("on Fridays", "as root", "during a freeze", "from CI", "twice"):
        for n in range(5):
            service.add(
                f"Never run npm publish {when} ({n})",
                importance=1.0,
                project="web",
                actor=agent("evil"),
                dedup=False,
            )
    found = _act(service, session, "Bash", command="npm publish")
    assert "from a laptop" in found["text"]
    assert found["deny"] == (
        'Blocked by the user\'s rule (memdesk): "Never run npm publish from a laptop"'
    )


def test_another_projects_rule_is_not_given(service, session):
    service.add("This repo is pnpm only, never npm", project="api")
    assert _act(service, session, "Bash", command="npm install")["text"] == ""


def test_what_was_given_before_an_action_is_in_the_injections_record(service, session):
    service.add("Use podman compose, not docker compose", project="web")
    _act(service, session, "Bash", command="docker compose up -d")
    events = [e["event"] for e in service.injections()[0]["events"]]
    assert "action" in events


@pytest.mark.parametrize(
    ("command", "programs"),
    [
        ("npm install marked", ("npm",)),
        ("FOO=1 sudo -E make test && uv run pytest -k slow", ("sudo", "make", "uv")),
        ("cat x | grep y; /usr/bin/python3 -m pytest", ("python3",)),  # reading breaks no rule
        ("git log -3 && git push origin main", ("git",)),
        ("make 'unclosed", ("make",)),
    ],
)
def test_the_programs_of_a_command(command, programs):
    assert action_cues.of_call("Bash", {"command": command}).programs == programs


def test_runners_name_the_tool_they_run():
    assert "pytest" in action_cues.of_call("Bash", {"command": "uv run pytest"}).words
    assert "pytest" in action_cues.of_call("Bash", {"command": "python -m pytest -q"}).words
    assert "prettier" in action_cues.of_call("Bash", {"command": "npx prettier --check ."}).words


def test_an_edit_bringing_in_what_a_rule_forbids_gets_the_rule(service, session):
    service.add("Tests freeze time with freezegun, never monkeypatch datetime", project="web")
    edit = {
        "file_path": "/src/web/app/billing.py",
        "old_string": "def due(invoice):",
        "new_string": "def due(invoice, monkeypatch):\n    monkeypatch.setattr(clock, 'now', x)",
    }
    found = service.session_action(session, "Edit", edit, actor=CLAUDE)
    assert "freezegun" in found["text"]
    assert found["deny"] is not None
    plain = {**edit, "new_string": "def due(invoice, grace_days):"}
    assert service.session_action(session, "Edit", plain, actor=CLAUDE)["text"] == ""


def test_a_commands_arguments_and_a_words_endings_count(service, session):
    service.add("The core crate avoids dependencies: no thiserror", project="web")
    service.add("Amounts must never be floats, always Decimal", project="web")
    service.add("The crate is published by the release workflow, never by hand", project="web")

    added = _act(service, session, "Bash", command="cargo add thiserror@1")
    edit = {
        "file_path": "/src/web/reports.py",
        "old_string": "total = sum(amounts)",
        "new_string": "total = float(sum(amounts))",
    }
    floated = service.session_action(session, "Edit", edit, actor=CLAUDE)
    published = _act(service, session, "Bash", command="cargo publish")

    assert "no thiserror" in added["text"]
    assert added["deny"] is not None
    assert "never be floats" in floated["text"]
    assert floated["deny"] is not None
    assert "published by the release workflow" in published["text"]


def test_looking_around_and_the_projects_own_folder_name_say_nothing(service):
    service.session_start("s2", actor=CLAUDE, project="shop-web", cwd="/work/shop-web")
    service.add("Feature flags live in LaunchDarkly, project shop-web", project="shop-web")
    service.add("Environments each have a folder under envs/", project="shop-web")

    listed = service.session_action("s2", "Bash", {"command": "ls envs/ && git log"}, actor=CLAUDE)
    edited = service.session_action(
        "s2", "Edit", {"file_path": "/work/shop-web/src/Footer.tsx"}, actor=CLAUDE
    )

    assert listed["text"] == ""
    assert edited["text"] == ""


def test_a_rule_against_what_a_name_describes_does_not_refuse_the_name(service, session):
    service.add("No terraform workspaces: each environment has a folder under envs/", project="web")
    service.add("Migrations go in ledger/db/migrations, not alembic/versions", project="web")
    service.add("Lint with golangci-lint; go vet is not run separately", project="web")
    backend = {"file_path": "/src/web/envs/dev/backend.tf", "content": "terraform {\n}\n"}
    migration = {
        "file_path": "/src/web/ledger/db/migrations/0042.py",
        "content": "from alembic import op\n",
    }
    for tool, args in (
        ("Write", backend),
        ("Write", migration),
        ("Bash", {"command": "golangci-lint run ./..."}),
    ):
        found = service.session_action(session, tool, args, actor=CLAUDE)
        assert found["text"]  # reminded
        assert found["deny"] is None, (args, found["deny"])


def test_a_files_name_without_extension_and_one_of_a_folder_of_many_count(service, session):
    service.add("Strict mode stays on; never weaken tsconfig to make something compile")
    service.add("Never hardcode credentials in DAG files", project="web")
    tsconfig = {"file_path": "/src/web/tsconfig.json", "old_string": "a", "new_string": "b"}
    dag = {"file_path": "/src/web/dags/pull.py", "content": "token = 'abc'\n"}
    assert "weaken tsconfig" in _act(service, session, "Edit", **tsconfig)["text"]
    assert "DAG files" in _act(service, session, "Write", **dag)["text"]


@pytest.mark.parametrize(
    ("rule", "command", "forbidden"),
    [
        # a rule about one subcommand refused every use of the program
        ("Never git push --force to main", "git commit -m wip", False),
        ("Never git push --force to main", "git push --force origin main", True),
        ("Never run terraform apply", "terraform plan", False),
        ("Never run terraform apply", "terraform apply -auto-approve", True),
        ("We don't use terraform workspaces", "terraform workspace new sandbox", True),
        # padded, wrapped or repeated, the forbidden call was neither refused nor reminded
        ("Never use npm in this project", "echo " + "x" * 5000 + "; npm install marked", True),
        ("Never use npm in this project", "true; " * 1000 + "npm install marked", True),
        ("Never use npm in this project", "bash -c 'npm install marked'", True),
        ("Never use npm in this project", 'eval "npm install marked"', True),
        ("Never use npm in this project", "{ npm install marked; }", True),
        ("Never use sudo", "sudo apt-get install jq", True),
        # put another way by an agent (red team, stop 72)
        ("Never use npm in this project", "$(which npm) install marked", True),
        ("Never use npm in this project", "`command -v npm` install marked", True),
        ("Never use npm in this project", "N=npm; $N install marked", True),
        ("Never use npm in this project", "npm${IFS}install marked", True),
        ("Never use npm in this project", 'echo "npm install marked" | bash', True),
        ("Never use npm in this project", 'bash <<< "npm install marked"', True),
        ("Never use npm in this project", r"find . -maxdepth 0 -exec npm install marked \;", True),
        ("Never use npm in this project", 'env -S "npm install marked"', True),
        ("Never use npm in this project", "find . -name '*.json' -exec grep -l npm {} +", False),
    ],
)
def test_a_rule_forbids_what_it_names_however_the_command_is_put(rule, command, forbidden):
    from memdesk.core.sessions import action_rules

    cues = action_cues.of_call("Bash", {"command": command})
    assert action_rules.forbids(rule, cues) is forbidden
