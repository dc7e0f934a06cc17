#!/bin/bash
# cli_edges.sh MESHGOSSIP: the rough edges of issue 18 a new user hit, one
# check each: one size parser (K/M/G, KiB/MiB, any case) for --bytes,
# --sizes and --mem-limit; compare without --problem says what to give;
# compare names refused algorithms in one line unless --all; a row or a run
# that breaks a rule prints no cost; numbers in their shortest round-trip
# form in text and JSON. And what a review found: a failed --export -
# prints nothing; a cost past a double is refused; tune holds the parameters
# given with the name; stray arguments, options given twice and models no
# schedule can run under are refused; plot refuses points off its axes;
# report's memory limit and an extent over the node limit are exit 3; a
# write error on standard output is exit 2; a rejected run's JSON has the
# bound and no ratio; an export replaces regular files only. A second
# review: a bound past a double is refused (bound --json printed nothing,
# exit 0); parameters in JSON keep their text (plan=01 is not plan=1);
# auto prices as compare does; figures in text are the shortest round trip;
# a status line never lands in a document written to standard output;
# decimal numbers only. A third (hostile input): the JSON model has every
# key of its own; ell and detach stop at 2^53; run refuses a bound past a
# double and writes bytes moved past one as such (JSON null); an algorithm
# parameter twice is refused; --version takes nothing more; ring:1e3 names
# its 'e'. dimwise's phases name the lines a 1D gossip refuses.
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
grep -q '^refused ([0-9]*, --all for the reasons): .*bus-simple' <<<"$out" || fail "refused line: $out"
[ "$(printf '%s\n' "$out" | grep -c '^ *bus-simple ')" -eq 0 ] || fail "a refused row without --all"
all=$("$mg" compare --problem gossip --topo torus:9x9 --r 10 --all)
grep -q '^ *bus-simple .*refused: ' <<<"$all" || fail "--all lists no reason"
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
grep -q 'ts=0.0003,td=0,tl=2.2e-08' <<<"$txt" || fail "model line: $txt"
json=$("$mg" run --algo ring --topo ring:9 --model ts=3e-4,tl=2.2e-8 --bytes 32768 --json)
grep -q '"ts": 0.0003, "td": 0.0, "tl": 2.2e-08' <<<"$json" || fail "JSON model: $json"
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
grep -q 'seed 00' <<<"$list" && fail "list cites a seed number"
grep -q 'paper: Tseng, Ni, Sheu 1999' <<<"$list" || fail "list: no Tseng, Ni, Sheu 1999"
# what a hostile user's review found (each a one-line check below)
status() { "$mg" "$@" >out 2>err; echo $?; }

# --export - : nothing on standard output unless the schedule verifies
[ "$(status run --algo mpi-allgather-direct --topo torus:4x4 --export -)" = 1 ] || fail "export - of a rejected run"
[ -s out ] && fail "a rejected run wrote $(wc -c <out) bytes to standard output"
[ "$(status run --algo ring --topo ring:5 --r 1 --export -)" = 0 ] || fail "export - of ring"
python3 -c 'import json,sys; d=json.load(open("out")); assert d["report"]["verified"]' || fail "export - is not the schedule"

# a cost that overflows a double: exit 2, no file
[ "$(status run --algo ring --topo ring:5 --bytes 1e308 --model tl=1 --export big.json)" = 2 ] || fail "cost inf accepted"
grep -q "overflows a double" err || fail "overflow message: $(cat err)"
[ -e big.json ] && fail "an export of an infinite cost"

# tune: parameters given are held, the others tuned; no stray argument
[ "$(status tune --algo circgos:a=3 --topo ring:9 --r 10)" = 0 ] || fail "tune circgos:a=3: $(cat err)"
grep -q '^best        circgos:a=3,' out || fail "tune dropped a=3: $(cat out)"
grep -q '^runner-up   circgos:a=3,' out || fail "tune's runner-up without a=3: $(cat out)"
[ "$(status tune --algo circgos --topo ring:9 --r 10 extra)" = 2 ] || fail "tune took a stray argument"
[ "$(status tune --algo exchange-ring --topo ring:8)" = 2 ] || fail "tune exchange-ring"
grep -q "set by hand" err || fail "tune exchange-ring: $(cat err)"
[ "$(status bound --problem gossip --topo ring:5 extra)" = 2 ] || fail "bound took a stray argument"
[ "$(status bound --topo ring:5)" = 2 ] && grep -q "needs --problem" err || fail "bound without --problem: $(cat err)"

# compare: a model no schedule can run under is the caller's error
[ "$(status compare --problem gossip --topo meshbus:4 --model switching=bus,timing=async)" = 2 ] ||
  fail "compare with an impossible model"

# plot: points off the axes are refused, nothing written
printf 'panel,series,x,y\np,a,2,nan\np,a,4,3\n' >nan.csv
[ "$(status plot nan.csv -o nan.svg)" = 2 ] && [ ! -e nan.svg ] || fail "plot of nan"
printf 'panel,series,x,y\np,a,0,-3\np,a,4,3\n' >neg.csv
[ "$(status plot neg.csv -o neg.svg)" = 2 ] && [ ! -e neg.svg ] || fail "plot of a point <= 0 on log axes"
# plot: a name longer than the reader keeps is refused (cut, it matched no
# later row: each row became a series of its own); the 13th series of a
# panel and the 9th panel are refused at their row, not after the whole
# file (100000 rows of distinct series were searched pairwise for minutes)
{ echo panel,series,x,y; for i in 1 2 3; do echo "$(printf 'p%.0s' $(seq 70)),a,$i,$i"; done; } >long.csv
[ "$(status plot long.csv -o long.svg)" = 2 ] && [ ! -e long.svg ] && grep -q "line 2: a panel name takes at most 63" err ||
  fail "plot of a long panel name: $(cat err)"
{ echo panel,series,x,y; for i in $(seq 20); do echo "p,s$i,1,1"; done; } >many.csv
[ "$(status plot many.csv -o many.svg)" = 2 ] && grep -qx "meshgossip: many.csv line 14: more than 12 series in one panel" err ||
  fail "plot of 13 series: $(cat err)"
{ echo panel,series,x,y; for i in $(seq 20); do echo "p$i,s,1,1"; done; } >many.csv
[ "$(status plot many.csv -o many.svg)" = 2 ] && grep -qx "meshgossip: many.csv line 10: at most 8 panels" err ||
  fail "plot of 9 panels: $(cat err)"

# sizes are decimal, as model numbers are (strtod took "0x10" as 16 bytes
# and " 16"); a memory limit under a byte was 0, "no limit given"; report
# reads --sizes as compare does (its own reader refused 1KiB and took 0x10)
[ "$(status run --algo ring --topo ring:5 --bytes 0x10)" = 2 ] || fail "--bytes 0x10 taken"
[ "$(status run --algo ring --topo ring:5 --bytes ' 16')" = 2 ] || fail "--bytes ' 16' taken"
[ "$(status compare --problem gossip --topo ring:5 --sizes 16,0x20)" = 2 ] || fail "--sizes 0x20 taken"
[ "$(status run --algo ring --topo ring:5 --mem-limit 0.5)" = 2 ] || fail "--mem-limit 0.5 taken"
[ "$(status report --problem gossip --topo ring:4 --sizes 0x10 -o r.html)" = 2 ] && [ ! -e r.html ] ||
  fail "report --sizes 0x10 taken"
[ "$(status report --problem gossip --topo ring:4 --sizes 1KiB,4KiB -o r.html)" = 0 ] && grep -q 'data-x="4096"' r.html ||
  fail "report --sizes 1KiB,4KiB: $(cat err)"
# a memory limit in bytes is said in bytes, not as 0.00 GiB
[ "$(status run --algo ring --topo ring:5 --mem-limit 1)" = 3 ] &&
  grep -qx "meshgossip: gossip ring:5 needs [0-9]* bytes of simulator state, over the limit of 1 bytes" err ||
  fail "--mem-limit 1: $(cat err)"
# report over --mem-limit: exit 3, as compare
[ "$(status report --problem gossip --topo torus:4x4 --mem-limit 1 -o r.html)" = 3 ] || fail "report --mem-limit 1"

# a schedule file with an extent over the node limit: exit 3
"$mg" run --algo ring --topo ring:5 --r 1 --export ok.json >/dev/null || fail "export ok.json"
sed 's/"dims": \[5\]/"dims": [1099511627776]/' ok.json >huge.json
grep -q 1099511627776 huge.json || fail "could not edit the dims"
[ "$(status verify huge.json)" = 3 ] || fail "verify of a huge extent: $(cat err)"

# an option given twice would lose the first value
[ "$(status run --algo ring --topo ring:5 --model ts=3 --model tl=1)" = 2 ] && grep -q "given twice" err ||
  fail "--model twice"
[ "$(status compare --problem gossip --topo ring:5 --json --json)" = 0 ] || fail "a flag twice"

# standard output that cannot be written
"$mg" list >/dev/full 2>err && fail "list to /dev/full exits 0"
grep -q "write error on standard output" err || fail "write error: $(cat err)"

# a rejected run: the bound, no ratio
"$mg" run --algo mpi-allgather-direct --topo torus:4x4 --json >out 2>/dev/null
python3 -c '
import json
d = json.load(open("out"))
assert not d["verified"] and d["lower_bound"] == 2.0 and d["ratio_to_bound"] is None, d
' || fail "a rejected run's JSON: $(cat out)"
# an export replaces a regular file only: a link's file (the link stays),
# a FIFO written through (a second review: rename put a file in place of
# links, FIFOs, and as root /dev/null)
echo old >target.json
ln -s target.json link.json
[ "$(status run --algo ring --topo ring:5 --r 1 --export link.json)" = 0 ] || fail "export to a link"
[ -L link.json ] || fail "the export replaced the link"
python3 -c 'import json; assert json.load(open("target.json"))["report"]["verified"]' || fail "the link's file"
mkfifo pipe
(cat pipe >from_pipe &)
[ "$(status run --algo ring --topo ring:5 --r 1 --export pipe)" = 0 ] || fail "export to a FIFO"
wait
[ -p pipe ] || fail "the export replaced the FIFO"
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s from_pipe ] && break; sleep 0.2; done
cmp -s from_pipe target.json || fail "the FIFO's reader got $(wc -c <from_pipe) bytes"
[ "$(status run --algo ring --topo ring:5 --r 1 --export /dev/stdout)" = 0 ] || fail "export to /dev/stdout"
cmp -s out target.json || fail "/dev/stdout is not the schedule alone (the report's gist goes to stderr, as for -)"
grep -q "ring verified" err || fail "/dev/stdout: no gist on stderr: $(cat err)"
[ "$(status run --algo ring --topo ring:5 --r 1 --export /dev/stdout --json)" = 2 ] || fail "--export /dev/stdout --json"
[ "$(status run --algo mpi-allgather-direct --topo torus:4x4 --export /dev/stdout)" = 1 ] || fail "rejected to /dev/stdout"
grep -q meshgossip.schedule out && fail "a rejected run wrote its schedule to /dev/stdout"
ln -s nowhere/x.json dangling.json
[ "$(status run --algo ring --topo ring:5 --r 1 --export dangling.json)" = 2 ] || fail "a dangling link"
mkdir adir
[ "$(status run --algo ring --topo ring:5 --r 1 --export adir)" = 2 ] || fail "export to a directory"
grep -q "is a directory" err || fail "directory message: $(cat err)"
# a bound past a double: refused, in JSON too, and compare with it
[ "$(status bound --problem gossip --topo torus:9x9 --model ts=1e308 --json)" = 2 ] || fail "bound --json ts=1e308"
[ -s out ] && fail "bound --json ts=1e308 printed $(cat out)"
grep -q "lower bound overflows a double" err || fail "bound ts=1e308: $(cat err)"
[ "$(status compare --problem gossip --topo torus:9x9 --model ts=1e308 --json)" = 2 ] || fail "compare ts=1e308"
# the text of a parameter is kept: tune's JSON names the schedule it priced
"$mg" tune --algo weave --topo ring:27 --r 50 --json >tune.json || fail "tune weave"
read -r plan cost < <(python3 -c 'import json; d=json.load(open("tune.json")); print(json.dumps(d["best"]["params"]["plan"]), d["best"]["cost"])')
[ "$plan" = '"01"' ] || fail "tune weave: plan $plan, want the string \"01\""
"$mg" run --algo weave:h=3,spread=thirds,plan=01 --topo ring:27 --r 50 --json >run.json || fail "run weave plan=01"
[ "$(python3 -c 'import json; print(json.load(open("run.json"))["cost"])')" = "$cost" ] || fail "plan=01 does not cost $cost"
# auto picks compare's first under the same flags
best=$("$mg" compare --problem gossip --topo ring:27 --r 10 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["best"])')
picked=$("$mg" run --algo auto --topo ring:27 --r 10 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["algorithm"])')
[ "$best" = "$picked" ] || fail "compare ranks $best first, auto picked $picked"
# text and JSON give the same double
t=$("$mg" bound --problem gossip --topo torus:4x4 --model ts=3e-4,tl=2.2e-8 --bytes 1000 | sed -n 1p | awk '{print $(NF-1)}')
j=$("$mg" bound --problem gossip --topo torus:4x4 --model ts=3e-4,tl=2.2e-8 --bytes 1000 --json |
  python3 -c 'import json,sys; print(repr(json.load(sys.stdin)["lower_bound"]))')
python3 -c "import sys; sys.exit(float('$t') != $j)" || fail "bound text $t, JSON $j"
# a document on standard output is the document alone
printf 'panel,series,x,y\np,s,1,2\np,s,2,3\n' >p.csv
"$mg" plot p.csv -o - >p.svg 2>err || fail "plot -o -"
[ "$(tail -c 7 p.svg)" = "</svg>" ] || fail "plot -o -: the document ends with $(tail -1 p.svg)"
grep -q "^wrote -" err || fail "plot -o -: no status line on stderr"
[ "$(status compare --problem gossip --topo ring:5 --r 1 --sizes 1,2 --plot /dev/stdout)" = 2 ] || fail "compare --plot to stdout"
# decimal numbers only; a subnormal is a number
[ "$(status bound --problem gossip --topo ring:5 --model ts=0x10)" = 2 ] || fail "ts=0x10 accepted"
[ "$(status bound --problem gossip --topo ring:5 --model ts=1e-320)" = 0 ] || fail "ts=1e-320 refused"
# a third review, by hostile input:
# the JSON model has every key of its own (share, routes, detach and ack were
# glued into the bwf string, or dropped without one)
"$mg" run --algo ring --topo ring:9 --json \
  --model detach=5,contention=fair,ack=0.5,o=1e-6,share=hops,routes=dor,bwf=0:1\;4096:0.5 >m.json || fail "run --json model"
python3 -c '
import json, sys
m = json.load(open("m.json"))["model"]
want = {"bwf": "0:1;4096:0.5", "share": "hops", "routes": "dor", "detach": 5, "ack": 0.5, "o": 1e-6, "contention": "fair"}
bad = {k: m.get(k) for k in want if m.get(k) != want[k]}
sys.exit(f"model keys {bad}" if bad else 0)' || fail "run --json: the model object"
# whole-number model keys stop at 2^53, so an export reads back the same
[ "$(status run --algo ring --topo ring:9 --model ell=18446744073709551615)" = 2 ] || fail "ell=2^64-1 accepted"
[ "$(status run --algo ring --topo ring:9 --model contention=fair,detach=9007199254740993)" = 2 ] || fail "detach 2^53+1"
"$mg" run --algo ring --topo ring:9 --model ell=9007199254740992 --export e53.json >/dev/null || fail "ell=2^53 refused"
"$mg" verify e53.json | grep -q "ell=9007199254740992" || fail "ell=2^53 does not read back"
# run refuses what bound refuses: bytes moved or a bound past a double
[ "$(status run --algo ring --topo ring:9 --bytes 3e307 --model tl=1 --json)" = 2 ] || fail "run at 3e307 bytes"
grep -q "overflows a double" err || fail "run at 3e307 bytes: $(cat err)"
[ -s out ] && fail "run at 3e307 bytes printed $(cat out)"
[ "$(status run --algo ring --topo ring:27 --bytes 1e307 --model tl=1)" = 2 ] || fail "run ring:27 at 1e307 bytes"
# a price and a bound within a double, the bytes moved past one: said so
# (JSON null, not a key left out)
"$mg" run --algo dimwise --topo torus:4x4 --bytes 1e306 --model tl=1 --json >big.json || fail "dimwise at 1e306"
python3 -c 'import json, sys; d = json.load(open("big.json")); sys.exit(not ("bytes_moved" in d and d["bytes_moved"] is None and d["cost"] > 0))' ||
  fail "1e306 bytes: bytes_moved $(cat big.json | head -c 300)"
"$mg" run --algo dimwise --topo torus:4x4 --bytes 1e306 --model tl=1 | grep -q "more than a double's bytes moved" ||
  fail "1e306 bytes: the text line"
# an algorithm parameter twice is refused, as a model key twice is
[ "$(status run --algo circgos:a=3,a=4 --topo ring:81 --r 10)" = 2 ] && grep -q "'a' is given twice" err ||
  fail "a parameter twice: $(cat err)"
# --version with more, and an extent with a tail
[ "$(status --version extra)" = 2 ] && grep -q "takes no arguments" err || fail "--version extra: $(cat err)"
[ "$(status run --algo ring --topo ring:1e3)" = 2 ] && grep -q "unexpected 'e'" err || fail "ring:1e3: $(cat err)"
# dimwise phases: a named 1D gossip that refuses its lines says which lines,
# and entries split on '-' hint at '/'
[ "$(status run --algo dimwise-colored:phases=torus-swing/ring --topo torus:6x6 --r 2)" = 2 ] &&
  grep -q "phases: torus-swing on the rings of axis 0 (6 nodes): torus-swing needs every side a power of two" err ||
  fail "phases=torus-swing/ring on 6x6: $(cat err)"
[ "$(status run --algo dimwise:phases=1-torus-swing --topo mesh:4x8 --r 2)" = 2 ] && grep -q "torus-swing/ring" err ||
  fail "phases=1-torus-swing: $(cat err)"
[ "$(status run --algo dimwise-colored:phases=multiring/ring --topo torus:4x4 --model contention=shared,ts=1,o=1)" = 2 ] &&
  grep -q "phases: multiring on the rings of axis 0: multiring uses item lists .*name another 1D gossip" err ||
  fail "phases=multiring/ring: $(cat err)"
# a 1D gossip that cuts its packets lifts (every colour cut as much): greedy-links, ring:half=1
[ "$(status run --algo dimwise-colored:phases=greedy-links/ring --topo torus:4x4 --model contention=shared,ts=1,o=1)" = 0 ] ||
  fail "phases=greedy-links/ring: $(cat err)"
[ "$(status run --algo dimwise-colored:phases=ring:half=1/ring:half=1 --topo torus:6x4 --r 2)" = 0 ] ||
  fail "phases=ring:half=1/ring:half=1: $(cat err)"
[ "$(status run --algo dimwise-colored:phases=ring:half=1/ring:half=1 --topo torus:5x4 --r 2)" = 2 ] &&
  grep -q "phases: ring on the rings of axis 0 (5 nodes): ring: half=1 needs a ring of even length" err ||
  fail "phases=ring:half=1 on an odd ring: $(cat err)"
# ring:pipe=1 (each step two rounds of half a packet) lifts on odd and even rings, with half=1 too;
# pipe=2 is refused with the entry named
[ "$(status run --algo dimwise-colored:phases=ring:pipe=1/ring:pipe=1 --topo torus:6x5 --r 2)" = 0 ] &&
  grep -q "^rounds         12 " out || fail "phases=ring:pipe=1/ring:pipe=1: $(cat out err)"
[ "$(status run --algo dimwise-colored:phases=ring:pipe=1/ring:pipe=1+half=1 --topo torus:6x4 --r 2)" = 0 ] &&
  grep -q "^rounds         11 " out || fail "phases=ring:pipe=1/ring:pipe=1+half=1: $(cat out err)"
[ "$(status run --algo dimwise-colored:phases=ring:pipe=2/ring --topo torus:5x4 --r 2)" = 2 ] &&
  grep -q "phases: ring on the rings of axis 0 (5 nodes): pipe=2: 0 or 1" err ||
  fail "phases=ring:pipe=2: $(cat err)"
# auto's phases are named in a resolved line (and the JSON's resolved_params), and that name runs
[ "$(status run --algo dimwise-colored --topo torus:8x8 --r 10)" = 0 ] &&
  grep -q "^resolved       dimwise-colored:phases=circgos:a=3+b=1+skip=1/ring (its own choices, by name)$" out ||
  fail "resolved phases: $(cat out err)"
[ "$(status run --algo dimwise-colored --topo torus:8x8 --r 10 --json)" = 0 ] &&
  python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(d["resolved_params"] != {"phases": "circgos:a=3+b=1+skip=1/ring"} or d["params"] != {})' ||
  fail "resolved_params: $(cat out err)"
[ "$(status run --algo 'dimwise-colored:phases=circgos:a=3+b=1+skip=1/ring' --topo torus:8x8 --r 10)" = 0 ] &&
  grep -q "^cost           91.5 t'_l" out && ! grep -q "^resolved" out || fail "the resolved name: $(cat out err)"
[ "$(status run --algo dimwise-colored:phases=ring:half/ring --topo torus:4x4 --r 2)" = 2 ] &&
  grep -q "phases: ring:half: parameter 'half' is not k=v" err || fail "phases=ring:half: $(cat err)"
# a parameter's value holds 63 characters (39 before 0.2): 3D phases with their own parameters fit
[ "$(status run --algo dimwise:phases=torus-doubling/torus-doubling/torus-doubling --topo torus:4x4x4 --model contention=shared,ts=1)" = 0 ] ||
  fail "phases of 44 characters: $(cat err)"
[ "$(status run --algo dimwise:phases=torus-doubling:ports=1/torus-doubling:ports=1/torus-doubling:ports=1 --topo torus:4x4x4 --r 2)" = 2 ] &&
  grep -q "value for parameter 'phases' longer than 63 characters" err || fail "a long phases=: $(cat err)"
echo "cli_edges: ok"
