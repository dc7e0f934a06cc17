#!/usr/bin/env bash
# Units in the text of run, compare, tune and verify: t'_l under --r, s under a
# model, always after the value so that `awk '/^cost/ {print $2}'` and the
# sed of bench/alltoall_bisection.sh still read the number. Figures: torgos
# on torus:9x9 with r = 10 takes 5 rounds (50 t'_l of start-ups) and costs
# 83.5 t'_l; the lower bound is 3 start-ups, 30 t'_l. compare (shared
# arcs) ranks torus-ternary:split=2 first: 4 rounds and 24 units, 64 t'_l.
# usage: units.sh CLI
set -u
cli=$1
fail() { echo "FAIL: $*"; exit 1; }
run=$("$cli" run --algo torgos --topo torus:9x9 --r 10) || fail "run exit $?"
printf '%s\n' "$run" | grep -qx "cost           83.5 t'_l (start-up 50, hop 0, transfer 33.5)" || fail "run cost: $run"
printf '%s\n' "$run" | grep -qx "lower bound    30 t'_l (ratio 2.7833)" || fail "run bound: $run"
[ "$(printf '%s\n' "$run" | awk '/^cost/ {print $2}')" = 83.5 ] || fail "awk no longer reads the cost"
[ "$(printf '%s\n' "$run" | sed -n 's/^lower bound *\([^ ]*\) [^ ]* (ratio \([^)]*\)).*/\1 \2/p')" = "30 2.7833" ] ||
  fail "bench/alltoall_bisection.sh's sed no longer reads the bound"
run=$("$cli" run --algo torgos --topo torus:9x9 --model ts=1e-6,tl=1e-9 --bytes 1K) || fail "run exit $?"
printf '%s\n' "$run" | grep -q '^cost           [0-9.e-]* s (start-up ' || fail "run in seconds: $run"
# verify reads a file's costs in the unit it was written in: t'_l for a
# model in the papers' units (what --r writes), else s
vt=$(mktemp -d)
trap 'rm -rf "$vt"' EXIT
"$cli" run --algo torgos --topo torus:9x9 --r 10 --export "$vt/r.json" >/dev/null || fail "export under --r"
"$cli" run --algo torgos --topo torus:9x9 --model ts=1e-6,tl=1e-9 --bytes 1K --export "$vt/s.json" >/dev/null ||
  fail "export under a model"
ver=$("$cli" verify "$vt/r.json") || fail "verify exit $?"
printf '%s\n' "$ver" | grep -qx "cost           83.5 t'_l (start-up 50, hop 0, transfer 33.5)" || fail "verify cost: $ver"
printf '%s\n' "$ver" | grep -qx "lower bound    30 t'_l (ratio 2.7833)" || fail "verify bound: $ver"
ver=$("$cli" verify "$vt/s.json") || fail "verify exit $?"
printf '%s\n' "$ver" | grep -q '^cost           [0-9.e-]* s (start-up ' || fail "verify in seconds: $ver"
cmp=$("$cli" compare --problem gossip --topo torus:9x9 --r 10) || fail "compare exit $?"
printf '%s\n' "$cmp" | grep -qx "lower bound 30 t'_l" || fail "compare bound: $cmp"
printf '%s\n' "$cmp" | grep -qE "^ +algorithm +cost \(t'_l\) +rounds +ratio +params$" || fail "compare header: $cmp"
printf '%s\n' "$cmp" | grep -qE '^best torus-ternary +64 +4 +2.133 +split=2$' || fail "compare best row: $cmp"
printf '%s\n' "$cmp" | grep -qE '^ +torgos +83.5 +5 +2.783 ' || fail "compare row: $cmp"
cmp=$("$cli" compare --problem gossip --topo torus:9x9) || fail "compare exit $?"
printf '%s\n' "$cmp" | grep -qE "^ +algorithm +cost \(s\) +rounds" || fail "compare header in s: $cmp"
tune=$("$cli" tune --algo torgos --topo torus:9x9 --r 10) || fail "tune exit $?"
printf '%s\n' "$tune" | grep -qx "best        torgos:a=3,b=3,x=1  cost 83.5 t'_l, 5 rounds (verified)" || fail "tune: $tune"
printf '%s\n' "$tune" | grep -qE "^runner-up   torgos:[a-z0-9=,]+  cost [0-9.]+ t'_l$" || fail "tune runner-up: $tune"
# compare --sizes --spec: the winners as one per-size spec for the executor
# (docs/mpi.md); under the calibrated Paragon model they are SMPI's winners
# on 9x9 (docs/allgather.md: torus-digits at 1 and 4 KiB, 2.386 and 3.330 ms)
cal="$(dirname "$0")/../bench/paragon/results/calibrated_9x9.model"
spec=$("$cli" compare --problem gossip --topo torus:9x9 --sizes 256,1K,4K,16K,32K,64K --model "@$cal" --spec) ||
  fail "compare --spec exit $?"
[ "$spec" = "torus-doubling:ports=1<=256;torus-digits<=4096;torus-ternary:split=2" ] || fail "spec: $spec"
"$cli" compare --problem gossip --topo torus:9x9 --sizes 4K,1K --spec >/dev/null 2>&1
[ $? -eq 2 ] || fail "--spec with descending sizes: not exit 2"
"$cli" compare --problem gossip --topo torus:9x9 --bytes 1K --spec >/dev/null 2>&1
[ $? -eq 2 ] || fail "--spec without --sizes: not exit 2"
# compare prices sharing (contention=shared) unless the model sets the rule,
# also when it is set in a model file
mf=$(mktemp)
trap 'rm -f "$mf"' EXIT
printf 'contention=fair\nts=1e-6\ntl=1e-9\n' >"$mf"
cmp=$("$cli" compare --problem gossip --topo torus:4x4 --model "@$mf") || fail "compare @file exit $?"
printf '%s\n' "$cmp" | head -1 | grep -q "contention=fair," || fail "compare dropped the file's contention: $cmp"
printf 'ts=1e-6\ntl=1e-9\n' >"$mf"
cmp=$("$cli" compare --problem gossip --topo torus:4x4 --model "@$mf") || fail "compare @file exit $?"
printf '%s\n' "$cmp" | head -1 | grep -q "contention=shared," || fail "compare without a rule: $cmp"
echo "PASS: units"
