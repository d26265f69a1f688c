#!/bin/bash
# usage: run.sh <name> [CAPTURE_MODE] -- opencode args...
# Starts the stand-in, runs opencode with a clean env, keeps everything in runs/<name>/
T=/tmp/opencode-trial
OC_HOME=${OC_HOME:-$T/home}; OC_PROJ=${OC_PROJ:-$T/proj}   # overridable for the fresh-install tests
NAME=$1; shift; MODE=$1; shift; [ "$1" = "--" ] && shift
R=$T/runs/$NAME; rm -rf $R; mkdir -p $R/cap $R/srv
python3 $T/harness/fake_openai.py 0 $R/srv $OC_PROJ > $R/port 2> $R/srv.stderr &
SRV=$!
for i in $(seq 50); do [ -s $R/port ] && break; sleep 0.1; done
PORT=$(cat $R/port)
mkdir -p $OC_HOME/.config/opencode; cd $OC_PROJ
sed "s/__PORT__/$PORT/" $T/harness/opencode.json > $OC_HOME/.config/opencode/opencode.json
rm -f $OC_PROJ/out.txt $OC_PROJ/notes.txt
rm -rf $OC_HOME/.local/share/opencode/log
START=$(date +%s.%N)
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=$OC_HOME TERM=xterm $EXTRA_ENV \
  OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 \
  OPENCODE_DISABLE_SHARE=1 \
  CAPTURE_DIR=$R/cap CAPTURE_MODE="$MODE" RUN_T0_MS=$(date +%s%3N) \
  timeout 120 $T/node_modules/.bin/opencode "$@" > $R/stdout 2> $R/stderr
echo $? > $R/rc
END=$(date +%s.%N)
echo "elapsed $(echo "$END - $START" | bc)" > $R/elapsed
kill $SRV
cp -r $OC_HOME/.local/share/opencode/log $R/oclog 2>/dev/null
(cd $OC_PROJ && for f in out.txt notes.txt; do [ -e $f ] && echo "$f: $(cat $f | tr '\n' '|')" || echo "$f: (absent)"; done) > $R/proj-files.txt
echo "rc=$(cat $R/rc) $(cat $R/elapsed)"
