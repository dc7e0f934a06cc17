#!/usr/bin/env bash
# Plots results.csv: simulated time per byte against message size, one line
# per algorithm; ours solid, SMPI's dashed. usage: plot.sh OUTDIR
set -eu
out=$1
for pr in gossip exchange; do
  f="$out/$pr.dat"
  : > "$f"
  names=$(awk -F, -v p=$pr '$1==p && $9==1 {print $4":"$5"@"$6}' "$out/results.csv" | sort -u)
  [ -n "$names" ] || continue
  plots=""
  idx=0
  for nm in $names; do
    kind=${nm%%:*}; rest=${nm#*:}; alg=${rest%@*}; rt=${rest#*@}
    awk -F, -v p=$pr -v k=$kind -v a=$alg -v t=$rt '$1==p && $4==k && $5==a && $6==t && $9==1 {print $3, $7}' \
      "$out/results.csv" | sort -n >> "$f"
    printf '\n\n' >> "$f"
    dt=$([ "$kind" = ours ] && echo 1 || echo 2)
    plots="$plots${plots:+, }'$f' index $idx using 1:2 with linespoints dt $dt title '$kind $alg ($rt)'"
    idx=$((idx + 1))
  done
  gnuplot <<GP
set terminal pngcairo size 1100,700 noenhanced
set output '$out/$pr.png'
set logscale xy
set xlabel 'bytes per rank (per block for exchange)'
set ylabel 'simulated time (s)'
set key outside right
set title '$pr on the SMPI Paragon-like torus'
plot $plots
GP
done
