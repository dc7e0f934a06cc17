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

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

/* ---- text, ranges and arguments (a hostile review's findings) ---- */

/* 1 if s is well-formed UTF-8 holding no character that XML forbids or
 * HTML calls an error (C0 but tab, newline, return; DEL; C1; U+FFFE/F):
 * what xmllint and a browser need. Counts U+FFFD into *repl. */
static int xml_clean(const char *s, size_t *repl) {
  const unsigned char *p = (const unsigned char *)s;
  *repl = 0;
  while (*p) {
    unsigned c = *p, n = c < 0x80                 ? 1
                         : c >= 0xC2 && c <= 0xDF ? 2
                         : c >= 0xE0 && c <= 0xEF ? 3
                         : c >= 0xF0 && c <= 0xF4 ? 4
                                                  : 0;
    if (!n) return 0;
    uint32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
    for (unsigned k = 1; k < n; k++) {
      if ((p[k] & 0xC0) != 0x80) return 0;
      cp = cp << 6 | (p[k] & 0x3F);
    }
    /* overlong, surrogate, past U+10FFFF */
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return 0;
    if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || (cp >= 0x7F && cp <= 0x9F) || (cp & 0xFFFE) == 0xFFFE)
      return 0;
    *repl += cp == 0xFFFD;
    p += n;
  }
  return 1;
}

/* no nan or inf anywhere (as numbers: "-nan", "inf", "nan") */
static int no_nan(const char *s) {
  for (const char *p = s; *p; p++)
    if (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3)) {
      /* inside a word ("Infinite", "financial") it is text, not a number */
      int word =
          (p > s && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z'))) || (p[3] >= 'a' && p[3] <= 'z');
      if (!word) return 0;
    }
  return 1;
}

static void test_text_escaped(void **state) {
  (void)state;
  /* a control, DEL, C1 (U+0085), a stray 0xff, an overlong '/', a
   * surrogate, U+FFFF, a sequence cut short at the end; then fine text */
  const char *bad = "a\x01"
                    "b\x7f"
                    "c\xc2\x85"
                    "d\xff"
                    "e\xc0\xaf"
                    "f\xed\xa0\x80"
                    "g\xef\xbf\xbf"
                    "h\xe2\x82";
  const char *good = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 <&>\"\ttab";
  double x[2] = {1, 2}, y[2] = {3, 4};
  mg_plot_series se[2] = {{bad, x, y, 2, MG_PLOT_LINE}, {good, x, y, 2, MG_PLOT_DASHED}};
  mg_plot_panel pn = {bad, good, se, 2};
  mg_plot_opts po = {.title = bad, .xlabel = good, .ylabel = bad, .logx = 1, .logy = 1};
  mg_text t = {0};
  mg_err err;
  assert_int_equal(mg_draw_plot(&pn, 1, &po, &t, &err), MG_OK);
  size_t repl;
  assert_true(xml_clean(t.s, &repl));
  /* per use of `bad`: one U+FFFD for each of \x01, DEL, U+0085, \xff,
   * \xc0, \xaf, \xed, \xa0, \x80, U+FFFF, \xe2, \x82: 12; bad is written
   * in the <title>, the title, the panel title, the series' data-name and
   * its legend entry: 5 times (the panel's y label, good, hides the plot's) */
  assert_int_equal(repl, 12 * 5);
  assert_non_null(strstr(t.s, "a\xef\xbf\xbd"
                              "b\xef\xbf\xbd"
                              "c"));
  /* good text arrives whole, escaped */
  assert_non_null(strstr(t.s, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 &lt;&amp;&gt;&quot;\ttab"));
  mg_text_free(&t);
  /* the round pictures, the heatmap and a rejected banner use the same
   * escaping: an algorithm name and a message with the same bytes */
  traced o;
  trace(&o, "dimwise", "torus:3x3", "ts=1,tl=1", 1, MG_TRACE_KEEP_ALL);
  snprintf(o.t->info.algorithm, sizeof o.t->info.algorithm, "%s", "x\x02y\xfe");
  o.t->rejected = 1;
  o.t->violation.rule = MG_RULE_ARC_CONTENTION;
  o.t->violation.round = (int64_t)o.t->nrounds;
  snprintf(o.t->violation.msg, sizeof o.t->violation.msg, "%s", bad);
  assert_int_equal(mg_draw_rounds(o.t, -1, &o.svg, &err), MG_OK);
  assert_true(xml_clean(o.svg.s, &repl));
  assert_int_equal(repl, 2 * 2 + 12); /* the name in <title> and the title; the message once */
  o.svg.len = 0;
  assert_int_equal(mg_draw_heatmap(o.t, &o.svg, &err), MG_OK);
  assert_true(xml_clean(o.svg.s, &repl));
  assert_int_equal(repl, 2 * 2 + 12);
  traced_free(&o);
}

/* The single plot's frame (one panel, no title): points inside it. */
#define FX0 78.0
#define FX1 538.0
#define FY0 40.0
#define FY1 340.0

/* Draws one series (circles) on the given axes; checks the output has no
 * nan or inf, finite axis ranges lo < hi around the data, and every point
 * inside the frame at its value. Returns the points drawn. */
static size_t plot_one(const double *x, const double *y, size_t n, int logx, int logy, mg_text *t) {
  mg_plot_series se = {"s", x, y, n, MG_PLOT_LINE};
  mg_plot_panel pn = {"p", NULL, &se, 1};
  mg_plot_opts po = {.xlabel = "x", .ylabel = "y", .logx = logx, .logy = logy};
  mg_err err;
  t->len = 0;
  assert_int_equal(mg_draw_plot(&pn, 1, &po, t, &err), MG_OK);
  if (!no_nan(t->s)) fprintf(stderr, "nan or inf in:\n%s\n", t->s);
  assert_true(no_nan(t->s));
  const char *p = t->s, *ax = next_tag(&p, "xaxis"), *ay = next_tag(&p, "yaxis"), *tag;
  double xlo = attr_d(ax, "data-min"), xhi = attr_d(ax, "data-max"), ylo = attr_d(ay, "data-min"),
         yhi = attr_d(ay, "data-max");
  assert_true(isfinite(xlo) && isfinite(xhi) && xlo < xhi && isfinite(ylo) && isfinite(yhi) && ylo < yhi);
  size_t drawn = 0;
  while ((tag = next_tag(&p, "point"))) {
    double px = attr_d(tag, "data-x"), py = attr_d(tag, "data-y"), cx = attr_d(tag, "cx"), cy = attr_d(tag, "cy");
    assert_true(px >= xlo && px <= xhi && py >= ylo && py <= yhi);
    assert_true(cx >= FX0 - 0.05 && cx <= FX1 + 0.05 && cy >= FY0 - 0.05 && cy <= FY1 + 0.05);
    /* at its value: the fraction along each axis */
    double fx = logx ? (log(px) - log(xlo)) / (log(xhi) - log(xlo))
                     : px / 2 / (xhi / 2 - xlo / 2) - xlo / 2 / (xhi / 2 - xlo / 2);
    double fy = logy ? (log(py) - log(ylo)) / (log(yhi) - log(ylo))
                     : py / 2 / (yhi / 2 - ylo / 2) - ylo / 2 / (yhi / 2 - ylo / 2);
    if (isfinite(fx)) assert_true(fabs(cx - (FX0 + fx * (FX1 - FX0))) <= 0.06);
    if (isfinite(fy)) assert_true(fabs(cy - (FY1 - fy * (FY1 - FY0))) <= 0.06);
    drawn++;
  }
  return drawn;
}

/* A single value (the axis range was data-min == data-max: 0/0) and
 * ranges past the largest double (hi - lo overflowed): finite axes around
 * the data, points where they belong. */
static void test_plot_ranges(void **state) {
  (void)state;
  mg_text t = {0};
  double x1[] = {5}, y1[] = {7};
  assert_int_equal(plot_one(x1, y1, 1, 1, 1, &t), 1);
  const char *p = t.s, *ax = next_tag(&p, "xaxis"), *ay = next_tag(&p, "yaxis");
  /* padded around the value: 5 in [2, 10], 7 in [1, 100] (halved and
   * doubled, then the ticks just around) */
  assert_true(attr_d(ax, "data-min") == 2 && attr_d(ax, "data-max") == 10);
  assert_true(attr_d(ay, "data-min") == 1 && attr_d(ay, "data-max") == 100);
  assert_int_equal(plot_one(x1, y1, 1, 0, 0, &t), 1);
  double big[] = {-1e308, 1e308};
  assert_int_equal(plot_one(big, big, 2, 0, 0, &t), 2);
  p = t.s, ax = next_tag(&p, "xaxis");
  assert_true(attr_d(ax, "data-min") == -1e308 && attr_d(ax, "data-max") == 1e308);
  /* the two points at the frame's corners */
  const char *pt = next_tag(&p, "point");
  assert_true(fabs(attr_d(pt, "cx") - FX0) < 0.06 && fabs(attr_d(pt, "cy") - FY1) < 0.06);
  pt = next_tag(&p, "point");
  assert_true(fabs(attr_d(pt, "cx") - FX1) < 0.06 && fabs(attr_d(pt, "cy") - FY0) < 0.06);
  /* the ends of the doubles, alone and together, on both kinds of axes */
  const double ends[] = {DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN, 0, 1, 1e-300, 9e307, 5e-324 * 3};
  size_t ne = sizeof ends / sizeof *ends;
  for (size_t i = 0; i < ne; i++)
    for (size_t j = 0; j < ne; j++)
      for (int lg = 0; lg < 4; lg++) {
        double xs[2] = {ends[i], ends[j]}, ys[2] = {ends[j], ends[i]};
        size_t want = 0;
        for (int k = 0; k < 2; k++)
          want += (!(lg & 1) || xs[k] > 0) && (!(lg & 2) || ys[k] > 0);
        assert_int_equal(plot_one(xs, ys, 2, lg & 1, lg & 2, &t), want);
      }
  /* random magnitudes from 1e-320 to 1e308, either sign */
  uint64_t r = 88172645463325252ull;
  for (int round = 0; round < 300; round++) {
    double xs[6], ys[6];
    int n = 1 + round % 6;
    for (int k = 0; k < n; k++) {
      r ^= r << 13, r ^= r >> 7, r ^= r << 17;
      xs[k] = ((r & 1) ? -1 : 1) * pow(10, (double)(r >> 8 & 1023) / 1023.0 * 628 - 320);
      ys[k] = ((r & 2) ? -1 : 1) * pow(10, (double)(r >> 20 & 1023) / 1023.0 * 628 - 320);
    }
    plot_one(xs, ys, (size_t)n, round & 1, round >> 1 & 1, &t);
  }
  mg_text_free(&t);
}

/* Points off the axes are left out and counted; a panel with none to
 * draw says why. */
static void test_plot_off_axes(void **state) {
  (void)state;
  double x[] = {0, 1, 2, 4, 8}, y[] = {4, NAN, 3, -1, INFINITY}, zero[] = {0, 0, 0, 0, 0};
  mg_plot_series a[2] = {{"a", x, y, 5, MG_PLOT_LINE}, {"b", x, zero, 5, MG_PLOT_BOUND}};
  mg_plot_series b[1] = {{"zero", x, zero, 5, MG_PLOT_LINE}};
  mg_plot_panel pn[2] = {{"some", NULL, a, 2}, {"none", NULL, b, 1}};
  mg_plot_opts po = {.xlabel = "x", .ylabel = "y", .logx = 1, .logy = 1};
  mg_text t = {0};
  mg_err err;
  assert_int_equal(mg_draw_plot(pn, 2, &po, &t, &err), MG_OK);
  assert_true(no_nan(t.s));
  /* a: only (2, 3) can be drawn; b (y = 0) nothing */
  assert_int_equal(count_class(t.s, "point"), 1);
  const char *p = t.s, *tag = next_tag(&p, "point");
  assert_true(attr_d(tag, "data-x") == 2 && attr_d(tag, "data-y") == 3);
  p = t.s;
  tag = next_tag(&p, "series");
  assert_int_equal((size_t)attr_d(tag, "data-skipped"), 4);
  tag = next_tag(&p, "series");
  assert_int_equal((size_t)attr_d(tag, "data-skipped"), 5);
  assert_non_null(strstr(t.s, ">a (4 of 5 not drawn)<"));
  assert_non_null(strstr(t.s, ">b (5 of 5 not drawn)<"));
  /* the first panel drew a point: no "empty" note; the second says why */
  assert_int_equal(count_class(t.s, "empty"), 1);
  assert_non_null(strstr(t.s, "no point to draw: of 5 points, 1 with x &lt;= 0 on the log x axis, 4 with y &lt;= 0 "
                              "on the log y axis<"));
  p = t.s;
  tag = next_tag(&p, "panel");
  assert_true(attr_d(tag, "data-points") == 10 && attr_d(tag, "data-drawn") == 1);
  /* the same points on linear axes: only the non-finite ones are off */
  po.logx = po.logy = 0;
  t.len = 0;
  assert_int_equal(mg_draw_plot(pn, 2, &po, &t, &err), MG_OK);
  assert_int_equal(count_class(t.s, "point"), 3 + 5);
  assert_int_equal(count_class(t.s, "empty"), 0);
  mg_text_free(&t);
}

/* The sweep of a model that prices everything at 0, and of a bound that
 * is 0 or past a double: drawn, the empty panels saying why. */
static void test_sweep_zero(void **state) {
  (void)state;
  size_t na = mg_algo_count(), ns = 2;
  double sizes[2] = {1, 4}, *costs = malloc((na + 1) * ns * sizeof *costs);
  for (size_t i = 0; i < (na + 1) * ns; i++)
    costs[i] = i % 3 ? 0 : NAN;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:4x4", "ts=0,td=0,tl=0", 1);
  mg_text t = {0};
  mg_err err;
  assert_int_equal(mg_draw_sweep(&pb, sizes, ns, costs, &t, &err), MG_OK);
  assert_true(no_nan(t.s));
  assert_int_equal(count_class(t.s, "point"), 0);
  assert_int_equal(count_class(t.s, "empty"), 2);
  assert_non_null(strstr(t.s, "cost / lower bound (none: the bound is 0 or past a double)"));
  /* costs 0 still rank: algorithms priced at some size get a series */
  assert_true(count_class(t.s, "series") > 2);
  /* a bound past a double: costs drawn, no ratio */
  for (size_t i = 0; i < na * ns; i++)
    costs[i] = i % 2 ? 1e300 : NAN;
  costs[na * ns] = costs[na * ns + 1] = INFINITY;
  t.len = 0;
  assert_int_equal(mg_draw_sweep(&pb, sizes, ns, costs, &t, &err), MG_OK);
  assert_true(no_nan(t.s));
  const char *panel2 = strstr(t.s, "cost / lower bound (none");
  assert_non_null(panel2);
  assert_true(count_class(t.s, "point") > 0);
  assert_int_equal(count_class(panel2, "point"), 0);
  mg_text_free(&t);
  free(costs);
  /* the report: no size > 0 (bytes 0), a model that prices all at 0 */
  double zero = 0, two[2] = {1, 4};
  pb.bytes = 0;
  mg_problem_spec pz = th_problem(MG_GOSSIP, "torus:4x4", "ts=1,tl=1,contention=shared", 0);
  assert_int_equal(mg_report_html(&pz, NULL, &zero, 1, &t, &err), MG_OK);
  assert_non_null(strstr(t.s, "id=\"no-sweep\""));
  size_t repl;
  assert_true(xml_clean(t.s, &repl) && no_nan(t.s));
  t.len = 0;
  pz = th_problem(MG_GOSSIP, "torus:4x4", "ts=0,td=0,tl=0,contention=shared", 1);
  assert_int_equal(mg_report_html(&pz, NULL, two, 2, &t, &err), MG_OK);
  assert_true(xml_clean(t.s, &repl) && no_nan(t.s));
  assert_non_null(strstr(t.s, "the lower bound is 0, no ratio to it."));
  assert_int_equal(count_class(t.s, "empty"), 2);
  mg_text_free(&t);
}

/* A schedule the simulator rejects: the trace says which rule at which
 * round, the pictures say so and what they hold. */
static void test_rejected_trace(void **state) {
  (void)state;
  const mg_algo *a = mg_algo_find("mpi-allgather-bruck");
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:4x4", "contention=strict,ts=1,tl=0.01", 64);
  mg_trace_opts to = {.keep = MG_TRACE_KEEP_ALL};
  mg_trace *t;
  mg_report rep, full;
  mg_err err;
  assert_int_equal(mg_trace_run(a, &pb, NULL, NULL, &to, &t, &rep, &err), MG_ERR_VIOLATION);
  assert_non_null(t);
  assert_true(t->rejected);
  assert_int_equal(t->violation.rule, MG_RULE_ARC_CONTENTION);
  assert_int_equal(t->violation.round, 1);
  assert_int_equal(t->nrounds, 1);
  assert_string_equal(t->violation.msg, rep.violation.msg);
  /* the schedule's own round count, from the shared-contention run */
  mg_problem_spec ps = th_problem(MG_GOSSIP, "torus:4x4", "contention=shared,ts=1,tl=0.01", 64);
  assert_int_equal(th_run("mpi-allgather-bruck", &ps, &full), MG_OK);
  assert_int_equal(t->info.rounds_hint, full.rounds);
  mg_text svg = {0};
  assert_int_equal(mg_draw_rounds(t, -1, &svg, &err), MG_OK);
  const char *p = svg.s, *tag = next_tag(&p, "violation");
  assert_non_null(tag);
  char v[64];
  assert_true(attr(tag, "data-rule", v, sizeof v));
  assert_string_equal(v, "arc-contention");
  assert_int_equal((int)attr_d(tag, "data-round"), 1);
  char want[160];
  snprintf(want, sizeof want, "REJECTED: round 1 breaks the arc-contention rule (the schedule has %lld rounds)",
           (long long)full.rounds);
  assert_non_null(strstr(svg.s, want));
  assert_non_null(strstr(svg.s, "drawn: round 0, of the 1 round run before the schedule was rejected"));
  assert_int_equal(count_class(svg.s, "round"), 1);
  assert_int_equal(count_class(svg.s, "transfer"), t->rounds[0].transfers);
  /* round 2 never ran */
  svg.len = 0;
  assert_int_equal(mg_draw_rounds(t, 2, &svg, &err), MG_ERR_INVALID);
  assert_non_null(strstr(err.msg, "round 2 was not run: the simulator rejected the schedule in round 1"));
  svg.len = 0;
  assert_int_equal(mg_draw_heatmap(t, &svg, &err), MG_OK);
  assert_int_equal(count_class(svg.s, "violation"), 1);
  assert_non_null(strstr(svg.s, "drawn: the 1 round run before the schedule was rejected"));
  assert_int_equal(count_class(svg.s, "cell"), (size_t)t->hm_rows);
  mg_trace_free(t);
  /* a valid schedule has no banner */
  traced o;
  trace(&o, "torgos", "torus:9x9", "ts=10,tl=1", 1, MG_TRACE_KEEP_ALL);
  assert_false(o.t->rejected);
  assert_int_equal(mg_draw_rounds(o.t, -1, &o.svg, &err), MG_OK);
  assert_int_equal(count_class(o.svg.s, "violation"), 0);
  traced_free(&o);
  mg_text_free(&svg);
}

/* NULL where the contract needs a pointer, and a style out of range:
 * MG_ERR_INVALID and a message, not a crash. */
static void test_null_arguments(void **state) {
  (void)state;
  double x[1] = {1}, y[1] = {1};
  mg_plot_series se = {"s", x, y, 1, MG_PLOT_LINE};
  mg_plot_panel pn = {"p", NULL, &se, 1};
  mg_plot_opts po = {.xlabel = "x", .ylabel = "y"};
  mg_text t = {0};
  mg_err err;
#define INVALID(call)                                                                                                  \
  do {                                                                                                                 \
    err.msg[0] = 0;                                                                                                    \
    assert_int_equal((call), MG_ERR_INVALID);                                                                          \
    assert_true(err.msg[0] != 0 && !strchr(err.msg, '\n'));                                                            \
  } while (0)
  INVALID(mg_draw_plot(&pn, 1, NULL, &t, &err));
  INVALID(mg_draw_plot(NULL, 1, &po, &t, &err));
  INVALID(mg_draw_plot(&pn, 1, &po, NULL, &err));
  se.style = 99;
  INVALID(mg_draw_plot(&pn, 1, &po, &t, &err));
  se.style = -1;
  INVALID(mg_draw_plot(&pn, 1, &po, &t, &err));
  se.style = MG_PLOT_LINE;
  pn.series = NULL;
  INVALID(mg_draw_plot(&pn, 1, &po, &t, &err));
  pn.series = &se;
  se.y = NULL;
  INVALID(mg_draw_plot(&pn, 1, &po, &t, &err));
  se.y = y;
  assert_int_equal(t.len, 0);
  assert_int_equal(mg_draw_plot(&pn, 1, &po, &t, &err), MG_OK);
  INVALID(mg_draw_rounds(NULL, -1, &t, &err));
  INVALID(mg_draw_heatmap(NULL, &t, &err));
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:4x4", "ts=1,tl=1", 1);
  double sizes[3] = {1, 2, 4}, costs[64] = {0};
  INVALID(mg_report_html(&pb, NULL, NULL, 3, &t, &err));
  INVALID(mg_report_html(NULL, NULL, sizes, 3, &t, &err));
  INVALID(mg_report_html(&pb, NULL, sizes, 3, NULL, &err));
  INVALID(mg_draw_sweep(NULL, sizes, 3, costs, &t, &err));
  INVALID(mg_draw_sweep(&pb, NULL, 3, costs, &t, &err));
  INVALID(mg_draw_sweep(&pb, sizes, 3, NULL, &t, &err));
  mg_trace *tr = (mg_trace *)&t; /* anything not NULL: it must be reset */
  mg_report rep;
  INVALID(mg_trace_run(NULL, &pb, NULL, NULL, NULL, &tr, &rep, &err));
  assert_null(tr);
  INVALID(mg_trace_run(mg_algo_find("torgos"), NULL, NULL, NULL, NULL, &tr, &rep, &err));
  INVALID(mg_trace_run(mg_algo_find("torgos"), &pb, NULL, NULL, NULL, NULL, &rep, &err));
  INVALID(mg_trace_run(mg_algo_find("torgos"), &pb, NULL, NULL, NULL, &tr, NULL, &err));
  INVALID(mg_text_fwrite(NULL, stdout, &err));
  INVALID(mg_text_fwrite(&t, NULL, &err));
  INVALID(mg_text_save(NULL, "/tmp/x", &err));
  assert_int_equal(mg_trace_row(NULL, 0, 0, 1), UINT32_MAX);
  assert_int_equal(mg_draw_arrows_fit(NULL), 0);
  mg_trace_free(NULL);
  mg_text_free(NULL);
  /* a NULL err is allowed everywhere */
  assert_int_equal(mg_draw_plot(&pn, 1, NULL, &t, NULL), MG_ERR_INVALID);
#undef INVALID
  mg_text_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_arrows_are_transfers), cmocka_unit_test(test_shared_arcs),
      cmocka_unit_test(test_heatmap_cells),        cmocka_unit_test(test_big_machine_heatmap),
      cmocka_unit_test(test_sweep_axes),           cmocka_unit_test(test_plot_limits),
      cmocka_unit_test(test_save_atomic),          cmocka_unit_test(test_text_escaped),
      cmocka_unit_test(test_plot_ranges),          cmocka_unit_test(test_plot_off_axes),
      cmocka_unit_test(test_sweep_zero),           cmocka_unit_test(test_rejected_trace),
      cmocka_unit_test(test_null_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
