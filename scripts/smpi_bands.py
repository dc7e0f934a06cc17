"""One message's least time on the SMPI Paragon platform (bench/paragon): the
250 us send overhead, SimGrid's default smpi/bw-factor bands (the platform
does not override them) on 175 MB/s links, and the 0.4 us of one hop, as the
64-rank probe of docs/allgather.md ("Where SMPI's time goes", point 4)
measured them. Shared by the allgather lower-bound scripts."""

# (lower byte bound, factor): SimGrid's smpi/bw-factor default
BANDS = [(0, .812084), (257, .338112), (732, .341987), (1426, .608902), (3484, .77493),
         (5776, 1.08739), (9376, .58729), (15424, .697866), (65472, .940694)]
OVERHEAD = 250.0


def one_hop(blocks, blk):
    """Microseconds for a message of `blocks` blocks of `blk` bytes alone on one hop."""
    b = blocks * blk
    f = [fa for lo, fa in BANDS if b >= lo][-1]
    return b / (175e6 * f) * 1e6 + 0.4


def times(blk, most=64):
    """T[m]: the least time of m blocks, padded to the cheapest size at or above m."""
    raw = {m: one_hop(m, blk) for m in range(1, most + 1)}
    return {m: min(raw[j] for j in range(m, most + 1)) for m in range(1, most + 1)}
