/*
 * dimwise, dimwise-colored — HIGH-DIM-GOS and HIGH-DIM-GOS' of Juurlink, Rao, Sibeyn 1996
 * (section 4.3; section 5.1, Lemma 7, for d = 2).
 *
 * dimwise (HIGH-DIM-GOS): d phases; in phase f every line along axis f
 * runs a 1D gossip whose "packets" are what its nodes hold, l * n_0 * ... *
 * n_{f-1} bytes each. Each phase picks its own 1D algorithm because the
 * packets grow by n per phase.
 * dimwise-colored (HIGH-DIM-GOS'): every node's data is cut into P = d
 * pieces; piece c is colour c and, in phase f, colour c gossips along axis
 * (f + c) mod d, so all d axes are busy in every phase and each carries
 * l/d * (product of the extents already gossiped by that colour) per
 * packet. The paper colours PUs by (sum x_i) mod d; with P = d pieces every
 * PU contributes its colour-c piece to the colour-c line through it, which
 * gives every axis the same load and lets each line run an ordinary dense 1D
 * gossip (docs/paper-notes.md: with colours by PU only n/d PUs of a line hold
 * a packet and Lemma 7's n/4 start-ups of Approach 1 are not reachable).
 *
 * The 1D algorithm of each phase: parameter phases=A-B-... with one entry
 * per axis, each 1 (ring, Approach 1), 2 (concentrate, Approach 2), 3
 * (circgos, when registered), a 1D algorithm's name, or auto; entries are
 * joined by '/' instead when a name has a dash (phases=torus-swing/ring).
 * auto (the default) simulates every 1D candidate (ring, concentrate,
 * circgos, the tunable ones tuned; under a model with CPU overheads also
 * ring:half=1, ring:pipe=1, torus-swing, torus-ternary, torus-doubling) on
 * one line with that phase's packet size and takes the cheapest: a lifted
 * phase costs exactly its 1D cost with bytes scaled (src/algo/lift.h), so
 * on an n x ... x n grid
 * under the sync clock, without CPU overheads, auto is the best
 * combination. The colored variant prices a line with the CPU overheads
 * times d, since a node's one CPU sends for its d colours at once
 * (pick_auto): a rule of thumb, not the grid's clock, so on grids of up
 * to 512 nodes the grid then chooses among the lines' candidates
 * (refine; torus:4x4x4 at 64 KiB on the calibrated SMPI model: the line's
 * choice 8.858 ms, the grid's 8.752). A 1D gossip that cuts its packets
 * (ring:half=1, greedy-links) cuts every colour's share into as many
 * pieces (lift.h); one that names item lists (multiring, weave) cannot be
 * lifted. An entry may carry its algorithm's parameters, '+'
 * between them (phases=torus-swing/ring:half=1). Juurlink, Rao, Sibeyn 1996's
 * Approaches 1-1, 2-1, 2-2 are dimwise-colored:phases=1-1, phases=2-1,
 * phases=2-2.
 *
 * Rounds: sum over phases of the 1D round counts (colored: the largest
 * over the colours of a phase; the colours run in the same rounds on
 * disjoint axes).
 * Cost (torus n^d, wormhole): sum_f T_1D(n, l * n^f) for dimwise and
 * sum_f T_1D(n, l * n^f / d) for dimwise-colored, e.g. Approach 1-1 on
 * n x n: 2 * floor(n/2) * t_s + floor(n/2) * (1 + n) * l/2 * t_l.
 * Restrictions: tori and meshes of d >= 2 dimensions, any extents; the
 * colored variant needs all-port (it sends along d axes at once).
 * Rounding: none; each line runs its 1D algorithm with that algorithm's own
 * rounding, and non-square grids give each axis its own line length.
 *
 * Trace, dimwise-colored:phases=1-1 on torus:4x4: rounds 0-1, piece 0 goes
 * around the rows (axis 0) and piece 1 around the columns (axis 1), one
 * piece per message; rounds 2-3, piece 0 around the columns and piece 1
 * around the rows, 4 pieces per message.
 */
#include "lift.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The registered 1D gossip algorithms a phase may use, by digit. */
static const char *const digit_algo[] = {NULL, "ring", "concentrate", "circgos"};

/* What auto tries on a line: the paper's three, tuned; and, when the model
 * charges CPU overheads per message (o or or, which the paper's models do
 * not have, so its tables keep the paper's choice), the doubling family
 * with its defaults: fewer, larger messages, which win a phase when a
 * node's CPU rather than its arcs is what the phase waits for. Their tuned
 * variants merge rounds into rounds of several sends, which the CPU share
 * below prices too low in the grid (torus:8x8, 64 KiB, calibrated model:
 * torus-swing:merge=2,skip=1 as the first phase 11.15 ms, its default
 * 10.66). Also two rings that cut packets in halves, which win where a
 * packet's transfer is long beside an overhead: half=1 (the even ring's
 * last step both ways) and pipe=1 (every step in two rounds, so that
 * without barriers a node's overhead runs beside the other half's
 * transfer: torus:9x9 at 64 KiB, 11.716 -> 11.406 ms). */
static const struct {
  const char *name, *params;
  int tune, needs_cpu;
} auto_algo[] = {{"ring", NULL, 1, 0},           {"concentrate", NULL, 1, 0}, {"circgos", NULL, 1, 0},
                 {"ring", "half=1", 0, 1},       {"torus-swing", NULL, 0, 1}, {"torus-ternary", NULL, 0, 1},
                 {"torus-doubling", NULL, 0, 1}, {"ring", "pipe=1", 0, 1}};
#define DW_NCAND (sizeof auto_algo / sizeof auto_algo[0])

typedef struct dw_plan {
  int d, colored;
  int by_axis; /* order=axis: a round's transfers by axis, not by colour */
  uint32_t P;
  const mg_algo *algo[MG_MAX_DIMS][MG_MAX_DIMS]; /* [phase][colour] */
  mg_params ps[MG_MAX_DIMS][MG_MAX_DIMS];
  double cost1d[MG_MAX_DIMS][MG_MAX_DIMS]; /* verified 1D cost as auto priced it, auto only */
  /* auto's verified candidates of each line (auto_algo's order, NULL where
   * refused), which refine() tries in the grid: phases of up to 3 axes */
  const mg_algo *cand[3][3][DW_NCAND];
  mg_params cand_ps[3][3][DW_NCAND];
  double cand_cost[3][3][DW_NCAND]; /* its price on the line */
} dw_plan;

static int axis_of(const dw_plan *p, int f, int c) { return p->colored ? (f + c) % p->d : f; }

/* Axes gossiped by colour c before phase f. */
static uint32_t done_mask(const dw_plan *p, int f, int c) {
  uint32_t m = 0;
  for (int g = 0; g < f; g++)
    m |= 1u << axis_of(p, g, c);
  return m;
}

static double packet_bytes(const mg_problem_spec *pb, const dw_plan *p, int f, int c) {
  double b = pb->bytes / p->P;
  uint32_t m = done_mask(p, f, c);
  for (int k = 0; k < pb->topo.d; k++)
    if (m >> k & 1u) b *= pb->topo.n[k];
  return b;
}

static mg_status dw_check_common(const mg_problem_spec *pb, const char *name, int colored, mg_err *err) {
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "%s is a gossip algorithm", name);
  if (pb->topo.kind != MG_TOPO_GRID || pb->topo.d < 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs a torus or mesh of 2 or more dimensions", name);
  if (colored && pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s sends along %d axes at once: it needs all-port", name, pb->topo.d);
  /* Every 1D gossip it can run per line (ring, concentrate, circgos) sends
   * both ways along the line in the same step. */
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s runs 1D gossips that send both ways at once: it needs all-port", name);
  return MG_OK;
}

/* A lifted phase carries boxes of origins, not item lists: CIRCGOS's
 * skip=2 lists its packets (circgos_fill.c), so it is not a candidate. */
static int liftable(const mg_params *ps) {
  const char *skip = mg_params_get(ps, "skip");
  return !skip || strcmp(skip, "2") != 0;
}

/* Picks the cheapest verified 1D candidate for one line and packet size,
 * priced with the CPU overheads (o, or) multiplied by cpu_share: in the
 * colored variant a node runs d lines of a phase at once, one per colour,
 * and its one CPU lets all their messages go, so each line's messages wait
 * for the others' (on torus:8x8 at 64 KiB the ring alone takes 2.08 ms
 * against torus-swing's 2.57 on its line, and loses in the grid: 11.60 ms
 * against 10.66 with torus-swing as the first phase, docs/allgather.md). */
static mg_status pick_auto(const mg_problem_spec *line, double cpu_share, const mg_algo **best, mg_params *best_ps,
                           double *cost, const mg_algo **cand, mg_params *cand_ps, double *cand_cost, mg_err *err) {
  mg_problem_spec priced = *line;
  const mg_problem_spec *pb1 = &priced;
  priced.model.o *= cpu_share;
  priced.model.orecv *= cpu_share;
  *best = NULL;
  int cpu = line->model.o > 0 || line->model.orecv > 0;
  for (size_t i = 0; i < sizeof auto_algo / sizeof auto_algo[0]; i++) {
    if (auto_algo[i].needs_cpu && !cpu) continue;
    const mg_algo *a = mg_algo_find(auto_algo[i].name);
    mg_params ps, second;
    mg_report rep, second_rep;
    mg_err e;
    mg_status st;
    size_t evaluated;
    memset(&ps, 0, sizeof ps);
    if (!a || (auto_algo[i].params && mg_params_parse(auto_algo[i].params, &ps, &e) != MG_OK) ||
        mg_algo_check(a, pb1, &ps, &e) != MG_OK)
      continue;
    if (a->candidates && auto_algo[i].tune) {
      st = mg_tune_keep(a, pb1, NULL, liftable, &ps, &rep, &second, &second_rep, &evaluated, &e);
      if (st == MG_OK) mg_report_free(&second_rep);
    } else {
      st = mg_run(a, pb1, &ps, NULL, &rep, &e);
    }
    if (st == MG_ERR_NOMEM) return mg_fail(err, st, "%s", e.msg);
    if (st == MG_OK && rep.verified && cand) cand[i] = a, cand_ps[i] = ps, cand_cost[i] = rep.cost;
    if (st == MG_OK && rep.verified && (!*best || rep.cost < *cost)) {
      *best = a;
      *best_ps = ps;
      *cost = rep.cost;
    }
    if (st == MG_OK || st == MG_ERR_VIOLATION) mg_report_free(&rep);
  }
  if (!*best) return mg_fail(err, MG_ERR_UNSUPPORTED, "no 1D gossip algorithm applies to a line of this grid");
  return MG_OK;
}

/* order=axis: a round's transfers by axis, then - before +, else as
 * emitted. Only the order changes (every transfer still reads the state
 * at the round's start), and with it the order in which a node's CPU lets
 * its sends go: the same direction order in every round and phase. */
typedef struct dir_key {
  int dim, plus;
  size_t i;
} dir_key;

static int dir_cmp(const void *a, const void *b) {
  const dir_key *x = a, *y = b;
  if (x->dim != y->dim) return x->dim < y->dim ? -1 : 1;
  if (x->plus != y->plus) return x->plus < y->plus ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

static mg_status sort_by_direction(mg_round *r, mg_err *err) {
  if (r->n < 2) return MG_OK;
  dir_key *k = mg_calloc(r->n, sizeof *k);
  mg_transfer *t = mg_calloc(r->n, sizeof *t);
  if (!k || !t) {
    free(k);
    free(t);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory ordering a round");
  }
  for (size_t i = 0; i < r->n; i++)
    k[i] = (dir_key){r->t[i].nseg ? r->t[i].seg[0].dim : 0, r->t[i].nseg && r->t[i].seg[0].hops > 0, i};
  qsort(k, r->n, sizeof *k, dir_cmp);
  for (size_t i = 0; i < r->n; i++)
    t[i] = r->t[k[i].i];
  memcpy(r->t, t, r->n * sizeof *t);
  free(k);
  free(t);
  return MG_OK;
}

/* Parses phases= and resolves every (phase, colour) to a 1D algorithm. */
static mg_status make_plan(const mg_problem_spec *pb, const mg_params *ps, int colored, dw_plan *p, mg_err *err) {
  const char *spec = ps ? mg_params_get(ps, "phases") : NULL;
  char entry[MG_MAX_DIMS][MG_PARAM_VALUE_LEN];
  int d = pb->topo.d, ne = 0;
  memset(p, 0, sizeof *p);
  p->d = d;
  p->colored = colored;
  const char *order = colored && ps ? mg_params_get(ps, "order") : NULL;
  if (order && strcmp(order, "colour") && strcmp(order, "axis"))
    return mg_fail(err, MG_ERR_INVALID, "order=%s: colour or axis", order);
  p->by_axis = order && !strcmp(order, "axis");
  p->P = colored ? (uint32_t)d : 1u;
  if (!spec || !strcmp(spec, "auto")) {
    for (int f = 0; f < d; f++)
      snprintf(entry[f], sizeof entry[f], "auto");
    ne = d;
  } else {
    /* Entries are joined by '-', or by '/' when a 1D algorithm's name has
     * a dash of its own (phases=torus-swing/ring). */
    const char sep = strchr(spec, '/') ? '/' : '-';
    const char *s = spec;
    while (*s) {
      const char *dash = strchr(s, sep);
      size_t len = dash ? (size_t)(dash - s) : strlen(s);
      if (ne == d || len == 0 || len >= sizeof entry[0])
        return mg_fail(
            err, MG_ERR_INVALID,
            "phases=%s: give one entry per axis (%d), e.g. phases=2-1 (phases=torus-swing/ring when a name has a dash)",
            spec, d);
      memcpy(entry[ne], s, len);
      entry[ne++][len] = 0;
      s += len + (dash ? 1 : 0);
      if (dash && !*s) return mg_fail(err, MG_ERR_INVALID, "phases=%s ends with '%c'", spec, sep);
    }
    if (ne != d) return mg_fail(err, MG_ERR_INVALID, "phases=%s has %d entries for %d axes", spec, ne, d);
  }
  for (int f = 0; f < d; f++) {
    for (int c = 0; c < (colored ? d : 1); c++) {
      mg_problem_spec pb1;
      mg_status st = mg_lift_problem(pb, axis_of(p, f, c), packet_bytes(pb, p, f, c), &pb1, err);
      if (st != MG_OK) return st;
      p->cost1d[f][c] = NAN;
      if (!strcmp(entry[f], "auto")) {
        int keep = f < 3 && c < 3;
        st = pick_auto(&pb1, colored ? d : 1, &p->algo[f][c], &p->ps[f][c], &p->cost1d[f][c],
                       keep ? p->cand[f][c] : NULL, keep ? p->cand_ps[f][c] : NULL, keep ? p->cand_cost[f][c] : NULL,
                       err);
        if (st != MG_OK) return st;
        continue;
      }
      /* an entry may give its algorithm's parameters, '+' between them:
       * ring:half=1 */
      char name_buf[MG_PARAM_VALUE_LEN];
      const char *name = entry[f], *colon = strchr(entry[f], ':');
      memset(&p->ps[f][c], 0, sizeof p->ps[f][c]);
      if (colon) {
        char list[MG_PARAM_VALUE_LEN];
        snprintf(name_buf, sizeof name_buf, "%.*s", (int)(colon - entry[f]), entry[f]);
        snprintf(list, sizeof list, "%s", colon + 1);
        for (char *q = list; *q; q++)
          if (*q == '+') *q = ',';
        name = name_buf;
        mg_err e;
        if (!*list || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
          return mg_fail(err, MG_ERR_INVALID, "phases: %s: an empty parameter ('+' goes between k=v)", entry[f]);
        if (mg_params_parse(list, &p->ps[f][c], &e) != MG_OK)
          return mg_fail(err, MG_ERR_INVALID, "phases: %s: %s", entry[f], e.msg);
      }
      if (name[0] >= '1' && name[0] <= '3' && !name[1]) name = digit_algo[name[0] - '0'];
      const mg_algo *a = mg_algo_find(name);
      if (!a)
        return mg_fail(err, MG_ERR_UNSUPPORTED, "phases: 1D algorithm '%s' is not registered%s", name,
                       strchr(spec, '-') ? " (entries are joined by '/' when any is, else by '-': "
                                           "phases=torus-swing/ring)"
                                         : "");
      mg_err e;
      st = mg_algo_check(a, &pb1, &p->ps[f][c], &e);
      if (st != MG_OK) /* say which line refused: the grid itself may be fine */
        return mg_fail(err, st, "phases: %s on the %ss of axis %d (%u nodes): %s", name,
                       pb1.topo.wrap[0] ? "ring" : "line", axis_of(p, f, c), pb1.topo.n[0], e.msg);
      p->algo[f][c] = a;
    }
  }
  return MG_OK;
}

/* phases= as auto resolved it, into out (a copy of ps), when every
 * colour of a phase runs the same 1D algorithm with the same parameters and
 * the spelling fits a parameter's value: then the schedule's own
 * parameters (the report's, an export's) name the phases, and the run can
 * be repeated by name, by the MPI executor under any model too. */
static void spell_phases(const mg_params *ps, const dw_plan *p, mg_params *out) {
  const char *given = ps ? mg_params_get(ps, "phases") : NULL;
  char buf[sizeof out->p[0].value], pbuf[sizeof out->p[0].value];
  size_t used = 0;
  int ncol = p->colored ? p->d : 1;
  if (ps) *out = *ps;
  if (given && !strstr(given, "auto")) return;
  for (int f = 0; f < p->d; f++) {
    for (int c = 1; c < ncol; c++)
      if (p->algo[f][c] != p->algo[f][0] || memcmp(&p->ps[f][c], &p->ps[f][0], sizeof p->ps[f][0])) return;
    mg_params_format(&p->ps[f][0], pbuf, sizeof pbuf);
    for (char *q = pbuf; *q; q++)
      if (*q == ',') *q = '+';
    int w =
        snprintf(buf + used, sizeof buf - used, "%s%s%s%s", f ? "/" : "", p->algo[f][0]->name, *pbuf ? ":" : "", pbuf);
    if (w < 0 || (size_t)w >= sizeof buf - used) return;
    used += (size_t)w;
  }
  mg_err e;
  mg_params_set(out, "phases", buf, &e);
}

/* The schedule of a resolved plan: every phase's 1D schedules, lifted. */
static mg_status dw_emit(const mg_problem_spec *pb, const mg_params *ps, const dw_plan *p, mg_sink *sink,
                         const char *name, mg_err *err) {
  int colored = p->colored;
  mg_sched1d sch[MG_MAX_DIMS][MG_MAX_DIMS];
  int ncol = colored ? pb->topo.d : 1, d = pb->topo.d;
  mg_status st;
  mg_emit e;
  memset(&e, 0, sizeof e);
  memset(sch, 0, sizeof sch);
  uint32_t flags = 0;
  int64_t hint = 0;
  for (int f = 0; f < d; f++) {
    size_t most = 0;
    for (int c = 0; c < ncol; c++) {
      mg_problem_spec pb1;
      MG_CHECK(mg_lift_problem(pb, axis_of(p, f, c), packet_bytes(pb, p, f, c), &pb1, err));
      mg_err e1;
      st = mg_sched1d_record(p->algo[f][c], &pb1, &p->ps[f][c], &sch[f][c], &e1);
      if (st == MG_ERR_UNSUPPORTED) /* the 1D schedule has no image on the grid (lift.h) */
        st = mg_fail(err, st, "phases: %s on the %ss of axis %d: %s; name another 1D gossip", p->algo[f][c]->name,
                     pb1.topo.wrap[0] ? "ring" : "line", axis_of(p, f, c), e1.msg);
      else if (st != MG_OK)
        *err = e1;
      if (st != MG_OK) goto out;
      flags |= sch[f][c].info.flags;
      if (sch[f][c].n > most) most = sch[f][c].n;
    }
    hint += (int64_t)most;
  }
  /* Every colour owns Q grid pieces, Q the least common multiple of the
   * pieces its phases' 1D schedules cut a packet into (ring:half=1 cuts
   * in 2), so that 1D piece j of P1 is a run of Q/P1 of them (lift.h). */
  uint32_t Q = 1;
  for (int f = 0; f < d; f++)
    for (int c = 0; c < ncol; c++) {
      uint64_t l = Q / mg_gcd(Q, sch[f][c].info.pieces) * sch[f][c].info.pieces;
      if (l > MG_LIFT_MAX_PIECES) {
        st = mg_fail(err, MG_ERR_UNSUPPORTED, "phases: the 1D schedules cut a packet into more than %u pieces together",
                     MG_LIFT_MAX_PIECES);
        goto out;
      }
      Q = (uint32_t)l;
    }
  int cut = colored || Q > 1;
  mg_params spelled;
  memset(&spelled, 0, sizeof spelled);
  spell_phases(ps, p, &spelled);
  MG_CHECK(mg_emit_begin(&e, sink, pb, name, &spelled, p->P * Q, flags, hint, err));
  int64_t offset = 0;
  for (int f = 0; f < d; f++) {
    size_t most = 0;
    for (int c = 0; c < ncol; c++)
      if (sch[f][c].n > most) most = sch[f][c].n;
    for (size_t k = 0; k < most; k++) {
      for (int c = 0; c < ncol; c++) {
        if (k >= sch[f][c].n) continue;
        mg_lift L = {.topo = &pb->topo,
                     .axis = axis_of(p, f, c),
                     .done_mask = done_mask(p, f, c),
                     .use_piece = cut,
                     .piece = (uint32_t)c * Q,
                     .piece_count = Q,
                     .pieces1d = sch[f][c].info.pieces,
                     .round_offset = offset};
        MG_CHECK(mg_lift_round(&L, &sch[f][c].rounds[k], &e, err));
      }
      if (p->by_axis) MG_CHECK(sort_by_direction(&e.r, err));
      MG_CHECK(mg_emit_round(&e, err));
    }
    offset += (int64_t)most;
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  for (int f = 0; f < MG_MAX_DIMS; f++)
    for (int c = 0; c < MG_MAX_DIMS; c++)
      mg_sched1d_free(&sch[f][c]);
  return st;
}

/* A resolved plan as a generator, for the grid runs of refine(). */
typedef struct dw_gen {
  const mg_problem_spec *pb;
  const mg_params *ps;
  const dw_plan *p;
  const char *name;
} dw_gen;

static mg_status dw_gen_fn(void *arg, mg_sink *sink, mg_err *err) {
  const dw_gen *g = arg;
  return dw_emit(g->pb, g->ps, g->p, sink, g->name, err);
}

/* The verified cost of a plan on the whole grid (INFINITY where it does
 * not verify); an error only when memory runs out. */
static mg_status grid_cost(const mg_problem_spec *pb, const mg_params *ps, const dw_plan *p, const char *name,
                           double *cost, mg_err *err) {
  dw_gen g = {pb, ps, p, name};
  mg_report rep;
  mg_err e;
  mg_status r = mg_drive(dw_gen_fn, &g, NULL, 0, NULL, &rep, &e);
  *cost = r == MG_OK && rep.verified ? rep.cost : INFINITY;
  if (r == MG_OK || r == MG_ERR_VIOLATION) mg_report_free(&rep);
  return r == MG_ERR_NOMEM ? mg_fail(err, r, "%s", e.msg) : MG_OK;
}

/* The grid decides among auto's candidates. pick_auto prices a line
 * alone, with the CPU overhead times d: a rule of thumb that misses where
 * the colours' sends interleave (torus:8x8, 32 KiB, calibrated SMPI model:
 * the rings' last step whole 6.508 ms, half each way 6.366, where the line
 * priced the extra send above the half packet). Where the model charges
 * CPU overheads and the grid has at most 512 nodes, each phase in turn (of
 * up to 3 axes) tries every other candidate that verified on all its
 * colours' lines at most 1.25 times the line's best price, the other
 * phases as they are, simulated on the grid under the model's own clock,
 * and keeps one only if it is cheaper: one pass of coordinate descent, at
 * most (DW_NCAND - 1) d grid runs and one of the plan as it is (Release
 * build, 64 KiB, calibrated model, with 7 candidates: torus:8x8 0.08 s in
 * all, 16x16 0.5 s, 8x8x8 2 s, where one run of 32x32 takes 1.5 s and the
 * descent 10). */
#define DW_REFINE_MAX_NODES 512u
#define DW_REFINE_SPREAD    1.25
static mg_status refine(const mg_problem_spec *pb, const mg_params *ps, dw_plan *p, const char *name, mg_err *err) {
  int d = pb->topo.d, ncol = p->colored ? d : 1;
  if (!p->colored || d > 3 || !(pb->model.o > 0 || pb->model.orecv > 0) || pb->topo.N > DW_REFINE_MAX_NODES)
    return MG_OK;
  dw_plan *trial = mg_calloc(1, sizeof *trial);
  if (!trial) return mg_fail(err, MG_ERR_NOMEM, "out of memory trying the phases on the grid");
  double best = INFINITY;
  mg_status st = grid_cost(pb, ps, p, name, &best, err); /* the plan as it is */
  for (int f = 0; f < d && st == MG_OK; f++)
    for (size_t i = DW_NCAND; i-- > 0 && st == MG_OK;) {
      *trial = *p;
      int usable = 1, same = 1;
      for (int c = 0; c < ncol; c++) {
        /* a candidate the line prices far off is not worth a grid run */
        if (!p->cand[f][c][i] || isnan(p->cost1d[f][c]) || p->cand_cost[f][c][i] > DW_REFINE_SPREAD * p->cost1d[f][c]) {
          usable = 0;
          break;
        }
        same = same && p->cand[f][c][i] == p->algo[f][c] &&
               !memcmp(&p->cand_ps[f][c][i], &p->ps[f][c], sizeof p->ps[f][c]);
        trial->algo[f][c] = p->cand[f][c][i], trial->ps[f][c] = p->cand_ps[f][c][i];
      }
      if (!usable || same) continue;
      double cost = INFINITY;
      st = grid_cost(pb, ps, trial, name, &cost, err);
      if (st == MG_OK && cost < best) {
        best = cost;
        *p = *trial;
      }
    }
  free(trial);
  return st;
}

static mg_status dw_generate_common(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, int colored,
                                    const char *name, mg_err *err) {
  dw_plan *p = mg_calloc(1, sizeof *p);
  if (!p) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the phases' plan");
  mg_status st = make_plan(pb, ps, colored, p, err);
  if (st == MG_OK) st = refine(pb, ps, p, name, err);
  if (st == MG_OK) st = dw_emit(pb, ps, p, sink, name, err);
  free(p);
  return st;
}

/* Sum over phases of the 1D closed forms at that phase's packet size; on
 * an n x ... x n grid every colour of a phase has the same cost, so the
 * merged rounds cost exactly that sum. */
static mg_status dw_closed_common(const mg_problem_spec *pb, const mg_params *ps, int colored, double *cost,
                                  mg_err *err) {
  for (int k = 1; k < pb->topo.d; k++)
    if (pb->topo.n[k] != pb->topo.n[0] || pb->topo.wrap[k] != pb->topo.wrap[0])
      return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form for n x ... x n grids only");
  dw_plan *p = mg_calloc(1, sizeof *p);
  if (!p) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the phases' plan");
  mg_status st = make_plan(pb, ps, colored, p, err);
  double sum = 0;
  for (int f = 0; f < pb->topo.d && st == MG_OK; f++) {
    mg_problem_spec pb1;
    double v = 0;
    st = mg_lift_problem(pb, axis_of(p, f, 0), packet_bytes(pb, p, f, 0), &pb1, err);
    if (st == MG_OK && !p->algo[f][0]->closed_form)
      st = mg_fail(err, MG_ERR_UNSUPPORTED, "%s has no closed form", p->algo[f][0]->name);
    if (st == MG_OK) st = p->algo[f][0]->closed_form(&pb1, &p->ps[f][0], &v, err);
    sum += v;
  }
  free(p);
  if (st == MG_OK) *cost = sum;
  return st;
}

/* make_plan for the checks: the plan itself is dropped. */
static mg_status plan_ok(const mg_problem_spec *pb, const mg_params *ps, int colored, mg_err *err) {
  dw_plan *p = mg_calloc(1, sizeof *p);
  if (!p) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the phases' plan");
  mg_status st = make_plan(pb, ps, colored, p, err);
  free(p);
  return st;
}

static mg_status dw_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  mg_status st = dw_check_common(pb, "dimwise", 0, err);
  if (st == MG_OK && mg_param_given(ps, "phases")) st = plan_ok(pb, ps, 0, err);
  return st;
}
static mg_status dwc_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  mg_status st = dw_check_common(pb, "dimwise-colored", 1, err);
  const char *order = ps ? mg_params_get(ps, "order") : NULL;
  if (st == MG_OK && order && strcmp(order, "colour") && strcmp(order, "axis"))
    st = mg_fail(err, MG_ERR_INVALID, "order=%s: colour or axis", order);
  if (st == MG_OK && mg_param_given(ps, "phases")) st = plan_ok(pb, ps, 1, err);
  return st;
}
static mg_status dw_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  return dw_generate_common(pb, ps, sink, 0, "dimwise", err);
}
static mg_status dwc_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  return dw_generate_common(pb, ps, sink, 1, "dimwise-colored", err);
}
static mg_status dw_closed(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  return dw_closed_common(pb, ps, 0, cost, err);
}
static mg_status dwc_closed(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  return dw_closed_common(pb, ps, 1, cost, err);
}

/* The phases parameter, as dimwise and dimwise-colored both take it. */
#define DW_PHASES_DOC                                                                                                  \
  "1D algorithm per phase, one entry per axis joined by '-' (by '/' when a name has one: torus-swing/ring): 1 "        \
  "ring, 2 concentrate, 3 circgos, a name, or auto"

static const mg_param_desc dw_params[] = {{"phases", "auto", DW_PHASES_DOC}, {NULL, NULL, NULL}};

const mg_algo mg_algo_dimwise = {
    .name = "dimwise",
    .problem = MG_GOSSIP,
    .summary = "HIGH-DIM-GOS: a 1D gossip along each axis in turn, the best 1D algorithm per phase",
    .paper = "Juurlink, Rao, Sibeyn 1996 section 4.3 (HIGH-DIM-GOS), Theorem 3",
    .restrictions = "tori and meshes of 2 or more dimensions, any extents",
    .rounding = "none: each line uses its 1D algorithm's own rounding; non-square grids use each axis's length",
    .params = dw_params,
    .check = dw_check,
    .generate = dw_generate,
    .closed_form = dw_closed,
};

static const mg_param_desc dwc_params[] = {
    {"phases", "auto", DW_PHASES_DOC},
    {"order", "colour",
     "a node's sends within a round: colour (colour 0's first) or axis (by axis, then - before +: the same "
     "direction order in every round, which the executor's sync=data can reward)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_dimwise_colored = {
    .name = "dimwise-colored",
    .problem = MG_GOSSIP,
    .summary = "HIGH-DIM-GOS': d colours (pieces) gossip along d different axes at once; Approaches 1-1, 2-1, 2-2",
    .paper = "Juurlink, Rao, Sibeyn 1996 sections 4.3 (HIGH-DIM-GOS') and 5.1, Lemma 7",
    .restrictions = "tori and meshes of 2 or more dimensions, any extents; all-port",
    .rounding = "none: each line uses its 1D algorithm's own rounding; on non-square grids the colours of a phase "
                "run in the same rounds and the phase lasts as long as its longest colour",
    .params = dwc_params,
    .check = dwc_check,
    .generate = dwc_generate,
    .closed_form = dwc_closed,
};
