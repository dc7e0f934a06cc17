#!/usr/bin/env bash
# The pictures from the command line, counted from the files themselves:
# `draw` writes one class="transfer" element per transfer that `run --json`
# reports and a heatmap cell per arc and round; `compare --plot` draws one
# series per algorithm that the sweep's CSV prices; `plot` draws a CSV;
# `report` writes one HTML page that headless Chromium renders: its DOM
# carries the title and the pictures, its screenshot is not blank.
# usage: draw_cli.sh MESHGOSSIP
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
count() { grep -o "class=\"$1\"" "$2" | wc -l; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

# draw: arrows = transfers, per round and in all
model=contention=shared,ts=1,tl=0.01
"$cli" draw --algo mpi-allgather-bruck --topo torus:4x4 --model $model --bytes 64 --all -o "$tmp/b.svg" > /dev/null ||
  fail "draw --all"
want=$("$cli" run --algo mpi-allgather-bruck --topo torus:4x4 --model $model --bytes 64 --json | field transfers)
[ "$(count transfer "$tmp/b.svg")" = "$want" ] || fail "arrows $(count transfer "$tmp/b.svg") != transfers $want"
"$cli" draw --algo mpi-allgather-bruck --topo torus:4x4 --model $model --bytes 64 --round 1 -o "$tmp/b1.svg" > /dev/null
[ "$(count transfer "$tmp/b1.svg")" = 16 ] || fail "round 1 of bruck on 16 nodes has 16 transfers"
# round 1 sends 2 ahead along x on a 4-ring: each of the 16 x+ arcs carries two transfers
[ "$(count shared "$tmp/b1.svg")" = 16 ] || fail "round 1: 16 shared arcs, got $(count shared "$tmp/b1.svg")"
# strict torgos: no shared arc
"$cli" draw --algo torgos --topo torus:9x9 --r 10 -o "$tmp/t.svg" > /dev/null || fail "draw torgos"
[ "$(count shared "$tmp/t.svg")" = 0 ] || fail "torgos shares no arc"
# heatmap: 4*36 arcs x rounds cells
"$cli" draw --algo mpi-allgather-ring --topo torus:6x6 --model $model --heatmap -o "$tmp/h.svg" > /dev/null
rounds=$("$cli" run --algo mpi-allgather-ring --topo torus:6x6 --model $model --json | field rounds)
[ "$(count cell "$tmp/h.svg")" = $((144 * rounds)) ] || fail "heatmap cells $(count cell "$tmp/h.svg") != 144 x $rounds"
# errors: bad round, missing -o, nothing left behind
"$cli" draw --algo torgos --topo torus:9x9 --r 10 --round 99 -o "$tmp/bad.svg" > /dev/null 2>&1
[ $? = 2 ] || fail "a round past the end is bad usage"
[ ! -e "$tmp/bad.svg" ] || fail "no file on failure"
# a round past a 64-bit integer is refused as written, not clamped to 2^63 - 1
"$cli" draw --algo torgos --topo torus:9x9 --r 10 --round 99999999999999999999 -o "$tmp/bad.svg" 2>"$tmp/big.err" >/dev/null
[ $? = 2 ] && grep -q "not '99999999999999999999'" "$tmp/big.err" || fail "a huge --round: $(cat "$tmp/big.err")"
# --round is digits only (strtoll took " +2" as round 2)
for r in " +2" -0 1x; do
  "$cli" draw --algo ring --topo ring:5 --round "$r" -o "$tmp/bad.svg" 2>"$tmp/err" >/dev/null
  [ $? = 2 ] && grep -q "takes a round number" "$tmp/err" || fail "--round '$r': $(cat "$tmp/err")"
done
"$cli" draw --algo torgos --topo torus:9x9 > /dev/null 2>&1
[ $? = 2 ] || fail "draw without -o is bad usage"

# compare --plot: one series per priced algorithm, plus the bound, in each of two panels
"$cli" compare --problem exchange --topo torus:4x4 --model ts=1e-6,tl=1e-9 --sizes 64,1K,16K --plot "$tmp/s.svg" > "$tmp/s.csv" ||
  fail "compare --plot"
priced=$(awk -F, 'NR==1 {n=NF} NR>1 {for (i=2;i<=n-2;i++) if ($i!="") seen[i]=1} END {print length(seen)}' "$tmp/s.csv")
# (at most the best 11 are drawn, each panel telling them apart: src/draw/sweep.c)
shown=$((priced < 11 ? priced : 11))
[ "$(count series "$tmp/s.svg")" = $((2 * (shown + 1))) ] || fail "sweep series $(count series "$tmp/s.svg") != 2 x ($shown + 1)"
[ "$priced" -le 11 ] || grep -q "best 11 shown" "$tmp/s.svg" || fail "the title says the best 11 are shown"
"$cli" compare --problem exchange --topo torus:4x4 --plot "$tmp/x.svg" > /dev/null 2>&1
[ $? = 2 ] || fail "--plot needs --sizes"

# plot: a CSV
printf '# x: bytes\npanel,series,x,y,style\na,one,1,2\na,one,2,3\na,lb,1,1,bound\nb,two,4,5,dashed\n' > "$tmp/p.csv"
"$cli" plot "$tmp/p.csv" -o "$tmp/p.svg" > /dev/null || fail "plot"
[ "$(count panel "$tmp/p.svg")" = 2 ] && [ "$(count point "$tmp/p.svg")" = 3 ] || fail "plot: 2 panels, 3 points"
# the axis lines: the last of an axis wins ('# x: log' after '# x: linear' is
# the default log axis; '# x: linear' alone is another picture)
printf 'panel,series,x,y\np,s,1,1\np,s,1000,2\n' > "$tmp/ax0.csv"
printf '# x: linear\n# x: log\n# y: linear\n# y: log\npanel,series,x,y\np,s,1,1\np,s,1000,2\n' > "$tmp/ax1.csv"
printf '# x: linear\npanel,series,x,y\np,s,1,1\np,s,1000,2\n' > "$tmp/ax2.csv"
for k in 0 1 2; do "$cli" plot "$tmp/ax$k.csv" -o "$tmp/ax$k.svg" > /dev/null || fail "plot ax$k"; done
cmp -s "$tmp/ax0.svg" "$tmp/ax1.svg" || fail "'# x: log' and '# y: log' are not the default axes"
! cmp -s "$tmp/ax0.svg" "$tmp/ax2.svg" || fail "'# x: linear' changed nothing"
printf 'panel,series,x,y\na,one,1,zz\n' > "$tmp/q.csv"
"$cli" plot "$tmp/q.csv" -o "$tmp/q.svg" > /dev/null 2>&1
[ $? = 2 ] || fail "a bad CSV is bad input"
# a line longer than the reader's buffer is refused, not read as two rows
python3 -c 'print("panel,series,x,y"); print("a,one,1,2" + "p" * 1100 + ",3,4")' > "$tmp/long.csv"
"$cli" plot "$tmp/long.csv" -o "$tmp/long.svg" > /dev/null 2>&1
[ $? = 2 ] || fail "a 1100-character line is bad input"
# points in falling x: sorted, the same picture as rising x
printf 'panel,series,x,y\na,one,3,1\na,one,2,2\na,one,1,3\n' > "$tmp/down.csv"
printf 'panel,series,x,y\na,one,1,3\na,one,2,2\na,one,3,1\n' > "$tmp/up.csv"
"$cli" plot "$tmp/down.csv" -o "$tmp/down.svg" > /dev/null && "$cli" plot "$tmp/up.csv" -o "$tmp/up.svg" > /dev/null &&
  cmp -s "$tmp/down.svg" "$tmp/up.svg" || fail "points in falling x drawn differently"

# a review's findings. Labels with a control character and invalid UTF-8
# make a valid XML file (U+FFFD in their place)
printf '# title: a\x01b\xff\npanel,series,x,y\np,s\x7f,1,2\np,s\x7f,2,3\n' > "$tmp/c.csv"
"$cli" plot "$tmp/c.csv" -o "$tmp/c.svg" > /dev/null || fail "plot of odd labels"
grep -q "a$(printf '\xef\xbf\xbd')b$(printf '\xef\xbf\xbd')<" "$tmp/c.svg" || fail "U+FFFD for \\x01 and \\xff"
if command -v xmllint > /dev/null; then
  xmllint --noout "$tmp/c.svg" || fail "plot: invalid XML"
  xmllint --noout "$tmp/b.svg" || fail "draw: invalid XML"
fi
# a single point on log axes, and a range past the largest double: no nan, no inf
printf 'panel,series,x,y\np,s,5,7\n' > "$tmp/one.csv"
printf '# x: linear\n# y: linear\npanel,series,x,y\np,s,-1e308,-1e308\np,s,1e308,1e308\n' > "$tmp/huge.csv"
for f in one huge; do
  "$cli" plot "$tmp/$f.csv" -o "$tmp/$f.svg" > /dev/null || fail "plot $f.csv"
  ! grep -Eqi 'nan|inf' "$tmp/$f.svg" || fail "$f.svg: $(grep -Eio '.{20}(nan|inf).{5}' "$tmp/$f.svg" | head -1)"
done
grep -q 'class="point" data-x="5" data-y="7"[^>]* cx="339.9" cy="213.2"' "$tmp/one.svg" || fail "5, 7 between 2..10 and 1..100"
# valid input whose sweep has points the log axes cannot show: written, the
# points left out and counted, no nan
for m in "ts=1,tl=1 --bytes 0" "ts=0,td=0,tl=0" "tl=1 --bytes 1e306"; do
  # shellcheck disable=SC2086
  "$cli" report --problem gossip --topo torus:4x4 --model $m -o "$tmp/z.html" > /dev/null 2> "$tmp/z.err" ||
    fail "report --model $m: $(cat "$tmp/z.err")"
  ! grep -Eqiw 'nan|-nan|inf' "$tmp/z.html" || fail "report --model $m: nan or inf"
done
# the last of those: 16e306 and 64e306 bytes have a bound past a double
grep -q 'id="unpriced">2 of the 7 sizes are not priced' "$tmp/z.html" || fail "report 1e306: the unpriced sizes unsaid"
"$cli" compare --problem gossip --topo torus:4x4 --model ts=0,td=0,tl=0 --sizes 1,4 --plot "$tmp/z.svg" > /dev/null ||
  fail "compare --plot when every cost is 0"
[ "$(count empty "$tmp/z.svg")" = 2 ] || fail "two panels with nothing to draw say so"
grep -q 'no point to draw: of [0-9]* points, [0-9]* with y &lt;= 0 on the log y axis' "$tmp/z.svg" || fail "why empty"
# a rejected schedule: the picture and the line say which rule broke where
# and count the rounds that ran
"$cli" draw --algo mpi-allgather-bruck --topo torus:4x4 --model contention=strict -o "$tmp/rej.svg" > "$tmp/rej.out" 2> "$tmp/rej.err"
[ $? = 1 ] || fail "a rejected schedule's draw exits 1"
grep -q 'wrote .*: 1 of 1 rounds run before round 1 broke the arc-contention rule (the schedule has 4 rounds), 16 transfers' \
  "$tmp/rej.out" || fail "draw's line: $(cat "$tmp/rej.out")"
[ "$(wc -l < "$tmp/rej.err")" = 1 ] && grep -q '\[arc-contention\]; only the 1 round before it ran' "$tmp/rej.err" ||
  fail "draw's message: $(cat "$tmp/rej.err")"
grep -q '<g class="violation" data-rule="arc-contention" data-round="1"' "$tmp/rej.svg" || fail "no banner"
[ "$(count transfer "$tmp/rej.svg")" = 16 ] || fail "round 0 of bruck has 16 transfers"
"$cli" draw --algo mpi-allgather-bruck --topo torus:4x4 --model contention=strict --round 2 -o "$tmp/rej2.svg" \
  > /dev/null 2> "$tmp/rej2.err"
[ $? = 2 ] && [ ! -e "$tmp/rej2.svg" ] && grep -q 'round 2 was not run' "$tmp/rej2.err" || fail "--round past the rejection"

# report in a real browser
"$cli" report --problem gossip --topo torus:6x6 --model ts=3e-4,tl=2.2e-8 --bytes 4096 -o "$tmp/r.html" > /dev/null ||
  fail "report"
grep -Eq '<(img|script|link|iframe|object)[ >]| src=|href="http' "$tmp/r.html" && fail "the report must not fetch anything"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it); the report was not opened in a browser"
  exit 77
fi
run_browser() {
  local prof
  prof=$(mktemp -d)
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" "$@" 2> "$tmp/browser.err"
  local rc=$?
  rm -rf "$prof"
  return $rc
}
run_browser --dump-dom "file://$tmp/r.html" > "$tmp/dom.html" || fail "chromium --dump-dom: $(tail -3 "$tmp/browser.err")"
grep -q '<title>meshgossip report: gossip on torus:6x6</title>' "$tmp/dom.html" || fail "no title in the DOM"
grep -q 'id="summary"><b>Best: ' "$tmp/dom.html" || fail "no summary in the DOM"
[ "$(grep -o 'class="transfer"' "$tmp/dom.html" | wc -l)" -gt 0 ] || fail "no transfer drawn in the DOM"
[ "$(grep -o 'class="cell"' "$tmp/dom.html" | wc -l)" -gt 0 ] || fail "no heatmap in the DOM"
run_browser --window-size=1280,2000 --screenshot="$tmp/r.png" "file://$tmp/r.html" > /dev/null ||
  fail "chromium --screenshot: $(tail -3 "$tmp/browser.err")"
python3 - "$tmp/r.png" << 'PY' || fail "the screenshot is blank"
# decode the PNG (8-bit RGB/RGBA, not interlaced) and require ink
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8 and ctype in (2, 6)
        bpp = 3 if ctype == 2 else 4
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw, stride, prev, ink, colours = zlib.decompress(idat), w * bpp, bytearray(w * bpp), 0, set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    if y % 4 == 0:
        for x in range(0, w, 4):
            px = bytes(line[x * bpp:x * bpp + 3])
            colours.add(px)
            ink += px != b'\xff\xff\xff'
print('screenshot %dx%d: %d sampled pixels with ink, %d colours' % (w, h, ink, len(colours)))
sys.exit(0 if ink > 2000 and len(colours) > 20 else 1)
PY
echo "draw_cli: all checks passed"
