#!/bin/bash
# export_formats.sh MESHGOSSIP: exports schedules as JSON, MSCCL XML and
# GOAL (--export with the format taken from the extension, and --format)
# and re-reads the XML and GOAL with export_formats.py against the JSON:
# exactly the schedule's transfers and dependencies. Also: a mesh-bus
# schedule is refused with no file left; --export - writes to stdout.
set -euo pipefail
mg=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
check() { # algo topo args...
  local algo=$1 topo=$2; shift 2
  echo "== $algo on $topo $*: "
  "$mg" run --algo "$algo" --topo "$topo" "$@" --export s.json >/dev/null
  "$mg" run --algo "$algo" --topo "$topo" "$@" --export s.xml >/dev/null
  "$mg" run --algo "$algo" --topo "$topo" "$@" --export s.out --format goal >/dev/null
  python3 "$here/export_formats.py" s.json s.xml s.out
}
check ring ring:5 --r 1
check concentrate ring:9 --r 10
check circgos:a=3,b=3 ring:9 --r 10 --bytes 6
check torgos torus:9x9 --r 10
check dimwise mesh:4x5 --r 1
check exchange-ring ring:6 --r 1 --bytes 3
check exchange-dimwise torus:4x4 --r 1
check mpi-alltoall-bruck ring:8 --model contention=shared,ts=1,tl=1
check mpi-allgather-bruck torus:3x3 --model contention=shared,ts=1,tl=1
# a mesh-bus schedule has no point-to-point form: refused, no file
if "$mg" run --algo bus-simple --topo meshbus:4 --export b.goal >/dev/null 2>err; then
  echo "FAIL: bus schedule exported"; exit 1
fi
grep -q "point-to-point" err || { echo "FAIL: $(cat err)"; exit 1; }
[ -z "$(ls b.goal* 2>/dev/null)" ] || { echo "FAIL: file left behind"; exit 1; }
# --export - : the schedule on stdout, the report's gist on stderr
"$mg" run --algo ring --topo ring:5 --r 1 --export - --format goal >out.goal 2>err
head -1 out.goal | grep -qx "num_ranks 5" || { echo "FAIL: --export - stdout"; exit 1; }
grep -q "ring verified, cost 4" err || { echo "FAIL: --export - stderr: $(cat err)"; exit 1; }
[ ! -e ./- ] || { echo "FAIL: a file named -"; exit 1; }
"$mg" run --algo ring --topo ring:5 --r 1 --export - 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["report"]["cost"] == 4'
echo "export_formats: ok"
