/* Figures for Delmas, Perennes 1996 on TM(7)^3 and TM(49)^3: lee3d and lee3d-long run
 * through the simulator (all-port, circuit, strict), with g_alpha, g_delta,
 * g_tau, wall time and peak RSS.
 *
 * lee3d-long on TM(49)^3 needs 2 N^2 P / 8 bytes of gossip state for P = 7
 * (about 24 GB). When that is over the simulator's limit this program
 * verifies it by piece projection instead: the schedule's selectors are
 * "all held" or "pieces of colour p", so the items of piece p move exactly
 * as in the P = 1 schedule where a transfer keeps its route and carries
 * all held (selector all), only piece p (selector piece p -> all) or
 * nothing (selector piece q != p -> an empty list). Seven such runs check
 * every arc of every round (routes are unchanged) and every item; the
 * per-transfer item counts are summed over the seven runs to price the
 * P = 7 schedule exactly.
 *
 * usage: bench_lee3d [max_i]   (default 2; i = 3 does not fit in memory) */
#include "meshgossip.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct proj {
  mg_sink inner;
  uint32_t piece;
  /* per-round, per-transfer item counts summed over the passes */
  double *counts[64];
  size_t ncounts[64];
  uint64_t hops[64];
  int nrounds;
} proj;

static mg_status proj_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  proj *p = ctx;
  mg_schedule_info one = *info;
  one.pieces = 1;
  return p->inner.begin(p->inner.ctx, &one, err);
}

static mg_status proj_round(void *ctx, mg_round *r, mg_err *err) {
  proj *p = ctx;
  for (size_t i = 0; i < r->n; i++) {
    mg_selector *s = &r->t[i].sel;
    if (!(s->flags & MG_SEL_PIECE)) continue;
    if (s->piece == p->piece) {
      s->flags &= ~(uint32_t)MG_SEL_PIECE;
    } else {
      s->flags = MG_SEL_LIST;
      s->list = NULL;
      s->list_len = 0;
    }
  }
  return p->inner.round(p->inner.ctx, r, err);
}

static mg_status proj_end(void *ctx, mg_err *err) {
  proj *p = ctx;
  return p->inner.end(p->inner.ctx, err);
}

static mg_status proj_count(void *arg, const mg_resolved *res, mg_err *err) {
  proj *p = arg;
  int64_t r = res->round;
  if (r < 0 || r >= 64) return MG_OK;
  if (res->index >= p->ncounts[r]) {
    size_t n = res->index + 1, cap = n < 1024 ? 1024 : n * 2;
    double *c = realloc(p->counts[r], cap * sizeof *c);
    if (!c) {
      snprintf(err->msg, sizeof err->msg, "out of memory");
      return MG_ERR_NOMEM;
    }
    memset(c + p->ncounts[r], 0, (cap - p->ncounts[r]) * sizeof *c);
    p->counts[r] = c;
    p->ncounts[r] = cap;
  }
  p->counts[r][res->index] += (double)res->nitems;
  uint64_t h = 0;
  for (int s = 0; s < res->nseg; s++)
    h += (uint64_t)llabs(res->route[s].hops);
  if (h > p->hops[r]) p->hops[r] = h;
  if (r + 1 > p->nrounds) p->nrounds = (int)(r + 1);
  return MG_OK;
}

/* The recursions of Delmas, Perennes 1996 section 5.2.2 solved (src/analytic/delmas.c):
 * rounds, g_delta, g_tau on TM(n)^3, n = 7^i. */
static int expected_ok(int lng, double n, double rounds, double delta, double tau) {
  double N = n * n * n, i = round(log(n) / log(7));
  double er = lng ? 5 * i : 4 * i, ed = lng ? 13 * (n - 1) / 6 : 2 * (n - 1);
  double et = lng ? (11 * N - 7 * n - 4) / 24 : (57 * N - 49 * n - 8) / 48;
  int ok = rounds == er && delta == ed && fabs(tau - et) < 1e-9 * et;
  printf("%-11s %-16s closed form: g_alpha=%g g_delta=%g g_tau=%.10g: %s\n", lng ? "lee3d-long" : "lee3d", "", er, ed,
         et, ok ? "matches" : "DIFFERS");
  return ok;
}

static int run_full(const char *algo, const char *topo, int P) {
  mg_problem_spec pb;
  mg_err err = {{0}};
  mg_report rep;
  const mg_algo *a = mg_algo_find(algo);
  memset(&pb, 0, sizeof pb);
  pb.problem = MG_GOSSIP;
  pb.bytes = 1;
  mg_model_default(&pb.model);
  if (mg_topo_parse(topo, &pb.topo, &err) != MG_OK ||
      mg_model_parse("switching=circuit,ts=1,td=0,tl=0", &pb.model, &err))
    return 2;
  mg_status st = mg_run(a, &pb, NULL, NULL, &rep, &err);
  if (st != MG_OK) {
    printf("%-11s %-16s %s\n", algo, topo, err.msg);
    return st == MG_ERR_TOO_LARGE ? 3 : 1;
  }
  printf("%-11s %-16s verified=%d g_alpha=%lld g_delta=%llu g_tau=%.10g L  wall %.2f s  peak RSS %.0f MB\n", algo, topo,
         rep.verified, (long long)rep.rounds, (unsigned long long)rep.sum_max_hops, rep.sum_max_items / P, rep.wall_s,
         rep.peak_rss_bytes / 1048576.0);
  int ok = rep.verified &&
           expected_ok(P == 7, pb.topo.n[0], (double)rep.rounds, (double)rep.sum_max_hops, rep.sum_max_items / P);
  mg_report_free(&rep);
  return ok ? 0 : 1;
}

static int run_projected(const char *topo) {
  mg_problem_spec pb;
  mg_err err = {{0}};
  const mg_algo *a = mg_algo_find("lee3d-long");
  proj p;
  memset(&p, 0, sizeof p);
  memset(&pb, 0, sizeof pb);
  pb.problem = MG_GOSSIP;
  pb.bytes = 1;
  mg_model_default(&pb.model);
  if (mg_topo_parse(topo, &pb.topo, &err) != MG_OK ||
      mg_model_parse("switching=circuit,ts=1,td=0,tl=0", &pb.model, &err))
    return 2;
  double wall = 0, rss = 0;
  int ok = 1;
  for (uint32_t piece = 0; piece < 7 && ok; piece++) {
    mg_sim *sim;
    mg_sim_opts o;
    memset(&o, 0, sizeof o);
    o.on_resolved = proj_count;
    o.on_resolved_arg = &p;
    if (mg_sim_create(&o, &sim, &err) != MG_OK) return 2;
    p.inner = mg_sim_sink(sim);
    p.piece = piece;
    mg_sink s = {.begin = proj_begin, .round = proj_round, .end = proj_end, .ctx = &p};
    mg_status st = a->generate(&pb, NULL, &s, &err);
    const mg_report *rep = mg_sim_report(sim);
    ok = st == MG_OK && rep->verified;
    wall += rep->wall_s;
    if (rep->peak_rss_bytes > rss) rss = rep->peak_rss_bytes;
    if (!ok) printf("lee3d-long  %-16s piece %u: %s\n", topo, piece, err.msg);
    mg_sim_destroy(sim);
  }
  double tau = 0;
  uint64_t delta = 0;
  for (int r = 0; r < p.nrounds; r++) {
    double mx = 0;
    for (size_t i = 0; i < p.ncounts[r]; i++)
      if (p.counts[r][i] > mx) mx = p.counts[r][i];
    tau += mx;
    delta += p.hops[r];
    free(p.counts[r]);
  }
  printf("lee3d-long  %-16s verified=%d by 7 piece projections (P = 1 each): g_alpha=%d g_delta=%llu g_tau=%.10g L  "
         "wall %.2f s  peak RSS %.0f MB\n",
         topo, ok, p.nrounds, (unsigned long long)delta, tau / 7, wall, rss / 1048576.0);
  ok = ok && expected_ok(1, pb.topo.n[0], p.nrounds, (double)delta, tau / 7);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  int max_i = argc > 1 ? atoi(argv[1]) : 2, rc = 0;
  for (int i = 1; i <= max_i && i <= 3; i++) {
    char topo[64];
    uint32_t n = i == 1 ? 7 : i == 2 ? 49 : 343;
    snprintf(topo, sizeof topo, "torus:%ux%ux%u", n, n, n);
    for (int lng = 0; lng < 2; lng++) {
      mg_schedule_info info;
      mg_err err = {{0}};
      uint64_t need = 0;
      memset(&info, 0, sizeof info);
      info.problem = MG_GOSSIP;
      mg_topo_parse(topo, &info.topo, &err);
      info.pieces = lng ? 7 : 1;
      mg_sim_state_bytes(&info, &need, &err);
      printf("%-11s %-16s simulator state %.2f GiB (P = %u)\n", lng ? "lee3d-long" : "lee3d", topo, need / 1073741824.0,
             info.pieces);
      int r = run_full(lng ? "lee3d-long" : "lee3d", topo, lng ? 7 : 1);
      if (r == 3 && lng) r = run_projected(topo);
      if (r) rc = 1;
    }
  }
  return rc;
}
