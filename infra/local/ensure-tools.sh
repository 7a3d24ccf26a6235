# Shared by the start and test commands: the project installs what it needs itself.

ensure_node_modules() {
  if [[ ! -x node_modules/.bin/node || package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "Installing npm packages (Node 24 comes with them)…"
    # `npm install` rather than `npm ci`: see .ci/run (the registry serves only this platform's binaries).
    npm install --no-audit --no-fund
  fi
}

ensure_nats_server() {
  if command -v nats-server >/dev/null 2>&1 || [[ -x /usr/sbin/nats-server ]] || [[ -n "${NATS_URL:-}" ]]; then
    return 0
  fi
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing nats-server with apt-get…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null
    return 0
  fi
  echo "nats-server is needed: on Debian or Ubuntu run 'sudo apt-get install nats-server'," >&2
  echo "elsewhere download it from the NATS project and put it on PATH, or set NATS_URL to a running server." >&2
  exit 1
}
