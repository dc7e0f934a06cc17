#!/usr/bin/env bash
# Terminal progress of compare, tune and table (tools/cli_progress.c): on a
# terminal (script(1) gives the command a pseudo-terminal) stderr shows
# "[compare] k/N name" for every step (MESHGOSSIP_PROGRESS=all: no delay,
# no rate limit), N being the number of gossip algorithms `list` names,
# the tune's candidates and the table's runs, and the line is cleared at
# the end; piped, stderr stays empty; stdout is byte-identical either way.
# usage: progress.sh CLI
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v script >/dev/null || fail "script(1) (util-linux / bsdutils) is not installed"
export MESHGOSSIP_PROGRESS=all
# check NAME ARGS...: run on a terminal and piped, compare
check() {
  local name=$1
  shift
  script -qec "$(printf '%q ' "$cli" "$@") > $tmp/$name.tty.out" /dev/null > "$tmp/$name.tty.err" || fail "$name on a terminal: exit $?"
  "$cli" "$@" > "$tmp/$name.pipe.out" 2> "$tmp/$name.pipe.err" || fail "$name piped: exit $?"
  # (run's measured simulation time and RSS differ from run to run)
  cmp <(grep -v '^simulation ' "$tmp/$name.tty.out") <(grep -v '^simulation ' "$tmp/$name.pipe.out") || fail "$name: stdout differs between terminal and pipe"
  [ -s "$tmp/$name.pipe.out" ] || fail "$name: no output"
  [ ! -s "$tmp/$name.pipe.err" ] || fail "$name: progress on a pipe: $(head -c 200 "$tmp/$name.pipe.err")"
  # the last thing on the terminal: the line overwritten with blanks
  if [ -s "$tmp/$name.tty.err" ]; then
    [ "$(tail -c 2 "$tmp/$name.tty.err" | od -An -tx1 | tr -d ' \n')" = 200d ] || fail "$name: progress line not cleared at the end"
  fi
  # each step once (a shorter line is padded, then written again)
  tr '\r' '\n' < "$tmp/$name.tty.err" | sed 's/ *$//' | grep -v '^$' | uniq > "$tmp/$name.steps"
}

n=$("$cli" list | awk '$2 == "gossip"' | wc -l)
[ "$n" -ge 10 ] || fail "list names only $n gossip algorithms"
check compare compare --problem gossip --topo torus:9x9
# every line is a step of the N; a tuned algorithm's candidates are its step again
[ "$(grep -cvE "^\[compare\] [0-9]+/$n [a-z0-9-]+( \(candidate [0-9]+/[0-9]+: [a-z0-9-]+:[a-z0-9=,/]+\))?$" "$tmp/compare.steps")" -eq 0 ] ||
  fail "compare: stray lines $(grep -vE "^\[compare\] [0-9]+/$n " "$tmp/compare.steps")"
# torgos on torus:9x9: as many candidates as `tune` evaluates there (all verify)
k9=$("$cli" tune --algo torgos --topo torus:9x9 | awk '/^evaluated/ {print $2}')
[ "$(grep -c "^\[compare\] [0-9]*/$n torgos (candidate [0-9]*/$k9: torgos:" "$tmp/compare.steps")" -eq "$k9" ] ||
  fail "compare: torgos candidates $(grep torgos "$tmp/compare.steps")"
for k in $(seq 1 "$n"); do
  name=$("$cli" list | awk '$2 == "gossip" {print $1}' | sed -n ${k}p)
  grep -qx "\[compare\] $k/$n $name" "$tmp/compare.steps" || fail "compare: no step '[compare] $k/$n $name'"
done

check tune tune --algo torgos --topo torus:27x27
ev=$(awk '/^evaluated/ {print $2}' "$tmp/tune.pipe.out")
[ "$ev" = 6 ] || fail "tune: $ev candidates evaluated, want 6"
for k in $(seq 1 6); do
  grep -qE "^\[tune\] $k/6 torgos:a=[0-9]+,(b=[0-9]+,x=[0-9]+|finish=(period9|pair9))$" "$tmp/tune.steps" || fail "tune: no step $k/6"
done
[ "$(wc -l < "$tmp/tune.steps")" -eq 6 ] || fail "tune: $(wc -l < "$tmp/tune.steps") steps, want 6"

check table table delmas
printf '[delmas] run 1: lee3d\n[delmas] run 2: lee3d-long\n' | cmp - "$tmp/table.steps" || fail "table delmas: steps $(cat "$tmp/table.steps")"

# run has no steps: nothing new on its stderr (its round progress waits 1 s)
check run run --algo torgos --topo torus:9x9
[ ! -s "$tmp/run.steps" ] || fail "run printed $(cat "$tmp/run.steps")"
echo "PASS: progress on a terminal only, stdout unchanged"
