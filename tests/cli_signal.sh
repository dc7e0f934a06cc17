#!/usr/bin/env bash
# A command killed midway leaves nothing beside its target: run --export of
# a 150 MB schedule (ring on ring:1500, some 2 s) is sent SIGTERM once its
# temporary file exists; the command dies of the signal (status 143), and
# neither the target nor a temporary file is left. Then the same with
# SIGHUP (SIGINT: a background job of a script ignores it, and so does the
# command), over an existing target, which must stay as it was. And
# --export-ti killed while it writes its traces leaves no directory.
# usage: cli_signal.sh MESHGOSSIP
set -u
MG=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
kill_midway() { # SIGNAL: start the export, wait for its temporary file, signal it
  "$MG" run --algo ring --topo ring:1500 --r 1 --export "$tmp/out.json" >/dev/null 2>&1 &
  local pid=$! k
  for k in $(seq 1 400); do
    compgen -G "$tmp/out.json.tmp*" >/dev/null && break
    sleep 0.01
  done
  compgen -G "$tmp/out.json.tmp*" >/dev/null || fail "no temporary file appeared"
  kill -"$1" "$pid"
  wait "$pid"
  rc=$?
}
kill_midway TERM
[ $rc = 143 ] || fail "SIGTERM: exit status $rc, want 143"
[ -e "$tmp/out.json" ] && fail "SIGTERM: the target was written"
compgen -G "$tmp/out.json.tmp*" >/dev/null && fail "SIGTERM left $(ls "$tmp")"
echo keep >"$tmp/out.json"
kill_midway HUP
[ $rc = 129 ] || fail "SIGHUP: exit status $rc, want 129"
[ "$(cat "$tmp/out.json")" = keep ] || fail "SIGHUP: the existing target changed"
compgen -G "$tmp/out.json.tmp*" >/dev/null && fail "SIGHUP left $(ls "$tmp")"
# --export-ti writes a hidden directory of traces inside DIR, which it made:
# killed while writing, it takes back both
"$MG" run --algo ring --topo ring:1000 --r 1 --export-ti "$tmp/ti" >/dev/null 2>&1 &
pid=$!
for k in $(seq 1 3000); do
  [ -n "$(compgen -G "$tmp/ti/.ti.tmp*/rank1*.txt")" ] && break
  sleep 0.01
done
[ -n "$(compgen -G "$tmp/ti/.ti.tmp*/rank1*.txt")" ] || fail "no TI traces appeared"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ $rc = 143 ] || fail "--export-ti, SIGTERM: exit status $rc, want 143"
[ -e "$tmp/ti" ] && fail "--export-ti, SIGTERM left $(ls -A "$tmp/ti" | head -3)"
echo "OK: killed exports and TI traces leave nothing behind"
