#!/usr/bin/env bash
# Seed corpora for the libFuzzer harnesses, made from real output:
#   make_corpus.sh PATH_TO_MESHGOSSIP OUTDIR
# OUTDIR/schedule: one export per registered algorithm on the first small
# instance it accepts (files over 256 KB skipped); OUTDIR/topo, model,
# algo: the specs the CLI documents, and every algorithm with each of its
# declared parameters set to its default; OUTDIR/modelfile: model files
# (the calibrated Paragon model and hand-written ones); OUTDIR/spec: engine,
# per-size and format specs behind fuzz_spec's selector byte; OUTDIR/plot:
# binary plots and sweeps in fuzz_plot's layout.
set -u
MG=${1:?usage: make_corpus.sh PATH_TO_MESHGOSSIP OUTDIR}
OUT=${2:?usage: make_corpus.sh PATH_TO_MESHGOSSIP OUTDIR}
mkdir -p "$OUT/schedule" "$OUT/topo" "$OUT/model" "$OUT/algo" "$OUT/msccl" "$OUT/modelfile" "$OUT/spec" "$OUT/plot"
seed() { printf '%s' "$2" >"$OUT/$1/$(printf '%s' "$2" | md5sum | cut -c1-16)"; }

algos=$("$MG" list --json | python3 -c 'import json,sys; [print(a["name"]) for a in json.load(sys.stdin)]' 2>/dev/null ||
  "$MG" list | awk '/^[a-z0-9]/ {print $1}')
gossip_topos="ring:9 line:6 torus:3x3 torus:6x6 mesh:3x3 torus:9x9 torus:3x3x3 torus:6x6x6 meshbus:4"
exchange_topos="ring:8 torus:4x4 torus:2x2 torus:4x4x4 mesh:4x4"
models="ts=2,td=0,tl=1 contention=shared,ts=2,td=0,tl=1 switching=circuit,ts=2,tl=1 switching=bus,ts=2,tl=1 port=one,ts=2,tl=1 contention=fair,ts=2,tl=1"
# One export per algorithm, as many at once as there are cores (the exports
# are independent). Each refusal costs a CLI start, so an algorithm's own
# machines come first: the mesh-bus under the bus models (one with a
# bounded packet, ell, for bus-partition-theta), and the even sides
# (torus:4x4, ring:8) that the Swing, quadrupling and tiling schedules
# need. lee3d and lee3d-long run on 7^i x 7^i x 7^i only, and their
# smallest export (torus:7x7x7) is over the 256 KB a seed may take.
schedule_seed() {
  local a=$1 t m f="$OUT/schedule/$1.json" topos="$gossip_topos $exchange_topos" mods=$models
  case $a in
  lee3d*) echo "make_corpus: no small export for $a (torus:7x7x7 is its smallest)" >&2; return 0 ;;
  bus-*) topos=meshbus:4 mods="switching=bus,ts=2,tl=1 switching=bus,ts=2,tl=1,ell=4 $models" ;;
  *swing* | *quadrupling* | *tiling*) topos="torus:4x4 ring:8 $topos" ;;
  esac
  for t in $topos; do
    for m in $mods; do
      if "$MG" run --algo "$a" --topo "$t" --model "$m" --export "$f" >/dev/null 2>&1; then
        if [ "$(stat -c %s "$f")" -gt 262144 ]; then rm -f "$f"; continue; fi
        return 0
      fi
    done
  done
  echo "make_corpus: no small export for $a" >&2
}
jobs_max=$(nproc 2>/dev/null || echo 2)
for a in $algos; do
  schedule_seed "$a" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
done
wait
got=$(find "$OUT/schedule" -name '*.json' | wc -l)
echo "make_corpus: $got schedule seeds" >&2

for t in ring:9 line:2 torus:9x9 mesh:3x4 torus:3x3x3 mesh:2x2x2x2x2x2x2x2 meshbus:4 torus:8192x8192 ring:67108864; do
  seed topo "$t"
done
for m in $models "switching=saf,port=one,ell=3" "ts=1e-6,td=2.5e-8,tl=1e-9" "switching=wormhole,port=all,contention=strict"; do
  seed model "$m"
done
"$MG" list --json 2>/dev/null | python3 -c '
import json, sys
for a in json.load(sys.stdin):
    ps = [p["name"] + "=" + str(p["default"]) for p in a.get("params", []) if str(p.get("default")) != "auto"]
    print(a["name"])
    if ps: print(a["name"] + ":" + ",".join(ps))
' 2>/dev/null | while read -r s; do seed algo "$s"; done
for a in $algos; do seed algo "$a"; done
seed algo "circgos:a=3,b=2,k=1,skip=1"
seed algo "torgos:a=3,b=3,x=1"
seed algo "torgos:finish=period9"
seed algo "torgos:finish=pair9"
seed algo "dimwise:phases=1-2"

# OUTDIR/msccl: MSCCL XML exports and the hand-written msccl-tools ring, each
# behind the byte that picks fuzz_msccl's machine (0 ring:4, 1 ring:5,
# 2 torus:3x3, 3 mesh:2x3, 4 torus:4x4, 5 ring:6, 6 ring:9, 7 torus:2x2x2;
# +8: contention=shared).
mkdir -p "$OUT/msccl"
HERE=$(cd "$(dirname "$0")" && pwd)
msccl_seed() { # byte algo topo
  local f="$OUT/msccl/$2-$3.xml"
  if "$MG" run --algo "$2" --topo "$3" --model contention=shared,ts=2,tl=1 --export "$f.x" --format msccl >/dev/null 2>&1; then
    { printf "\\x$(printf %02x "$1")"; cat "$f.x"; } >"$f"
  fi
  rm -f "$f.x"
}
msccl_seed 1 ring ring:5
msccl_seed 9 concentrate ring:9
msccl_seed 10 torgos torus:3x3
msccl_seed 10 dimwise-colored torus:3x3
msccl_seed 11 dimwise mesh:2x3
msccl_seed 12 exchange-dimwise torus:4x4
msccl_seed 13 exchange-ring ring:6
msccl_seed 15 exchange-dimwise torus:2x2x2
{ printf '\x00'; cat "$HERE/../msccl/ring_allgather_4.xml"; } >"$OUT/msccl/ring_allgather_4.xml"

# OUTDIR/modelfile: files as --model @FILE reads them
cp "$HERE/../../bench/paragon/results/calibrated_9x9.model" "$OUT/modelfile/calibrated_9x9" 2>/dev/null
seed modelfile "$(printf '# a comment\nswitching=wormhole, port=all\n\ncontention=fair # sharing\nts=1e-6,\ntl=1e-9\r\n')"
seed modelfile "$(printf 'ts=2\ntd=0\ntl=1\nell=3\nswitching=saf\n')"
seed modelfile "$(printf 'bwf=0:1;65536:0.5\no=1e-6\nor=2e-6\ntiming=async\ncontention=shared\n')"
# a comment near the reader's line of 510 characters
seed modelfile "$(printf 'ts=1e-6 # %0480d\ntl=1e-9\n' 0)"

# OUTDIR/spec: selector byte 0 engine, 1 per-size spec, 2 format/problem
# (a file of its own: a command substitution would drop the NUL byte)
spec_seed() { { printf "\\$(printf %03o "$1")"; printf '%s' "$2"; } >"$OUT/spec/$1-$(printf '%s' "$2" | md5sum | cut -c1-16)"; }
for s in model simgrid "simgrid:o=1e-6,or=2e-6,sync=rank,network=smpi" "simgrid:tl=1e-9,td=5e-8,detach=65536,routes=simgrid"; do
  spec_seed 0 "$s"
done
for s in "torus-doubling:ports=1<=256;torus-digits<=4096;torus-ternary:split=2" "ring<=12;auto" "dimwise" "auto"; do
  spec_seed 1 "$s"
done
for s in json msccl goal gossip exchange; do
  spec_seed 2 "$s"
done

# OUTDIR/plot: one panel of two series and a bound (log-log), two panels on
# linear axes, and a sweep (bit 3) on torus:4x4
python3 - "$OUT/plot" <<'PY' 2>/dev/null
import struct, sys
d = sys.argv[1]
def lab(s):
    b = s.encode()
    return bytes([len(b)]) + b
def pts(xy):
    return b"".join(struct.pack("<dd", x, y) for x, y in xy)
xy = [(1024.0 * 4**i, 1e-3 * 3**i) for i in range(5)]
one = bytes([0x80 | 4 | 3, 3, 0, 5]) + lab("ring") + bytes([1, 5]) + lab("dimwise") + bytes([2, 5]) + lab("bound")
one += lab("cost") + bytes([0]) + lab("bytes") + lab("s") + lab("title <&>")
one += pts(xy) + pts([(x, y / 2) for x, y in xy]) + pts([(x, y / 4) for x, y in xy])
open(d + "/log3", "wb").write(one)
two = bytes([0x10, 1, 0, 3]) + lab("a") + lab("p1") + bytes([1]) + lab("y1") + bytes([1, 1, 2]) + lab("b") + lab("p2") + bytes([0])
two += lab("x") + lab("y") + pts([(-1.0, 0.0), (0.0, 5.0), (2.5, -3.0)]) + pts([(1e300, 1e-300), (-1e300, 5e-324)])
open(d + "/linear2", "wb").write(two)
sw = bytes([8 | 2, 3]) + b"".join(struct.pack("<d", s) for s in (1024.0, 4096.0, 16384.0))
sw += b"".join(struct.pack("<d", 1e-3 * (1 + i % 7)) for i in range(12 * 3 + 3))
open(d + "/sweep", "wb").write(sw)
PY
