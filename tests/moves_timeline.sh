#!/usr/bin/env bash
# scripts/moves_timeline.py against the simulator: the script re-implements
# the clock an exchange-moves plan is searched against (exchange_moves.c,
# xm_estimate) to show where the arcs idle (docs/alltoall.md, "Where the
# plan's time above that bound goes"). On three exported plans (4x4x4 by
# default, 3 rounds of one-hop moves, and 5x5 with reach=2, rounds=2, under
# the calibrated SMPI model; 4x4 under it with a receive overhead and no
# acknowledgements, where the last reads come after the last byte) its end
# must equal `meshgossip verify`'s async cost to the printed nanosecond;
# every direction must idle through the first send's o of CPU; the end less
# a direction's idle time must be its work (its bytes and acknowledgements
# at full rate, counted from the messages, not from the timeline); and the
# intervals' idle must add up to the whole. Files it cannot replay (a
# gossip schedule, a round clock) are refused with a reason and exit 1.
# usage: moves_timeline.sh PATH_TO_MESHGOSSIP SOURCE_DIR
set -u
mg=$1 src=$2
py=$src/scripts/moves_timeline.py
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
model=$(grep -v '^#' "$src/bench/paragon/results/calibrated_9x9.model" | paste -sd, -)
o=$(printf '%s\n' "$model" | tr , '\n' | sed -n 's/^o=//p')
[ -n "$o" ] || fail "no o in the calibrated model"
readover=$(printf '%s\n' "$model" | sed 's/,ack=[^,]*//; s/,or=0,/,or=0.0001,/')
[ "$readover" != "$model" ] || fail "the model with a read overhead is the same model"
check() { # topo algo model
  "$mg" run --algo "$2" --topo "$1" --bytes 16384 --model "$3" --timing async --export "$tmp/p.json" >/dev/null ||
    fail "$1: export"
  out=$(python3 "$py" "$tmp/p.json" --cli "$mg" --cuts "$o") || fail "$1: the script failed: $out"
  printf '%s\n' "$out"
  printf '%s\n' "$out" | awk -v topo="$1" -v o="$o" '
    function off(a, b, tol) { return a - b > tol || b - a > tol }
    /^sends a node:/ { n = $4 + 0; end = $6 }
    /^meshgossip verify:/ { ver = $3 }
    /^ms of work/ { for (j = 6; j <= NF; j++) work[j - 6] = $j }
    / \.\. .* ms:/ { nd = NF - 5
      for (j = 5; j < NF; j++) { part[j - 5] += $j; if ($1 == "0.000" && off($j, o * 1e3, 5e-4)) bad = bad " " $j } }
    /^  in all:/ { seen = 1
      for (j = 3; j < NF; j++) {
        if (off(part[j - 3], $j, 0.002)) sum = sum " " part[j - 3] "/" $j
        if (off(end - $j, work[j - 3], 0.002)) busy = busy " " end - $j "/" work[j - 3] } }
    END {
      if (n < 1 || end == "" || ver == "") { print topo ": no sends, end or verify line"; exit 1 }
      if (off(end, ver, 1e-6)) { print topo ": end " end " ms, verify " ver " ms"; exit 1 }
      if (nd < 4 || bad != "") { print topo ": not every direction idle through the first send:" bad; exit 1 }
      if (!seen || sum != "") { print topo ": the intervals do not add up:" sum; exit 1 }
      if (busy != "") { print topo ": end less idle is not the work (ms):" busy; exit 1 }
      print topo ": " n " sends, " nd " directions, end " end " ms = verify " ver " ms, end - idle = work"
    }' || fail "$1"
}
check torus:4x4x4 exchange-moves "$model"
check torus:5x5 exchange-moves:reach=2,rounds=2 "$model"
check torus:4x4 exchange-moves "$readover"
"$mg" run --algo ring --topo ring:9 --r 1 --export "$tmp/g.json" >/dev/null || fail "gossip export"
msg=$(python3 "$py" "$tmp/g.json" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "a gossip schedule: exit $rc, want 1"
printf '%s\n' "$msg" | grep -q "an exchange schedule on a torus under contention=fair" || fail "gossip: reason '$msg'"
"$mg" run --algo exchange-moves --topo torus:4x4 --bytes 16384 --model "$model" --timing ranks --export "$tmp/r.json" \
  >/dev/null || fail "ranks export"
msg=$(python3 "$py" "$tmp/r.json" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "a timing=ranks schedule: exit $rc, want 1"
printf '%s\n' "$msg" | grep -q "the clock is timing=async" || fail "ranks: reason '$msg'"
echo "OK"
