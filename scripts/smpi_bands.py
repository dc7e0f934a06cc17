"""One message's least time on the SMPI Paragon platform (bench/paragon): the
250 us send overhead, SimGrid's default smpi/bw-factor bands (the platform
does not override them) on 175 MB/s links, and the 0.4 us of one hop, as the
64-rank probe of docs/allgather.md ("Where SMPI's time goes", point 4)
measured them. Shared by the allgather lower-bound scripts."""

# (lower byte bound, factor): SimGrid's smpi/bw-factor default
BANDS = [(0, .812084), (257, .338112), (732, .341987), (1426, .608902), (3484, .77493),
         (5776, 1.08739), (9376, .58729), (15424, .697866), (65472, .940694)]
OVERHEAD = 250.0


def hop_bytes(b):
    """Microseconds for a message of b bytes alone on one hop."""
    f = [fa for lo, fa in BANDS if b >= lo][-1]
    return b / (175e6 * f) * 1e6 + 0.4


def one_hop(blocks, blk):
    """Microseconds for a message of `blocks` blocks of `blk` bytes alone on one hop."""
    return hop_bytes(blocks * blk)


def least(lo, hi):
    """The least time of a message of lo to hi bytes: within a band the
    time grows with the size, so the least is at lo or at the start of a
    band up to hi."""
    return min(hop_bytes(b) for b in [lo] + [start for start, _ in BANDS if lo < start <= hi])


def unit_times(blk, most, split=0, nodes=64):
    """T[m], m = 1 .. most units, for the flow bound; a message carries at
    most the nodes' blocks, each once (no padding: a schedule moves only
    pieces). split = 0: a unit is a block, and a message of m blocks may
    carry more, so T[m] is the least of m to `nodes` blocks. split = Q: a
    unit is blk / Q bytes and a message of b bytes, any b (blocks cut
    anywhere), counts ceil(b Q / blk) units, so a message of m units has
    more than (m - 1) blk / Q bytes."""
    if split == 0:
        whole = times(blk, nodes)
        return {m: whole[m] for m in range(1, most + 1)}
    return {m: least((m - 1) * blk // split + 1, nodes * blk) for m in range(1, most + 1)}


def times(blk, most=64):
    """T[m]: the least time of a message of m blocks, or of more (up to
    `most`) if a larger one is faster."""
    raw = {m: one_hop(m, blk) for m in range(1, most + 1)}
    return {m: min(raw[j] for j in range(m, most + 1)) for m in range(1, most + 1)}
