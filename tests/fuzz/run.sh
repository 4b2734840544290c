#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 600), seeded from the fixtures.
# Crashers land in tests/fuzz/regressions/<fmt>/ (commit them once fixed).
# Full logs: build-fuzz/fuzz_<fmt>.log; printed: the final status line (runs, cov, ft), the
# stats and the coverage of the whole saved corpus.
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
    log=build-fuzz/fuzz_$f.log
    mkdir -p "$corpus" tests/fuzz/regressions/$f
    seeds=tests/fixtures
    echo "== fuzz_$f for ${secs}s"
    rc=0
    build-fuzz/tests/fuzz/fuzz_$f "$corpus" "$seeds" -max_total_time="$secs" -rss_limit_mb=2048 \
        -timeout=10 -artifact_prefix=tests/fuzz/regressions/$f/ -print_final_stats=1 >"$log" 2>&1 || rc=$?
    grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::|^==[0-9]+==ERROR|^SUMMARY|Test unit written' "$log" || true
    # Coverage of everything kept (this and earlier runs).
    build-fuzz/tests/fuzz/fuzz_$f "$corpus" -runs=0 2>&1 | grep -E '^#[0-9]+[[:space:]]+INITED' | sed 's/^/corpus: /' || true
    [ "$rc" -eq 0 ] || { echo "fuzz_$f failed (exit $rc); see $log"; exit "$rc"; }
done
