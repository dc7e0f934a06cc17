#!/usr/bin/python3
"""A lower bound for allgather on the SMPI Paragon platform that holds for
every schedule whose messages carry whole blocks: nodes in any roles,
receiving any number of messages at once, on any routes (docs/allgather.md,
"Where we still lose"); with --split, for every schedule at all, blocks cut
anywhere, at a looser count.

SMPI charges a rank 250 us of CPU before each of its messages leaves, one
after the other; a message of s blocks then takes at least T(s) (one free
hop at SimGrid's bandwidth factor for its size, or for a larger message of
up to N blocks if that is faster: smpi_bands.unit_times). A message may
carry only what its sender held at its call. A schedule ends by D when
every node holds all N - 1 other pieces by D.

The program is a flow of N units (the nodes) through states (time bin t,
pieces received r), bins of delta us. A node's path:
  - waits a bin: (t, r) -> (t + 1, r);
  - credits a received message of s pieces: (t, r) -> (t, min(r + s, N - 1)),
    taking one message of size s from the pool of those arrived by bin t;
  - calls a send of s <= r + 1 pieces: (t, r) -> (t + G, r), G = 250 / delta,
    putting one message of size s into the pool at bin
    floor((t delta + 250 + T(s)) / delta), if it arrives by D;
  - ends at (H, N - 1), H = floor(D / delta), or at (H, r) paying N - 1 - r.
The pool of size s is an inventory: a message is credited at most once, at or
after its arrival bin. The program minimises what the nodes pay (the
shortfall).

Every schedule that ends by D is such a flow with shortfall 0: a node's k-th
call at time c goes to bin floor(c / delta) (the next call, 250 us later or
more, is at bin floor(c / delta) + G or later), a message it receives by its
k-th call is credited at that call's bin (its arrival bin, from the earliest
arrival, is no later), the rest at H; counting pieces (never duplicates,
never named) only loosens it. So a positive shortfall proves that no
schedule ends by D. `--pieces` loosens it further (a message's pieces may
be credited one by one to different nodes) for a smaller program.

Blocks cut anywhere (`--split Q`): the program counts units of blk / Q
bytes; a node starts with Q, needs (N - 1) Q, sends up to what it holds
plus its own Q, and a message of b bytes counts ceil(b Q / blk) units, so a
message of m units takes at least the least time of more than (m - 1) blk /
Q bytes. Holdings and messages rounded up only help the schedule, so this
bounds every schedule, at the price of up to one unit too many a message:
with Q = 1 a message of one byte counts a whole block.

The verdict does not rest on the solver's tolerances: certify() recomputes
a lower bound on the optimum from the solver's dual values by weak duality
(a dual infeasibility left by the solver is charged at the most an arc can
carry), and only a positive certified bound excludes D.

Results (HiGHS interior point, one thread; 64 nodes):
  1 KiB blocks, pieces one by one: bins of 10 us: shortfall 54.6 at 1870 us
  (23 s), 26.6 at 1875, 0 at 1880; bins of 5 us: 31.0 at 1887.5, 0 at 1895;
  bins of 2.5 us: 33.4 at 1893.75, 22.0 at 1895 (316 s), 0 at 1900 (508 s).
  So no allgather on 64 ranks of this platform that moves its 1 KiB blocks
  whole ends by 1.895 ms. 256 B blocks, pieces one by one, bins of 2.5 us:
  5.66 at 1600 us (297 s), 0 at 1610 and 1620 (recursive doubling ends at
  1619.7 on free hops); bins of 10 us, and of 5 us with whole messages: 0
  at 1600. So none ends by 1.600 ms there either. The bounds certified from
  the duals equal the optima to four decimals (22.0402 at 1895, 5.6601 at
  1600 with 256 B). Blocks cut anywhere, 1 KiB, bins of 10 us, pieces one
  by one: 0 at 1870 with --split 1 (41 s) and --split 2 (324 s), so for
  those schedules 1.87 ms is not excluded; --split 2: 34.04 at 1850 (1744
  s), so no allgather of 1 KiB blocks, whatever it cuts, ends by 1.850 ms;
  0 at 1860, and at 1870 in bins of 5 us (1449 s).
  Larger blocks (issue 15's 1.3 of `meshgossip bound`, docs/models.md):
  4 KiB, whole blocks, bins of 10 us: 8.06 at 2335.64 us, 0 at 2340.09;
  cut anywhere (--split 2), bins of 25 us: 121.47 at 2218 (42 s), 25.62
  at 2240.75 (50 s), 0 at 2252.12. 16 KiB, whole
  blocks: 73.72 at 3230 in bins of 10 us (39 s), 28.08 at 3230 and 3234 in
  bins of 25 us (7 s), 0 at 3360.38 in bins of 10 us and at 3400 in bins
  of 25 us; cut anywhere, bins of 25 us, --split 2: 0 at 3230.
  Cut anywhere, --split 4, bins of 25 us: 710.55 at 2900 (458 s), 0 at
  3230 (593 s). 32 KiB: 0 at 5073. 81 nodes, whole blocks: 4 KiB, bins
  of 10 us, 6.42 at 2533.14, 0 at 2535.85 and 2647; 16 KiB, bins of 25
  us, 10.21 at 3540.18, 0 at 3547.05 and 3808.
CTest allgather_flow_lp runs the 1870 us case and 1996 us (where a real
schedule ends), 16 KiB at 3234 us in bins of 25 us, two nodes by hand
(whole and halved blocks), and skips without SciPy (Debian: python3-scipy).
Usage: allgather_flow_lp.py D | --bisect LO HI  [--delta US] [--blk BYTES]
                            [--nodes N] [--pieces] [--split Q]
"""
import argparse
import math
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from smpi_bands import OVERHEAD, unit_times


def program(D, delta, blk, nodes, pieces, split=0):
    """The flow program as (A_eq, b_eq, A_ub, b_ub, cost, most per arc),
    counted in units: blocks, or with split = Q, blk / Q bytes."""
    G = int(round(OVERHEAD / delta))
    if abs(G * delta - OVERHEAD) > 1e-9:
        raise ValueError('delta must divide 250')
    if split < 0:
        raise ValueError('split must be 0 (whole blocks) or a number of units a block')
    Q = max(split, 1)
    H = int(math.floor(D / delta + 1e-9))
    need = (nodes - 1) * Q
    T = unit_times(blk, need, split, nodes)
    R = need + 1
    nstate = (H + 1) * R
    sizes = 1 if pieces else need

    def state(t, r):
        return t * R + r

    def pool(s, t):
        return nstate + (s - 1) * (H + 1) + t

    ri, ci, va, cost, top = [], [], [], [], []
    # Every feasible flow is below these (certify() uses them): an arc of a
    # node's path carries at most all the nodes (the states form a DAG with
    # one source of N units), and a pool holds at most every piece that
    # every call could put in it.
    calls = H // G + 1
    pool_top = float(nodes * calls * need)

    def arc(entries, c=0.0, most=float(nodes)):
        j = len(cost)
        for r_, v in entries:
            ri.append(r_)
            ci.append(j)
            va.append(v)
        cost.append(c)
        top.append(most)

    for t in range(H + 1):
        for r in range(R):
            if t < H:
                arc([(state(t, r), 1), (state(t + 1, r), -1)])
            if r < need:
                for s in range(1, sizes + 1):
                    arc([(state(t, r), 1), (state(t, min(r + s, need)), -1), (pool(s, t), 1)])
            for s in range(1, min(r + Q, need) + 1):
                x = t * delta + OVERHEAD + T[s]
                if x <= D + 1e-9:
                    land = int(math.floor(x / delta + 1e-9))
                    put = [(pool(s, land), -1)] if not pieces else [(pool(1, land), -s)]
                    arc([(state(t, r), 1), (state(min(t + G, H), r), -1)] + put)
    for r in range(need):
        arc([(state(H, r), 1), (state(H, need), -1)], (need - r) / Q)
    for s in range(1, sizes + 1):  # what stays in the pool carries to the next bin
        for t in range(H):
            arc([(pool(s, t), 1), (pool(s, t + 1), -1)], most=pool_top)
    A = sp.csr_matrix((va, (ri, ci)), shape=(nstate + sizes * (H + 1), len(cost)))
    b = np.zeros(nstate)
    b[state(0, 0)] = nodes
    b[state(H, need)] = -nodes
    return A[:nstate], b, A[nstate:], np.zeros(A.shape[0] - nstate), np.array(cost), np.array(top)


def certify(Aeq, beq, Aub, bub, c, top, res):
    """A lower bound on the program's optimum from the solver's duals alone,
    whatever its tolerances: weak duality. For y free (the equalities),
    z <= 0 (the inequalities) and every feasible x (0 <= x <= top),
    c x = y beq + z Aub x + r x >= y beq + z bub + sum min(r, 0) top, with
    r = c - Aeq' y - Aub' z. The solver's duals make that nearly its
    optimum; a dual infeasibility it leaves is charged at the arc's most."""
    y = res.eqlin.marginals
    z = np.minimum(res.ineqlin.marginals, 0.0)
    r = c - Aeq.T @ y - Aub.T @ z
    return float(beq @ y + bub @ z + np.minimum(r, 0.0) @ top)


def shortfall(D, delta, blk, nodes, pieces, split=0):
    Aeq, beq, Aub, bub, c, top = program(D, delta, blk, nodes, pieces, split)
    t0 = time.time()
    res = linprog(c, A_ub=Aub, b_ub=bub, A_eq=Aeq, b_eq=beq, bounds=(0, None),
                  method='highs-ipm')
    if res.status != 0:
        raise RuntimeError(f'HiGHS: {res.message}')
    cert = certify(Aeq, beq, Aub, bub, c, top, res)
    print(f'D = {D:g} us, delta {delta:g}, {blk} B blocks, {nodes} nodes'
          f'{", pieces one by one" if pieces else ""}'
          f'{f", blocks cut anywhere (units of 1/{split})" if split else ""}: {c.size} arcs, shortfall '
          f'{max(res.fun, 0.0):.4f}, certified >= {cert:.4f} ({time.time() - t0:.0f} s)',
          flush=True)
    return cert


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('D', nargs='?', type=float, help='deadline in us')
    ap.add_argument('--bisect', nargs=2, type=float, metavar=('LO', 'HI'))
    ap.add_argument('--delta', type=float, default=5.0)
    ap.add_argument('--blk', type=int, default=1024)
    ap.add_argument('--nodes', type=int, default=64)
    ap.add_argument('--pieces', action='store_true')
    ap.add_argument('--split', type=int, default=0, metavar='Q')
    a = ap.parse_args()
    if a.delta <= 0 or a.blk <= 0 or a.nodes < 2 or (a.D is None) == (a.bisect is None):
        ap.error('give D or --bisect LO HI, a positive delta and blk, and nodes >= 2')

    def run(D):
        try:
            return shortfall(D, a.delta, a.blk, a.nodes, a.pieces, a.split)
        except ValueError as e:  # program()'s own checks of the bin width and split
            ap.error(str(e))

    if a.D is not None:
        f = run(a.D)
        print('no schedule ends by D' if f > 1e-6 else 'the program does not exclude D')
        return
    lo, hi = a.bisect
    if run(lo) <= 1e-6:
        sys.exit(f'{lo:g} is not excluded: nothing to bisect')
    if run(hi) > 1e-6:
        sys.exit(f'{hi:g} is excluded too: raise HI')
    while hi - lo > a.delta / 2:
        mid = (lo + hi) / 2
        if run(mid) > 1e-6:
            lo = mid
        else:
            hi = mid
    print(f'no schedule ends by {lo:g} us; the program allows {hi:g}')


if __name__ == '__main__':
    main()
