#!/bin/bash
# usage: tui.sh <name> [CAPTURE_MODE]   -- starts stand-in + opencode TUI in tmux session "oc-<name>"
T=/tmp/opencode-trial
NAME=$1; MODE=$2
R=$T/runs/$NAME; rm -rf $R; mkdir -p $R/cap $R/srv $R/screens
python3 $T/harness/fake_openai.py 0 $R/srv $T/proj > $R/port 2> $R/srv.stderr &
echo $! > $R/srv.pid
for i in $(seq 50); do [ -s $R/port ] && break; sleep 0.1; done
PORT=$(cat $R/port)
sed "s/__PORT__/$PORT/" $T/harness/opencode.json > $T/home/.config/opencode/opencode.json
rm -f $T/proj/out.txt $T/proj/notes.txt
rm -rf $T/home/.local/share/opencode/log
tmux new-session -d -s oc-$NAME -x 160 -y 45 -c $T/proj \
  "env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=$T/home TERM=xterm-256color COLORTERM=truecolor \
   OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 \
   OPENCODE_DISABLE_SHARE=1 CAPTURE_DIR=$R/cap CAPTURE_MODE='$MODE' RUN_T0_MS=\$(date +%s%3N) \
   $T/node_modules/.bin/opencode; echo EXIT=\$? > $R/rc; sleep 600"
echo started oc-$NAME port $PORT
