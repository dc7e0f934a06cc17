#!/usr/bin/python3
"""Is there a 3-round finish of TORGOS from spacing 9? (docs/paper-notes.md, Table 2 at 27 x 27)

After TORGOS's phase 3 (Juurlink, Rao, Sibeyn 1996 section 5.2) with s = 9 the diagonal points
(x0 - x1 = 0 mod 9) hold one class each: on the 9 x 9 period, point (c, c) holds W_c (white pieces of
the origins with x1 = c mod 9) and B_c (black, x0 = c mod 9). TORGOS ends in 4 rounds (b = 3, 3). A
class's holders grow at most 5-fold a round (4 in-arcs), from 1 to 81 on the period, so 3 rounds is
the least; this program asks whether 3 exist under the strict wormhole model: in each round every
arc carries at most one message, a message follows a straight path of at most H_i hops and is
delivered at its end, and its tail holds what it carries. The schedule is taken invariant under the
shift (1, 1) with the classes shifted by one (node orbit d = x0 - x1 mod 9, representative (d, 0)),
every class whole (a schedule of chunks, restricted to one chunk, is one of whole classes, so
chunks cannot make an infeasible case feasible). The objective is the sum of the rounds' largest
messages, or 0 with --feasible.

Results (CBC): 3 rounds with path lengths 4/2/1 or 3/1/1 by round: infeasible, proved in seconds;
4/4/4: no answer in 25 minutes (--feasible; torgos_finish9_sat.py proves it infeasible in seconds).
As a check, 4 rounds of 3/3/1/1 (TORGOS's own path lengths): optimal at 8 D, TORGOS's D + D + 3D + 3D. The fluid relaxation of 3 rounds (classes
divisible, an arc's messages summing to at most the round's largest) needs 6.26 D.

Not part of the build or the tests: it needs PuLP and CBC (Debian: python3-pulp coinor-cbc).
Usage: torgos_finish9_ilp.py H1/H2/H3 [seconds] [--feasible]
"""
import sys

import pulp

N = 9
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def orbit(u, v):
    """(u, v) = (d, 0) + (s, s): its orbit d and the shift s of its classes."""
    return (u - v) % N, v % N


def solve(hmax, seconds=300, feasible=False):
    R = len(hmax)
    classes = [(w, c) for w in "WB" for c in range(N)]
    paths = [(d, k, l) for d in range(N) for k in range(4) for l in range(1, max(hmax) + 1)]

    def arcs(p):
        d, k, l = p
        du, dv = DIRS[k]
        return [(orbit(d + du * t, dv * t)[0], k) for t in range(l)]

    def end(p):
        d, k, l = p
        du, dv = DIRS[k]
        return orbit(d + du * l, dv * l)

    prob = pulp.LpProblem("finish9", pulp.LpMinimize)
    L = [pulp.LpVariable(f"L{i}", 0) for i in range(R)]
    use = {(i, p): pulp.LpVariable("u_%d_%d_%d_%d" % ((i,) + p), cat="Binary") for i in range(R) for p in paths}
    x = {
        (i, p, q): pulp.LpVariable("x_%d_%d_%d_%d_%s%d" % ((i,) + p + q), cat="Binary")
        for i in range(R)
        for p in paths
        for q in classes
    }
    h = {}
    for i in range(R + 1):
        for d in range(N):
            for q in classes:
                if i == 0:
                    h[i, d, q] = 1 if d == 0 and q[1] == 0 else 0
                elif i == R:
                    h[i, d, q] = 1
                else:
                    h[i, d, q] = pulp.LpVariable("h_%d_%d_%s%d" % ((i, d) + q), cat="Binary")
    prob += 0 * L[0] if feasible else pulp.lpSum(L)
    on_arc, into = {}, {}
    for p in paths:
        for a in arcs(p):
            on_arc.setdefault(a, []).append(p)
        d, s = end(p)
        into.setdefault(d, []).append((p, s))
    for i in range(R):
        for p in paths:
            if p[2] > hmax[i]:
                prob += use[i, p] == 0
        for ps in on_arc.values():
            prob += pulp.lpSum(use[i, p] for p in ps) <= 1
        for p in paths:
            prob += pulp.lpSum(x[i, p, q] for q in classes) <= L[i]
            for q in classes:
                prob += x[i, p, q] <= use[i, p]
                prob += x[i, p, q] <= h[i, p[0], q]
        for d in range(N):
            for w, c in classes:
                # a message ending shifted by s brings the sender's class c + s as this orbit's class c
                got = pulp.lpSum(x[i, p, (w, (c + s) % N)] for p, s in into[d])
                prob += h[i + 1, d, (w, c)] <= h[i, d, (w, c)] + got
    status = prob.solve(pulp.COIN_CMD(msg=0, timeLimit=seconds))
    return pulp.LpStatus[status], None if feasible else pulp.value(prob.objective)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--feasible"]
    hmax = [int(t) for t in args[0].split("/")]
    seconds = float(args[1]) if len(args) > 1 else 300
    status, total = solve(hmax, seconds, "--feasible" in sys.argv)
    print(f"path lengths {args[0]}: {status}" + (f", sum of the rounds' largest messages {total} D" if total else ""))
