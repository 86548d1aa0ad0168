#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS]: builds every fuzz target with clang and
# libFuzzer (-DIDRES_FUZZ=ON, in build-fuzz/) and runs each for SECONDS (60
# by default) from its corpus, build-fuzz/corpus/<target>/: its seeds, and
# what earlier runs found (kept between runs). Stops with status 1 at the
# first target that fails, naming it and the input that broke it
# (build-fuzz/crash-<target>-*). docs/access.md, "Fuzzing every parser of
# outside input".
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

EACH="${1:-60}"
case "$EACH" in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac

bash "$IDRES_ROOT/scripts/install-deps.sh"
BUILD="${IDRES_FUZZ_BUILD_DIR:-$IDRES_ROOT/build-fuzz}"
CC=clang CXX=clang++ cmake -S "$IDRES_ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DIDRES_FUZZ=ON -DIDRES_BUILD_BENCH=OFF >/dev/null
mapfile -t TARGETS < <(cut -d'|' -f1 "$BUILD/fuzz_targets.txt" | grep -v '^$')
cmake --build "$BUILD" -j "$(nproc)" --target "${TARGETS[@]}"

export ASAN_OPTIONS="detect_leaks=1"
export LSAN_OPTIONS="suppressions=$IDRES_ROOT/scripts/lsan.supp:print_suppressions=0"
while IFS='|' read -r name binary seeds; do
  [ -n "$name" ] || continue
  corpus="$BUILD/corpus/$name"
  mkdir -p "$corpus"
  cp -n "$seeds"/* "$corpus"/
  echo "fuzz: $name for ${EACH}s"
  if ! "$binary" -max_total_time="$EACH" -timeout=30 -rss_limit_mb=4096 \
      -artifact_prefix="$BUILD/crash-$name-" "$corpus" >"$BUILD/$name.log" 2>&1; then
    tail -n 40 "$BUILD/$name.log"
    echo "fuzz: $name failed; the input: $(ls -t "$BUILD"/crash-"$name"-* 2>/dev/null | head -n 1)" >&2
    exit 1
  fi
  grep -E '^Done|#[0-9]+ *DONE' "$BUILD/$name.log" | tail -n 1 || true
done <"$BUILD/fuzz_targets.txt"
echo "fuzz: every target ran ${EACH}s clean"
