#!/usr/bin/env bash
# Runs one case of tests/mpi/stress.c on NP ranks under the interposer.
# usage: stress.sh MPIEXEC LIB PROGRAM CASE NP
# The topo case sets MESHGOSSIP_TOPO to a ring one node too large: every
# call must fall back to MPI's own collective and the fallback be said
# exactly once per process group (one line from rank 0), not per call.
set -u
mpiexec=$1 lib=$2 prog=$3 case=$4 np=$5
xs=(-x LD_PRELOAD="$lib" -x MESHGOSSIP_VERBOSE=0)
[ "$case" = topo ] && xs+=(-x MESHGOSSIP_TOPO=ring:$((np + 1)))
# hundreds of plans: fixed algorithms instead of "auto" (which simulates
# every registered one per plan)
[ "$case" = comms ] && xs+=(-x MESHGOSSIP_ALLGATHER=mpi-allgather-ring -x MESHGOSSIP_ALLTOALL=mpi-alltoall-pairwise)
out=$("$mpiexec" --allow-run-as-root --oversubscribe "${xs[@]}" -np "$np" "$prog" "$case" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "FAIL: stress $case on $np ranks exited $rc"; exit 1; }
if [ "$case" = topo ]; then
  w=$(printf '%s\n' "$out" | grep -c 'meshgossip: .*falls back')
  [ "$w" -eq 1 ] || { echo "FAIL: $w fallback warnings, want exactly 1"; exit 1; }
fi
echo OK
