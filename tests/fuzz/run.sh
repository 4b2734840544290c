#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 600), seeded from the fixtures.
# Crashers land in tests/fuzz/regressions/<fmt>/ (commit them once fixed).
# Usage: tests/fuzz/run.sh [SECONDS] [FORMAT...]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-600}
shift || true
fmts=("$@")
[ ${#fmts[@]} -eq 0 ] && fmts=(smd smdx xmodel xanim nt xmodel_bin)
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target $(printf 'fuzz_%s ' "${fmts[@]}")
for f in "${fmts[@]}"; do
    corpus=build-fuzz/corpus/$f
    mkdir -p "$corpus" tests/fuzz/regressions/$f
    seeds=tests/fixtures
    echo "== fuzz_$f for ${secs}s"
    build-fuzz/tests/fuzz/fuzz_$f "$corpus" "$seeds" -max_total_time="$secs" -rss_limit_mb=2048 \
        -timeout=10 -artifact_prefix=tests/fuzz/regressions/$f/ -print_final_stats=1 2>&1 | tail -15
done
