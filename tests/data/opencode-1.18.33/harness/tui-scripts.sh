#!/bin/bash
# The two interactive captures, scripted with tmux send-keys (timings are generous sleeps).
H=/tmp/opencode-trial/harness; R=/tmp/opencode-trial/runs
k() { tmux send-keys -t "$S" "$@"; }
type_enter() { k "$1"; sleep 1; k Enter; }
shot() { tmux capture-pane -p -t "$S" > "$R/$N/screens/$1.txt"; }

ONLY=$1   # "tui" or "tui-ask" to run just one of the two

# interactive: prompt (3 tools), 2nd prompt, /compact, /new + prompt, delete the 1st session in /sessions, /exit
if [ "$ONLY" != tui-ask ]; then
N=tui; S=oc-$N
$H/tui.sh $N ""; sleep 9; shot 0-start
type_enter "please run the shell check"; sleep 6; shot 1-after-prompt
type_enter "now just say done"; sleep 4
k "/compact"; sleep 1; k Enter; sleep 5; shot 2-after-compact
k "/new"; sleep 1; k Enter; sleep 2
type_enter "after new just say done"; sleep 4
k "/sessions"; sleep 1; k Enter; sleep 2; k Down; sleep 0.5; k C-d; sleep 1; k C-d; sleep 2; shot 3-sessions-after-delete
k Escape; sleep 0.5; k "/exit"; sleep 1; k Enter; sleep 4; shot 4-after-exit
tmux kill-session -t $S; kill $(cat $R/$N/srv.pid)
fi
[ "$ONLY" = tui ] && exit 0

# interactive-permission: bash set to "ask" in proj/.opencode/opencode.json; approve "Allow once"; Ctrl+C
N=tui-ask; S=oc-$N
echo '{ "permission": { "bash": "ask" } }' > /tmp/opencode-trial/proj/.opencode/opencode.json
$H/tui.sh $N ""; sleep 9
type_enter "please run the shell check"
for i in $(seq 60); do grep -q permission.asked $R/$N/cap/log.jsonl 2>/dev/null && break; sleep 0.5; done
sleep 2; shot 1-permission-dialog
k Enter; sleep 5; shot 2-after-allow
k C-c; sleep 5
tmux kill-session -t $S; kill $(cat $R/$N/srv.pid)
rm /tmp/opencode-trial/proj/.opencode/opencode.json
