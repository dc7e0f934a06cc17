#!/usr/bin/python3
"""The integer program behind TORGOS's last round in three steps (docs/paper-notes.md).

Before TORGOS's last phase-4 round with b = 3 (Juurlink, Rao, Sibeyn 1996
section 5.2) the diagonal points (x0 - x1 = 0 mod 3) hold one class each:
point (c, c) of the 3 x 3 period holds W_c (white pieces of the origins with
x1 = c mod 3) and B_c (black, x0 = c mod 3), D units each; every other node
holds nothing of them. The round ends with every node holding all six
classes. TORGOS does it in two steps of D (4.a, 4.b); with x = 2 in 4.a, in
three steps of D/3, D/3, D.

The program: every class cut into K chunks; in each of R steps every arc of
the 3 x 3 quotient carries a set of chunks its tail holds (one-hop messages,
one per arc and direction, so the steps are contention-free on any torus
whose sides are multiples of 3); a step costs its largest message (the start-
up r comes on top); the schedule is invariant under the shift (1, 1) with
the classes shifted by one and under the transpose with W and B swapped.
Minimises the sum of the steps' largest messages. Results (CBC, seconds):
R = 2: 2D (TORGOS's 4.a, 4.b; also the fluid bound); R = 3: 5D/3 at K = 3
and K = 6 (what x = 2 costs: D/3 + D/3 + D), 7D/4 at K = 4, 12D/7 at K = 7,
and the fluid relaxation (classes divisible without bound, --fluid) 11D/7.

Not part of the build or the tests: it needs PuLP and CBC (Debian:
python3-pulp coinor-cbc). Usage: torgos_finish_ilp.py R K [seconds] [--fluid]
"""
import sys

import pulp


def solve(R, K, seconds=300, fluid=False):
    n = 3
    nodes = [(u, v) for u in range(n) for v in range(n)]
    classes = [(w, c) for w in "WB" for c in range(n)]
    chunks = [(k, j) for k in classes for j in range(K)]
    arcs = [((u, v), ((u + du) % n, (v + dv) % n)) for (u, v) in nodes for du, dv in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    cat = "Continuous" if fluid else "Binary"

    def name(*a):
        return "_".join(str(t) for t in a).translate(str.maketrans("", "", " ',()"))

    prob = pulp.LpProblem("finish", pulp.LpMinimize)
    L = [pulp.LpVariable(f"L{i}", 0) for i in range(R)]
    x = {(i, a, q): pulp.LpVariable("x" + name(i, a, q), 0, 1, cat) for i in range(R) for a in arcs for q in chunks}
    h = {}
    for i in range(R + 1):
        for p in nodes:
            for q in chunks:
                if i == 0:
                    h[i, p, q] = 1 if p[0] == p[1] and q[0][1] == p[0] else 0
                elif i == R:
                    h[i, p, q] = 1
                else:
                    h[i, p, q] = pulp.LpVariable("h" + name(i, p, q), 0, 1, cat)
    prob += pulp.lpSum(L)
    for i in range(R):
        for a in arcs:
            prob += pulp.lpSum(x[i, a, q] for q in chunks) <= L[i]
            for q in chunks:
                prob += x[i, a, q] <= h[i, a[0], q]
        for p in nodes:
            for q in chunks:
                prob += h[i + 1, p, q] <= h[i, p, q] + pulp.lpSum(x[i, a, q] for a in arcs if a[1] == p)

    def shift(p, q):
        return ((p[0] + 1) % n, (p[1] + 1) % n), ((q[0][0], (q[0][1] + 1) % n), q[1])

    def transpose(p, q):
        return (p[1], p[0]), (("B" if q[0][0] == "W" else "W", q[0][1]), q[1])

    for i in range(R):
        for a in arcs:
            for q in chunks:
                for g in (shift, transpose):
                    t0, q2 = g(a[0], q)
                    t1, _ = g(a[1], q)
                    prob += x[i, a, q] == x[i, (t0, t1), q2]
    status = prob.solve(pulp.COIN_CMD(msg=0, timeLimit=seconds))
    return pulp.LpStatus[status], pulp.value(prob.objective) / K, [pulp.value(l) / K for l in L]


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--fluid"]
    R, K = int(args[0]), int(args[1])
    seconds = float(args[2]) if len(args) > 2 else 300
    status, total, steps = solve(R, K, seconds, "--fluid" in sys.argv)
    print(f"R={R} K={K}: {status}, sum of steps {total:.4f} D, steps {[round(s, 4) for s in steps]}")
