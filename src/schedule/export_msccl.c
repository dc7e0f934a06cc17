/* The MSCCL exporter, a tap on the driver: writes the verified schedule as
 * an MSCCL algorithm, the XML that msccl-tools compiles its programs to
 * and the MSCCL runtime executes (Cowan, Maleki, Musuvathi, Saarikivi,
 * Xiong, "MSCCLang: Microsoft Collective Communication Language",
 * ASPLOS 2023):
 *
 *   <algo name=.. coll="allgather" ngpus="N" nchunksperloop=.. ...>
 *    <gpu id="g" i_chunks=.. o_chunks=.. s_chunks=..>
 *     <tb id="t" send="peer" recv="-1" chan="0">
 *      <step s="0" type="s" srcbuf="o" srcoff="5" dstbuf="o" dstoff="5" cnt="2"
 *            depid="1" deps="3" hasdep="0"/>
 *
 * One threadblock per peer channel: a GPU's sends to one peer go through
 * one threadblock (send=peer, recv=-1) and its receives from one peer
 * through another (send=-1, recv=peer), each in the schedule's order, so
 * a channel's sends and receives pair up step by step. A transfer becomes
 * one step per run of chunks that are contiguous in both the source and
 * the destination buffer. Buffers: gossip (allgather, in place) chunk
 * origin*P+piece of the output buffer "o"; exchange (alltoall) the input
 * "i" at offset destination where the block starts, the output "o" at
 * offset source where it ends, and the scratch "s" at offset
 * source*N+destination at the nodes it passes through. A send step depends
 * on exactly the receive steps that delivered, in earlier rounds, a chunk
 * it carries (dataflow.h); MSCCL gives a step one dependency (depid =
 * threadblock, deps = step), so a send with k of them is preceded by k-1
 * "nop" steps in its threadblock, one dependency each, as msccl-tools
 * does; a step another depends on has hasdep="1".
 * Written at the end, atomically, only when the schedule verified. */
#include "dataflow.h"
#include "meshgossip.h"

#include <string.h>

typedef struct ms_step {
  char type; /* 's', 'r', 'n' (nop) */
  char srcbuf, dstbuf;
  uint64_t srcoff, dstoff, cnt;
  int32_t depid, deps;
  int hasdep;
} ms_step;

typedef struct ms_tb {
  int64_t send, recv; /* peers, -1 */
  ms_step *steps;
  size_t n, cap;
} ms_tb;

typedef struct ms_gpu {
  ms_tb *tbs;
  size_t n, cap;
} ms_gpu;

typedef struct msccl_tap {
  mg_outfile out;
  mg_dataflow df;
  int have_df;
  mg_problem problem;
  uint32_t N, P;
  char name[64];
  ms_gpu *gpus;
} msccl_tap;

static mg_status nomem(mg_err *err) { return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MSCCL export"); }

static mg_status ms_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  msccl_tap *x = ctx;
  mg_status st = mg_dataflow_init(&x->df, info, "MSCCL", err);
  if (st != MG_OK) return st;
  x->have_df = 1;
  x->problem = info->problem;
  x->N = info->topo.N;
  x->P = info->pieces;
  snprintf(x->name, sizeof x->name, "%s", info->algorithm);
  x->gpus = mg_calloc(x->N, sizeof *x->gpus);
  return x->gpus ? MG_OK : nomem(err);
}

/* The threadblock of gpu g for sends to (dir 0) or receives from (1) peer. */
static mg_status tb_of(msccl_tap *x, uint32_t g, uint32_t peer, int dir, size_t *out, mg_err *err) {
  ms_gpu *gp = &x->gpus[g];
  for (size_t i = 0; i < gp->n; i++)
    if ((dir ? gp->tbs[i].recv : gp->tbs[i].send) == (int64_t)peer) return *out = i, MG_OK;
  if (gp->n >= INT32_MAX || !mg_grow((void **)&gp->tbs, &gp->cap, gp->n + 1, sizeof *gp->tbs)) return nomem(err);
  gp->tbs[gp->n] = (ms_tb){.send = dir ? -1 : (int64_t)peer, .recv = dir ? (int64_t)peer : -1};
  *out = gp->n++;
  return MG_OK;
}

static mg_status add_step(ms_tb *tb, const ms_step *s, mg_err *err) {
  if (tb->n >= INT32_MAX || !mg_grow((void **)&tb->steps, &tb->cap, tb->n + 1, sizeof *tb->steps)) return nomem(err);
  tb->steps[tb->n++] = *s;
  return MG_OK;
}

/* Where item sits at node v: buffer and offset. */
static void place(const msccl_tap *x, uint32_t v, uint64_t item, char *buf, uint64_t *off) {
  if (x->problem == MG_GOSSIP) {
    *buf = 'o', *off = item;
    return;
  }
  uint64_t s = item / x->N, t = item % x->N;
  if (s == v)
    *buf = 'i', *off = t;
  else if (t == v)
    *buf = 'o', *off = s;
  else
    *buf = 's', *off = item;
}

static mg_status ms_resolved(void *ctx, const mg_resolved *res, mg_err *err) {
  msccl_tap *x = ctx;
  uint32_t src = res->tr->src, dst = res->tr->dst;
  const uint64_t *items;
  size_t n, stb, rtb;
  mg_status st = mg_dataflow_items(&x->df, res, &items, &n, err);
  if (st == MG_OK) st = tb_of(x, src, dst, 0, &stb, err);
  if (st == MG_OK) st = tb_of(x, dst, src, 1, &rtb, err);
  for (size_t i = 0; i < n && st == MG_OK;) {
    /* one run: contiguous in both buffers */
    char sb, db, sb2, db2;
    uint64_t so, dof, so2, do2;
    place(x, src, items[i], &sb, &so);
    place(x, dst, items[i], &db, &dof);
    size_t j = i + 1;
    for (; j < n; j++) {
      place(x, src, items[j], &sb2, &so2);
      place(x, dst, items[j], &db2, &do2);
      if (sb2 != sb || db2 != db || so2 != so + (j - i) || do2 != dof + (j - i)) break;
    }
    const int64_t *deps;
    size_t nd;
    if ((st = mg_dataflow_deps(&x->df, src, items + i, j - i, &deps, &nd, err)) != MG_OK) break;
    ms_gpu *gs = &x->gpus[src];
    for (size_t k = 0; k < nd && st == MG_OK; k++) {
      /* a dependency id is (threadblock << 32 | step) of gpu src */
      size_t dtb = (size_t)(deps[k] >> 32), dstep = (size_t)(deps[k] & 0xffffffff);
      gs->tbs[dtb].steps[dstep].hasdep = 1;
      ms_step s = {.type = k + 1 < nd ? 'n' : 's', .depid = (int32_t)dtb, .deps = (int32_t)dstep};
      if (s.type == 's') s.srcbuf = sb, s.srcoff = so, s.dstbuf = db, s.dstoff = dof, s.cnt = j - i;
      st = add_step(&gs->tbs[stb], &s, err);
    }
    if (st == MG_OK && nd == 0) {
      ms_step s = {
          .type = 's', .srcbuf = sb, .srcoff = so, .dstbuf = db, .dstoff = dof, .cnt = j - i, .depid = -1, .deps = -1};
      st = add_step(&gs->tbs[stb], &s, err);
    }
    if (st != MG_OK) break;
    ms_tb *rt = &x->gpus[dst].tbs[rtb];
    ms_step s = {
        .type = 'r', .srcbuf = sb, .srcoff = so, .dstbuf = db, .dstoff = dof, .cnt = j - i, .depid = -1, .deps = -1};
    int64_t id = (int64_t)((uint64_t)rtb << 32 | rt->n);
    if ((st = add_step(rt, &s, err)) != MG_OK) break;
    for (size_t k = i; k < j && st == MG_OK; k++)
      st = mg_dataflow_deliver(&x->df, dst, items[k], id, err);
    i = j;
  }
  return st;
}

static mg_status ms_round_end(void *ctx, const mg_round *r, const mg_report *so_far, mg_err *err) {
  (void)r, (void)so_far, (void)err;
  mg_dataflow_commit(&((msccl_tap *)ctx)->df);
  return MG_OK;
}

static void put_attr(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '&')
      fputs("&amp;", f);
    else if (*s == '<')
      fputs("&lt;", f);
    else if (*s == '"')
      fputs("&quot;", f);
    else
      fputc(*s, f);
  }
}

static void ms_write(msccl_tap *x) {
  FILE *f = x->out.f;
  int ag = x->problem == MG_GOSSIP;
  uint64_t chunks = ag ? (uint64_t)x->N * x->P : x->N;
  fputs("<algo name=\"", f);
  put_attr(f, x->name);
  fprintf(f,
          "\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"%llu\" ngpus=\"%u\" coll=\"%s\" inplace=\"%d\" "
          "outofplace=\"%d\" minBytes=\"0\" maxBytes=\"0\">\n",
          (unsigned long long)chunks, x->N, ag ? "allgather" : "alltoall", ag, !ag);
  for (uint32_t g = 0; g < x->N; g++) {
    ms_gpu *gp = &x->gpus[g];
    fprintf(f, "  <gpu id=\"%u\" i_chunks=\"%llu\" o_chunks=\"%llu\" s_chunks=\"%llu\">\n", g,
            (unsigned long long)(ag ? x->P : x->N), (unsigned long long)chunks,
            (unsigned long long)(ag ? 0 : (uint64_t)x->N * x->N));
    for (size_t t = 0; t < gp->n; t++) {
      ms_tb *tb = &gp->tbs[t];
      fprintf(f, "    <tb id=\"%zu\" send=\"%lld\" recv=\"%lld\" chan=\"0\">\n", t, (long long)tb->send,
              (long long)tb->recv);
      for (size_t s = 0; s < tb->n; s++) {
        ms_step *p = &tb->steps[s];
        if (p->type == 'n')
          fprintf(f,
                  "      <step s=\"%zu\" type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" "
                  "depid=\"%d\" deps=\"%d\" hasdep=\"%d\"/>\n",
                  s, p->depid, p->deps, p->hasdep);
        else
          fprintf(f,
                  "      <step s=\"%zu\" type=\"%c\" srcbuf=\"%c\" srcoff=\"%llu\" dstbuf=\"%c\" dstoff=\"%llu\" "
                  "cnt=\"%llu\" depid=\"%d\" deps=\"%d\" hasdep=\"%d\"/>\n",
                  s, p->type, p->srcbuf, (unsigned long long)p->srcoff, p->dstbuf, (unsigned long long)p->dstoff,
                  (unsigned long long)p->cnt, p->depid, p->deps, p->hasdep);
      }
      fputs("    </tb>\n", f);
    }
    fputs("  </gpu>\n", f);
  }
  fputs("</algo>\n", f);
}

static mg_status ms_end(void *ctx, mg_status run, const mg_report *rep, mg_err *err) {
  msccl_tap *x = ctx;
  (void)rep;
  if (run == MG_OK) ms_write(x);
  mg_status st = mg_outfile_close(&x->out, run == MG_OK, err);
  if (x->have_df) mg_dataflow_free(&x->df);
  if (x->gpus) {
    for (uint32_t g = 0; g < x->N; g++) {
      for (size_t t = 0; t < x->gpus[g].n; t++)
        free(x->gpus[g].tbs[t].steps);
      free(x->gpus[g].tbs);
    }
    free(x->gpus);
  }
  free(x);
  return st;
}

mg_status mg_export_msccl_tap(const char *path, mg_tap *tap, mg_err *err) {
  msccl_tap *x = calloc(1, sizeof *x);
  if (!x) return nomem(err);
  mg_status st = mg_outfile_open(&x->out, path, err);
  if (st != MG_OK) {
    free(x);
    return st;
  }
  *tap = (mg_tap){.begin = ms_begin, .resolved = ms_resolved, .round_end = ms_round_end, .end = ms_end, .ctx = x};
  return MG_OK;
}
