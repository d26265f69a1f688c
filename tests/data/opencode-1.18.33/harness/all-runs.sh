#!/bin/bash
# Re-runs every non-interactive capture (interactive ones: see README, tui.sh + tmux send-keys).
H=/tmp/opencode-trial/harness
P="please run the shell check"
$H/run.sh base "" -- run "$P"
$H/run.sh continue "" -- run --continue "now just say done"
$H/run.sh deny "deny" -- run "$P"
for h in chat.message experimental.chat.system.transform experimental.chat.messages.transform chat.params \
         tool.execute.before tool.execute.after shell.env event; do
  $H/run.sh "throw-$h" "throw:$h" -- run "$P"
done
$H/run.sh throw-init "throw-init" -- run "$P"
$H/run.sh missing-cmd "missing-cmd" -- run "$P"
$H/run.sh chat-part-without-id "noid" -- run --print-logs "$P"
$H/run.sh idle-work "idle-work" -- run "$P"
$H/run.sh idle-work-slow-dispose "idle-work,slow:dispose" -- run "$P"
$H/run.sh slow-chat "slow:chat.message" -- run "just say done"
SID=$(python3 -c "import json;print(json.load(open('/tmp/opencode-trial/runs/base/cap/event.session.created.json'))['properties']['sessionID'])")
$H/run.sh export "" -- export "$SID"
$H/run.sh session-delete "" -- session delete "$SID"
# bash set to "ask": `opencode run` auto-rejects
echo '{ "permission": { "bash": "ask" } }' > /tmp/opencode-trial/proj/.opencode/opencode.json
$H/run.sh run-ask "" -- run "$P"
rm /tmp/opencode-trial/proj/.opencode/opencode.json
# where plugins are picked up from: see README "Load paths" (probe.js copies + proj/opencode.json)
