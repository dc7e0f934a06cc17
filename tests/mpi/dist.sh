#!/usr/bin/env bash
# The distributed simulator (meshgossip-mpi run/verify, docs/distributed.md)
# against the single-process CLI: for one case, the output of
# `meshgossip run|verify ARGS` (stdout, stderr and exit status) must be
# exactly that of `mpirun -n K meshgossip-mpi run|verify ARGS` for K = 1..4,
# of `meshgossip-mpi --serial 3` (one process, three shards in turn) and of
# `mpirun -n 2 meshgossip-mpi --serial 2` (four shards, two passes on two
# ranks: a fault one rank finds in the second pass reaches both), but for the wall time and peak RSS of the "simulation" line (per rank).
# The broken cases corrupt an exported schedule so that the fault lies in
# items one shard owns, and check the reason names that fault.
# usage: dist.sh MPIEXEC MESHGOSSIP MESHGOSSIP_MPI CASE
set -u
mpiexec=$1 mg=$2 mgmpi=$3 case=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# the figures that depend on the process, not on the schedule
strip() { sed -e '/^simulation /d' -e 's/"wall_s": [0-9.e+-]*/"wall_s": T/' -e 's/"peak_rss_bytes": [0-9]*/"peak_rss_bytes": M/' "$1"; }

# mpiexec -n NP meshgossip-mpi ARGS... into b.out/b.err, every rank's exit
# status in a file (mpiexec reports one; and its abort on a non-zero status
# costs seconds); rb := rank 0's, a failure if the ranks' differ
on_ranks() { # what np args...
  local what=$1 np=$2
  shift 2
  rm -f "$tmp"/rc.*
  OMPI_MCA_orte_abort_on_non_zero_status=0 "$mpiexec" --allow-run-as-root --oversubscribe -n $np \
    bash -c '"$0" "$@"; echo $? >"'"$tmp"'/rc.$OMPI_COMM_WORLD_RANK"' "$mgmpi" "$@" >"$tmp/b.out" 2>"$tmp/b.err"
  rb=$(cat "$tmp"/rc.0 2>/dev/null)
  [ "$(cat "$tmp"/rc.* 2>/dev/null | sort -u | wc -l)" = 1 ] && [ "$(ls "$tmp"/rc.* | wc -l)" = $np ] ||
    fail "$what: the ranks' exit statuses differ or are missing: $(cat "$tmp"/rc.* 2>/dev/null | tr '\n' ' ')"
}

# b.err without the line that starts with $1 (the passes' summary)
drop_line() {
  grep -v "^$1" "$tmp/b.err" >"$tmp/b.err2"
  mv "$tmp/b.err2" "$tmp/b.err"
}

same() { # run|verify ARGS...: every K and serial against the CLI
  "$mg" "$@" >"$tmp/a.out" 2>"$tmp/a.err"
  local ra=$? k
  for k in 1 2 3 4 serial hybrid; do
    if [ $k = serial ]; then
      "$mgmpi" "$1" --serial 3 "${@:2}" >"$tmp/b.out" 2>"$tmp/b.err"
      rb=$?
      drop_line 'meshgossip-mpi: 3 serial shards'
    elif [ $k = hybrid ]; then
      on_ranks "$* on 2 ranks x 2 passes" 2 "$1" --serial 2 "${@:2}"
      grep -q '^meshgossip-mpi: 4 serial shards (2 passes on 2 ranks)' "$tmp/b.err" ||
        fail "$* on 2 ranks x 2 passes: no summary line"
      drop_line 'meshgossip-mpi: 4 serial shards'
    else
      on_ranks "$* on $k" $k "$@"
    fi
    [ $ra = $rb ] || fail "$* on $k: exit $rb, meshgossip exits $ra"
    diff <(strip "$tmp/a.out") <(strip "$tmp/b.out") >"$tmp/d" || { fail "$* on $k: stdout differs"; cat "$tmp/d"; }
    diff <(grep "^meshgossip" "$tmp/a.err") <(grep "^meshgossip" "$tmp/b.err") >"$tmp/d" || { fail "$* on $k: stderr differs"; cat "$tmp/d"; }
  done
  echo "same on 1..4 ranks, 3 serial shards and 2 ranks x 2 passes (exit $ra): $*"
  LAST_EXIT=$ra
  LAST_OUT=$(cat "$tmp/a.out" "$tmp/a.err")
}

expect() { # exit, pattern: the last case's verdict
  [ "$LAST_EXIT" = "$1" ] || fail "exit $LAST_EXIT, want $1"
  grep -q -- "$2" <<<"$LAST_OUT" || fail "no '$2' in: $LAST_OUT"
}

# rewrite a schedule file: python3 expression over the parsed document d
edit() { # in out code
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

case $case in
gossip)
  same run --algo ring --topo ring:13 --r 2
  expect 0 "cost           18 t'_l (start-up 12, hop 0, transfer 6)"
  same run --algo torgos --topo torus:9x9 --r 10 --json
  expect 0 '"cost": 83.5'
  same run --algo cubgos --topo torus:9x9x9 --r 10
  expect 0 "verified       yes"
  same run --algo dimwise-colored:phases=2-1 --topo torus:27x27 --r 8
  expect 0 "verified       yes"
  same run --algo lee3d-long --topo torus:7x7x7 --model switching=circuit
  expect 0 "rounds         5 (5 with transfers)"
  ;;
bus)
  same run --algo bus-simple --topo meshbus:8 --model switching=bus,ell=4
  expect 0 "verified       yes"
  ;;
exchange)
  same run --algo exchange-partitioned --topo torus:8x8x8 --r 10
  expect 0 "verified       yes"
  # --serial with auto: refused (its candidates shared one ledger and the
  # pick came out wrong), auto under mpirun alone picks as meshgossip does
  "$mgmpi" run --serial 2 --algo auto --problem exchange --topo torus:4x4 --r 10 >/dev/null 2>"$tmp/auto.err" &&
    fail "--serial 2 --algo auto accepted"
  grep -q "takes a named algorithm, not auto" "$tmp/auto.err" || fail "--serial auto: $(cat "$tmp/auto.err")"
  same run --algo exchange-dimwise --topo torus:6x6 --r 10 --json
  expect 0 '"verified": true'
  ;;
broken)
  command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
  # gossip on ring:12: 3 shards own origins 0-3, 4-7, 8-11. Round 1,
  # transfer 2 (node 1 -> 2) is made to send item 9, which node 1 does not
  # hold yet: only the third shard can see it.
  "$mg" run --algo ring --topo ring:12 --r 1 --export "$tmp/g.json" >/dev/null || fail "export ring"
  edit "$tmp/g.json" "$tmp/g1.json" 'd["rounds"][1][2]["items"] = [9]'
  same verify "$tmp/g1.json"
  expect 1 "round 1 transfer 2: node 1 sends item 9 it does not hold"
  # the same fault, and a route fault every shard sees one transfer later:
  # the item comes first, as in one simulator
  edit "$tmp/g.json" "$tmp/g2.json" 'd["rounds"][1][2]["items"] = [9]; d["rounds"][1][3]["route"] = [[0, 2]]'
  same verify "$tmp/g2.json"
  expect 1 "round 1 transfer 2: node 1 sends item 9"
  # a route fault one transfer before the item fault: the route comes first
  edit "$tmp/g.json" "$tmp/g3.json" 'd["rounds"][1][3]["items"] = [10]; d["rounds"][1][2]["route"] = [[0, 2]]'
  same verify "$tmp/g3.json"
  expect 1 "round 1 transfer 2 (1->2): route ends at node 3"
  # a transfer of the last round dropped, one that carries an item of the
  # third shard: that node lacks that item
  edit "$tmp/g.json" "$tmp/g4.json" '
j = next(j for j, t in enumerate(d["rounds"][-1]) if t["items"][0] >= 8)
t = d["rounds"][-1].pop(j)
open(sys.argv[2] + ".want", "w").write("node %d lacks item %d " % (t["dst"], t["items"][0]))'
  same verify "$tmp/g4.json"
  expect 1 "incomplete: $(cat "$tmp/g4.json.want")"
  # two pieces on torus:4x4: the shards number their bits piece by piece,
  # black's origins column by column (src/sim/gossip_layout.c), so a
  # shard's first bit is not always its least item. Node 1 sends item 31
  # (origin 15, black) in round 0. Then items 9 (origin 4 = (0,1)) and 3
  # (origin 1 = (1,0)), both black, are taken out of the last two rounds'
  # transfers to node 3: in the shards' numbering 9 comes first, and every
  # shard must name item 3, as one simulator does.
  "$mg" run --algo dimwise-colored --topo torus:4x4 --r 1 --export "$tmp/c.json" >/dev/null || fail "export colored"
  edit "$tmp/c.json" "$tmp/c1.json" 'd["rounds"][0][2]["items"] = [31]'
  same verify "$tmp/c1.json"
  expect 1 "round 0 transfer 2: node 1 sends item 31 it does not hold"
  edit "$tmp/c.json" "$tmp/c2.json" '
for r, it in ((2, 9), (3, 3)):
    t = next(t for t in d["rounds"][r] if t["dst"] == 3 and it in t["items"])
    t["items"].remove(it)'
  same verify "$tmp/c2.json"
  expect 1 "incomplete: node 3 lacks item 3 (origin 1, piece 1)"
  # exchange on ring:12: the shards own destinations 0-3, 4-7, 8-11; a
  # block for destination 9 that its sender does not hold
  "$mg" run --algo exchange-ring --topo ring:12 --r 1 --export "$tmp/x.json" >/dev/null || fail "export exchange"
  edit "$tmp/x.json" "$tmp/x1.json" 'd["rounds"][0][1]["items"][0] = 7 * 12 + 9'
  same verify "$tmp/x1.json"
  expect 1 "sends block (7,9) it does not hold"
  # mesh-bus: ell lowered below the messages the schedule sends; the
  # count is a sum over the shards
  "$mg" run --algo bus-simple --topo meshbus:6 --model switching=bus,ell=4 --export "$tmp/b.json" >/dev/null ||
    fail "export bus"
  edit "$tmp/b.json" "$tmp/b1.json" 'd["model"]["ell"] = 2'
  same verify "$tmp/b1.json"
  expect 1 "over ell = 2"
  # a file only rank 0 can read (standard input): every rank exits 2, none
  # waits for ever (a review: rank 1 left, rank 0 hung in a reduction)
  rm -f "$tmp"/rc.*
  OMPI_MCA_orte_abort_on_non_zero_status=0 timeout 60 "$mpiexec" --allow-run-as-root --oversubscribe -n 2 \
    bash -c '"$0" "$@"; echo $? >"'"$tmp"'/rc.$OMPI_COMM_WORLD_RANK"' "$mgmpi" verify /dev/stdin \
    <"$tmp/b.json" >"$tmp/b.out" 2>"$tmp/b.err"
  [ "$(cat "$tmp"/rc.0 "$tmp"/rc.1 2>/dev/null | tr '\n' ' ')" = "2 2 " ] ||
    fail "verify /dev/stdin on 2 ranks: exits $(cat "$tmp"/rc.* 2>/dev/null | tr '\n' ' ')"
  grep -q "standard input and pipes reach one rank only" "$tmp/b.err" || fail "verify /dev/stdin: $(cat "$tmp/b.err")"
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
[ $fails = 0 ] || exit 1
echo "all passed"
