#!/usr/bin/env bash
# Runs the unmodified MPI program under libmeshgossip-pmpi.so and checks
# both its results (exit status) and the path each call took.
# usage: interposed.sh MPIEXEC LIB PROGRAM NP [ENV=VALUE...]; EXPECT (a
# regular expression) must match the verbose output.
set -u
mpiexec=$1 lib=$2 prog=$3 np=$4
shift 4
expect=${EXPECT:-meshgossip: MPI_Allgather}
xs=(-x LD_PRELOAD="$lib" -x MESHGOSSIP_VERBOSE=1)
for kv in "$@"; do xs+=(-x "$kv"); done
out=$("$mpiexec" --allow-run-as-root --oversubscribe "${xs[@]}" -np "$np" "$prog" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "FAIL: program exited $rc"; exit 1; }
printf '%s\n' "$out" | grep -Eq "$expect" || { echo "FAIL: no line matches /$expect/"; exit 1; }
echo "OK"
