#!/usr/bin/env bash
# msccl_verify.sh MESHGOSSIP: `meshgossip verify ALGO.xml --topo T` on MSCCL
# XML algorithms (src/schedule/import_msccl.c).
#  1. Round trips: each algorithm exported with --format msccl and as JSON,
#     both verified. Where the schedule's rounds are exactly its data
#     dependencies (every transfer waits for something of the round
#     before), the XML gives the same verdict, rounds, transfers and cost.
#     Elsewhere MSCCL keeps only the dependencies, not the rounds, and the
#     reader places every transfer as soon as they allow (ASAP): a transfer
#     may move earlier (one original transfer's chunks may then split over
#     rounds, or merge with an earlier message on the same channel), and
#     MSCCL names no routes (default routes). What must hold: under a model
#     that prices sharing instead of refusing it (contention=shared) the XML
#     verifies, its rounds are at most the original's, and it moves exactly
#     the same bytes.
#  2. A hand-written msccl-tools-style ring allgather on 4 GPUs (cpy, s,
#     rcs, r in one threadblock per GPU, nchunksperloop, out of place),
#     priced against the closed form (N-1)(ts + td + tl m): N-1 rounds, each
#     a one-hop message of one gpu's m bytes.
#  3. Corrupted XMLs: each rejected with its named reason and exit code
#     (2 malformed, 3 too large, 1 well formed but wrong for the machine).
set -euo pipefail
mg=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

fig() { # FILE: verdict rounds transfers cost bytes_moved of a verify --json
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["verified"], d["rounds"], d["transfers"], "%.9g" % d["cost"], "%.9g" % d["bytes_moved"])' "$1"
}
# roundtrip exact|asap ALGO TOPO MODEL-ARGS...
roundtrip() {
  local kind=$1 algo=$2 topo=$3
  shift 3
  "$mg" run --algo "$algo" --topo "$topo" "$@" --export s.json >/dev/null
  "$mg" run --algo "$algo" --topo "$topo" "$@" --export s.xml >/dev/null
  "$mg" verify s.json --json >j.out || true
  "$mg" verify s.xml --topo "$topo" "$@" --json >x.out 2>x.err || true
  local j x
  j=$(fig j.out)
  x=$(fig x.out)
  printf '%-22s %-10s %-34s json: %-36s xml: %s\n' "$algo" "$topo" "$*" "$j" "$x"
  read -r jv jr jt jc jb <<<"$j"
  read -r xv xr xt xc xb <<<"$x"
  if [ "$kind" = exact ]; then
    [ "$j" = "$x" ] || bad "$algo $topo: the XML does not verify as the JSON does"
  else
    [ "$xv" = True ] || bad "$algo $topo: the XML does not verify under $*: $(cat x.err)"
    [ "$xr" -le "$jr" ] || bad "$algo $topo: $xr ASAP rounds, more than the original $jr"
    [ "$xb" = "$jb" ] || bad "$algo $topo: the XML moves $xb bytes, the JSON $jb"
  fi
}
S="--model contention=shared,ts=10,tl=1"
echo "== round trips (verified rounds transfers cost bytes_moved)"
roundtrip exact ring ring:9 --r 10
roundtrip exact concentrate ring:9 --r 10
roundtrip exact multiring torus:9x9 --r 10
roundtrip exact mpi-allgather-bruck torus:8x8 $S
roundtrip exact mpi-allgather-rd torus:8x8 $S
roundtrip exact mpi-alltoall-ring torus:4x4 $S
roundtrip asap torgos torus:9x9 $S
roundtrip asap cubgos torus:9x9 $S
roundtrip asap dimwise-colored torus:9x9 $S
roundtrip asap dimwise-colored torus:8x8 $S
roundtrip asap dimwise torus:8x8 $S
roundtrip asap circgos:a=3,b=3 ring:9 $S --bytes 6
roundtrip asap exchange-lines torus:4x4 $S
roundtrip asap exchange-dimwise torus:4x4 $S
roundtrip asap exchange-partitioned torus:8x8 $S
roundtrip asap exchange-allport torus:4x4 $S
# ASAP can also be better: exchange-dimwise's second axis starts early
"$mg" run --algo exchange-dimwise --topo torus:4x4 --r 10 --export d.xml >/dev/null
"$mg" verify d.xml --topo torus:4x4 --r 10 --json >d.out
[ "$(fig d.out)" = "True 4 128 66 512" ] || bad "exchange-dimwise ASAP under the strict model: $(fig d.out)"

echo "== hand-written msccl-tools ring allgather, 4 GPUs"
ring=$here/msccl/ring_allgather_4.xml
for args in "ts=10,tl=2 8" "ts=1,td=0.5,tl=1 1" "ts=3,tl=0.25 64"; do
  read -r model bytes <<<"$args"
  "$mg" verify "$ring" --topo ring:4 --model "$model" --bytes "$bytes" --json >r.out
  got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["verified"], d["rounds"], d["transfers"], "%.9g" % d["cost"])' r.out)
  want=$(python3 -c '
import sys
m = dict(kv.split("=") for kv in sys.argv[1].split(","))
ts, td, tl, b = float(m.get("ts", 0)), float(m.get("td", 0)), float(m.get("tl", 0)), float(sys.argv[2])
print("True 3 12 %.9g" % (3 * (ts + td + tl * b)))' "$model" "$bytes")
  echo "ring_allgather_4 --model $model --bytes $bytes: $got (closed form (N-1)(ts + td + tl m): $want)"
  [ "$got" = "$want" ] || bad "ring_allgather_4 under $model: $got, want $want"
done
# the same file by --format, whatever its name
cp "$ring" ring.alg
"$mg" verify ring.alg --format msccl --topo ring:4 --r 1 >/dev/null || bad "--format msccl"

echo "== corrupted algorithms"
# case WANT_EXIT 'MESSAGE' TOPO PYTHON: s is the ring's text, edited by PYTHON
ncase=0
case_() {
  local want=$1 msg=$2 topo=$3 py=$4
  ncase=$((ncase + 1))
  python3 -c "import sys; s = open(sys.argv[1]).read()
$py
open(sys.argv[2], 'w').write(s)" "$ring" c$ncase.xml
  local rc=0
  "$mg" verify c$ncase.xml --topo "$topo" --r 1 --mem-limit 64M >/dev/null 2>c.err || rc=$?
  if [ $rc != "$want" ] || ! grep -qF -- "$msg" c.err || [ "$(wc -l <c.err)" != 1 ]; then
    bad "case $ncase (want $want, '$msg'): exit $rc: $(cat c.err)"
  else
    printf 'exit %s  %s\n' "$rc" "$(cat c.err)"
  fi
}
case_ 2 "malformed XML" ring:4 "s = s[:len(s) // 2]"
case_ 2 "malformed XML" ring:4 "s = s.replace('</tb>', '</gpu>', 1)"
case_ 2 "a DOCTYPE is not accepted" ring:4 \
  "s = '<!DOCTYPE algo [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>' + s"
case_ 2 "<ring> where <algo> was expected" ring:4 "s = s.replace('<algo ', '<ring ', 1).replace('</algo>', '</ring>')"
case_ 2 "the new msccl-tools format" ring:4 "s = s.replace('<step ', '<op ', 1).replace('/>', '></op>', 1)"
case_ 2 "the algorithm has 4 GPUs, the topology 5 nodes" ring:5 ""
case_ 2 "only allgather (gossip) and alltoall (exchange)" ring:4 "s = s.replace('coll=\"allgather\"', 'coll=\"allreduce\"')"
case_ 2 "type \"rrc\" reduces" ring:4 "s = s.replace('type=\"rcs\"', 'type=\"rrc\"', 1)"
case_ 2 "unknown type \"x\"" ring:4 "s = s.replace('type=\"rcs\"', 'type=\"x\"', 1)"
case_ 2 "unpaired send: gpu 0 tb 0 step 3 sends to 1" ring:4 \
  "i = s.index('<gpu id=\"1\"'); j = s.index('type=\"r\"', i); k = s.rindex('<step', 0, j); e = s.index('/>', j) + 2; s = s[:k] + s[e:]"
case_ 2 "unpaired receive" ring:4 \
  "i = s.index('type=\"s\"'); k = s.rindex('<step', 0, i); s = s[:k] + s[k:].replace('type=\"s\"', 'type=\"nop\"', 1)"
case_ 2 "expected a whole number in [-1, 3]" ring:4 "s = s.replace('send=\"1\"', 'send=\"7\"', 1)"
case_ 2 "a peer is the gpu itself" ring:4 "s = s.replace('send=\"1\"', 'send=\"0\"', 1)"
case_ 2 "a cycle in the dependencies" ring:4 \
  "s = s.replace('<step s=\"1\" type=\"s\" srcbuf=\"o\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\"', '<step s=\"1\" type=\"s\" srcbuf=\"o\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"0\" deps=\"4\"', 1)"
case_ 2 "deps 9: tb 0 has 5 steps" ring:4 "s = s.replace('depid=\"-1\" deps=\"-1\"', 'depid=\"0\" deps=\"9\"', 1)"
case_ 2 "sends cnt 2" ring:4 "s = s.replace('type=\"s\" srcbuf=\"o\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\"', 'type=\"s\" srcbuf=\"o\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"2\"', 1)"
case_ 2 "outside its buffer" ring:4 "s = s.replace('srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\"', 'srcoff=\"0\" dstbuf=\"o\" dstoff=\"4\" cnt=\"1\"', 1)"
# a send's dstoff is where it lands on its peer: inside the peer's buffer
case_ 2 "outside its buffer" ring:4 "s = s.replace('type=\"s\" srcbuf=\"o\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\"', 'type=\"s\" srcbuf=\"o\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"4\" cnt=\"1\"', 1)"
case_ 2 "<step srcoff=\"x1\">: expected a whole number" ring:4 "s = s.replace('srcoff=\"0\"', 'srcoff=\"x1\"', 1)"
case_ 2 "nchunksperloop 6 is not a multiple of ngpus 4" ring:4 "s = s.replace('nchunksperloop=\"4\"', 'nchunksperloop=\"6\"')"
case_ 2 "3 <gpu> elements for ngpus=\"4\"" ring:4 "i = s.index('<gpu id=\"3\"'); j = s.index('</gpu>', i) + 6; s = s[:i] + s[j:]"
case_ 3 "memory limit" ring:4 "s = s.replace('s_chunks=\"0\"', 's_chunks=\"1000000000\"', 1)"
# well formed, wrong for the machine: exit 1 with the reason
case_ 1 "gpu 0 (tb 0 step 1) sends o[1], which holds no data yet" ring:4 \
  "s = s.replace('type=\"s\" srcbuf=\"o\" srcoff=\"0\"', 'type=\"s\" srcbuf=\"o\" srcoff=\"1\"', 1)"
case_ 1 "at the end gpu 1's output chunk 2 holds nothing, not item 2" ring:4 \
  "i = s.index('<gpu id=\"1\"'); j = s.index('type=\"r\"', i); e = s.index('/>', j); s = s[:j] + s[j:e].replace('dstoff=\"2\"', 'dstoff=\"3\"') + s[e:]"
# the ring on a one-port machine: each gpu sends and receives once a round
"$mg" verify "$ring" --topo ring:4 --model port=one,ts=1,tl=1 >/dev/null || bad "one-port ring refused"
# a torgos export under the strict model: ASAP rounds share arcs
"$mg" run --algo torgos --topo torus:9x9 $S --export t.xml >/dev/null
rc=0
"$mg" verify t.xml --topo torus:9x9 --r 10 >/dev/null 2>t.err || rc=$?
[ $rc = 1 ] && grep -q "both use arc" t.err || bad "torgos ASAP under strict contention: exit $rc $(cat t.err)"
# JSON options on a JSON file are refused
rc=0
"$mg" verify s.json --topo ring:9 >/dev/null 2>e.err || rc=$?
[ $rc = 2 ] && grep -q "names its own machine" e.err || bad "verify s.json --topo: exit $rc $(cat e.err)"
# a JSON document read as MSCCL
rc=0
"$mg" verify s.json --format msccl --topo torus:4x4 >/dev/null 2>e.err || rc=$?
[ $rc = 2 ] && grep -q "malformed XML" e.err || bad "verify s.json --format msccl: exit $rc $(cat e.err)"
# an alltoall cut into 2 chunks per block
"$mg" run --algo exchange-ring --topo ring:4 --r 1 --export x.xml >/dev/null
sed -i 's/nchunksperloop="4"/nchunksperloop="8"/' x.xml
rc=0
"$mg" verify x.xml --topo ring:4 --r 1 >/dev/null 2>e.err || rc=$?
[ $rc = 2 ] && grep -q "2 chunks per block" e.err || bad "alltoall 2 chunks: exit $rc $(cat e.err)"
[ $fails = 0 ] || { echo "msccl_verify: $fails failures"; exit 1; }
echo "msccl_verify: ok"
