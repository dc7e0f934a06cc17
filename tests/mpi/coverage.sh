#!/usr/bin/env bash
# Runs tests/mpi/coverage.c on NP ranks under the interposer, twice.
# usage: coverage.sh MPIEXEC LIB PROGRAM NP
# 1. MESHGOSSIP_VERBOSE=1 and a misspelled variable (MESHGOSSIP_ALLGATHR):
#    every byte right; the misspelling warned exactly once; the equal-count
#    MPI_Allgatherv (count 5) and MPI_Alltoallv (count 4) and the
#    non-blocking calls (count 6) taken by meshgossip; the MPI_Allgather of
#    count 7 called three times said exactly once (once per plan), and the
#    MPI_Allgather of count 11 into a derived type made anew each call said
#    twice: once for three calls of one type, once for another type.
# 2. a misspelled algorithm (MESHGOSSIP_ALLGATHER=rign), not verbose: every
#    byte right through MPI's own, the fallback said exactly once.
set -u
mpiexec=$1 lib=$2 prog=$3 np=$4
run() { "$mpiexec" --allow-run-as-root --oversubscribe -x LD_PRELOAD="$lib" "$@" -np "$np" "$prog" 2>&1; }
fail() { echo "FAIL: $*"; exit 1; }
count() { printf '%s\n' "$out" | grep -cE "$1"; }
# one rank is no ring: its plan is a local copy
path=meshgossip topo=()
[ "$np" -gt 1 ] && topo=(-x MESHGOSSIP_TOPO=ring:$np)
out=$(run -x MESHGOSSIP_VERBOSE=1 -x MESHGOSSIP_ALLGATHR=ring "${topo[@]}")
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || fail "exit $rc"
[ "$(count 'unknown variable MESHGOSSIP_ALLGATHR')" -eq 1 ] || fail "the misspelled variable is not warned exactly once"
[ "$(count "MPI_Allgather on $np ranks, count 5: $path")" -ge 1 ] || fail "allgatherv (equal) did not take a schedule"
[ "$(count "MPI_Alltoall on $np ranks, count 4: $path")" -ge 1 ] || fail "alltoallv (equal) did not take a schedule"
[ "$(count "MPI_Alltoall on $np ranks, count 6: $path")" -eq 1 ] || fail "ialltoall did not take a schedule"
[ "$(count "MPI_Allgather on $np ranks, count 7:")" -eq 1 ] || fail "three allgathers of one plan said $(count 'count 7:') times, want 1"
[ "$(count "MPI_Allgather on $np ranks, count 11:")" -eq 2 ] ||
  fail "allgathers into two derived types said $(count 'count 11:') times, want 2 (one plan each)"
out=$(run -x MESHGOSSIP_ALLGATHER=rign)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || fail "exit $rc"
[ "$(count 'falls back.*rign')" -eq 1 ] || fail "the misspelled algorithm is not warned exactly once"
echo OK
