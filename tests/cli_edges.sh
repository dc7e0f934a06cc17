#!/bin/bash
# cli_edges.sh MESHGOSSIP: the rough edges of issue 18 a new user hit, one
# check each: one size parser (K/M/G, KiB/MiB, any case) for --bytes,
# --sizes and --mem-limit; compare without --problem says what to give;
# compare names refused algorithms in one line unless --all; a row or a run
# that breaks a rule prints no cost; numbers in their shortest round-trip
# form in text and JSON.
set -uo pipefail
mg=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*"; exit 1; }
bytes_of() { "$mg" run --algo ring --topo ring:5 --r 1 --bytes "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["bytes_moved"])'; }
# 20 transfers of one node's block each on ring:5
for spec in 32K 32k 32KiB 32kib 32KB 32768 32768B; do
  [ "$(bytes_of "$spec")" = "655360.0" ] || fail "--bytes $spec is not 32768 bytes"
done
[ "$(bytes_of 1MiB)" = "20971520.0" ] || fail "--bytes 1MiB"
[ "$(bytes_of 1m)" = "20971520.0" ] || fail "--bytes 1m"
"$mg" run --algo ring --topo ring:5 --bytes 32X >/dev/null 2>&1 && fail "--bytes 32X accepted"
out=$("$mg" compare --problem gossip --topo ring:5 --r 1 --sizes 1k,2KiB,1g) || fail "--sizes 1k,2KiB,1g"
printf '%s\n' "$out" | cut -d, -f1 | tail -3 | tr '\n' ' ' | grep -qx "1024 2048 1073741824 " || fail "sizes: $out"
"$mg" run --algo ring --topo ring:5 --mem-limit 1gib >/dev/null || fail "--mem-limit 1gib"
# compare without --problem
err=$("$mg" compare --topo torus:9x9 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "meshgossip: compare needs --problem gossip or --problem exchange" ] || fail "no --problem: $rc $err"
# refused in one line; --all one row each
out=$("$mg" compare --problem gossip --topo torus:9x9 --r 10)
[ "$(printf '%s\n' "$out" | grep -c 'refused')" -eq 1 ] || fail "refused rows not in one line"
printf '%s\n' "$out" | grep -q '^refused ([0-9]*, --all for the reasons): .*bus-simple' || fail "refused line: $out"
[ "$(printf '%s\n' "$out" | grep -c '^ *bus-simple ')" -eq 0 ] || fail "a refused row without --all"
all=$("$mg" compare --problem gossip --topo torus:9x9 --r 10 --all)
printf '%s\n' "$all" | grep -q '^ *bus-simple .*refused: ' || fail "--all lists no reason"
# no cost for a schedule that broke a rule
strict=$("$mg" compare --problem gossip --topo torus:9x9 --model contention=strict,ts=10,tl=1)
row=$(printf '%s\n' "$strict" | grep '^ *mpi-allgather-bruck ')
[ "$(echo "$row" | awk '{print $2}')" = "-" ] && echo "$row" | grep -q "NOT VERIFIED" || fail "unverified row: $row"
run=$("$mg" run --algo mpi-allgather-bruck --topo torus:9x9 --r 10 2>err)
grep -q "; hint: this algorithm shares arcs by design.*contention=shared" err || fail "no hint: $(cat err)"
rm -f err
printf '%s\n' "$run" | grep -Eq '^(cost|lower bound) ' && fail "an unverified run prints a cost"
# shortest round-trip numbers
txt=$("$mg" run --algo ring --topo ring:9 --model ts=3e-4,tl=2.2e-8 --bytes 32768)
printf '%s\n' "$txt" | grep -q 'ts=0.0003,td=0,tl=2.2e-08' || fail "model line: $txt"
json=$("$mg" run --algo ring --topo ring:9 --model ts=3e-4,tl=2.2e-8 --bytes 32768 --json)
printf '%s\n' "$json" | grep -q '"ts": 0.0003, "td": 0.0, "tl": 2.2e-08' || fail "JSON model: $json"
printf '%s\n' "$json" | python3 -c '
import json, sys, re
text = sys.stdin.read()
d = json.loads(text)
for tok in re.findall(r"(?<=[:\[,] )-?[0-9][0-9.eE+-]*", text):
    x = float(tok)
    assert len(tok) <= len(repr(x)) + 2, "not shortest: " + tok
assert isinstance(d["bytes"], float) and d["bytes"] == 32768.0
' || fail "JSON numbers"
# papers cited by name (docs/bibliography.md), not by seed file
list=$("$mg" list)
printf '%s\n' "$list" | grep -q 'seed 00' && fail "list cites a seed number"
printf '%s\n' "$list" | grep -q 'paper: Tseng, Ni, Sheu 1999' || fail "list: no Tseng, Ni, Sheu 1999"
echo "cli_edges: ok"
