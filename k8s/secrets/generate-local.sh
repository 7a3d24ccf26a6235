#!/usr/bin/env bash
# Fills k8s/secrets/local/*.env with random passwords and a fresh ES256 signing key for a local cluster.
# Existing files are kept unless --force is given.
set -euo pipefail
dir="$(cd "$(dirname "$0")/local" && pwd)"
force="${1:-}"
rand() { openssl rand -hex 24; }
write() {
  local file="$dir/$1.env"
  if [[ -f "$file" && "$force" != "--force" ]]; then echo "kept $file"; return; fi
  umask 077
  cat > "$file"
  echo "wrote $file"
}
id_pw="$(rand)"; no_pw="$(rand)"; doc_pw="$(rand)"; store_pw="$(rand)"
if [[ -f "$dir/identity-db-role.env" && "$force" != "--force" ]]; then
  id_pw="$(sed -n 's/^password=//p' "$dir/identity-db-role.env")"
fi
if [[ -f "$dir/notifications-db-role.env" && "$force" != "--force" ]]; then
  no_pw="$(sed -n 's/^password=//p' "$dir/notifications-db-role.env")"
fi
if [[ -f "$dir/documents-db-role.env" && "$force" != "--force" ]]; then
  doc_pw="$(sed -n 's/^password=//p' "$dir/documents-db-role.env")"
fi
# documents signs in to the local MinIO as its root user, so both files carry the same password.
if [[ -f "$dir/object-store-root.env" && "$force" != "--force" ]]; then
  store_pw="$(sed -n 's/^MINIO_ROOT_PASSWORD=//p' "$dir/object-store-root.env")"
fi
key="$(openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 2>/dev/null | awk '{printf "%s\\n", $0}')"
write identity-db-role <<ENV
username=identity
password=$id_pw
ENV
write notifications-db-role <<ENV
username=notifications
password=$no_pw
ENV
write documents-db-role <<ENV
username=documents
password=$doc_pw
ENV
write identity-secrets <<ENV
DATABASE_URL=postgres://identity:$id_pw@portico-pg-rw:5432/identity
JWT_SIGNING_KEYS=[{"kid":"local-$(date +%Y%m%d%H%M)","privateKeyPem":"$key"}]
ENV
write notifications-secrets <<ENV
DATABASE_URL=postgres://notifications:$no_pw@portico-pg-rw:5432/notifications
SMTP_URL=smtp://localhost:1025
SMS_API_KEY=
ENV
write documents-secrets <<ENV
DATABASE_URL=postgres://documents:$doc_pw@portico-pg-rw:5432/documents
S3_ACCESS_KEY_ID=portico
S3_SECRET_ACCESS_KEY=$store_pw
ENV
write gateway-secrets <<ENV
STRIPE_SECRET_KEY=
STRIPE_WEBHOOK_SECRET=
ENV
write object-store-root <<ENV
MINIO_ROOT_USER=portico
MINIO_ROOT_PASSWORD=$store_pw
ENV
