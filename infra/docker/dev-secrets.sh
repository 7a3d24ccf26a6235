#!/usr/bin/env bash
# Writes infra/docker/.env with fresh random development secrets for docker-compose.yml.
# The file is gitignored; nothing secret is kept in the repository.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/.env"
if [[ -f "$out" && "${1:-}" != "--force" ]]; then
  echo "$out exists (pass --force to replace it)"; exit 0
fi
rand() { openssl rand -hex 24; }
key="$(openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 2>/dev/null | awk '{printf "%s\\n", $0}')"
kid="dev-$(date +%Y%m%d)"
umask 077
cat > "$out" <<ENV
POSTGRES_PASSWORD=$(rand)
IDENTITY_DB_PASSWORD=$(rand)
NOTIFICATIONS_DB_PASSWORD=$(rand)
DOCUMENTS_DB_PASSWORD=$(rand)
MINIO_ROOT_PASSWORD=$(rand)
JWT_SIGNING_KEYS='[{"kid":"$kid","privateKeyPem":"$key"}]'
ENV
echo "wrote $out"
