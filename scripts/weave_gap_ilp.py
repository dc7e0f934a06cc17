#!/usr/bin/python3
"""The integer program behind weave's halves spread (docs/paper-notes.md).

A gap of g nodes 1..g lies between two full nodes 0 and g+1 of a ring; every
gap node must receive N items. Under the model of Juurlink, Rao, Sibeyn's
Table 1 a round costs t_s plus its largest message, and a round's messages
take arc-disjoint paths (one per arc and direction; wormhole: a message is
delivered at its end only). Over m rounds the program chooses the messages
(binary x; mirror-symmetric, the gap seen the same from either end), their
sizes (c <= L_t) and, for every gap node separately, a flow
of N items from the full nodes through the time-expanded messages (holding
is free): the least sum of L_t whose cut bound admits every node's N. Its
optimum for g = 8, N = 240: m = 2: 480; m = 3: 300 (120, 120, 60), met by the
routing of weave's halves spread; m = 4: 270. (CBC under a time limit may
stop early and PuLP still says "Optimal": give it time; these took seconds.)

Not part of the build or the tests: it needs PuLP and CBC (Debian:
python3-pulp coinor-cbc). Usage: weave_gap_ilp.py g N m [seconds]
"""
import sys

import pulp


def solve(g, n_items, m, seconds=300):
    nodes = range(g + 2)
    gap = range(1, g + 1)
    prob = pulp.LpProblem("gap", pulp.LpMinimize)
    L = [pulp.LpVariable(f"L{t}", 0) for t in range(m)]
    msgs = [(t, j, k) for t in range(m) for j in nodes for k in gap if j != k]
    x = {e: pulp.LpVariable("x_%d_%d_%d" % e, cat="Binary") for e in msgs}
    c = {e: pulp.LpVariable("c_%d_%d_%d" % e, 0) for e in msgs}
    prob += pulp.lpSum(L)
    for e in msgs:
        prob += c[e] <= L[e[0]]
        prob += c[e] <= n_items * x[e]
    for t in range(m):  # arc a: a -> a+1 (right) and a+1 -> a (left)
        for a in range(g + 1):
            prob += pulp.lpSum(x[e] for e in msgs if e[0] == t and e[1] < e[2] and e[1] <= a < e[2]) <= 1
            prob += pulp.lpSum(x[e] for e in msgs if e[0] == t and e[1] > e[2] and e[2] <= a < e[1]) <= 1
    for (t, j, k) in msgs:  # mirror symmetry: a gap looks the same from both ends
        if (t, g + 1 - j, g + 1 - k) in x:
            prob += x[(t, j, k)] == x[(t, g + 1 - j, g + 1 - k)]
    for v in gap:
        f = {e: pulp.LpVariable("f%d_%d_%d_%d" % ((v,) + e), 0) for e in msgs}
        hold = {(i, t): pulp.LpVariable("h%d_%d_%d" % (v, i, t), 0) for i in gap for t in range(m)}
        for e in msgs:
            prob += f[e] <= c[e]
        for i in gap:
            for t in range(m + 1):
                into = pulp.lpSum(f[e] for e in msgs if e[2] == i and e[0] == t - 1)
                into += hold[(i, t - 1)] if t >= 1 else 0
                out = pulp.lpSum(f[e] for e in msgs if e[1] == i and e[0] == t)
                out += hold[(i, t)] if t < m else 0
                if t == m:
                    if i == v:
                        prob += into >= n_items
                else:
                    prob += out <= into
    status = prob.solve(pulp.COIN_CMD(msg=0, timeLimit=seconds))
    used = sorted((e, c[e].value()) for e in msgs if x[e].value() > 0.5 and c[e].value() > 1e-9)
    return pulp.LpStatus[status], [L[t].value() for t in range(m)], used


if __name__ == "__main__":
    g, n_items, m = (int(a) for a in sys.argv[1:4])
    status, sizes, used = solve(g, n_items, m, int(sys.argv[4]) if len(sys.argv) > 4 else 300)
    print(status, "sum", sum(sizes), "rounds", sizes)
    for (t, j, k), size in used:
        print("  round %d: %d -> %d carries %g" % (t, j, k, size))
