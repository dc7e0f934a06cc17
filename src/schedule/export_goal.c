/* The GOAL exporter, a tap on the driver: writes the verified schedule in
 * the Group Operation Assembly Language of LogGOPSim (Hoefler, Schneider,
 * Lumsdaine, "LogGOPSim - Simulating Large-Scale Applications in the
 * LogGOPS Model", HPDC 2010), the input of LogGOPSim and ATLAHS:
 *
 *   num_ranks N
 *   rank r {
 *   l7: send 64b to 3 tag 7
 *   l9: recv 64b from 1 tag 9
 *   l7 requires l2
 *   }
 *
 * Each transfer becomes a send at its source and the matching receive at
 * its destination, both labelled l<g> and tagged g, its number in the
 * schedule (rounds in order, transfers in order), so that every pair
 * matches exactly one pair. A send `requires` exactly the receives that
 * delivered, in earlier rounds, an item it carries (dataflow.h: gossip the
 * item's first delivery, exchange its latest); items a node held from the
 * start need none. Receives have no dependency: LogGOPSim posts them at
 * once and matches by (source, tag). A message's size is its items times
 * the bytes of an item (gossip: bytes/P per piece; exchange: bytes per
 * block), rounded up to whole bytes, as GOAL sizes are integers. The
 * rounds' barriers are not written: the dependencies are the schedule's
 * only order, which is what a dataflow simulator should see.
 * Written at the end, atomically, only when the schedule verified. */
#include "dataflow.h"
#include "meshgossip.h"

#include <math.h>
#include <string.h>

typedef struct goal_op {
  uint32_t rank, peer;
  int is_send;
  uint64_t g; /* label and tag */
  uint64_t bytes;
  size_t dep0, ndep; /* into deps: the g of the receives required */
} goal_op;

typedef struct goal_tap {
  mg_outfile out;
  mg_dataflow df;
  int have_df;
  double item_bytes;
  uint32_t N;
  uint64_t g;
  goal_op *ops;
  size_t nops, capops;
  uint64_t *deps;
  size_t ndeps, capdeps;
} goal_tap;

static mg_status goal_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  goal_tap *x = ctx;
  mg_status st = mg_dataflow_init(&x->df, info, "GOAL", err);
  if (st != MG_OK) return st;
  x->have_df = 1;
  x->N = info->topo.N;
  x->item_bytes = info->problem == MG_GOSSIP ? info->bytes / info->pieces : info->bytes;
  return MG_OK;
}

static mg_status push_op(goal_tap *x, const goal_op *op, mg_err *err) {
  if (!mg_grow((void **)&x->ops, &x->capops, x->nops + 1, sizeof *x->ops))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the GOAL export");
  x->ops[x->nops++] = *op;
  return MG_OK;
}

static mg_status goal_resolved(void *ctx, const mg_resolved *res, mg_err *err) {
  goal_tap *x = ctx;
  const uint64_t *items;
  const int64_t *deps;
  size_t n, nd;
  mg_status st = mg_dataflow_items(&x->df, res, &items, &n, err);
  if (st == MG_OK) st = mg_dataflow_deps(&x->df, res->tr->src, items, n, &deps, &nd, err);
  if (st != MG_OK) return st;
  if (!mg_grow((void **)&x->deps, &x->capdeps, x->ndeps + nd + 1, sizeof *x->deps))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the GOAL export");
  double b = ceil((double)n * x->item_bytes);
  goal_op op = {.rank = res->tr->src,
                .peer = res->tr->dst,
                .is_send = 1,
                .g = x->g,
                .bytes = (uint64_t)b,
                .dep0 = x->ndeps,
                .ndep = nd};
  for (size_t i = 0; i < nd; i++)
    x->deps[x->ndeps++] = (uint64_t)deps[i];
  if ((st = push_op(x, &op, err)) != MG_OK) return st;
  op = (goal_op){.rank = res->tr->dst, .peer = res->tr->src, .is_send = 0, .g = x->g, .bytes = (uint64_t)b};
  if ((st = push_op(x, &op, err)) != MG_OK) return st;
  for (size_t i = 0; i < n && st == MG_OK; i++)
    st = mg_dataflow_deliver(&x->df, res->tr->dst, items[i], (int64_t)x->g, err);
  x->g++;
  return st;
}

static mg_status goal_round_end(void *ctx, const mg_round *r, const mg_report *so_far, mg_err *err) {
  goal_tap *x = ctx;
  (void)r, (void)so_far, (void)err;
  mg_dataflow_commit(&x->df);
  return MG_OK;
}

/* Ranks' blocks in rank order: a counting sort of the ops by rank (each
 * rank's ops keep the schedule's order). */
static mg_status goal_write(goal_tap *x, mg_err *err) {
  FILE *f = x->out.f;
  size_t *start = mg_calloc((uint64_t)x->N + 1, sizeof *start),
         *order = mg_calloc(x->nops ? x->nops : 1, sizeof *order);
  if (!start || !order) {
    free(start);
    free(order);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the GOAL export");
  }
  for (size_t i = 0; i < x->nops; i++)
    start[x->ops[i].rank + 1]++;
  for (uint32_t r = 0; r < x->N; r++)
    start[r + 1] += start[r];
  for (size_t i = 0; i < x->nops; i++)
    order[start[x->ops[i].rank]++] = i;
  fprintf(f, "num_ranks %u\n", x->N);
  size_t k = 0;
  for (uint32_t r = 0; r < x->N; r++) {
    fprintf(f, "\nrank %u {\n", r);
    size_t k0 = k;
    for (; k < x->nops && x->ops[order[k]].rank == r; k++) {
      const goal_op *op = &x->ops[order[k]];
      fprintf(f, "l%llu: %s %llub %s %u tag %llu\n", (unsigned long long)op->g, op->is_send ? "send" : "recv",
              (unsigned long long)op->bytes, op->is_send ? "to" : "from", op->peer, (unsigned long long)op->g);
    }
    for (size_t j = k0; j < k; j++) {
      const goal_op *op = &x->ops[order[j]];
      for (size_t i = 0; i < op->ndep; i++)
        fprintf(f, "l%llu requires l%llu\n", (unsigned long long)op->g, (unsigned long long)x->deps[op->dep0 + i]);
    }
    fputs("}\n", f);
  }
  free(start);
  free(order);
  return MG_OK;
}

static mg_status goal_end(void *ctx, mg_status run, const mg_report *rep, mg_err *err) {
  goal_tap *x = ctx;
  (void)rep;
  mg_status st = run == MG_OK ? goal_write(x, err) : MG_OK;
  mg_status cst = mg_outfile_close(&x->out, run == MG_OK && st == MG_OK, st == MG_OK ? err : NULL);
  if (st == MG_OK) st = cst;
  if (x->have_df) mg_dataflow_free(&x->df);
  free(x->ops);
  free(x->deps);
  free(x);
  return st;
}

mg_status mg_export_goal_tap(const char *path, mg_tap *tap, mg_err *err) {
  goal_tap *x = calloc(1, sizeof *x);
  if (!x) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the GOAL export");
  mg_status st = mg_outfile_open(&x->out, path, err);
  if (st != MG_OK) {
    free(x);
    return st;
  }
  *tap =
      (mg_tap){.begin = goal_begin, .resolved = goal_resolved, .round_end = goal_round_end, .end = goal_end, .ctx = x};
  return MG_OK;
}
