#!/bin/sh
# Removes from a production node_modules the files Nerve never loads (Dockerfile, runtime
# dependencies stage; scripts/production-install-check.sh runs it the same way).
#   scripts/trim-runtime-modules.sh NODE_MODULES_DIR
# @prisma/client ships Prisma's query compiler for five databases, each in a fast and a small
# build, as CommonJS and as ES modules, with source maps: 72 MB. The client generated from
# prisma/schema.prisma (provider "postgresql", for PostgreSQL and the embedded PGlite alike)
# loads one of them, PostgreSQL's fast build as ES modules (see getQueryCompilerWasmModule in
# src/generated/prisma/internal/class.ts), besides runtime/client.js. The production install
# check fails if a file the server needs is gone.
set -eu
runtime="${1:?usage: trim-runtime-modules.sh NODE_MODULES_DIR}/@prisma/client/runtime"
[ -f "$runtime/client.js" ] || { echo "trim-runtime-modules: no Prisma client runtime in $runtime" >&2; exit 1; }
find "$runtime" -maxdepth 1 -type f \( \
  \( -name 'query_compiler_*' ! -name 'query_compiler_fast_bg.postgresql.mjs' \
    ! -name 'query_compiler_fast_bg.postgresql.wasm-base64.mjs' \) \
  -o -name 'wasm-compiler-edge.*' -o -name '*.map' \) -delete
