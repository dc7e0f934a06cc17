#!/usr/bin/env python3
"""export_formats.py SCHEDULE.json FILE.xml FILE.goal: re-reads an MSCCL XML
algorithm and a GOAL schedule written by `meshgossip run --export` and checks
them against the JSON export of the same run (every transfer with its items
explicit): each format must carry exactly the schedule's transfers (per
channel, in order, with their items / sizes) and exactly its dependencies (a
send depends on the receives that delivered, in an earlier round, an item it
carries: gossip an item's first delivery, exchange its latest), recounted here
from the JSON. Prints the counts; exits 1 on the first disagreement."""
import json
import math
import re
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def load(path):
    with open(path) as f:
        s = json.load(f)
    N = 1
    for n in s["topology"]["dims"]:
        N *= n
    xfers = []  # (round, src, dst, sorted items)
    for r, rnd in enumerate(s["rounds"]):
        for t in rnd:
            xfers.append((r, t["src"], t["dst"], sorted(t["items"])))
    return s, N, xfers


def deliveries(s, xfers):
    """For each transfer: the set of transfer indices whose delivery of an
    item it carries to its source is the one in force (earlier rounds)."""
    gossip = s["problem"] == "gossip"
    by = {}  # (node, item) -> transfer index
    out = []
    cur_round, pending = 0, []
    for g, (r, src, dst, items) in enumerate(xfers):
        if r != cur_round:
            for key, h in pending:
                if not gossip or key not in by:
                    by[key] = h
            pending, cur_round = [], r
        out.append({by[(src, it)] for it in items if (src, it) in by})
        for it in items:
            pending.append(((dst, it), g))
    return out


def check_goal(path, s, N, xfers, deps):
    text = open(path).read()
    m = re.match(r"num_ranks (\d+)\n", text)
    if not m or int(m.group(1)) != N:
        fail("GOAL num_ranks")
    ops, req = {}, {}
    for rank, body in re.findall(r"rank (\d+) \{\n(.*?)\}", text, re.S):
        rank = int(rank)
        for line in body.splitlines():
            if not line:
                continue
            m = re.fullmatch(r"l(\d+): (send|recv) (\d+)b (to|from) (\d+) tag (\d+)", line)
            if m:
                ops[(rank, int(m.group(1)))] = (m.group(2), int(m.group(3)), int(m.group(5)), int(m.group(6)))
                continue
            m = re.fullmatch(r"l(\d+) requires l(\d+)", line)
            if not m:
                fail("GOAL line %r" % line)
            a, b = int(m.group(1)), int(m.group(2))
            if (rank, a) not in ops or (rank, b) not in ops:
                fail("GOAL requires an unknown label: %r" % line)
            req.setdefault((rank, a), set()).add(b)
    item_bytes = s["bytes"] / s["pieces"] if s["problem"] == "gossip" else s["bytes"]
    if len(ops) != 2 * len(xfers):
        fail("GOAL has %d operations for %d transfers" % (len(ops), len(xfers)))
    nreq = 0
    for g, (r, src, dst, items) in enumerate(xfers):
        size = math.ceil(len(items) * item_bytes)
        if ops.get((src, g)) != ("send", size, dst, g):
            fail("GOAL transfer %d: send %r, expected %r" % (g, ops.get((src, g)), ("send", size, dst, g)))
        if ops.get((dst, g)) != ("recv", size, src, g):
            fail("GOAL transfer %d: recv %r" % (g, ops.get((dst, g))))
        got = req.get((src, g), set())
        if got != deps[g]:
            fail("GOAL send l%d requires %s, the dataflow says %s" % (g, sorted(got), sorted(deps[g])))
        if req.get((dst, g)):
            fail("GOAL recv l%d has requirements" % g)
        nreq += len(got)
    print("GOAL: %d ranks, %d sends, %d receives, %d requires: exact" % (N, len(xfers), len(xfers), nreq))


def check_msccl(path, s, N, xfers, deps):
    algo = ET.parse(path).getroot()
    gossip = s["problem"] == "gossip"
    if algo.tag != "algo" or int(algo.get("ngpus")) != N:
        fail("MSCCL <algo ngpus>")
    if algo.get("coll") != ("allgather" if gossip else "alltoall"):
        fail("MSCCL coll")

    def item_of(node, buf, off):
        if gossip:
            if buf != "o":
                fail("MSCCL allgather buffer %s" % buf)
            return off
        if buf == "i":
            return node * N + off
        if buf == "o":
            return off * N + node
        return off

    gpus = {}
    for gpu in algo.findall("gpu"):
        g = int(gpu.get("id"))
        tbs = {}
        for tb in gpu.findall("tb"):
            steps = [dict(st.attrib) for st in tb.findall("step")]
            for k, st in enumerate(steps):
                if int(st["s"]) != k:
                    fail("MSCCL step numbering")
            tbs[int(tb.get("id"))] = (int(tb.get("send")), int(tb.get("recv")), steps)
        gpus[g] = tbs
    if sorted(gpus) != list(range(N)):
        fail("MSCCL gpu ids")
    # each channel's transfers as the JSON lists them, item by item
    chan = {}
    for g, (r, src, dst, items) in enumerate(xfers):
        chan.setdefault((src, dst), []).extend((g, it) for it in items)
    # receive steps: which (transfer, item) each delivered, from the
    # channel's order; and send steps' items
    recv_of = {}  # (gpu, tb, step) -> set of transfers
    nsteps = ndeps = 0
    seen = {}
    for g, tbs in gpus.items():
        for tid, (snd, rcv, steps) in tbs.items():
            if (snd < 0) == (rcv < 0):
                fail("MSCCL tb %d/%d is not one peer channel" % (g, tid))
            key = (g, snd) if snd >= 0 else (rcv, g)
            dirn = "s" if snd >= 0 else "r"
            if (key, dirn) in seen:
                fail("MSCCL two threadblocks for channel %r" % (key,))
            seen[(key, dirn)] = (g, tid)
            flat = chan.get(key, [])
            pos = 0
            pend = []
            for st in steps:
                if st["type"] == "nop":
                    if dirn != "s":
                        fail("MSCCL nop in a receive threadblock")
                    pend.append((int(st["depid"]), int(st["deps"])))
                    continue
                if st["type"] != dirn:
                    fail("MSCCL step type %s in a %s threadblock" % (st["type"], dirn))
                cnt = int(st["cnt"])
                src, dst = key
                its = [item_of(src, st["srcbuf"], int(st["srcoff"]) + k) for k in range(cnt)]
                its_d = [item_of(dst, st["dstbuf"], int(st["dstoff"]) + k) for k in range(cnt)]
                if its != its_d:
                    fail("MSCCL step's source and destination chunks differ")
                want = flat[pos:pos + cnt]
                if [it for _, it in want] != its or len({x for x, _ in want}) != 1:
                    fail("MSCCL channel %r step %s carries %r, the schedule %r" % (key, st["s"], its, want))
                pos += cnt
                nsteps += 1
                xg = want[0][0]
                if dirn == "r":
                    recv_of[(g, tid, int(st["s"]))] = xg
                    if int(st["depid"]) != -1:
                        fail("MSCCL receive with a dependency")
                else:
                    if int(st["depid"]) >= 0:
                        pend.append((int(st["depid"]), int(st["deps"])))
                    st["_deps"] = pend
                    st["_x"] = xg
                    st["_items"] = its
                    pend = []
            if pos != len(flat):
                fail("MSCCL channel %r carries %d of %d items" % (key, pos, len(flat)))
            if pend:
                fail("MSCCL trailing nop")
    # dependencies: per send step, the receive steps that delivered its items
    first = {}  # (node, item) -> (gpu, tb, step) of the receive in force, per transfer order
    # rebuild deliveries per (transfer, item) -> receive step
    step_of = {}
    for (g, tid, sidx), xg in recv_of.items():
        snd, rcv, steps = gpus[g][tid]
        st = steps[sidx]
        for k in range(int(st["cnt"])):
            step_of[(xg, item_of(g, st["dstbuf"], int(st["dstoff"]) + k))] = (tid, sidx)
    gossip_first = gossip
    by, pending, cur = {}, [], 0
    want_deps = {}
    for xg, (r, src, dst, items) in enumerate(xfers):
        if r != cur:
            for k, v in pending:
                if not gossip_first or k not in by:
                    by[k] = v
            pending, cur = [], r
        for it in items:
            pending.append(((dst, it), step_of[(xg, it)]))
        want_deps[xg] = {it: by.get((src, it)) for it in items}
    for g, tbs in gpus.items():
        for tid, (snd, rcv, steps) in tbs.items():
            for st in steps:
                if "_x" not in st:
                    continue
                want = {v for it, v in want_deps[st["_x"]].items() if it in st["_items"] and v is not None}
                got = set(st["_deps"])
                if got != want or len(got) != len(st["_deps"]):
                    fail("MSCCL gpu %d tb %d step %s depends on %s, the dataflow says %s" %
                         (g, tid, st["s"], sorted(got), sorted(want)))
                for d in got:
                    if gpus[g][d[0]][2][d[1]].get("hasdep") != "1":
                        fail("MSCCL step %r is depended on without hasdep=1" % (d,))
                ndeps += len(got)
    print("MSCCL: %d gpus, %d threadblocks, %d send/receive steps for %d transfers, %d dependencies: exact" %
          (N, sum(len(t) for t in gpus.values()), nsteps, len(xfers), ndeps))


def main():
    s, N, xfers = load(sys.argv[1])
    deps = deliveries(s, xfers)
    check_msccl(sys.argv[2], s, N, xfers, deps)
    check_goal(sys.argv[3], s, N, xfers, deps)


main()
