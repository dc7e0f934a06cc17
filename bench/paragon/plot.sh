#!/usr/bin/env bash
# Plots results.csv with `meshgossip plot`: simulated time against message
# size, one panel per topology (gossip on torus:9x9, exchange on
# torus:8x8), at most 8 series per panel: our three best seed-paper
# algorithms (solid), SMPI's three best collective selections (dashed),
# SMPI's default, and the lower bound under the calibrated model (black
# dashed). Writes OUTDIR/paragon.svg (and paragon.png with rsvg-convert).
# usage: plot.sh OUTDIR   (MG_CLI: the meshgossip binary, default build/meshgossip)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$1
cli=${MG_CLI:-$root/build/meshgossip}
if [ ! -x "$cli" ]; then
  echo "plot.sh: no meshgossip binary at $cli (build it with cmake, or set MG_CLI); not plotted" >&2
  exit 0
fi
csv="$out/results.csv"
model=$(sed -n 's/^--model //p' "$out/calibrate_9x9.txt")
long="$out/plot.csv"
{
  echo "# title: the Paragon experiment on SMPI: simulated time, SimGrid 3.32"
  echo "# xlabel: bytes per rank (per block for exchange)"
  echo "# ylabel: simulated time (s)"
  echo "# x: bytes"
  echo "panel,series,x,y,style"
  for pt in gossip:torus:9x9 exchange:torus:8x8; do
    pr=${pt%%:*}; topo=${pt#*:}
    panel="$pr on $topo"
    nsizes=$(awk -F, -v p=$pr 'NR>1 && $1==p {print $3}' "$csv" | sort -u | wc -l)
    # series name, geometric mean time over the sizes; only complete, correct series
    rank() { # kind filter
      awk -F, -v p=$pr -v t=$topo -v k=$1 -v n=$nsizes '
        NR>1 && $1==p && $4==k && $9==1 && '"$2"' {
          nm = (k=="ours" ? "" : "SMPI ") $5 ($6!=t ? " (" $6 ")" : "");
          s[nm] += log($7); c[nm]++ }
        END { for (m in s) if (c[m]==n) printf "%.6f,%s\n", s[m]/n, m }' "$csv" | sort -n | cut -d, -f2-
    }
    emit() { # kind name style
      local alg=${2#SMPI }; local rt=$topo
      case $alg in *" ("*")") rt=${alg##* (}; rt=${rt%)}; alg=${alg% (*};; esac
      awk -F, -v p=$pr -v k=$1 -v a="$alg" -v r="$rt" -v pn="$panel" -v nm="$2" -v st=$3 \
        'NR>1 && $1==p && $4==k && $5==a && $6==r && $9==1 {print pn "," nm "," $3 "," $7 "," st}' "$csv"
    }
    rank ours '$5 !~ /^mpi-/' | head -3 | while read -r nm; do emit ours "$nm" line; done
    rank mpi '$5 != "default"' | head -3 | while read -r nm; do emit mpi "$nm" dashed; done
    emit mpi "SMPI default" dashed
    for b in $(awk -F, -v p=$pr 'NR>1 && $1==p {print $3}' "$csv" | sort -nu); do
      lb=$("$cli" bound --problem "$pr" --topo "$topo" --model "$model" --bytes "$b" --json |
        sed 's/.*"lower_bound": *\([^,}]*\).*/\1/')
      echo "$panel,lower bound (model),$b,$lb,bound"
    done
  done
} > "$long"
"$cli" plot "$long" -o "$out/paragon.svg"
if command -v rsvg-convert > /dev/null; then rsvg-convert "$out/paragon.svg" -o "$out/paragon.png"; fi
