#!/usr/bin/env bash
# Longer libFuzzer runs of the harnesses (tests/fuzz), one after the
# other (-jobs=1: the machine is shared), each until RUNS executions or
# SECONDS seconds, whichever comes first. Prints per harness the
# executions, the coverage (edges and features), the corpus size and the
# crashes, leaks and timeouts (> 1 s) found; their inputs are left in
# OUTDIR/artifacts to be committed under tests/fuzz/regress/.
#   bench/fuzz.sh [RUNS] [SECONDS] [OUTDIR]   (defaults 1000000 1800 build-fuzz/fuzz-out)
# Builds build-fuzz with clang (CC=clang -DMG_FUZZ=ON) if needed.
set -u
cd "$(dirname "$0")/.."
RUNS=${1:-1000000}
SECS=${2:-1800}
OUT=${3:-build-fuzz/fuzz-out}
if ! command -v clang >/dev/null; then
  echo "fuzz.sh: clang not found (apt-get install clang libclang-rt-14-dev)"
  exit 0
fi
if [ ! -x build-fuzz/fuzz_schedule ]; then
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMG_FUZZ=ON -DMG_SMPI=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >/dev/null || exit 1
  cmake --build build-fuzz -j2 >/dev/null || exit 1
fi
mkdir -p "$OUT/artifacts"
bash tests/fuzz/make_corpus.sh build-fuzz/meshgossip "$OUT/seed" 2>/dev/null
printf '%-10s %12s %8s %6s %9s %8s %6s %6s %9s\n' harness executions exec/s cov features corpus crash leak timeout
total_bad=0
for h in schedule topo model algo msccl modelfile spec plot; do
  mkdir -p "$OUT/corpus/$h"
  log="$OUT/$h.log"
  build-fuzz/fuzz_$h -runs="$RUNS" -max_total_time="$SECS" -timeout=1 -rss_limit_mb=2048 -max_len=65536 \
    -jobs=1 -workers=1 -print_final_stats=1 -artifact_prefix="$OUT/artifacts/$h-" \
    "$OUT/corpus/$h" "$OUT/seed/$h" >"$log" 2>&1
  [ -f "fuzz-0.log" ] && cat fuzz-0.log >>"$log" && rm -f fuzz-0.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  corp=$(ls "$OUT/corpus/$h" | wc -l)
  crash=$(ls "$OUT/artifacts/$h-crash-"* 2>/dev/null | wc -l)
  leak=$(ls "$OUT/artifacts/$h-leak-"* 2>/dev/null | wc -l)
  tmo=$(ls "$OUT/artifacts/$h-timeout-"* "$OUT/artifacts/$h-slow-unit-"* 2>/dev/null | wc -l)
  printf '%-10s %12s %8s %6s %9s %8s %6s %6s %9s\n' "$h" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$corp" \
    "$crash" "$leak" "$tmo"
  total_bad=$((total_bad + crash + leak + tmo))
done
echo "findings: $total_bad (inputs in $OUT/artifacts; logs in $OUT/*.log)"
