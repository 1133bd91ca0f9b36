#!/usr/bin/env bash
# `npm run fuzz`: Schemathesis against a Nerve on a throwaway embedded database, with a GM key
# of a fresh campaign, every check on. Too slow for CI; anyone can re-run it. Extra arguments
# go to `st run` (e.g. `npm run fuzz -- --max-examples 50`).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v st >/dev/null 2>&1; then
  echo "fuzz: Schemathesis is not installed; install it with 'pip install schemathesis' (needs PyPI) and run again" >&2
  exit 2
fi

port=${FUZZ_PORT:-3100}
base="http://127.0.0.1:$port"
DATA_DIR=memory:// PORT=$port HOST=127.0.0.1 LOG_LEVEL=warn RATE_LIMIT_MAX=0 node --import tsx src/server.ts &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null' EXIT
until curl -sf "$base/health/ready" >/dev/null; do
  kill -0 "$server" 2>/dev/null || { echo "fuzz: the server did not start" >&2; exit 1; }
  sleep 0.5
done

key=$(curl -sf "$base/v1/campaigns" -H 'content-type: application/json' \
  -d '{"name":"Fuzzed","ruleset":"shock-meters"}' | node -e 'process.stdin.on("data", (d) => console.log(JSON.parse(d).gmKey.key))')
st run openapi/openapi.json --url "$base" --checks all --header "Authorization: Bearer $key" "$@"
