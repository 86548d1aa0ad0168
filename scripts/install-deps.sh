#!/usr/bin/env bash
# Installs the Debian 12 packages idres needs to build, test and run.
# Idempotent: packages already present are skipped; nothing is upgraded.
# Runs as root, or through sudo when not root.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates curl
  clang libclang-rt-dev clang-format
  libpqxx-dev libpq-dev
  libjemalloc-dev  # the executables' malloc (cmake/Dependencies.cmake, IDRES_JEMALLOC)
  libphonenumber-dev libicu-dev libssl-dev
  libboost-system1.74-dev libboost-dev
  libprotobuf-dev protobuf-compiler
  libgrpc++-dev protobuf-compiler-grpc  # idres serve --grpc-listen
  libnghttp2-dev  # the benchmark suite's gRPC load generator (client/grpc_upserts.h)
  python3-grpcio python3-protobuf  # the gRPC tests' Python client (tests/grpc)
  catch2 libcli11-dev libspdlog-dev libfmt-dev libtomlplusplus-dev nlohmann-json3-dev
  postgresql-15 postgresql-client-15 pgbouncer
  gnuplot-nox procps
  chromium  # headless, for the steward console's browser test (tests/console)
  librdkafka-dev kcat  # idres consume and changes --to-kafka; the tests' mock cluster and reader
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# Node.js runs the lock-key cross-check and the generated Connect client in the
# tests. The machine image ships Node.js 20 with npm; Debian's nodejs is only
# installed where no node is present (Debian's npm conflicts with that image's).
if ! command -v node >/dev/null 2>&1; then missing+=(nodejs); fi
if ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
