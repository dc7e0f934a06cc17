#!/usr/bin/python3
"""Allgather on 64 ranks of the SMPI Paragon platform: can nodes in different
roles beat every node doing the same? (docs/allgather.md, "Where we still lose").

SMPI charges a rank 250 us of CPU before each message leaves, one after the
other, and a message of s blocks then takes T(s) on a free hop: SimGrid's
bandwidth factors by size (bench/paragon), padded to the cheapest size at or
above s. A rank's k-th message is called at c_k >= c_(k-1) + 250 and may carry
at most the pieces the rank holds at its call: its own, and those of every
message that arrived by then. The program counts pieces, not which ones
(a relaxation: a received piece is never a duplicate), and ignores routes
and shared links (one free hop each): what it cannot do, no schedule does
within its classes.

Nodes fall into classes of given sizes; the nodes of a class act alike. Each
class-c node sends up to K messages; a class-d node receives a[c,k,d] of the
k-th messages of class c (n_c = sum_d n_d a[c,k,d]; at most four k-th
messages into a node, one per in-link); each node needs 63
pieces by D. Minimise D. Warm start: every class as the best uniform schedule
(a depth-first search over sizes and call times, `uniform`).

Results (CBC, one thread, 400 s each): 1 KiB blocks, K = 7: uniform 1995.7
us (sizes 1, 2, 4, 8, 8, 24, 16); classes 8 + 56, 16 + 48 and 16 + 16 + 32:
the same optimum, proven (9 to 21 s); 32 + 32: none better found, not proven
(stopped on the time limit). 256 B blocks, K = 6 (a seventh send would leave
at 1.75 ms): uniform 1619.7 us (1, 2, .., 32); 8 + 56, 16 + 48, 16 + 16 + 32:
the same, proven; 32 + 32 none better, not proven. 1 KiB blocks, K = 6 (no
seventh overhead): uniform 2014.5 us (1, 2, .., 32); 16 + 48 the same,
proven (10 s); 32 + 32 none better in 900 s, not proven. PuLP may say "Optimal"
when a time limit ended the run: the script prints CBC's own word and the
time.

Not part of the build or the tests: it needs PuLP and CBC (Debian:
python3-pulp coinor-cbc). Usage: allgather_classes_ilp.py SIZES K [seconds]
  SIZES: class sizes summing to 64, e.g. 16,48; environment BLK=bytes
  per block (default 1024)
"""
import os
import sys
import time

import pulp

from smpi_bands import OVERHEAD, times

PIECES = 63


def uniform(K, T):
    """Best schedule with every node alike: (D, sizes, calls)."""
    best = [float('inf'), None, None]

    def rec(calls, sizes, arr):
        if sum(sizes) >= PIECES:
            if max(arr) < best[0]:
                best[:] = [max(arr), list(sizes), list(calls)]
            return
        if len(sizes) == K:
            return
        lo = calls[-1] + OVERHEAD if calls else 0.0
        for c in sorted(set([lo] + [a for a in arr if a > lo])):
            if c + OVERHEAD >= best[0]:
                break
            held = 1 + sum(s for s, a in zip(sizes, arr) if a <= c)
            for s in range(1, min(held, PIECES - sum(sizes)) + 1):
                a = c + OVERHEAD + T[s]
                if a < best[0]:
                    rec(calls + [c], sizes + [s], arr + [a])

    rec([], [], [])
    return best


def solve(mult, K, T, seconds):
    C = len(mult)
    S = range(1, PIECES + 1)
    M = 4000.0
    ks = range(1, K + 1)
    P = pulp.LpProblem('classes', pulp.LpMinimize)
    D = pulp.LpVariable('D', 0)
    P += D
    B = pulp.LpVariable
    x = {(c, k): B(f'x{c}_{k}', cat='Binary') for c in range(C) for k in ks}
    t = {(c, k): B(f't{c}_{k}', 0, M) for c in range(C) for k in ks}
    b = {(c, k, s): B(f'b{c}_{k}_{s}', cat='Binary') for c in range(C) for k in ks for s in S}
    a = {(c, k, d): B(f'a{c}_{k}_{d}', 0, 4, cat='Integer') for c in range(C) for k in ks for d in range(C)}
    z = {(c, k, d, s): B(f'z{c}_{k}_{d}_{s}', 0, 4, cat='Integer')
         for c in range(C) for k in ks for d in range(C) for s in S}
    u = {(c, k, d, j): B(f'u{c}_{k}_{d}_{j}', cat='Binary') for c in range(C) for k in ks for d in range(C) for j in ks}
    w = {(c, k, d, j): B(f'w{c}_{k}_{d}_{j}', 0) for c in range(C) for k in ks for d in range(C) for j in ks}
    size = {(c, k): pulp.lpSum(s * b[c, k, s] for s in S) for c in range(C) for k in ks}
    wire = {(c, k): pulp.lpSum(T[s] * b[c, k, s] for s in S) for c in range(C) for k in ks}
    got = {(c, k, d): pulp.lpSum(s * z[c, k, d, s] for s in S) for c in range(C) for k in ks for d in range(C)}
    for c in range(C):
        for k in ks:
            P += pulp.lpSum(b[c, k, s] for s in S) == x[c, k]
            if k > 1:
                P += t[c, k] >= t[c, k - 1] + OVERHEAD
                P += x[c, k] <= x[c, k - 1]
            P += t[c, k] + OVERHEAD + wire[c, k] <= D + M * (1 - x[c, k])
            P += mult[c] * x[c, k] == pulp.lpSum(mult[d] * a[c, k, d] for d in range(C))
            for d in range(C):
                P += pulp.lpSum(z[c, k, d, s] for s in S) == a[c, k, d]
                for s in S:
                    P += z[c, k, d, s] <= 4 * b[c, k, s]
                for j in ks:  # class (c, k)'s messages are in before class d's call j
                    P += t[d, j] >= t[c, k] + OVERHEAD + wire[c, k] - M * (1 - u[c, k, d, j])
                    P += w[c, k, d, j] <= got[c, k, d]
                    P += w[c, k, d, j] <= 4 * PIECES * u[c, k, d, j]
        if mult[c] == 1:
            for k in ks:
                P += a[c, k, c] == 0
    for d in range(C):
        for j in ks:
            P += size[d, j] <= 1 + pulp.lpSum(w[c, k, d, j] for c in range(C) for k in ks)
        P += pulp.lpSum(got[c, k, d] for c in range(C) for k in ks) >= PIECES
        for k in ks:  # four in-links
            P += pulp.lpSum(a[c, k, d] for c in range(C)) <= 4
    d0, sizes, calls = uniform(K, T)
    for v in P.variables():
        v.setInitialValue(0)
    for c in range(C):
        for k, (tc, sc) in enumerate(zip(calls, sizes), 1):
            x[c, k].setInitialValue(1)
            t[c, k].setInitialValue(tc)
            b[c, k, sc].setInitialValue(1)
            a[c, k, c].setInitialValue(1)
            z[c, k, c, sc].setInitialValue(1)
            for j, tj in enumerate(calls, 1):
                ok = tj >= tc + OVERHEAD + T[sc] - 1e-9
                u[c, k, c, j].setInitialValue(int(ok))
                w[c, k, c, j].setInitialValue(sc if ok else 0)
    D.setInitialValue(d0 + 1e-6)
    log = f'/tmp/classes_ilp_{os.getpid()}.log'
    t0 = time.time()
    P.solve(pulp.COIN_CMD(msg=0, timeLimit=seconds, threads=1, warmStart=True, logPath=log))
    took = time.time() - t0
    word = [ln.strip() for ln in open(log) if ln.startswith('Result -')]
    os.unlink(log)
    print(f'classes {mult} K={K}: uniform {d0:.1f} us {sizes}; program {pulp.value(D):.1f} us '
          f'({word[-1] if word else pulp.LpStatus[P.status]}, {took:.0f} s)')
    for c in range(C):
        row = [f'k{k} t={t[c, k].value():.1f} s={pulp.value(size[c, k]):.0f} to '
               + ','.join(f'{d}x{round(a[c, k, d].value())}' for d in range(C) if a[c, k, d].value() > .5)
               for k in ks if x[c, k].value() > .5]
        print(f'  class {c} ({mult[c]} nodes): ' + '; '.join(row))


if __name__ == '__main__':
    mult = [int(v) for v in sys.argv[1].split(',')]
    if sum(mult) != 64 or min(mult) < 1:
        sys.exit('class sizes must be >= 1 and sum to 64')
    solve(mult, int(sys.argv[2]), times(int(os.environ.get('BLK', '1024'))),
          int(sys.argv[3]) if len(sys.argv) > 3 else 600)
