/* Pictures: what the SVG shows is recounted from the SVG itself and
 * checked against an independent recount of the simulator's resolved
 * transfers (on_resolved) and against the simulator's own figures:
 *   - one class="transfer" element per transfer of the round, with its
 *     source, receiver and item count;
 *   - one class="shared" element per arc that two or more transfers of the
 *     round use, exactly those arcs (recounted here from the routes), and
 *     under contention=strict the simulator rejects the first such round
 *     naming one of them;
 *   - heatmap cells = arcs x rounds, each cell's load the bytes its arc
 *     carried (recounted), each round's largest the round's busiest arc as
 *     the simulator prices it (ts=td=0, tl=1, shared: round cost = bytes on
 *     the busiest arc), the largest of all the report's max_arc_load;
 *   - the sweep plot's axes span the data (ticks just around it), every
 *     point is drawn at its value;
 *   - pictures are saved atomically. */
#include "helpers.h"
#include "meshgossip_draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a minimal SVG tag scanner ---- */

/* Next tag "<...>" at or after *p carrying class token cls; returns its
 * start and moves *p past it, or NULL. */
static const char *next_tag(const char **p, const char *cls) {
  char pat[64];
  snprintf(pat, sizeof pat, "class=\"%s\"", cls);
  const char *s = strstr(*p, pat);
  if (!s) return NULL;
  const char *lt = s;
  while (lt > *p && *lt != '<')
    lt--;
  const char *gt = strchr(s, '>');
  *p = gt ? gt + 1 : s + strlen(s);
  return lt;
}

/* Value of attribute name in the tag starting at tag (up to its '>'). */
static int attr(const char *tag, const char *name, char *out, size_t len) {
  const char *end = strchr(tag, '>');
  char pat[64];
  snprintf(pat, sizeof pat, " %s=\"", name);
  const char *s = strstr(tag, pat);
  if (!s || (end && s > end)) return 0;
  s += strlen(pat);
  const char *q = strchr(s, '"');
  size_t n = (size_t)(q - s) < len - 1 ? (size_t)(q - s) : len - 1;
  memcpy(out, s, n);
  out[n] = 0;
  return 1;
}

static double attr_d(const char *tag, const char *name) {
  char v[64];
  assert_true(attr(tag, name, v, sizeof v));
  return strtod(v, NULL);
}

static size_t count_class(const char *svg, const char *cls) {
  size_t n = 0;
  const char *p = svg;
  while (next_tag(&p, cls))
    n++;
  return n;
}

/* ---- the independent recount from the simulator's resolved stream ---- */

typedef struct rec_xfer {
  int64_t round;
  uint32_t src, dst;
  uint64_t nitems;
  mg_seg route[MG_MAX_SEGS];
  int nseg;
} rec_xfer;

typedef struct recorder {
  rec_xfer *x;
  size_t n, cap;
} recorder;

static mg_status record(void *arg, const mg_resolved *res, mg_err *err) {
  (void)err;
  recorder *r = arg;
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 256;
    r->x = realloc(r->x, r->cap * sizeof *r->x);
    assert_non_null(r->x);
  }
  rec_xfer *x = &r->x[r->n++];
  x->round = res->round;
  x->src = res->tr->src;
  x->dst = res->tr->bus != MG_BUS_NONE ? res->tr->src : res->tr->dst;
  x->nitems = res->nitems;
  x->nseg = res->nseg;
  memcpy(x->route, res->route, (size_t)res->nseg * sizeof *res->route);
  return MG_OK;
}

/* users[arc] and load[arc] (items) of round r, from the recorded routes */
static void recount(const mg_topo *t, const recorder *rc, int64_t r, uint32_t *users, double *items) {
  uint64_t slots = mg_topo_arc_slots(t);
  memset(users, 0, slots * sizeof *users);
  memset(items, 0, slots * sizeof *items);
  for (size_t i = 0; i < rc->n; i++) {
    if (rc->x[i].round != r) continue;
    uint32_t cur = rc->x[i].src;
    for (int g = 0; g < rc->x[i].nseg; g++) {
      int dim = rc->x[i].route[g].dim, dir = rc->x[i].route[g].hops < 0 ? -1 : 1;
      for (int h = 0; h < abs(rc->x[i].route[g].hops); h++) {
        uint64_t a = mg_arc_id(t, cur, dim, dir);
        users[a]++;
        items[a] += (double)rc->x[i].nitems;
        cur = mg_topo_step(t, cur, dim, dir);
      }
    }
  }
}

typedef struct traced {
  mg_problem_spec pb;
  mg_trace *t;
  mg_report rep;
  recorder rc;
  mg_text svg;
} traced;

static void trace(traced *o, const char *algo, const char *topo, const char *model, double bytes, int64_t keep) {
  memset(o, 0, sizeof *o);
  const mg_algo *a;
  mg_params ps;
  mg_err err;
  assert_int_equal(mg_algo_lookup(algo, &a, &ps, &err), MG_OK);
  o->pb = th_problem(a->problem, topo, model, bytes);
  mg_sim_opts so = {.on_resolved = record, .on_resolved_arg = &o->rc, .keep_round_costs = 1};
  mg_trace_opts to = {.keep = keep};
  mg_status st = mg_trace_run(a, &o->pb, &ps, &so, &to, &o->t, &o->rep, &err);
  if (st != MG_OK) fprintf(stderr, "%s on %s: %s\n", algo, topo, err.msg);
  assert_int_equal(st, MG_OK);
  assert_true(o->rep.verified);
}

static void traced_free(traced *o) {
  mg_trace_free(o->t);
  mg_report_free(&o->rep);
  free(o->rc.x);
  mg_text_free(&o->svg);
}

/* Arrows = transfers of each round, with their endpoints and items; shared
 * arcs exactly those with two or more users. Returns the first round with a
 * shared arc (-1 if none). */
static int64_t check_rounds(const char *algo, const char *topo, const char *model, double bytes, size_t *nshared) {
  traced o;
  mg_err err;
  trace(&o, algo, topo, model, bytes, MG_TRACE_KEEP_ALL);
  assert_int_equal(mg_draw_rounds(o.t, -1, &o.svg, &err), MG_OK);
  const mg_topo *tp = &o.pb.topo;
  uint64_t slots = mg_topo_arc_slots(tp);
  uint32_t *users = calloc(slots, sizeof *users);
  double *items = calloc(slots, sizeof *items);
  int64_t first_shared = -1;
  *nshared = 0;
  assert_int_equal(o.t->nrounds, (size_t)o.rep.rounds);
  assert_int_equal(count_class(o.svg.s, "transfer"), (size_t)o.rep.transfers);
  for (size_t r = 0; r < o.t->nrounds; r++) {
    /* the round's transfers in the SVG, in order, against the recording */
    size_t k = 0, rec = 0;
    const char *p = o.svg.s, *tag;
    while ((tag = next_tag(&p, "transfer"))) {
      if ((size_t)attr_d(tag, "data-round") != r) continue;
      while (rec < o.rc.n && o.rc.x[rec].round != (int64_t)r)
        rec++;
      assert_true(rec < o.rc.n);
      assert_int_equal((uint32_t)attr_d(tag, "data-src"), o.rc.x[rec].src);
      if (tp->kind != MG_TOPO_MESHBUS) assert_int_equal((uint32_t)attr_d(tag, "data-dst"), o.rc.x[rec].dst);
      assert_int_equal((uint64_t)attr_d(tag, "data-items"), o.rc.x[rec].nitems);
      rec++, k++;
    }
    assert_int_equal(k, o.t->rounds[r].transfers);
    if (tp->kind == MG_TOPO_MESHBUS) continue;
    /* shared arcs: the SVG's against the recount */
    recount(tp, &o.rc, (int64_t)r, users, items);
    size_t want = 0, got = 0;
    for (uint64_t a = 0; a < slots; a++)
      want += users[a] >= 2;
    p = o.svg.s;
    while ((tag = next_tag(&p, "shared"))) {
      if ((size_t)attr_d(tag, "data-round") != r) continue;
      uint64_t a =
          mg_arc_id(tp, (uint32_t)attr_d(tag, "data-node"), (int)attr_d(tag, "data-dim"), (int)attr_d(tag, "data-dir"));
      assert_true(users[a] >= 2);
      assert_int_equal((uint32_t)attr_d(tag, "data-users"), users[a]);
      got++;
    }
    assert_int_equal(got, want);
    assert_int_equal(got, o.t->rounds[r].shared_arcs);
    if (got && first_shared < 0) first_shared = (int64_t)r;
    *nshared += got;
  }
  free(users);
  free(items);
  traced_free(&o);
  return first_shared;
}

static void test_arrows_are_transfers(void **state) {
  (void)state;
  size_t ns;
  assert_int_equal(check_rounds("torgos", "torus:9x9", "ts=10,tl=1", 1, &ns), -1);
  assert_int_equal(ns, 0);
  assert_int_equal(check_rounds("concentrate", "ring:27", "ts=3,tl=1", 1, &ns), -1);
  assert_int_equal(check_rounds("dimwise", "mesh:4x5", "ts=1,tl=1", 8, &ns), -1);
  assert_int_equal(check_rounds("dimwise", "torus:3x4x3", "ts=1,tl=1", 8, &ns), -1);
  assert_int_equal(check_rounds("exchange-dimwise", "torus:4x4", "ts=1,tl=1", 8, &ns), -1);
  check_rounds("bus-simple", "meshbus:4", "switching=bus", 1, &ns);
}

/* Under contention=shared the MPI libraries' algorithms share arcs; the
 * simulator under strict contention rejects the first round that does,
 * naming an arc the picture marks. */
static void shared_against_strict(const char *algo, const char *topo) {
  size_t ns;
  int64_t r0 = check_rounds(algo, topo, "contention=shared,ts=1,tl=0.01", 64, &ns);
  assert_true(r0 >= 0);
  assert_true(ns > 0);
  /* the strict simulator, fed the same generator */
  mg_problem_spec pb = th_problem(MG_GOSSIP, topo, "contention=strict,ts=1,tl=0.01", 64);
  const mg_algo *a = mg_algo_find(algo);
  pb.problem = a->problem;
  mg_sim *sim;
  mg_err err;
  mg_params ps;
  memset(&ps, 0, sizeof ps);
  assert_int_equal(mg_sim_create(NULL, &sim, &err), MG_OK);
  mg_sink sink = mg_sim_sink(sim);
  assert_int_equal(a->generate(&pb, &ps, &sink, &err), MG_ERR_VIOLATION);
  const mg_report *rep = mg_sim_report(sim);
  assert_int_equal(rep->violation.rule, MG_RULE_ARC_CONTENTION);
  assert_int_equal(rep->violation.round, r0);
  /* the named arc is drawn shared in that round */
  traced o;
  trace(&o, algo, topo, "contention=shared,ts=1,tl=0.01", 64, r0);
  assert_int_equal(mg_draw_rounds(o.t, r0, &o.svg, &err), MG_OK);
  const char *p = o.svg.s, *tag;
  int found = 0;
  while ((tag = next_tag(&p, "shared")))
    found |= (int64_t)attr_d(tag, "data-node") == rep->violation.arc_node &&
             (int)attr_d(tag, "data-dim") == rep->violation.arc_dim &&
             (int)attr_d(tag, "data-dir") == rep->violation.arc_dir;
  assert_true(found);
  assert_int_equal(count_class(o.svg.s, "transfer"), o.t->rounds[r0].transfers);
  traced_free(&o);
  mg_sim_destroy(sim);
}

static void test_shared_arcs(void **state) {
  (void)state;
  shared_against_strict("mpi-allgather-bruck", "torus:4x4");
  shared_against_strict("mpi-allgather-bruck", "torus:5x3");
  shared_against_strict("mpi-allgather-rd", "torus:4x4");
  shared_against_strict("mpi-alltoall-pairwise", "torus:3x4");
}

/* Heatmap cells = arcs x rounds with the loads recounted; each round's
 * largest cell is the simulator's price of the round when only the busiest
 * arc's bytes count (shared, ts = td = 0, tl = 1). */
static void check_heatmap(const char *algo, const char *topo, double bytes) {
  traced o;
  mg_err err;
  trace(&o, algo, topo, "contention=shared,ts=0,td=0,tl=1", bytes, MG_TRACE_KEEP_NONE);
  assert_int_equal(mg_draw_heatmap(o.t, &o.svg, &err), MG_OK);
  const mg_topo *tp = &o.pb.topo;
  assert_int_equal(o.t->arcs_per_row, 1);
  assert_int_equal(o.t->hm_rows, o.t->narcs);
  /* arcs that exist: 4N on a 2D torus; a mesh loses the faces */
  uint64_t arcs = 0;
  for (uint32_t v = 0; v < tp->N; v++)
    for (int d = 0; d < tp->d; d++)
      arcs += (mg_topo_step(tp, v, d, 1) != UINT32_MAX) + (mg_topo_step(tp, v, d, -1) != UINT32_MAX);
  assert_int_equal(o.t->narcs, arcs);
  assert_int_equal(count_class(o.svg.s, "cell"), arcs * (uint64_t)o.rep.rounds);
  uint64_t slots = mg_topo_arc_slots(tp);
  uint32_t *users = calloc(slots, sizeof *users);
  double *items = calloc(slots, sizeof *items), *rmax = calloc((size_t)o.rep.rounds, sizeof *rmax);
  double item_bytes = o.pb.problem == MG_EXCHANGE ? bytes : o.t->item_bytes, moved = 0;
  for (size_t i = 0; i < o.rc.n; i++)
    moved += (double)o.rc.x[i].nitems * item_bytes;
  assert_true(fabs(moved - o.rep.bytes_moved) <= 1e-9 * o.rep.bytes_moved);
  int64_t cur = -1;
  const char *p = o.svg.s, *col;
  size_t ncols = 0;
  while ((col = next_tag(&p, "col"))) {
    /* a column (its round) and its cells up to the column's end */
    int64_t r = (int64_t)attr_d(col, "data-round");
    const char *end = strstr(p, "</svg>"), *tag;
    assert_non_null(end);
    ncols++;
    while ((tag = next_tag(&p, "cell")) && tag < end) {
      uint32_t row = (uint32_t)attr_d(tag, "data-row");
      double load = attr_d(tag, "data-load");
      if (r != cur) recount(tp, &o.rc, cur = r, users, items);
      /* the row's arc, found by its number */
      double want = -1;
      for (uint32_t v = 0; v < tp->N && want < 0; v++)
        for (int d = 0; d < tp->d; d++)
          for (int dir = -1; dir <= 1; dir += 2)
            if (mg_trace_row(o.t, v, d, dir) == row) want = items[mg_arc_id(tp, v, d, dir)] * item_bytes;
      assert_true(want >= 0);
      assert_true(fabs(load - want) <= 1e-9 * (want > 1 ? want : 1));
      if (load > rmax[r]) rmax[r] = load;
    }
    p = end;
  }
  assert_int_equal(ncols, (size_t)o.rep.rounds);
  double all = 0;
  for (int64_t r = 0; r < o.rep.rounds; r++) {
    assert_true(fabs(rmax[r] - o.rep.round_costs[r]) <= 1e-9 * (rmax[r] > 1 ? rmax[r] : 1));
    assert_true(fabs(o.t->rounds[r].max_load - o.rep.round_costs[r]) <= 1e-9 * (rmax[r] > 1 ? rmax[r] : 1));
    if (rmax[r] > all) all = rmax[r];
  }
  assert_true(fabs(all - o.rep.max_arc_load) <= 1e-9 * all);
  free(users);
  free(items);
  free(rmax);
  traced_free(&o);
}

static void test_heatmap_cells(void **state) {
  (void)state;
  check_heatmap("mpi-allgather-bruck", "torus:4x4", 100);
  check_heatmap("mpi-allgather-ring", "torus:6x6", 10);
  check_heatmap("torgos", "torus:9x9", 3);
  check_heatmap("dimwise", "mesh:3x5", 7);
  check_heatmap("mpi-alltoall-bruck", "torus:4x3", 5);
}

/* Over 32x32 the picture is the heatmap, arcs binned into rows. */
static void test_big_machine_heatmap(void **state) {
  (void)state;
  traced o;
  mg_err err;
  trace(&o, "dimwise", "torus:40x40", "ts=1,tl=1", 1, MG_TRACE_KEEP_ALL);
  assert_false(mg_draw_arrows_fit(&o.pb.topo));
  assert_int_equal(mg_draw_rounds(o.t, -1, &o.svg, &err), MG_OK);
  assert_int_equal(count_class(o.svg.s, "transfer"), 0);
  assert_true(o.t->arcs_per_row > 1);
  assert_true(o.t->hm_rows <= 96);
  assert_int_equal(count_class(o.svg.s, "cell"), (size_t)o.t->hm_rows * o.t->nrounds);
  /* a binned row holds the busiest of its arcs: the largest cell is still
   * the busiest arc of the run */
  double mx = 0;
  const char *p = o.svg.s, *tag;
  while ((tag = next_tag(&p, "cell")))
    mx = fmax(mx, attr_d(tag, "data-load"));
  assert_true(fabs(mx - o.rep.max_arc_load) <= 1e-9 * mx);
  assert_true(o.svg.len < 400000);
  traced_free(&o);
}

/* The sweep plot's axes span the data: the ticks just around it. */
static void test_sweep_axes(void **state) {
  (void)state;
  double sizes[] = {256, 1024, 4096, 16384, 65536};
  size_t ns = 5, na = mg_algo_count();
  double *costs = malloc((na + 1) * ns * sizeof *costs);
  for (size_t i = 0; i < (na + 1) * ns; i++)
    costs[i] = NAN;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:6x6", "contention=shared,ts=3e-4,tl=2.2e-8", 1);
  double lo = INFINITY, hi = 0;
  size_t npoints = 0;
  for (size_t k = 0; k < ns; k++) {
    mg_compare_row *rows;
    size_t n;
    mg_err err;
    pb.bytes = sizes[k];
    assert_int_equal(mg_compare(&pb, NULL, 1, &rows, &n, &err), MG_OK);
    for (size_t i = 0; i < n; i++) {
      if (!rows[i].refused && rows[i].rep.verified)
        for (size_t a = 0; a < na; a++)
          if (mg_algo_at(a) == rows[i].algo) costs[a * ns + k] = rows[i].rep.cost;
      mg_report_free(&rows[i].rep);
    }
    free(rows);
    mg_bound b;
    assert_int_equal(mg_lower_bound(&pb, &b, NULL), MG_OK);
    costs[na * ns + k] = b.lower_bound;
  }
  /* the sweep draws the best 11 series: hand it at most 10 algorithms, so
   * that every point given is a point drawn */
  size_t nalg = 0;
  for (size_t a = 0; a < na; a++) {
    int any = 0;
    for (size_t k = 0; k < ns; k++)
      if (nalg >= 10)
        costs[a * ns + k] = NAN;
      else if (isfinite(costs[a * ns + k])) {
        lo = fmin(lo, costs[a * ns + k]), hi = fmax(hi, costs[a * ns + k]), npoints++, any = 1;
      }
    nalg += any;
  }
  assert_true(nalg >= 3 && nalg <= 10);
  for (size_t k = 0; k < ns; k++)
    lo = fmin(lo, costs[na * ns + k]), hi = fmax(hi, costs[na * ns + k]);
  mg_text svg = {0};
  mg_err err;
  assert_int_equal(mg_draw_sweep(&pb, sizes, ns, costs, &svg, &err), MG_OK);
  /* first panel: cost against size */
  const char *p = svg.s, *x = next_tag(&p, "xaxis"), *y = next_tag(&p, "yaxis");
  assert_non_null(x);
  assert_non_null(y);
  assert_true(attr_d(x, "data-min") == 256 && attr_d(x, "data-max") == 65536);
  double ymin = attr_d(y, "data-min"), ymax = attr_d(y, "data-max");
  assert_true(ymin <= lo && lo < 10 * ymin);
  assert_true(ymax >= hi && hi > ymax / 10);
  /* every point of the first panel at its value, inside the axes */
  const char *panel2 = strstr(p, "class=\"panel\"");
  size_t seen = 0;
  const char *tag;
  while ((tag = next_tag(&p, "point")) && (!panel2 || tag < panel2)) {
    double px = attr_d(tag, "data-x"), py = attr_d(tag, "data-y");
    assert_true(px >= 256 && px <= 65536 && py >= ymin && py <= ymax);
    int match = 0;
    for (size_t a = 0; a < na && !match; a++)
      for (size_t k = 0; k < ns; k++)
        match |= sizes[k] == px && costs[a * ns + k] == py;
    assert_true(match);
    seen++;
  }
  assert_int_equal(seen, npoints);
  /* one series per algorithm plus the bound, in each of the two panels */
  assert_int_equal(count_class(svg.s, "series"), 2 * (nalg + 1));
  mg_text_free(&svg);
  free(costs);
}

static void test_plot_limits(void **state) {
  (void)state;
  double x[1] = {1}, y[1] = {1};
  mg_plot_series s[MG_PLOT_MAX_SERIES + 1];
  for (int k = 0; k <= MG_PLOT_MAX_SERIES; k++)
    s[k] = (mg_plot_series){"s", x, y, 1, MG_PLOT_LINE};
  mg_plot_panel pn = {"p", NULL, s, MG_PLOT_MAX_SERIES + 1};
  mg_plot_opts po = {.xlabel = "x", .ylabel = "y", .logx = 1, .logy = 1};
  mg_text t = {0};
  mg_err err;
  assert_int_equal(mg_draw_plot(&pn, 1, &po, &t, &err), MG_ERR_INVALID);
  pn.nseries = MG_PLOT_MAX_SERIES;
  assert_int_equal(mg_draw_plot(&pn, 1, &po, &t, &err), MG_OK);
  /* 12 distinct markers: every legend sample differs from the others */
  assert_int_equal(count_class(t.s, "point"), MG_PLOT_MAX_SERIES);
  mg_text_free(&t);
}

static void test_save_atomic(void **state) {
  (void)state;
  char dir[] = "/tmp/mg_draw_XXXXXX", path[64];
  assert_non_null(mkdtemp(dir));
  mg_text t = {0};
  mg_err err;
  t.s = strdup("<svg/>\n");
  t.len = t.cap = strlen(t.s);
  snprintf(path, sizeof path, "%s/none/x.svg", dir);
  assert_int_equal(mg_text_save(&t, path, &err), MG_ERR_IO);
  snprintf(path, sizeof path, "%s/x.svg", dir);
  assert_int_equal(mg_text_save(&t, path, &err), MG_OK);
  FILE *f = fopen(path, "r");
  char buf[32] = {0};
  assert_non_null(f);
  assert_true(fread(buf, 1, sizeof buf - 1, f) == t.len);
  fclose(f);
  assert_string_equal(buf, t.s);
  unlink(path);
  rmdir(dir);
  mg_text_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_arrows_are_transfers), cmocka_unit_test(test_shared_arcs),
      cmocka_unit_test(test_heatmap_cells),        cmocka_unit_test(test_big_machine_heatmap),
      cmocka_unit_test(test_sweep_axes),           cmocka_unit_test(test_plot_limits),
      cmocka_unit_test(test_save_atomic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
