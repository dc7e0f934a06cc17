#!/usr/bin/python3
"""Is there a 3-round finish of TORGOS from spacing 9? The question of torgos_finish9_ilp.py, as a SAT problem.

The model is torgos_finish9_ilp.py's (docs/paper-notes.md, Table 2 at 27 x 27): after TORGOS's phase 3
(Juurlink, Rao, Sibeyn 1996 section 5.2) with s = 9, on the 9 x 9 period, point (c, c) holds the classes W_c
and B_c; each round every arc carries at most one message, a message follows a straight path of at most H_i
hops, is delivered at its end, and carries only classes its tail holds; after the last round every node holds
all 18 classes. Whole classes suffice (a schedule of chunks, restricted to one chunk, is one of whole
classes). By default the schedule is taken invariant under the shift (1, 1), classes shifted with it, as in
the integer program; --full drops that symmetry (81 nodes instead of 9 orbits) and adds the counting bound
that a class needs at least ceil(81/5) = 17 holders before the last round and 4 before the second (a node has
4 in-arcs, so a round at most multiplies a class's holders by 5).

The integer program's LP relaxation is weak here (CBC gave no answer in 25 minutes for 4/4/4); the CNF is
small (about 8500 variables for 4/4/4) and CaDiCaL decides the shift-invariant cases (times on this project's
2-core machine): 3/1/1 and 4/2/1 unsatisfiable in 0.3 s, 4/4/4 in 3 s, 5/5/5 in 30 s, 6/6/6 in 6.4 minutes;
as a check, TORGOS's own 4 rounds 3/3/1/1 satisfiable in 0.3 s. Undecided after 40 minutes: 8/8/8 (every
straight path of the period) and 4/4/4 --full. --bend adds the dimension-ordered paths that turn once
(x, then y): 3/3/3 --bend unsatisfiable in 0.8 s, 4/4/4 --bend undecided after 15 minutes. With straight
paths, every round needs one of 4 hops or more, the first and the last one of 5 or more: 8/8/1, 8/1/8 and 1/8/8
unsatisfiable in under 1 s each, 8/8/2 in 21 s, 8/8/3 in 3 minutes, 8/3/8 in 76 s, 3/8/8 in 38 s, 8/8/4 in 23
minutes, 4/8/8 in 26 minutes; 8/4/8 undecided after 90 minutes.

--slope=K puts the classes on the points (c, K c) instead (K prime to 9: TORGOS's phases 1-3 reach that state
as they reach the diagonal, every row and column meeting the points once per 9 nodes; up to the torus's
symmetries K = 2 is the only other case) and takes the schedule invariant under the shift (1, K): 3/3/1/1
satisfiable in 0.1 s; 3/3/3, 4/4/4, 5/5/5 and 6/6/6 unsatisfiable in 0.1 s, 6.6 s, 84 s and 15 minutes,
8/8/1, 8/8/2 and 8/8/3 in 1 s, 18 s and 92 s; 8/8/8 undecided after 21 minutes.

--sizes=C1/C2/... bounds the classes a message of round i carries by C_i, so the sum of the C_i bounds the
finish's transfer in units of D. Four rounds, as TORGOS's phase 4 (8 D: 3/3/1/1 --sizes=1/1/3/3 satisfiable,
1/1/3/2 not, 0.2 s each): 4/4/2/1 --sizes=1/1/2/3 is satisfiable in 3 s, a finish of 7 D (--print gives it;
src/algo/gossip/torgos_finish.c is that schedule, torgos finish=period9). Of the 16 splits of 7 into four
rounds (the first at most 2: a point holds 2 classes), 15, 15 and 12 are unsatisfiable with the path lengths
4/4/1/1, 3/3/2/1 and 3/3/3/1 (at most 15 s each; the rest undecided after 20 s), and with 4/4/2/1 so are 1/2/3/1,
1/3/2/1 and 1/4/1/1 (the rest undecided after 20 s but 1/1/2/3).

--chunks=K cuts every class into K chunks (the caps of --sizes then count chunks). Below 6 D, which a finish of
whole classes needs (docs/paper-notes.md), only chunks could go: in thirds, the only splits of 5 D that the same
count passes, 1/1/2/11 and 1/1/3/10, are unsatisfiable with the path lengths 4/4/2/1, 4/4/2/2 and 4/4/4/1 (5 s to
8 minutes); in sixths (--chunks=6) 28 splits of 5 D pass the count, and with 4/4/2/1 26 are unsatisfiable within 2
minutes each, 2 undecided after 2 minutes.

--state=W:B (lists of offsets D, or DyE, e.g. 0,4:0,0y4) starts from another state: W_c on the points (c + D,
slope c + E) for each offset of the first list, B_c for each of the second (TORGOS's is 0:0). With one class a point there is no
3-round finish with straight paths of up to 4 and 5 hops from 0:d, d = 1 .. 4 (W and B apart; 2 s to 3 minutes
each), nor of 4 hops from 0,2:1,3 and 0,1:2,3 (every class on two points; 56 s, 21 s; 0,4:1,5 and 0,3:1,4
undecided after 150 s). With every class on two points of two classes each (0,d:0,d), 4/4/4 is satisfiable for
d = 1 .. 4 (0.2 to 6 s), 6 D is not (1/2/3, 2/2/2 and 2/1/3 classes a message, for d = 1 and 2 within 2 minutes;
for d = 3 and 4 some undecided after 150 s), and 7 D is: 4/4/4 --state=0,4:0,4 --sizes=2/2/3 (38 s; a replay
independent of the model checks it; torgos finish=pair9's last three rounds, src/algo/gossip/torgos_finish.c,
reached by torgos_gather9_sat.py's gather), though not for d = 1 and 2 (25 s to 3 minutes). With the second point of
W_c in its column and that of B_c in its row (0,0y4:0,4), 4/4/4 is satisfiable (8 s), --sizes=2/2/3 undecided
after 20 minutes (as it is from 0,3:0,3); 0,0y3:0,3 is undecided after 150 s.

Not part of the build or the tests: it needs CaDiCaL (Debian: cadical).
Usage: torgos_finish9_sat.py H1/H2/... [--full] [--bend] [--slope=K] [--sizes=C1/C2/...] [--chunks=K] [--state=W:B]
       [--print]
"""
import itertools
import sys

from cnf_cadical import Cnf

N = 9


def build(hmax, full, bend, slope=1, caps=None, chunks=1, state=(((0, 0),), ((0, 0),))):
    """Nodes are the 81 points of the period (--full) or the 9 orbits of the shift (1, slope): (d, 0) for
    slope 1 (the order of the results above), (0, e) otherwise."""
    R = len(hmax)
    f = Cnf()
    T = f.true
    # a class is (colour, c, chunk): with --chunks=K each class is cut into K chunks (caps count chunks)
    classes = [(w, c, k) for w in "WB" for c in range(N) for k in range(chunks)]
    if full:
        nodes = [(a, b) for a in range(N) for b in range(N)]
    else:
        nodes = [(d, 0) for d in range(N)] if slope == 1 else [(0, e) for e in range(N)]

    def place(u, v):
        """(u, v) as (node, shift of its classes): itself, or its orbit's representative and the shift."""
        if full:
            return (u % N, v % N), 0
        if slope == 1:
            return ((u - v) % N, 0), v % N
        # (u, v) is (0, v - slope u) shifted u times by (1, slope)
        return (0, (v - slope * u) % N), u % N

    H = max(hmax)
    # a path is its tail and its offset (dx, dy); routed x first, then y, as a dimension-ordered wormhole
    # router does; straight ones only unless bend
    paths = [
        (n, dx, dy)
        for n in nodes
        for dx in range(-H, H + 1)
        for dy in range(-H, H + 1)
        if 0 < abs(dx) + abs(dy) <= H and (bend or dx == 0 or dy == 0)
    ]

    def hops(p):
        return abs(p[1]) + abs(p[2])

    def arcs(p):
        (a, b), dx, dy = p
        sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
        return [(place(a + sx * t, b)[0], "x" + str(sx)) for t in range(abs(dx))] + [
            (place(a + dx, b + sy * t)[0], "y" + str(sy)) for t in range(abs(dy))
        ]

    def end(p):
        (a, b), dx, dy = p
        return place(a + dx, b + dy)

    # the points (c + dx, slope c + dy) for (dx, dy) in state[0] hold W_c, in state[1] B_c (TORGOS: (0, 0) for
    # both); under the shift, the orbit of such a point holds the class c less the point's shift (--full: no shift)
    start = set()
    for w, side in zip("WB", state):
        for dx, dy in side:
            for c in range(N):
                n, s = place(c + dx, slope * c + dy)
                start.add((n, w, (c - s) % N))
    use, x, h = {}, {}, {}
    for i in range(R):
        for p in paths:
            if hops(p) <= hmax[i]:
                use[i, p] = f.var()
                for q in classes:
                    x[i, p, q] = f.var()
    for i in range(R + 1):
        for n in nodes:
            for q in classes:
                if i == 0:
                    h[i, n, q] = T if (n, q[0], q[1]) in start else -T
                elif i == R:
                    h[i, n, q] = T
                else:
                    h[i, n, q] = f.var()
    on_arc, into = {}, {}
    for p in paths:
        for a in arcs(p):
            on_arc.setdefault(a, []).append(p)
        n, s = end(p)
        into.setdefault(n, []).append((p, s))
    for i in range(R):
        for ps in on_arc.values():
            for a, b in itertools.combinations([use[i, p] for p in ps if (i, p) in use], 2):
                f.clauses.append([-a, -b])
        for p in paths:
            if (i, p) not in use:
                continue
            if caps:
                f.at_most([x[i, p, q] for q in classes], caps[i])
            for q in classes:
                f.clauses.append([-x[i, p, q], use[i, p]])
                held = h[i, p[0], q]
                if held != T:
                    f.clauses.append([-x[i, p, q]] + ([] if held == -T else [held]))
        for n in nodes:
            for w, c, k in classes:
                after, before = h[i + 1, n, (w, c, k)], h[i, n, (w, c, k)]
                if before == T:
                    continue
                # a message ending shifted by s brings the sender's class c + s as this node's class c
                cl = ([] if after == T else [-after]) + ([] if before == -T else [before])
                cl += [x[i, p, (w, (c + s) % N, k)] for p, s in into[n] if (i, p) in use]
                f.clauses.append(cl)
    if full and R == 3:
        for q in classes:
            f.at_most([-h[1, n, q] for n in nodes], len(nodes) - 4)
            f.at_most([-h[2, n, q] for n in nodes], len(nodes) - 17)
    return f, use, x, paths, classes


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    hmax = [int(t) for t in args[0].split("/")]
    text = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--slope=")), "1")
    if not text.lstrip("-").isdigit():
        sys.exit(f"--slope={text}: K must be an integer prime to 9")
    slope = int(text)
    if slope % 3 == 0:
        sys.exit("--slope=K: K must be prime to 9 (every row and column then meets the points once)")
    caps = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--sizes=")), None)
    if caps is not None:
        if not all(t.isdigit() and int(t) > 0 for t in caps.split("/")) or len(caps.split("/")) != len(hmax):
            sys.exit(f"--sizes={caps}: one positive whole number of classes a message per round")
        caps = [int(t) for t in caps.split("/")]
    text = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--chunks=")), "1")
    if not text.isdigit() or int(text) < 1:
        sys.exit(f"--chunks={text}: K must be a positive integer")
    chunks = int(text)
    text = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--state=")), "0:0")
    try:
        # D is DyE with E = 0
        offsets = [[(t if "y" in t else t + "y0").split("y") for t in side.split(",")] for side in text.split(":")]
        state = tuple(tuple(sorted({(int(d), int(e)) for d, e in side})) for side in offsets)
        if len(state) != 2 or not all(0 <= d < N for side in state for o in side for d in o):
            raise ValueError
    except ValueError:
        sys.exit(f"--state={text}: two lists of offsets D or DyE (0 .. 8), for W and for B, such as 0,4:0,0y4")
    f, use, x, paths, classes = build(hmax, "--full" in sys.argv, "--bend" in sys.argv, slope % N, caps, chunks, state)
    status, model = f.solve()
    shape = (" (no symmetry)" if "--full" in sys.argv else "") + (" (bent paths)" if "--bend" in sys.argv else "")
    shape += f" (points (c, {slope % N}c))" if slope % N != 1 else ""
    shape += f" (W_c at (c, c) + {state[0]}, B_c at + {state[1]})" if state != (((0, 0),), ((0, 0),)) else ""
    unit = "classes" if chunks == 1 else f"chunks of 1/{chunks} class"
    shape += f" (at most {'/'.join(map(str, caps))} {unit} a message)" if caps else ""
    print(f"path lengths {args[0]}{shape}: {status}")
    if "--print" in sys.argv and status == "SATISFIABLE":
        for i in range(len(hmax)):
            for p in paths:
                if (i, p) in use and use[i, p] in model:
                    qs = "".join(
                        f"{w}{c}" + (f".{k}" if chunks > 1 else "") for w, c, k in classes if x[i, p, (w, c, k)] in model
                    )
                    if qs:
                        print(f"round {i + 1}: from {p[0]} by ({p[1]}, {p[2]}): {qs}")


if __name__ == "__main__":
    main()
