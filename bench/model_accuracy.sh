#!/usr/bin/env bash
# How far the cost model's predictions are from what SimGrid's SMPI simulates
# for the same schedules (bench/paragon/results/results.csv: our planner and
# executor on the simulated 9x9 and 8x8 tori, 250 us per-message send
# overhead, 175 MB/s links; docs/paragon.md).
#
# For every cell of that CSV where one of our schedules ran (kind "ours":
# problem, machine topology, run topology, algorithm, bytes) it prints the
# simulated time, our prediction under MODEL with each clock (docs/models.md:
# sync, async, ranks), and pred/sim; then, per clock, the
# summary "median |pred/sim - 1|, max |pred/sim - 1|, cells where the
# predicted pick is not within 5% of the simulated best" (a pick: the least
# prediction among the schedules run for one (problem, machine, bytes)),
# over all cells and over the cells whose schedule was planned for the
# machine's own topology (the ring:81 / ring:64 runs are planned with ring
# routes that SimGrid does not take: it routes them on the torus).
#
# usage: bench/model_accuracy.sh [MESHGOSSIP] [CSV...]
#   (default CSVs: bench/paragon/results/results.csv, the 9x9 and 8x8 runs,
#   and bench/paragon/results/accuracy.csv, ring:81 and torus:4x4x4, from
#   bench/paragon/accuracy_run.sh; and the rows of kind "ours-data" of
#   bench/paragon/results/allgather.csv: the executor's sync=data, whose
#   clock is async, summed up apart)
#   MODEL="contention=shared,ts=...,o=...,tl=..." or MODEL=@FILE overrides the model.
# The default model is the one `meshgossip-mpi calibrate -o` fitted on the
# simulated 9x9 torus (bench/paragon/results/calibrated_9x9.model, one
# smpirun command: docs/models.md), nothing fitted to these cells:
#   o  = 2.5e-4   SMPI's send overhead (smpi/os, smpi/ois), the burst slope;
#   or = 0        the fan-in slope (smpi/or is 0);
#   tl, bwf       the wire time per byte at 64 KiB and SMPI's bandwidth
#                 factors by message size (smpi/bw-factor), found by bisection;
#   ts = 1e-8     what a 2-byte message takes beyond o;
#   contention=fair, share=hops  SimGrid's max-min sharing, weighted by the
#                 route length (network/weight-S), seen on two flows.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mg=${1:-$here/../build/meshgossip}
shift || true
csvs=("$@")
if [ ${#csvs[@]} -eq 0 ]; then
  csvs=("$here/paragon/results/results.csv")
  [ -f "$here/paragon/results/accuracy.csv" ] && csvs+=("$here/paragon/results/accuracy.csv")
  [ -f "$here/paragon/results/allgather.csv" ] && csvs+=("$here/paragon/results/allgather.csv")
fi
model=${MODEL:-@$here/paragon/results/calibrated_9x9.model}
[ -x "$mg" ] || { echo "model_accuracy: no meshgossip at $mg (build first)" >&2; exit 2; }

# The schedule the executor ran: planned (its automatic parameters
# resolved) under the planner's model, the one the SMPI runs used
# (MG_MPI_DEFAULT_MODEL, contention shared; PLAN_MODEL= to plan under the
# prediction model instead), then priced under the prediction model: the
# schedule is exported and replayed by `meshgossip verify` with its model
# replaced (its report, only compared by verify, stays) (dimwise at 256 B: phases 2-1 planned, 2-2 under the calibrated
# model).
plan_model=${PLAN_MODEL-ts=5e-6,td=0,tl=5e-10,contention=shared}
work=$(mktemp -d)
spec_of() { # a model spec or @FILE -> key=value lines
  case $1 in
  @*) sed 's/#.*//' "${1#@}" | tr ',' '\n' | tr -d ' \t' | grep = ;;
  *) echo "$1" | tr ',' '\n' ;;
  esac
}
# the clock is set per column below
spec_of "$model" | grep -v '^timing=' >"$work/model.kv"
first_cost() { # the first "cost" of a JSON report (reads it all: no SIGPIPE under pipefail)
  awk '{ if (!done && match($0, /"cost": [0-9.eE+-]+/)) { print substr($0, RSTART + 8, RLENGTH - 8); done = 1 } }'
}
cost() { # algo topo bytes timing machine [plan clock] -> predicted seconds (empty if refused)
  if [ -z "$plan_model" ]; then
    "$mg" run --algo "$1" --topo "$2" --bytes "$3" --model "$model" --timing "$4" --json 2>/dev/null |
      first_cost
    return
  fi
  # the executor plans sync=data under the async clock (src/mpi/exec.c);
  # exchange-hops, exchange-slots and exchange-moves fit their plans to the model they are
  # planned under, and bench/paragon/alltoall.sh runs them with
  # MESHGOSSIP_MODEL = the calibrated model: planned under the prediction model
  local f="$work/$1.$2.$3.${6:-sync}.json" pm=$plan_model
  case $1 in exchange-hops* | exchange-slots* | exchange-moves*) pm=$model ;; esac
  [ -f "$f" ] || "$mg" run --algo "$1" --topo "$2" --bytes "$3" --model "$pm" --timing "${6:-sync}" \
    --export "$f" >/dev/null 2>&1 || return 0
  local obj
  # numbers as JSON numbers, words as strings (verify takes each key's own type)
  obj=$(awk -F= -v t="$4" '{ v = substr($0, length($1) + 2)
      q = v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ ? "" : "\""
      printf "%s\"%s\": %s%s%s", (NR > 1 ? ", " : ""), $1, q, v, q }
    END { printf ", \"timing\": \"%s\"", t }' "$work/model.kv")
  # the export writes the model object on one line of its own; a schedule
  # planned on a ring and run on the torus machine is priced on the machine
  # (its topology line replaced, its ring routes dropped: the transfers take
  # the routes the model's routes= rule gives them there, as SMPI's do)
  local topo_sed=() dims
  if [ "$5" != "$2" ]; then
    dims=$(echo "${5#torus:}" | sed 's/x/, /g')
    topo_sed=(-e "s|^ \"topology\": {.*},\$| \"topology\": {\"kind\": \"torus\", \"dims\": [$dims]},|"
      -e 's/"route": \[\[[^]]*\]\], //g')
  fi
  sed -e "s|^ \"model\": {.*},\$| \"model\": {$obj},|" "${topo_sed[@]}" "$f" >"$work/priced.json"
  "$mg" verify "$work/priced.json" --json 2>/dev/null | first_cost
}

tmp=$(mktemp)
trap 'rm -f "$tmp"; rm -rf "$work"' EXIT
echo "# model: $model (planned under: ${plan_model:-the same})"
printf '%-8s %-9s %-9s %-22s %6s %10s %10s %6s %10s %6s %10s %6s\n' problem machine run algorithm bytes sim_s \
  sync_s ratio async_s ratio ranks_s ratio
# allgather.csv repeats results.csv's round-synchronous cells: only its
# sync=data rows are taken from it
for csv in "${csvs[@]}"; do
  case $csv in
  */allgather.csv) tail -n +2 "$csv" | grep ',ours-data,' || true ;;
  *) tail -n +2 "$csv" ;;
  esac
done | while IFS=, read -r problem topo bytes kind algo run sim pred ok; do
  [ "$kind" = ours ] || [ "$kind" = ours-data ] || continue
  plan=sync
  [ "$kind" = ours-data ] && problem=$problem+data plan=async
  algo=${algo//+/,}
  s=$(cost "$algo" "$run" "$bytes" sync "$topo" $plan)
  a=$(cost "$algo" "$run" "$bytes" async "$topo" $plan)
  k=$(cost "$algo" "$run" "$bytes" ranks "$topo" $plan)
  [ -n "$s" ] && [ -n "$a" ] && [ -n "$k" ] || { echo "# $algo on $run at $bytes B: refused by the model" >&2; continue; }
  echo "$problem $topo $run $algo $bytes $sim $s $a $k" >>"$tmp"
  awk -v p="$problem" -v t="$topo" -v r="$run" -v al="$algo" -v b="$bytes" -v si="$sim" -v s="$s" -v a="$a" -v k="$k" \
    'BEGIN { printf "%-8s %-9s %-9s %-22s %6d %10.6f %10.6f %6.3f %10.6f %6.3f %10.6f %6.3f\n", p, t, r, al, b, si, s, s / si, a, a / si, k, k / si }'
done

summary() { # column of the prediction, label, filter (all | own | data | a machine topology)
  awk -v col="$1" -v label="$2" -v which="$3" '
    (which == "data") != ($1 ~ /[+]data$/) { next }
    which == "own" && $3 != $2 { next }
    which != "own" && which != "all" && which != "data" && ($2 != which || $3 != $2) { next }
    {
      e = $col / $6 - 1; if (e < 0) e = -e; err[++n] = e
      g = $1 " " $2 " " $5
      if (!(g in best) || $6 < best[g]) best[g] = $6
      if (!(g in pick) || $col < pickc[g]) { pick[g] = $6; pickc[g] = $col }
    }
    END {
      if (n == 0) { print label ": no cells"; exit }
      # median by insertion sort (a few hundred cells)
      for (i = 2; i <= n; i++) { v = err[i]; for (j = i - 1; j >= 1 && err[j] > v; j--) err[j + 1] = err[j]; err[j + 1] = v }
      med = n % 2 ? err[(n + 1) / 2] : (err[n / 2] + err[n / 2 + 1]) / 2
      miss = 0; groups = 0
      for (g in best) { groups++; if (pick[g] > 1.05 * best[g]) miss++ }
      printf "%s: %d cells: median |pred/sim - 1| %.3f, max |pred/sim - 1| %.3f, cells where the predicted pick is not within 5%% of the simulated best: %d of %d\n", label, n, med, err[n], miss, groups
    }' "$tmp"
}
echo
summary 7 "sync,  all schedules" all
summary 8 "async, all schedules" all
summary 9 "ranks, all schedules" all
summary 7 "sync,  planned for the machine's topology" own
summary 8 "async, planned for the machine's topology" own
summary 9 "ranks, planned for the machine's topology" own
summary 8 "async, the executor's sync=data (its clock)" data
for t in $(awk '$2 == $3 { print $2 }' "$tmp" | sort -u); do
  summary 7 "sync,  $t" "$t"
  summary 9 "ranks, $t" "$t"
done
