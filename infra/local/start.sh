#!/usr/bin/env bash
# Starts the whole portal locally with demo data: installs what is missing, builds, then hands over
# to start.mjs (Node 24 from the project's own node_modules). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/../.."
source infra/local/ensure-tools.sh
ensure_node_modules
ensure_nats_server
export PATH="$PWD/node_modules/.bin:$PATH"
echo "Building…"
npm run --silent build
exec node infra/local/start.mjs "$@"
