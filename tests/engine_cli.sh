#!/usr/bin/env bash
# `meshgossip platform`, `--export-ti` and `--engine` from the command line:
# exit statuses of the refusals (2 bad input or what SimGrid cannot
# express, 3 too large, each with one line on stderr), the files written, and with SimGrid
# built in the engine's JSON; without it, `--engine simgrid` exits 2.
set -u
MG=${1:?usage: engine_cli.sh PATH_TO_MESHGOSSIP}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
expect() {
  local want=$1
  shift
  "$MG" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: meshgossip $* -> exit $got, want $want; stderr: $(cat "$tmp/err")"
    fail=$((fail + 1))
  elif [ "$want" != 0 ] && [ "$(wc -l <"$tmp/err")" != 1 ]; then
    echo "FAIL: meshgossip $* -> want one line on stderr: $(cat "$tmp/err")"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}

# platform
expect 0 platform --topo mesh:3x4 -o "$tmp/m.xml"
check "platform writes the XML and the host file" test -s "$tmp/m.xml" -a -s "$tmp/m.hosts"
check "host file has one host per node" test "$(wc -l <"$tmp/m.hosts")" = 12
check "12*11 routes" test "$(grep -c '<route ' "$tmp/m.xml")" = 132
expect 0 platform --topo torus:9x9
check "an all-odd torus is a TORUS cluster (Paragon regime by default)" \
  grep -q 'bw="175000000Bps" lat="5e-08s" topology="TORUS" topo_parameters="9,9"' "$tmp/out"
expect 2 platform --topo torus:4x4 --model tl=0
expect 3 platform --topo torus:32x32
expect 2 platform --topo torus:4x4 --bogus 1
expect 0 platform --topo meshbus:4

# TI traces without an engine
expect 0 run --algo dimwise --topo torus:3x3 --model tl=1e-9 --bytes 100 --export-ti "$tmp/ti"
check "9 traces listed" test "$(wc -l <"$tmp/ti/traces.txt")" = 9
check "rank 0 trace starts with init, ends with finalize" \
  test "$(head -1 "$tmp/ti/rank0.txt")" = "0 init" -a "$(tail -1 "$tmp/ti/rank0.txt")" = "0 finalize"
sends=$(cat "$tmp"/ti/rank*.txt | grep -c ' isend ')
recvs=$(cat "$tmp"/ti/rank*.txt | grep -c ' irecv ')
transfers=$("$MG" run --algo dimwise --topo torus:3x3 --model tl=1e-9 --bytes 100 --json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["transfers"])')
check "one isend and one irecv per transfer ($sends, $recvs, $transfers)" test "$sends" = "$transfers" -a "$recvs" = "$transfers"
expect 2 run --algo bus-simple --topo meshbus:3 --export-ti "$tmp/tibus"
check "a refused TI export leaves no directory" test ! -e "$tmp/tibus"
# --format ti is --export-ti; '-' is no directory
expect 0 run --algo dimwise --topo torus:3x3 --model tl=1e-9 --bytes 100 --export "$tmp/ti2" --format ti
check "--format ti writes the same traces" diff -r "$tmp/ti" "$tmp/ti2" -x traces.txt
expect 2 run --algo dimwise --topo torus:3x3 --export-ti -
check "--export-ti - makes no directory '-'" test ! -e ./-
# traces of a schedule with routes of its own get their platform beside
# them (platform.xml, hosts.txt; tests/simgrid/ti_replay.sh replays it);
# without links in the model (tl = 0) there is none, and that is said
# (smpirun -replay would take a platform's default routes); traces on
# default routes get no platform and say nothing
expect 0 run --algo lee3d --topo torus:7x7x7 --model switching=circuit,ts=0,td=1e-7,tl=1e-7 --bytes 64 \
  --export-ti "$tmp/tilee"
check "lee3d's platform said" grep -q "^ti platform    $tmp/tilee/platform.xml, hosts.txt: 392 transfers" "$tmp/out"
check "lee3d's platform written" test -s "$tmp/tilee/platform.xml" -a -s "$tmp/tilee/hosts.txt"
check "lee3d's platform has its 1176 routes" test "$(grep -c '<route ' "$tmp/tilee/platform.xml")" = 1176
check "lee3d's platform is quiet on stderr" test ! -s "$tmp/err"
expect 0 run --algo lee3d --topo torus:7x7x7 --model switching=circuit,ts=1e-6,td=0,tl=0 --bytes 64 \
  --export-ti "$tmp/tilee0"
check "lee3d's own routes said" grep -q "^meshgossip: 392 transfers of the traces take routes of their own" "$tmp/err"
check "no platform without links" test ! -e "$tmp/tilee0/platform.xml"
expect 0 run --algo dimwise --topo torus:3x3 --model tl=1e-9 --bytes 100 --export-ti "$tmp/tidw"
check "dimwise's traces say nothing of routes" test ! -s "$tmp/err"
check "dimwise's traces get no platform" test ! -e "$tmp/tidw/platform.xml"
# written whole or not at all: a directory in the way of rank5.txt fails
# before any file moves in, and takes nothing else with it
mkdir -p "$tmp/ti3/rank5.txt"
echo keep >"$tmp/ti3/traces.txt"
expect 2 run --algo dimwise --topo torus:3x3 --model tl=1e-9 --bytes 100 --export-ti "$tmp/ti3"
check "a failed TI export leaves the directory as it was" \
  test "$(ls -A "$tmp/ti3" | tr '\n' ' ')" = "rank5.txt traces.txt " -a "$(cat "$tmp/ti3/traces.txt")" = keep
expect 0 run --algo dimwise --topo torus:3x3 --model tl=1e-9 --bytes 100 --export-ti "$tmp/ti"
check "a second TI export into the same directory replaces its files" test "$(ls -A "$tmp/ti" | wc -l)" = 10

# engines
expect 2 run --algo dimwise --topo torus:3x3 --engine bogus
expect 2 run --algo dimwise --topo torus:3x3 --engine simgrid:sync=never
if "$MG" run --algo dimwise --topo torus:3x3 --model tl=1e-9 --engine simgrid >/dev/null 2>"$tmp/err"; then
  expect 0 run --algo dimwise --topo torus:3x3 --model ts=1e-6,tl=1e-9 --bytes 1000 --engine simgrid:o=0 --json
  check "JSON has engine.name and engine.time_s" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
e = j["engine"]
sys.exit(0 if e["name"] == "simgrid" and e["time_s"] > 0 and j["verified"] else 1)' "$tmp/out"
  expect 2 run --algo bus-simple --topo meshbus:3 --engine simgrid
  expect 3 run --algo dimwise --topo torus:64x64 --model tl=1e-9 --engine simgrid --mem-limit 1M
  expect 2 run --algo dimwise --topo torus:3x3 --model tl=0 --engine simgrid
  expect 0 compare --problem gossip --topo torus:3x3 --model ts=1e-6,tl=1e-9 --engine simgrid
  check "compare prints a simgrid column" grep -q simgrid "$tmp/out"
  # a review: or=0 did not override the model's or; 1/tl past a double
  # made an unloadable platform; a time past a double was printed as inf
  expect 0 run --algo torgos --topo torus:4x4 --model contention=shared,ts=1e-5,o=3e-5,or=2e-5,td=1e-7,tl=1e-7 \
    --bytes 4096 --engine simgrid:or=0,o=0
  check "simgrid:or=0 overrides the model's or" grep -q "o=0, or=0 per message" "$tmp/out"
  expect 2 run --algo dimwise --topo torus:3x3 --model tl=1e-310 --engine simgrid
  expect 2 platform --topo torus:3x3 --model tl=1e-310
  expect 2 run --algo torgos --topo torus:4x4 --model contention=shared,ts=0,td=1e-7,tl=1e-7 --bytes 1G \
    --engine simgrid:tl=1e300
  check "an infinite time is refused" grep -q "time past a double" "$tmp/err"
else
  check "without SimGrid: exit 2 and says so" grep -q "not built in" "$tmp/err"
  expect 2 run --algo dimwise --topo torus:3x3 --model tl=1e-9 --engine simgrid
fi
echo "engine_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
