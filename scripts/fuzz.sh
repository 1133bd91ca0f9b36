#!/usr/bin/env bash
# `npm run fuzz`: the contract fuzzer (test/contract/fuzz.test.ts) run longer than in CI. Every
# operation of the served OpenAPI document gets FUZZ_RUNS generated requests (CI: 20) from
# FUZZ_SEED (CI: 27); every answer must be documented, fit its schema and never be a 5xx.
# Without TEST_DATABASE_URL it runs on in-memory PGlite; with it, on a fresh PostgreSQL database.
# Extra arguments go to tap (e.g. `npm run fuzz -- --reporter=tap`).
set -euo pipefail
cd "$(dirname "$0")/.."

export FUZZ_RUNS="${FUZZ_RUNS:-200}"
export FUZZ_SEED="${FUZZ_SEED:-$RANDOM}"
echo "fuzz: ${FUZZ_RUNS} requests per operation, seed ${FUZZ_SEED} (FUZZ_SEED=${FUZZ_SEED} repeats this run)"
npx tap build >/dev/null
exec npx tap --timeout=0 "$@" test/contract/fuzz.test.ts
