#!/bin/sh
# One database and one owning role per service; no service can connect to another's database.
set -eu
create() {
  svc="$1"; pass="$2"
  psql -v ON_ERROR_STOP=1 -U postgres -d postgres \
    -v svc="$svc" -v pass="$pass" <<'SQL'
CREATE ROLE :"svc" LOGIN PASSWORD :'pass';
CREATE DATABASE :"svc" OWNER :"svc";
REVOKE CONNECT ON DATABASE :"svc" FROM PUBLIC;
SQL
}
create identity "$IDENTITY_DB_PASSWORD"
create notifications "$NOTIFICATIONS_DB_PASSWORD"
create documents "$DOCUMENTS_DB_PASSWORD"
