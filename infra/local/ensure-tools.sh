# Shared by the start and test commands: the project installs what it needs itself.

ensure_node_modules() {
  if [[ ! -x node_modules/.bin/node || package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "Installing npm packages (Node 24 comes with them)…"
    # `npm install` rather than `npm ci`: it keeps what node_modules has and adds what is missing.
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

# The front ends' nginx configuration (infra/docker/frontend-nginx.conf) is tested with Debian's nginx
# and its stock mime.types, the files unpacked into .data/tools/nginx rather than installed: installing
# the package starts a server on port 80. Nothing to do where nginx is installed.
ensure_nginx() {
  local dir=.data/tools/nginx
  if [[ -x /usr/sbin/nginx && -f /etc/nginx/mime.types ]] || [[ -x $dir/usr/sbin/nginx && -f $dir/etc/nginx/mime.types ]]; then
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "nginx is needed for the front ends' server tests: install it, or they fail saying so." >&2
    return 0
  fi
  echo "Unpacking Debian's nginx for the front ends' server tests…"
  local downloads; downloads=$(mktemp -d)
  if ! (cd "$downloads" && apt-get download -qq nginx nginx-common 2>/dev/null); then
    [[ $(id -u) -eq 0 ]] && apt-get update -qq
    (cd "$downloads" && apt-get download -qq nginx nginx-common 2>/dev/null)
  fi
  mkdir -p "$dir"
  for deb in "$downloads"/*.deb; do [[ -f $deb ]] && dpkg -x "$deb" "$dir"; done
  rm -rf "$downloads"
}
