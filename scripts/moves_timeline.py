#!/usr/bin/python3
"""Where does an exchange-moves plan leave the torus's arcs idle? (docs/alltoall.md, "Where we still lose")

Reads a schedule exported by `meshgossip run --algo exchange-moves ... --timing async --export F.json` on a
torus under contention=fair, takes node 0's messages (every node sends their translates: the plan is the same
at every node, which the script checks) and replays them on the clock the plan was searched against
(exchange_moves.c, xm_estimate): one node's sends released in file order, each after its sender's o of CPU
and after the messages of earlier rounds that brought its blocks; max-min fair rates on the 2d arc
directions, where a message of k hops along a direction puts k copies on each arc of it (one from each of k
nodes), weights 1/hops (share=hops), the model's bandwidth factor by message size, and the acknowledgements
(ack) on the return route. Its end time is the file's async cost (checked against `meshgossip verify`, which
the script runs when the CLI is given), but where a node's messages arrive together (o = 0 with or > 0) and the
simulator reads them in its senders' order: the script refuses that case, as it refuses the round clocks
(timing sync or ranks) and tl = 0. exchange-hops plans, the same kind of schedule, replay as well.

It prints, per arc direction, the time the arcs spend below full use (the integral of 1 - use, where use is
what the direction's flows and acknowledgements take of its capacity), in total and in the intervals the
breakpoints cut (seconds); the work of every direction (the time its bytes and acknowledgements need at full
rate), which the end less the idle time must equal; with --bins W, the use of every direction in windows of W
seconds; with --messages, every send's release, start and end.

Usage: moves_timeline.py F.json [--cli build/meshgossip] [--cuts 0.25e-3,2.5e-3,...] [--bins W] [--messages]
A diagnostic, the standard library only; CTest moves_timeline (tests/moves_timeline.sh) checks its end against
`meshgossip verify` on two plans.
"""
import json
import math
import subprocess
import sys


def arg(name, default=None):
    if name not in sys.argv:
        return default
    i = sys.argv.index(name) + 1
    if i >= len(sys.argv) or sys.argv[i].startswith("--"):
        sys.exit(f"moves_timeline.py: {name} needs a value")
    return sys.argv[i]


def number(name, text):
    try:
        x = float(text)
    except ValueError:
        sys.exit(f"moves_timeline.py: {name}: '{text}' is not a number")
    if not math.isfinite(x) or x < 0:
        sys.exit(f"moves_timeline.py: {name}: '{text}' is not a time of 0 s or more")
    return x


def load(path):
    try:
        with open(path) as f:
            d = json.load(f)
        topo, mo = d["topology"], d["model"]
        kind, dims, tl = topo["kind"], topo["dims"], float(mo["tl"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"moves_timeline.py: {path}: not a schedule file ({e.__class__.__name__}: {e})")
    if d.get("problem") != "exchange" or kind != "torus" or mo.get("contention") != "fair":
        sys.exit("moves_timeline.py: an exchange schedule on a torus under contention=fair, please")
    if mo.get("timing") != "async" or tl <= 0:
        sys.exit("moves_timeline.py: the clock is timing=async with tl > 0 (the search's round clocks have no timeline)")
    if mo.get("o", 0) == 0 and mo.get("or", 0) > 0:
        sys.exit("moves_timeline.py: o = 0 with or > 0: a node's messages arrive together and the simulator reads "
                 "them in its senders' order, which no one node's clock follows")
    n = 1
    for k in dims:
        n *= k
    return d, dims, n, mo


def coords(v, dims):
    x = []
    for k in dims:
        x.append(v % k)
        v //= k
    return x


def node(x, dims):
    v, m = 0, 1
    for xi, k in zip(x, dims):
        v += (xi % k) * m
        m *= k
    return v


def shift(v, by, dims):
    return node([a + b for a, b in zip(coords(v, dims), coords(by, dims))], dims)


def template(d, dims, n):
    """Node 0's sends in file order (round, dst, route, items), after checking that node v sends their
    translates by v, in the same order."""
    sends = []
    for r, rnd in enumerate(d["rounds"]):
        mine = {}
        for m in rnd:
            mine.setdefault(m["src"], []).append(m)
        base = mine.get(0, [])
        if base and len(mine) != n:
            sys.exit(f"moves_timeline.py: {n - len(mine)} nodes send nothing in round {r}, node 0 {len(base)} messages")
        for v, ms in mine.items():
            if len(ms) != len(base):
                sys.exit(f"moves_timeline.py: node {v} sends {len(ms)} messages in round {r}, node 0 {len(base)}")
            for a, b in zip(base, ms):
                want = sorted(shift(i // n, v, dims) * n + shift(i % n, v, dims) for i in a["items"])
                if b["dst"] != shift(a["dst"], v, dims) or b["route"] != a["route"] or sorted(b["items"]) != want:
                    sys.exit(f"moves_timeline.py: node {v}'s sends in round {r} are not node 0's translated")
        for m in base:
            sends.append({"r": r, "dst": m["dst"], "route": m["route"], "items": set(m["items"])})
    return sends


def factor(bwf, b):
    f = 1.0
    for part in bwf.split(";") if bwf else []:
        lo, x = part.split(":")
        if b >= float(lo):
            f = float(x)
    return f


def prepare(sends, d, dims, n, mo):
    nd, tl, ack = 2 * len(dims), mo["tl"], mo.get("ack", 0.0)
    for s in sends:
        s["bytes"] = len(s["items"]) * d["bytes"]  # exchange items are whole blocks
        s["use"] = factor(mo.get("bwf", ""), s["bytes"])
        s["fwd"], s["back"], s["h"] = [0] * nd, [0] * nd, 0
        for axis, dg in s["route"]:
            s["h"] += abs(dg)
            s["fwd"][2 * axis + (dg < 0)] += abs(dg)
            s["back"][2 * axis + (dg > 0)] += abs(dg)
        s["wt"] = 1.0 / s["h"] if mo.get("share") == "hops" and s["h"] > 1 else 1.0
        s["cap"] = (1 / tl) / s["wt"]
        s["dirs"] = {k for k in range(nd) if s["fwd"][k] or (ack > 0 and s["back"][k])}
    # what each send waits for: node 0 holds block q at its send of round r if some send i of an earlier
    # round, made by node -dst_i, carried it, i.e. node 0's send i carried q shifted by dst_i
    for j, s in enumerate(sends):
        s["waits"] = set()
        for q in s["items"]:
            if q // n == 0:
                continue
            for i, e in enumerate(sends[:j]):
                if e["r"] < s["r"] and shift(q // n, e["dst"], dims) * n + shift(q % n, e["dst"], dims) in e["items"]:
                    s["waits"].add(i)
                    break
            else:
                sys.exit(f"moves_timeline.py: block {q} reaches node 0 before it is sent on by no earlier send")
    ups = {}
    for s in sends:
        ups[s["r"]] = ups.get(s["r"], 0) + 1
    for s in sends:  # the pricer's start-ups: ts for every 2d sends of a node in a round
        s["fixed"] = (mo["ts"] + s["h"] * mo.get("td", 0)) + (mo["ts"] * ((ups[s["r"]] + nd - 1) // nd) - mo["ts"])


def share(sends, on, nd, mo):
    """Max-min fair rates on the nd directions (exchange_moves.c, xm_share)."""
    bound, ack = 1 / mo["tl"], mo.get("ack", 0.0)
    cap, wsum, nun = [bound] * nd, [0.0] * nd, [0] * nd
    frozen = {i: False for i in on}
    for i in on:
        s = sends[i]
        for k in range(nd):
            if s["fwd"][k]:
                nun[k] += 1
                wsum[k] += s["fwd"][k] * s["wt"]
            if ack > 0 and s["back"][k]:
                nun[k] += 1
                wsum[k] += ack * s["back"][k] * s["wt"]
    left = len(on)
    while left:
        best = min([cap[k] / wsum[k] for k in range(nd) if nun[k]] + [sends[i]["cap"] for i in on if not frozen[i]])
        if not math.isfinite(best):
            break
        best = max(best, 0.0)
        full = {k for k in range(nd) if nun[k] and cap[k] / wsum[k] <= best * (1 + 1e-12)}
        now = []
        for i in on:
            s = sends[i]
            bounded = s["cap"] <= best * (1 + 1e-12)
            if frozen[i] or (not bounded and not (s["dirs"] & full)):
                continue
            s["rate"] = bound if bounded else s["wt"] * best
            now.append(i)
        for i in now:
            s, frozen[i] = sends[i], True
            left -= 1
            for k in range(nd):
                if s["fwd"][k]:
                    cap[k] -= s["fwd"][k] * s["rate"]
                    nun[k] -= 1
                    wsum[k] -= s["fwd"][k] * s["wt"]
                if ack > 0 and s["back"][k]:
                    cap[k] -= ack * s["back"][k] * s["rate"]
                    nun[k] -= 1
                    wsum[k] -= ack * s["back"][k] * s["wt"]
    for i in on:
        sends[i]["rate"] *= sends[i]["use"]


def replay(sends, nd, mo):
    """The clock; returns the end and the use of every direction, piecewise constant: [(t0, t1, [use])]."""
    n, tl, ack = len(sends), mo["tl"], mo.get("ack", 0.0)
    for s in sends:
        s["left"], s["ready"], s["state"] = len(s["waits"]), 0.0, 0
    t = cpu = end = rcv = 0.0
    nxt = qhead = nfin = 0
    on, done, pieces = [], [], []
    while True:
        while nxt < n and sends[nxt]["left"] == 0:
            cpu = max(sends[nxt]["ready"], cpu) + mo.get("o", 0.0)
            sends[nxt]["rel"], sends[nxt]["state"] = cpu, 1
            nxt += 1
        tn, kind, who = math.inf, -1, -1
        if qhead < nxt:
            tn, kind, who = sends[qhead]["rel"], 0, qhead
        for i in sorted(on + done):
            s = sends[i]
            if s["state"] == 2 and s["rate"] > 0 and t + s["rem"] / s["rate"] < tn:
                tn, kind, who = t + s["rem"] / s["rate"], 1, i
            if s["state"] == 3 and (
                s["arr"] < tn or (kind == 2 and s["arr"] == tn and s["fin"] < sends[who]["fin"])
            ):
                tn, kind, who = s["arr"], 2, i
        if kind < 0:
            break
        tn = max(tn, t)
        if tn > t:
            use = [0.0] * nd
            for i in on:
                s = sends[i]
                for k in range(nd):
                    use[k] += (s["fwd"][k] + ack * s["back"][k]) * s["rate"] / s["use"] * tl
            pieces.append((t, tn, use))
        for i in on:
            sends[i]["rem"] -= sends[i]["rate"] * (tn - t)
        t = tn
        if kind == 0:
            s = sends[who]
            s["state"], s["rem"], s["start"] = 2, s["bytes"], t
            on = sorted(on + [who])
            qhead += 1
        elif kind == 1:
            keep = []
            for i in on:
                s = sends[i]
                if i == who or s["rem"] <= 1e-9 * s["bytes"]:
                    s["state"], s["arr"], s["fin"], s["end"] = 3, t + s["fixed"], nfin, t
                    nfin += 1
                    done.append(i)
                else:
                    keep.append(i)
            on = keep
        else:
            s = sends[who]
            s["state"] = 4
            s["arr"] = rcv = max(t, rcv) + mo.get("or", 0.0)
            end = max(end, rcv)
            done.remove(who)
            for j in range(who + 1, n):
                if who in sends[j]["waits"]:
                    sends[j]["left"] -= 1
                    sends[j]["ready"] = max(sends[j]["ready"], rcv)
            continue
        share(sends, on, nd, mo)
    if nxt < n:
        sys.exit("moves_timeline.py: a send waits for a later one (the file's order cannot run)")
    if end > t:  # the last reads (or > 0) come after the last byte: the arcs idle meanwhile
        pieces.append((t, end, [0.0] * nd))
    return end, pieces


def idle(pieces, nd, a, b):
    out = [0.0] * nd
    for t0, t1, use in pieces:
        lo, hi = max(t0, a), min(t1, b)
        if hi > lo:
            for k in range(nd):
                out[k] += (hi - lo) * max(0.0, 1 - use[k])
    return out


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("--"):
        sys.exit(__doc__)
    d, dims, n, mo = load(sys.argv[1])
    nd = 2 * len(dims)
    sends = template(d, dims, n)
    prepare(sends, d, dims, n, mo)
    end, pieces = replay(sends, nd, mo)
    names = [f"{'+-'[k % 2]}{'xyz'[k // 2]}" for k in range(nd)]
    print(f"sends a node: {len(sends)}; end {end * 1e3:.6f} ms (the clock of exchange_moves.c)")
    cli = arg("--cli")
    if cli:
        try:
            out = subprocess.run([cli, "verify", sys.argv[1]], capture_output=True, text=True).stdout
        except OSError as e:
            sys.exit(f"moves_timeline.py: --cli {cli}: {e.strerror}")
        cost = next((float(l.split()[1]) for l in out.splitlines() if l.startswith("cost")), None)
        print(f"meshgossip verify: {cost * 1e3:.6f} ms" if cost else "meshgossip verify printed no cost")
    # the work of a direction: its copies of every message, forward and acknowledged, at full rate
    ack, work = mo.get("ack", 0.0), [0.0] * nd
    for s in sends:
        for k in range(nd):
            work[k] += (s["fwd"][k] + ack * s["back"][k]) * s["bytes"] / s["use"] * mo["tl"]
    print("ms of work, per direction:        " + " ".join(f"{x * 1e3:7.3f}" for x in work))
    marks = sorted({number("--cuts", c) for c in (arg("--cuts", "") or "").split(",") if c.strip()})
    cuts = [0.0] + [c for c in marks if 0 < c < end] + [end]
    print("ms below full use, per direction:", " ".join(f"{x:>7}" for x in names), "   mean")
    for a, b in zip(cuts, cuts[1:]):
        w = idle(pieces, nd, a, b)
        print(f"  {a * 1e3:7.3f} .. {b * 1e3:7.3f} ms:          " + " ".join(f"{x * 1e3:7.3f}" for x in w)
              + f"  {sum(w) / nd * 1e3:7.3f}")
    if len(cuts) > 2:
        w = idle(pieces, nd, 0, end)
        print("  in all:                         " + " ".join(f"{x * 1e3:7.3f}" for x in w)
              + f"  {sum(w) / nd * 1e3:7.3f}")
    width = number("--bins", arg("--bins", "0"))
    if width > 0:
        t = 0.0
        while t < end:
            w = idle(pieces, nd, t, min(t + width, end))
            span = min(t + width, end) - t
            print(f"  use {t * 1e3:7.3f} ms: " + " ".join(f"{1 - x / span:5.2f}" for x in w))
            t += width
    if "--messages" in sys.argv:
        for i, s in enumerate(sends):
            print(f"  send {i:3d} round {s['r']} {len(s['items'])} blocks {s['h']} hops: released "
                  f"{s['rel'] * 1e3:.3f}, on the wire {s['start'] * 1e3:.3f} .. {s['end'] * 1e3:.3f} ms, "
                  f"waits for {sorted(s['waits'])}")


if __name__ == "__main__":
    main()
