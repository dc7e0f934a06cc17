#!/usr/bin/env bash
# The CLI as a new user meets it: bad input gets one line on stderr and the
# exit status of CONTRACT.md (1 invalid schedule, 2 bad input, 3 too
# large), never a crash, never a partial output file.
set -u
MG=${1:?usage: cli_errors.sh PATH_TO_MESHGOSSIP}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# expect STATUS ARGS...: runs meshgossip, checks the exit status and that
# stderr has exactly one line when the status is not 0.
expect() {
  local want=$1
  shift
  "$MG" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [ "$got" != "$want" ]; then
    echo "FAIL: meshgossip $* -> exit $got, want $want; stderr: $(cat "$tmp/err")"
    fail=$((fail + 1))
  elif [ "$want" != 0 ] && [ "$lines" != 1 ]; then
    echo "FAIL: meshgossip $* -> $lines lines on stderr, want 1: $(cat "$tmp/err")"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

expect 2
expect 2 frobnicate
expect 0 --help
expect 0 list
expect 0 list --json
for c in list run bound verify compare tune table; do expect 0 "$c" --help; done
expect 2 run --algo nosuch --topo ring:9
expect 2 run --topo ring:9
expect 2 run --algo ring
expect 2 run --algo ring --topo torus:0x3
expect 2 run --algo ring --topo torus:9xx
expect 2 run --algo ring --topo ring:
expect 2 run --algo ring --topo ring:9 --model ts=-1
expect 2 run --algo ring --topo ring:9 --model ts=nan
expect 2 run --algo ring --topo ring:9 --model tl=NaN
expect 2 run --algo ring --topo ring:9 --model bogus=1
expect 2 run --algo ring --topo ring:9 --r -2
expect 2 run --algo ring --topo ring:9 --r nan
expect 2 run --algo ring --topo ring:9 --r 1 --model ts=1
expect 2 run --algo ring --topo ring:9 --bytes abc
expect 2 run --algo ring --topo ring:9 --frob
expect 2 run --algo ring:zz=1 --topo ring:9
expect 2 run --algo ring --topo torus:3x3
expect 2 run --algo ring --topo ring:9 extra
expect 3 run --algo ring --topo ring:60000000
expect 3 run --algo concentrate --topo ring:4096 --mem-limit 1M
expect 3 run --algo ring --topo torus:100000x100000
expect 2 run --algo ring --topo ring:9 --model port=one
expect 0 run --algo ring --topo ring:9 --r 2
expect 0 run --algo concentrate --topo line:10 --r 2 --json
# MPI baselines, compare --sizes, run --algo auto
expect 1 run --algo mpi-allgather-bruck --topo torus:4x4
expect 0 run --algo mpi-allgather-bruck --topo torus:4x4 --model contention=shared
expect 2 run --algo mpi-allgather-neighbor --topo torus:3x3 --model contention=shared
expect 3 run --algo mpi-alltoall-direct --topo torus:64x64 --model contention=shared
expect 2 compare --problem gossip --topo ring:8 --sizes 1,x
expect 2 compare --problem gossip --topo ring:8 --sizes 1, --r 1
expect 2 compare --problem gossip --topo ring:8 --sizes 1 --bytes 2
expect 0 compare --problem gossip --topo ring:8 --r 1 --sizes 1K,2K
expect 0 compare --problem exchange --topo torus:3x3 --r 1 --sizes 1,2 --json
expect 2 run --algo ring --problem gossip --topo ring:9
expect 2 run --algo auto --problem nonsense --topo ring:9
expect 0 run --algo auto --topo torus:4x4 --model contention=shared --json
expect 2 run --algo auto --problem exchange --topo meshbus:3
expect 2 bound --problem nonsense --topo ring:9
expect 2 bound --problem gossip
expect 0 bound --problem exchange --topo torus:8x8 --model port=one,ts=1,tl=1
expect 2 table nosuch
expect 2 table
expect 2 verify
expect 2 verify "$tmp/missing.json"

# schedule files: malformed, truncated, items out of range
echo '{"format": "meshgossip.schedule", "version": 1,' >"$tmp/trunc.json"
expect 2 verify "$tmp/trunc.json"
echo 'not json at all' >"$tmp/junk.json"
expect 2 verify "$tmp/junk.json"
expect 0 run --algo ring --topo ring:5 --r 1 --export "$tmp/ok.json"
expect 0 verify "$tmp/ok.json"
expect 0 verify "$tmp/ok.json" --json
sed 's/"items": \[0\]/"items": [99]/' "$tmp/ok.json" >"$tmp/range.json"
expect 1 verify "$tmp/range.json"
head -c 300 "$tmp/ok.json" >"$tmp/cut.json"
expect 2 verify "$tmp/cut.json"
# a schedule that moves an item twice over one arc in a round: exit 1
python3 - "$tmp/ok.json" "$tmp/clash.json" <<'PY' 2>/dev/null || cp "$tmp/ok.json" "$tmp/clash.json"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["rounds"][0][0]
d["rounds"][0].append(dict(t))
json.dump(d, open(sys.argv[2], "w"))
PY
expect 1 verify "$tmp/clash.json"

# no partial output file when the schedule is refused
expect 2 run --algo ring --topo ring:9 --model port=one --export "$tmp/refused.json"
if ls "$tmp" | grep -q refused; then
  echo "FAIL: a refused export left a file: $(ls "$tmp")"
  fail=$((fail + 1))
else
  pass=$((pass + 1))
fi
expect 2 run --algo ring --topo ring:9 --export /nonexistent/dir/x.json

# --json output is one JSON object with the contract's keys
"$MG" run --algo concentrate --topo ring:27 --r 10 --json >"$tmp/run.json"
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
keys = ["algorithm","params","problem","topology","model","bytes","verified","violation","rounds","startups","cost",
        "cost_terms","bytes_moved","max_arc_load","lower_bound","ratio_to_bound","wall_s","peak_rss_bytes"]
missing = [k for k in keys if k not in d]
assert not missing, missing
assert d["verified"] is True and d["rounds"] == 5 and d["cost"] == 5*10 + 2*27 + 13
' "$tmp/run.json"; then pass=$((pass + 1)); else
  echo "FAIL: run --json"
  fail=$((fail + 1))
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
