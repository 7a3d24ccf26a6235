#!/usr/bin/env bash
# Type-checks the services, the gateway and the browser tests (the root configuration), then each front
# end with its own settings (DOM, JSX): their builds strip types unchecked. Checks them all, names those
# that fail, and fails if any did.
set -u
cd "$(dirname "$0")/../.."
failed=()
tsc -p tsconfig.json --noEmit || failed+=(root)
for config in frontends/*/tsconfig.json; do
  tsc -p "$config" --noEmit || failed+=("$config")
done
if ((${#failed[@]})); then
  echo "type errors in: ${failed[*]}" >&2
  exit 1
fi
