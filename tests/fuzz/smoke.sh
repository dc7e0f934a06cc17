#!/usr/bin/env bash
# CI smoke of the libFuzzer harnesses: replays every committed regression
# input (tests/fuzz/regress/HARNESS-*), then runs each harness for SECONDS
# over a seed corpus made by make_corpus.sh. Fails on any crash, leak,
# sanitizer report or input slower than 1 s.
#   smoke.sh HARNESS_DIR PATH_TO_MESHGOSSIP [SECONDS]
set -u
DIR=${1:?usage: smoke.sh HARNESS_DIR PATH_TO_MESHGOSSIP [SECONDS]}
MG=${2:?usage: smoke.sh HARNESS_DIR PATH_TO_MESHGOSSIP [SECONDS]}
SECS=${3:-15}
HERE=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the harnesses' own files (fuzz_modelfile's) go here too: one that crashes
# skips its cleanup, and this directory goes when the smoke ends
export TMPDIR=$tmp
for h in schedule topo model algo msccl modelfile spec plot; do
  if [ ! -x "$DIR/fuzz_$h" ]; then
    echo "fuzz smoke: $DIR/fuzz_$h not built (configure with CC=clang -DMG_FUZZ=ON); skipped"
    exit 0
  fi
done
# The seeds are the CLI's exports, the same from any build: MG_FUZZ_SEED_CLI
# (scripts/test.sh: the RelWithDebInfo one) makes them faster than the
# sanitized CLI of this build (49 s against 106 s, before make_corpus.sh
# tried each algorithm's own machines first: 10.5 s now).
seed_cli=$MG
if [ -n "${MG_FUZZ_SEED_CLI:-}" ] && [ -x "$MG_FUZZ_SEED_CLI" ]; then seed_cli=$MG_FUZZ_SEED_CLI; fi
bash "$HERE/make_corpus.sh" "$seed_cli" "$tmp/seed" 2>/dev/null
# Replays every regression input of harness $1, then fuzzes it for SECS;
# writes its report to $tmp/$1.report and fails as the harness did.
fuzz_one() {
  local h=$1 regs rc execs cov fail=0
  regs=$(ls "$HERE/regress/$h"-* 2>/dev/null)
  if [ -n "$regs" ]; then
    # shellcheck disable=SC2086
    if ! "$DIR/fuzz_$h" -timeout=1 -rss_limit_mb=2048 $regs >"$tmp/$h.replay" 2>&1; then
      echo "FAIL: fuzz_$h on a committed regression input:"
      tail -30 "$tmp/$h.replay"
      fail=1
    else
      echo "fuzz_$h: $(echo "$regs" | wc -w) regression inputs replayed"
    fi
  fi
  mkdir -p "$tmp/work/$h"
  "$DIR/fuzz_$h" -max_total_time="$SECS" -timeout=1 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$tmp/$h-" "$tmp/work/$h" "$tmp/seed/$h" >"$tmp/$h.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$h.log")
  cov=$(grep -o 'cov: [0-9]*' "$tmp/$h.log" | tail -1)
  if [ $rc != 0 ]; then
    echo "FAIL: fuzz_$h exit $rc; artifacts:" "$tmp/$h"-*
    grep -m1 -B2 -A25 'ERROR\|runtime error\|timeout\|leak' "$tmp/$h.log"
    for a in "$tmp/$h"-*; do [ -f "$a" ] && { echo "input (base64):"; base64 -w0 "$a"; echo; }; done
    fail=1
  else
    echo "fuzz_$h: ${execs:-?} executions in ${SECS} s, $cov, no crash"
  fi
  return $fail
}
# The harnesses are independent: as many run at once as there are cores.
# Reports print in harness order.
jobs_max=$(nproc 2>/dev/null || echo 2)
for h in schedule topo model algo msccl modelfile spec plot; do
  { fuzz_one "$h" >"$tmp/$h.report" 2>&1; echo $? >"$tmp/$h.rc"; } &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
done
wait
fail=0
for h in schedule topo model algo msccl modelfile spec plot; do
  cat "$tmp/$h.report"
  [ "$(cat "$tmp/$h.rc" 2>/dev/null)" = 0 ] || fail=1
done
exit $fail
