#!/usr/bin/python3
"""Two rounds that gather a class on two points of every 9 x 9 period: the first half of a seven-round gossip.

The question (docs/paper-notes.md, "Seven rounds"): a 3-round finish of 7 D exists from the state where every
class sits on the two points (c, c) and (c + d, c) of each 9 x 9 period (torgos_finish9_sat.py --state=0,d:0,d,
d = 4). Reaching that state on the 27 x 27 torus in 4 rounds: let the two colours of a class come from the same
origins, the residues mod 9 of a set T_c, so a class is all the data (1 unit a node) of the 81 nodes of T_c + 9Z^2.
If after two rounds each point holds one copy of every residue of T_c, two rounds of circulation among the copies
of a point at spacing 9 finish the gather: the points (c, c) + 9Z^2 along rows, then columns; the points
(c + d, c) + 9Z^2 along columns, then rows. In each of those rounds every row arc, or every column arc, carries one
message (the 9 classes' points meet every row and column once per 9 nodes), so the two families do not meet.

This script searches the first two rounds on the 9 x 9 period. The schedule is the shift (c, c) of class 0's, so
T_c = T_0 + (c, c), and T_0 must take one residue of each diagonal x - y = k (mod 9) (then the T_c tile the
period); class 0's messages in a round must use arcs of distinct direction and x - y (mod 9) of their tail (the
shifted copies then never share an arc). A round-1 message carries its tail's own unit; a round-2 message at most
--cap units its tail holds. Paths are straight, of at most H_i hops in round i (--bend: also one turn, either
order). The solver chooses T_0 (or --set=x,y;x,y;... fixes it).

Results (on this project's 2-core machine): 2/3 --d=4 --cap=2 is satisfiable in under a second (--c prints it
as src/algo/gossip/torgos_pair.c's tables: torgos finish=pair9); --cap=1 is not, even with paths of 8 hops (48 s); nor are
2/2 and 3/2 at --cap=2 (2/2 --bend is; each under a second). --print lists the messages, --c the C tables; both after a replay on the
27 x 27 torus independent of the model (every lifted arc used once a round, every unit sent held by its tail,
every point holding every residue of its class after round 2).

Not part of the build or the tests: it needs CaDiCaL (Debian: cadical).
Usage: torgos_gather9_sat.py H1/H2 [--d=D (4)] [--cap=C (5)] [--bend] [--set=x,y;x,y;...] [--print] [--c]
"""
import sys

from cnf_cadical import Cnf

N = 9


def wrap(a, b):
    return (a % N, b % N)


def path_arcs(p):
    """Arcs of path p = (tail, legs): each leg (axis, signed length); an arc is (tail node, axis, sign)."""
    (a, b), legs = p
    out = []
    for axis, ln in legs:
        s = 1 if ln > 0 else -1
        for _ in range(abs(ln)):
            out.append((wrap(a, b), axis, s))
            if axis == 0:
                a += s
            else:
                b += s
    return out, wrap(a, b)


def key(arc):
    """Arcs of one key are shifts of each other by (c, c): class 0's messages use each key once a round."""
    (a, b), axis, s = arc
    return (axis, s, (a - b) % N)


def all_paths(hmax, bend):
    legs = []
    for ln in range(1, hmax + 1):
        for s in (1, -1):
            legs += [((0, s * ln),), ((1, s * ln),)]
    if bend:
        for l0 in range(1, hmax):
            for l1 in range(1, hmax - l0 + 1):
                for s0 in (1, -1):
                    for s1 in (1, -1):
                        legs += [((0, s0 * l0), (1, s1 * l1)), ((1, s1 * l1), (0, s0 * l0))]
    return [((a, b), lg) for a in range(N) for b in range(N) for lg in legs]


def build(hmax, d, cap, bend, fixed):
    f = Cnf()
    p0, p1 = (0, 0), (d % N, 0)
    nodes = [(a, b) for a in range(N) for b in range(N)]
    sel = {o: f.var() for o in nodes}
    for k in range(N):
        diag = [sel[o] for o in nodes if (o[0] - o[1]) % N == k]
        f.clauses.append(diag)
        f.at_most(diag, 1)
    if fixed:
        for o in nodes:
            f.clauses.append([sel[o]] if o in fixed else [-sel[o]])
    rounds = []
    for i in range(2):
        msgs = {}
        for p in all_paths(hmax[i], bend):
            arcs, end = path_arcs(p)
            if len({key(a) for a in arcs}) < len(arcs):
                continue  # the path would meet its own shifted copy
            msgs[p] = (f.var(), arcs, end)
        bykey = {}
        for p, (u, arcs, _) in msgs.items():
            for a in arcs:
                bykey.setdefault(key(a), []).append(u)
        for us in bykey.values():
            f.at_most(us, 1)
        rounds.append(msgs)
    # after round 1: node v holds origin o if o == v or a round-1 message from o ends at v
    h1 = {}
    into1 = {}
    for p, (u, _, end) in rounds[0].items():
        into1.setdefault((end, p[0]), []).append(u)
    for (v, o), us in into1.items():
        if v != o:
            h1[v, o] = f.var()
            f.clauses.append([-h1[v, o]] + us)

    def held1(v, o):
        return True if v == o else h1.get((v, o))

    # round 2: a message into a point carries units its tail holds, at most cap of them
    carry = {}
    for p, (u, _, end) in rounds[1].items():
        if end not in (p0, p1):
            f.clauses.append([-u])  # only the points' gather matters; other round-2 traffic is free to be idle
            continue
        lits = []
        for o in nodes:
            hv = held1(p[0], o)
            if hv is None:
                continue
            x = f.var()
            carry[p, o] = x
            f.clauses.append([-x, u])
            if hv is not True:
                f.clauses.append([-x, hv])
            lits.append(x)
        f.at_most(lits, cap)
    for pt in (p0, p1):
        for o in nodes:
            srcs = [carry[p, o] for p in rounds[1] if rounds[1][p][2] == pt and (p, o) in carry]
            hv = held1(pt, o)
            if hv is True:
                continue
            f.clauses.append([-sel[o]] + ([hv] if hv else []) + srcs)
    return f, sel, rounds, carry


class ReplayError(Exception):
    pass


def check(ok, msg):
    if not ok:
        raise ReplayError(msg)


def replay(d, T0, r1, r2):
    """Independent check on the 27 x 27 torus: lift the two rounds to every class and every period; every arc
    is used once a round, every unit sent is held by its tail, and after round 2 each point holds one copy of
    every residue of its class (the circulation of rounds 3 and 4 then completes every residue it holds)."""
    n = 27
    hold = {(x, y): {(x, y)} for x in range(n) for y in range(n)}
    for rnd in (r1, r2):
        used, new = set(), {}
        for c in range(N):
            for i in range(0, n, N):
                for j in range(0, n, N):
                    for (a, b), legs, units in rnd:
                        x, y = a + c + i, b + c + j
                        tail = (x % n, y % n)
                        for axis, ln in legs:
                            s = 1 if ln > 0 else -1
                            for _ in range(abs(ln)):
                                arc = ((x % n, y % n), axis, s)
                                check(arc not in used, f"arc {arc} used twice")
                                used.add(arc)
                                x, y = (x + s, y) if axis == 0 else (x, y + s)
                        # units are offsets of class-0 origins from the class-0 tail
                        payload = set()
                        for ua, ub in units:
                            o = ((a + ua + c + i) % n, (b + ub + c + j) % n)
                            check(o in hold[tail], f"{tail} sends {o} it lacks")
                            payload.add(o)
                        new.setdefault((x % n, y % n), set()).update(payload)
        for v, s in new.items():
            hold[v] |= s
    # the class of origin o: o - (c, c) is in T0 + 9Z^2
    cls = {}
    for x in range(n):
        for y in range(n):
            cs = [c for c in range(N) if ((x - c) % N, (y - c) % N) in T0]
            check(len(cs) == 1, f"origin {(x, y)} is in {len(cs)} classes")
            cls[x, y] = cs[0]
    for c in range(N):
        for px in (c, c + d):
            for i in range(0, n, N):
                for j in range(0, n, N):
                    pt = ((px + i) % n, (c + j) % n)
                    got = {o for o in hold[pt] if cls[o] == c}
                    # residues held after two rounds: the circulation completes every residue it holds once
                    res = {(o[0] % N, o[1] % N) for o in got}
                    want = {((t[0] + c) % N, (t[1] + c) % N) for t in T0}
                    check(res >= want, f"point {pt} of class {c} lacks residues {want - res}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1 or len(args[0].split("/")) != 2 or not all(t.isdigit() and int(t) > 0 for t in args[0].split("/")):
        sys.exit(__doc__.strip().splitlines()[-1])
    hmax = [int(t) for t in args[0].split("/")]
    if "--c" in sys.argv and "--bend" in sys.argv:
        sys.exit("--c prints straight paths only (torgos_pair.c's tables): drop --bend")
    opt = {a.split("=", 1)[0]: a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--") and "=" in a}
    d = int(opt.get("--d", "4"))
    cap = int(opt.get("--cap", "5"))
    fixed = None
    if "--set" in opt:
        fixed = {tuple(int(t) % N for t in s.split(",")) for s in opt["--set"].split(";")}
    f, sel, rounds, carry = build(hmax, d, cap, "--bend" in sys.argv, fixed)
    status, model = f.solve()
    print(f"d = {d}, path lengths {args[0]}{' (bent)' if '--bend' in sys.argv else ''}, cap {cap}: {status}")
    if status != "SATISFIABLE":
        return
    T0 = {o for o, v in sel.items() if v in model}
    print("T_0:", sorted(T0))
    r1 = [(p[0], p[1]) for p, (u, _, _) in rounds[0].items() if u in model]
    r2 = []
    for p, (u, _, _) in rounds[1].items():
        if u in model:
            us = [o for o in ((a, b) for a in range(N) for b in range(N)) if carry.get((p, o)) in model]
            if us:
                r2.append((p[0], p[1], us))
    # round-1 messages whose unit nobody uses are dropped (the replay checks what is left)
    r1o = [(t, lg, [(0, 0)]) for t, lg in r1]
    # a unit's offset from its round-2 tail is the one its round-1 path covered
    r2fix, needed = [], set()
    for t, lg, us in r2:
        offs = []
        for o in us:
            if o == t:
                offs.append((0, 0))
                continue
            tt, l, _ = next(m for m in r1o if m[0] == o and path_arcs((m[0], m[1]))[1] == t)
            needed.add((tt, l))
            offs.append((-sum(ln for ax, ln in l if ax == 0), -sum(ln for ax, ln in l if ax == 1)))
        r2fix.append((t, lg, offs))
    pts = {(0, 0), (d % N, 0)}
    r1o = [m for m in r1o if (m[0], m[1]) in needed or (path_arcs((m[0], m[1]))[1] in pts and m[0] in T0)]
    try:
        replay(d, T0, r1o, r2fix)
    except ReplayError as e:
        sys.exit(f"replay on 27 x 27: FAILED: {e}")
    print("replay on 27 x 27: ok")
    if "--print" in sys.argv:
        for i, rnd in enumerate((r1o, r2fix)):
            for t, lg, us in rnd:
                print(f"round {i + 1}: from {t} legs {lg}: units at offsets {us}")
    if "--c" in sys.argv:
        # torgos_pair.c's tables: {x0, x1, dim, hops, n, {offsets}} (straight paths)
        x0 = [next(o[0] for o in T0 if (o[0] - o[1]) % N == k) for k in range(N)]
        print("t0_x0:", ", ".join(map(str, x0)))
        for i, rnd in enumerate((r1o, r2fix)):
            cells = []
            for t, lg, us in sorted(rnd):
                (ax, ln), = lg
                offs = ", ".join(f"{{{a}, {b}}}" for a, b in us)
                cells.append(f"{{{t[0]}, {t[1]}, {ax}, {ln}, {len(us)}, {{{offs}}}}}")
            print(f"gather{i + 1}:", ", ".join(cells))


if __name__ == "__main__":
    main()
