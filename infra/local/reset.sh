#!/usr/bin/env bash
# Wipes the local stack's data (databases, NATS streams, keys): the next start seeds the demo again.
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf .data
echo "Local data removed."
