#!/bin/sh
# Creates or updates each JetStream stream described by /streams/*.json.
# STREAM_REPLICAS overrides num_replicas (3 in production, 1 on a single-node server).
set -eu
replicas="${STREAM_REPLICAS:-3}"
tries=0
until nats account info >/dev/null 2>&1; do
  tries=$((tries + 1))
  if [ "$tries" -gt 90 ]; then echo "JetStream not reachable at ${NATS_URL}" >&2; exit 1; fi
  sleep 2
done
for file in /streams/*.json; do
  name="$(basename "$file" .json)"
  config="/tmp/$name.json"
  sed "s/\"num_replicas\": *[0-9][0-9]*/\"num_replicas\": $replicas/" "$file" > "$config"
  if nats stream info "$name" >/dev/null 2>&1; then
    echo "updating stream $name"
    nats stream edit "$name" --config "$config" --force
  else
    echo "creating stream $name"
    nats stream add "$name" --config "$config"
  fi
done
