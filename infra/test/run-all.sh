#!/usr/bin/env bash
# The README's test command: every suite (unit, integration against real PostgreSQL and NATS, and the
# browser tests when present), then one closing line `tests: N passed, N failed` over all of them.
set -uo pipefail
cd "$(dirname "$0")/../.."
source infra/local/ensure-tools.sh
ensure_node_modules
ensure_nats_server
ensure_nginx
export PATH="$PWD/node_modules/.bin:$PATH" NX_NO_CLOUD=true
export NODE_OPTIONS="--experimental-vm-modules --no-warnings=ExperimentalWarning"
status=0

# Some suites start the built processes (tracing across processes, the browser journeys).
build_ok=1
npm run --silent build >/dev/null || { echo "The build failed: run 'npm run build' to see why."; build_ok=0; }

counts=$(mktemp)
((build_ok)) || echo "0 1 0" >> "$counts"
export TEST_COUNTS_FILE=$counts
jest=node_modules/jest/bin/jest.js

# The longest one project may take: about four times what the slowest (integration) takes on a loaded
# 2-core machine, so a hung project leaves the others their time within CI's 60 minutes (CI's own limit
# then ends this script, which ends the jest running, see below).
SUITE_LIMIT=${PORTICO_SUITE_LIMIT:-20m}

# The process group of the jest running now, which a signal to this script's group does not reach.
jest_group=
stop_jest_and_exit() {
  trap '' TERM INT HUP
  if [[ -n $jest_group ]]; then
    kill -TERM -- "-$jest_group" 2>/dev/null
    # A few seconds to stop, then killed: left running, it would keep the run's output pipe open.
    for _ in 1 2 3 4 5; do kill -0 -- "-$jest_group" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$jest_group" 2>/dev/null
  fi
  rm -f "$counts"
  exit 143
}
trap stop_jest_and_exit TERM INT HUP

run_jest() {
  # A suite that crashes before reporting still counts as a failure.
  local before; before=$(wc -l < "$counts")
  # timeout runs jest in a process group of its own, ended once jest is done: servers a suite started
  # and did not stop (a beforeAll that timed out, a forced exit, whose exit hooks jest's sandbox never
  # runs) go with it instead of outliving the run.
  timeout --kill-after=30 "$SUITE_LIMIT" node "$jest" "$@" &
  jest_group=$!
  wait "$jest_group" || status=1
  kill -TERM -- "-$jest_group" 2>/dev/null
  jest_group=
  if [[ $(wc -l < "$counts") -eq $before ]]; then echo "0 1 0" >> "$counts"; fi
}

run_jest --selectProjects unit
[[ -d frontends ]] && grep -q "displayName: 'frontend'" jest.config.js && run_jest --selectProjects frontend
run_jest --selectProjects integration --runInBand --forceExit
if grep -q "displayName: 'browser'" jest.config.js; then
  run_jest --selectProjects browser --runInBand --forceExit --passWithNoTests
fi

read -r passed failed < <(awk '{p+=$1; f+=$2} END {print p+0, f+0}' "$counts")
rm -f "$counts"
[[ $failed -gt 0 ]] && status=1
echo "tests: ${passed} passed, ${failed} failed"
exit $status
