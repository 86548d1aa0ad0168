#!/usr/bin/env bash
# Installs the pinned npm packages (npm ci, from package-lock.json) and
# generates the Connect client from api/idres/v1/identity.proto into gen/.
# Both node_modules/ and gen/ are git-ignored. Run by ctest (connect_setup).
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
rm -rf gen && mkdir -p gen
protoc --plugin=protoc-gen-es=node_modules/.bin/protoc-gen-es --es_out=gen \
  --es_opt=target=js --proto_path=../../api idres/v1/identity.proto
test -f gen/idres/v1/identity_pb.js
