#!/bin/bash
# Start-up cost of a plugin when opencode must first install @opencode-ai/plugin into each config dir.
T=/tmp/opencode-trial; H=$T/harness
rm -rf $T/fresh1 $T/fresh2
for n in 1 2; do
  mkdir -p $T/fresh$n/home $T/fresh$n/proj/.opencode/plugin
  cp $H/capture.js $T/fresh$n/proj/.opencode/plugin/; cp $T/proj/README.md $T/fresh$n/proj/
done
P="please run the shell check"; NOREG="npm_config_registry=http://127.0.0.1:9/"
# 1. fresh dirs, registry reachable (npm install runs)
OC_HOME=$T/fresh1/home OC_PROJ=$T/fresh1/proj $H/run.sh fresh-install "" -- run --print-logs "$P"
# 2. fresh dirs, registry unreachable (connection refused)
OC_HOME=$T/fresh2/home OC_PROJ=$T/fresh2/proj EXTRA_ENV=$NOREG $H/run.sh fresh-noregistry "" -- run --print-logs "$P"
# 3. dirs already installed (the main trial dirs), registry unreachable
EXTRA_ENV=$NOREG $H/run.sh installed-noregistry "" -- run --print-logs "just say done"
# 4. fresh2 again, with stub package.json + package-lock.json + empty node_modules, registry unreachable
for d in $T/fresh2/proj/.opencode $T/fresh2/home/.config/opencode; do
  mkdir -p $d/node_modules
  echo '{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}' > $d/package.json
  echo '{"lockfileVersion":3,"packages":{"":{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}}}' \
    > $d/package-lock.json
done
OC_HOME=$T/fresh2/home OC_PROJ=$T/fresh2/proj EXTRA_ENV=$NOREG \
  $H/run.sh fresh-noregistry-stubbed "" -- run --print-logs "just say done"
# 5. two more starts on another fresh dir, registry unreachable: the ~70 s wait repeats every start
rm -rf $T/fresh3; mkdir -p $T/fresh3/home $T/fresh3/proj/.opencode/plugin; cp $H/capture.js $T/fresh3/proj/.opencode/plugin/
for i in 1 2; do
  OC_HOME=$T/fresh3/home OC_PROJ=$T/fresh3/proj EXTRA_ENV=$NOREG \
    $H/run.sh fresh-noregistry-again-$i "" -- run "just say done"
done
