/* The MSCCL reader: an algorithm in the XML that msccl-tools compiles its
 * programs to and the MSCCL runtime executes (Cowan, Maleki, Musuvathi,
 * Saarikivi, Xiong, "MSCCLang: Microsoft Collective Communication
 * Language", ASPLOS 2023), turned into our rounds on a machine the user
 * names, so that schedules made by other tools are verified and priced by
 * the one driver exactly as a JSON schedule is.
 *
 *   <algo name=.. coll="allgather|alltoall" ngpus="N" nchunksperloop=.. inplace=..>
 *    <gpu id="g" i_chunks=.. o_chunks=.. s_chunks=..>
 *     <tb id="t" send="peer|-1" recv="peer|-1" chan="c">
 *      <step s="k" type="s|r|rcs|cpy|nop" srcbuf=.. srcoff=.. dstbuf=.. dstoff=..
 *            cnt=.. depid="tb|-1" deps="step|-1" hasdep=../>
 *
 * The XML is parsed by expat with no DTD (a DOCTYPE is refused, so there
 * are no entities to expand) and every attribute is checked before use:
 * ids and offsets are whole numbers in range, buffers are i/o/s, an offset
 * plus its count stays in its buffer. Unknown attributes are ignored
 * (outofplace, minBytes, maxBytes, proto, nchannels: the runtime's), unknown
 * elements refused. Reductions (re, rrc, rrs, rrcs) are not in allgather or
 * alltoall and are refused.
 *
 * Pairing: the k-th send half (s, rcs) of gpu g's threadblock sending to p
 * on channel c is the k-th receive half (r, rcs) of gpu p's threadblock
 * receiving from g on channel c (one threadblock per peer and channel on
 * each side, as the runtime's connections are). A send without its
 * receive, a peer out of range or itself, a count that differs between
 * the halves: malformed.
 *
 * Rounds (as soon as the dependencies allow): a transfer goes in the round
 * after the latest of (a) the step its send names in depid/deps, (b) the
 * step its receive names, (c) the nops' dependencies just before either
 * step, (d) the receive of an rcs that forwards it, and (e) the previous
 * step of either threadblock. A send is posted, not awaited (the runtime's
 * connections buffer it), so a threadblock may receive in the round it
 * sends; a send that follows a send of the same threadblock (a receive
 * that follows a receive) may go in the same round: it continues that
 * channel's message. Everything one gpu sends to one peer in a round is
 * one message. A copy (cpy) is done between rounds, after the latest step
 * it waits for. A cycle in these rules is malformed (the runtime would
 * deadlock).
 *
 * Items: the chunks in every buffer slot are tracked round by round.
 * Initially gpu g's input holds its own data (allgather: chunk g*C+k of
 * C chunks per gpu, our item origin*P + piece with P = C; alltoall: block
 * (g, t) at input offset t, one chunk per block) and, for an in-place
 * algorithm, so do those slots of its output. A transfer carries the items
 * in the slots its send reads, and the receive writes them at its own
 * offsets. Sending a slot that holds nothing yet is the reader's violation
 * (the runtime would send garbage); so is ending with an output chunk that
 * is not the collective's (allgather: o[k] = item k at every gpu;
 * alltoall: o[s] at gpu t = block (s, t)). Every other rule (ports, arcs,
 * routes, holdings, completeness) and the price are the simulator's, on
 * the default routes of the machine (MSCCL names no routes). */
#include "msccl_file.h"

#include <expat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_SEND, K_RECV, K_RCS, K_CPY, K_NOP };
#define NONE_SLOT  UINT64_MAX
#define MAX_CHUNKS (1ull << 40)

typedef struct ms_step {
  uint8_t kind;
  char srcbuf, dstbuf;
  uint32_t gpu, tb, idx;
  int64_t srcoff, dstoff, cnt;
  int64_t depid, deps;
  int64_t dep;      /* global index of the step depended on, -1 */
  int64_t prev;     /* previous step of the threadblock, -1 */
  int64_t prevreal; /* previous step that is not a nop, -1 */
  int64_t to, from; /* paired receive half / send half, -1 */
} ms_step;

typedef struct ms_tb {
  int64_t send, recv, chan;
  uint32_t gpu, id;
  size_t first, n;
} ms_tb;

typedef struct ms_gpu {
  uint64_t nchunks[3]; /* i, o, s */
  size_t first_tb, ntb;
  uint64_t *slot[3];
} ms_gpu;

struct mg_msccl {
  char name[64];
  mg_schedule_info info;
  uint64_t limit, used;
  /* parse */
  XML_Parser xp;
  int depth, seen_algo;
  char perr[MG_ERR_LEN];
  mg_status pst;
  int64_t ngpus, nchunksperloop;
  int inplace, gossip;
  uint32_t cur_gpu;
  ms_gpu *gpus;
  uint32_t ngpu_seen;
  ms_tb *tbs;
  size_t ntb, captb;
  ms_step *steps;
  size_t nsteps, capsteps;
  /* derived */
  uint64_t C; /* chunks per gpu (allgather) */
  int64_t *val;
  uint8_t *color;
  int64_t *order; /* finish order of the D nodes (topological) */
  int64_t nrounds;
  mg_violation viol;
};

static int buf_index(char b) { return b == 'i' ? 0 : b == 'o' ? 1 : b == 's' ? 2 : -1; }

/* Records the first parse error and stops expat. */
static void perr(mg_msccl *m, mg_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void perr(mg_msccl *m, mg_status st, const char *fmt, ...) {
  if (m->pst != MG_OK) return;
  va_list ap;
  va_start(ap, fmt);
  char msg[200];
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(m->perr, sizeof m->perr, "%s: line %lu: %s", m->name, (unsigned long)XML_GetCurrentLineNumber(m->xp), msg);
  m->pst = st;
  XML_StopParser(m->xp, XML_FALSE);
}

static const char *attr(const XML_Char **a, const char *name) {
  for (; a[0]; a += 2)
    if (!strcmp(a[0], name)) return a[1];
  return NULL;
}

/* A whole-number attribute in [lo, hi]; 0 (after perr) if missing or bad. */
static int int_attr(mg_msccl *m, const char *el, const XML_Char **a, const char *name, int64_t lo, int64_t hi,
                    int64_t *out) {
  const char *s = attr(a, name);
  if (!s) return perr(m, MG_ERR_INVALID, "<%s> has no %s", el, name), 0;
  int64_t v;
  if (!mg_parse_i64(s, &v) || v < lo || v > hi)
    return perr(m, MG_ERR_INVALID, "<%s %s=\"%.40s\">: expected a whole number in [%lld, %lld]", el, name, s,
                (long long)lo, (long long)hi),
           0;
  *out = v;
  return 1;
}

static int charge(mg_msccl *m, uint64_t bytes) {
  if (bytes > m->limit || m->used > m->limit - bytes) {
    char b[32];
    perr(m, MG_ERR_TOO_LARGE, "holding the algorithm would pass the memory limit of %s",
         mg_fmt_bytes(m->limit, b, sizeof b));
    return 0;
  }
  m->used += bytes;
  return 1;
}

static void on_algo(mg_msccl *m, const XML_Char **a) {
  const char *coll = attr(a, "coll"), *name = attr(a, "name"), *ip = attr(a, "inplace");
  if (!coll) return perr(m, MG_ERR_INVALID, "<algo> has no coll");
  if (!strcmp(coll, "allgather"))
    m->gossip = 1;
  else if (!strcmp(coll, "alltoall"))
    m->gossip = 0;
  else
    return perr(m, MG_ERR_UNSUPPORTED, "coll \"%.40s\": only allgather (gossip) and alltoall (exchange) are read",
                coll);
  if (!int_attr(m, "algo", a, "ngpus", 1, MG_MAX_NODES, &m->ngpus)) return;
  if (m->ngpus != (int64_t)m->info.topo.N)
    return perr(m, MG_ERR_INVALID, "the algorithm has %lld GPUs, the topology %u nodes", (long long)m->ngpus,
                m->info.topo.N);
  m->nchunksperloop = -1;
  if (attr(a, "nchunksperloop") &&
      !int_attr(m, "algo", a, "nchunksperloop", 1, (int64_t)MAX_CHUNKS, &m->nchunksperloop))
    return;
  m->inplace = ip && !strcmp(ip, "1");
  if (ip && strcmp(ip, "0") && strcmp(ip, "1")) return perr(m, MG_ERR_INVALID, "<algo inplace>: expected 0 or 1");
  snprintf(m->info.algorithm, sizeof m->info.algorithm, "%s", name && *name ? name : "msccl");
  if (!charge(m, (uint64_t)m->ngpus * sizeof(ms_gpu))) return;
  m->gpus = mg_calloc((uint64_t)m->ngpus, sizeof *m->gpus);
  if (!m->gpus) return perr(m, MG_ERR_NOMEM, "out of memory");
}

static void on_gpu(mg_msccl *m, const XML_Char **a) {
  int64_t id, c[3];
  if (!int_attr(m, "gpu", a, "id", 0, m->ngpus - 1, &id)) return;
  if (id != (int64_t)m->ngpu_seen)
    return perr(m, MG_ERR_INVALID, "<gpu id=\"%lld\"> where gpu %u was expected (ids in order)", (long long)id,
                m->ngpu_seen);
  static const char *const nm[3] = {"i_chunks", "o_chunks", "s_chunks"};
  for (int k = 0; k < 3; k++)
    if (!int_attr(m, "gpu", a, nm[k], 0, (int64_t)MAX_CHUNKS, &c[k])) return;
  ms_gpu *g = &m->gpus[id];
  for (int k = 0; k < 3; k++)
    g->nchunks[k] = (uint64_t)c[k];
  g->first_tb = m->ntb;
  m->cur_gpu = (uint32_t)id;
  m->ngpu_seen++;
}

static void on_tb(mg_msccl *m, const XML_Char **a) {
  int64_t id, send, recv, chan;
  ms_gpu *g = &m->gpus[m->cur_gpu];
  if (!int_attr(m, "tb", a, "id", 0, INT32_MAX, &id) || !int_attr(m, "tb", a, "send", -1, m->ngpus - 1, &send) ||
      !int_attr(m, "tb", a, "recv", -1, m->ngpus - 1, &recv) || !int_attr(m, "tb", a, "chan", 0, INT32_MAX, &chan))
    return;
  if (id != (int64_t)g->ntb)
    return perr(m, MG_ERR_INVALID, "gpu %u: <tb id=\"%lld\"> where tb %zu was expected (ids in order)", m->cur_gpu,
                (long long)id, g->ntb);
  if (send == (int64_t)m->cur_gpu || recv == (int64_t)m->cur_gpu)
    return perr(m, MG_ERR_INVALID, "gpu %u tb %lld: a peer is the gpu itself", m->cur_gpu, (long long)id);
  if (!charge(m, sizeof(ms_tb)) || !mg_grow((void **)&m->tbs, &m->captb, m->ntb + 1, sizeof *m->tbs)) {
    if (m->pst == MG_OK) perr(m, MG_ERR_NOMEM, "out of memory");
    return;
  }
  m->tbs[m->ntb++] =
      (ms_tb){.send = send, .recv = recv, .chan = chan, .gpu = m->cur_gpu, .id = (uint32_t)id, .first = m->nsteps};
  g->ntb++;
}

static void on_step(mg_msccl *m, const XML_Char **a) {
  ms_tb *t = &m->tbs[m->ntb - 1];
  ms_step s;
  memset(&s, 0, sizeof s);
  int64_t idx;
  if (!int_attr(m, "step", a, "s", 0, INT32_MAX, &idx)) return;
  if (idx != (int64_t)t->n)
    return perr(m, MG_ERR_INVALID, "gpu %u tb %u: <step s=\"%lld\"> where step %zu was expected (in order)", t->gpu,
                t->id, (long long)idx, t->n);
  const char *ty = attr(a, "type");
  if (!ty) return perr(m, MG_ERR_INVALID, "<step> has no type");
  if (!strcmp(ty, "s"))
    s.kind = K_SEND;
  else if (!strcmp(ty, "r"))
    s.kind = K_RECV;
  else if (!strcmp(ty, "rcs"))
    s.kind = K_RCS;
  else if (!strcmp(ty, "cpy"))
    s.kind = K_CPY;
  else if (!strcmp(ty, "nop"))
    s.kind = K_NOP;
  else if (!strcmp(ty, "re") || !strcmp(ty, "rrc") || !strcmp(ty, "rrs") || !strcmp(ty, "rrcs"))
    return perr(m, MG_ERR_UNSUPPORTED, "gpu %u tb %u step %lld: type \"%s\" reduces: allgather and alltoall do not",
                t->gpu, t->id, (long long)idx, ty);
  else
    return perr(m, MG_ERR_INVALID, "gpu %u tb %u step %lld: unknown type \"%.20s\"", t->gpu, t->id, (long long)idx, ty);
  const char *sb = attr(a, "srcbuf"), *db = attr(a, "dstbuf");
  if (!sb || !db || strlen(sb) != 1 || strlen(db) != 1 || buf_index(sb[0]) < 0 || buf_index(db[0]) < 0)
    return perr(m, MG_ERR_INVALID, "gpu %u tb %u step %lld: srcbuf and dstbuf must be i, o or s", t->gpu, t->id,
                (long long)idx);
  s.srcbuf = sb[0], s.dstbuf = db[0];
  if (!int_attr(m, "step", a, "srcoff", -1, (int64_t)MAX_CHUNKS, &s.srcoff) ||
      !int_attr(m, "step", a, "dstoff", -1, (int64_t)MAX_CHUNKS, &s.dstoff) ||
      !int_attr(m, "step", a, "cnt", 0, (int64_t)MAX_CHUNKS, &s.cnt) ||
      !int_attr(m, "step", a, "depid", -1, INT32_MAX, &s.depid) ||
      !int_attr(m, "step", a, "deps", -1, INT32_MAX, &s.deps))
    return;
  const char *hd = attr(a, "hasdep");
  if (hd && strcmp(hd, "0") && strcmp(hd, "1")) return perr(m, MG_ERR_INVALID, "<step hasdep>: expected 0 or 1");
  s.gpu = t->gpu, s.tb = (uint32_t)(m->ntb - 1), s.idx = (uint32_t)idx;
  s.dep = s.prev = s.prevreal = s.to = s.from = -1;
  if (!charge(m, sizeof(ms_step) + 3 * sizeof(int64_t) + 3) ||
      !mg_grow((void **)&m->steps, &m->capsteps, m->nsteps + 1, sizeof *m->steps)) {
    if (m->pst == MG_OK) perr(m, MG_ERR_NOMEM, "out of memory");
    return;
  }
  m->steps[m->nsteps++] = s;
  t->n++;
}

static void XMLCALL on_start(void *ud, const XML_Char *el, const XML_Char **a) {
  mg_msccl *m = ud;
  static const char *const want[4] = {"algo", "gpu", "tb", "step"};
  if (m->pst != MG_OK) return; /* stopped: expat may still call back */
  if (m->depth >= 4) return perr(m, MG_ERR_INVALID, "<%.20s> inside <step>", el);
  if (strcmp(el, want[m->depth])) {
    if (m->depth == 3 && !strcmp(el, "op"))
      return perr(m, MG_ERR_UNSUPPORTED, "<op>: the new msccl-tools format; export with old_format (<step>)");
    return perr(m, MG_ERR_INVALID, "<%.20s> where <%s> was expected", el, want[m->depth]);
  }
  if (m->depth == 0 && m->seen_algo) return perr(m, MG_ERR_INVALID, "a second <algo>");
  switch (m->depth) {
  case 0: m->seen_algo = 1, on_algo(m, a); break;
  case 1:
    if (m->ngpu_seen >= (uint64_t)m->ngpus) return perr(m, MG_ERR_INVALID, "more than ngpus <gpu> elements");
    on_gpu(m, a);
    break;
  case 2: on_tb(m, a); break;
  default: on_step(m, a); break;
  }
  m->depth++;
}

static void XMLCALL on_end(void *ud, const XML_Char *el) {
  (void)el;
  mg_msccl *m = ud;
  if (m->depth > 0) m->depth--;
}

static void XMLCALL on_doctype(void *ud, const XML_Char *name, const XML_Char *sys, const XML_Char *pub, int subset) {
  (void)name, (void)sys, (void)pub, (void)subset;
  perr(ud, MG_ERR_INVALID, "a DOCTYPE is not accepted");
}

static mg_status fail(mg_err *err, mg_status st, const mg_msccl *m, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static mg_status fail(mg_err *err, mg_status st, const mg_msccl *m, const char *fmt, ...) {
  char msg[240];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return mg_fail(err, st, "%s: %s", m->name, msg);
}

/* ---- checks after the parse ------------------------------------------ */

/* The slots [off, off+cnt) of buffer b at gpu g exist. */
static int in_buf(const mg_msccl *m, uint32_t g, char b, int64_t off, int64_t cnt) {
  return off >= 0 && (uint64_t)off + (uint64_t)cnt <= m->gpus[g].nchunks[buf_index(b)];
}

typedef struct chan_key {
  uint32_t src, dst;
  int64_t chan;
  size_t tb;
} chan_key;

static int key_cmp(const void *x, const void *y) {
  const chan_key *a = x, *b = y;
  if (a->src != b->src) return a->src < b->src ? -1 : 1;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  return a->chan < b->chan ? -1 : a->chan > b->chan;
}

static int is_send_half(const ms_step *s) { return s->kind == K_SEND || s->kind == K_RCS; }
static int is_recv_half(const ms_step *s) { return s->kind == K_RECV || s->kind == K_RCS; }

static mg_status check_steps(mg_msccl *m, mg_err *err) {
  for (size_t t = 0; t < m->ntb; t++) {
    ms_tb *tb = &m->tbs[t];
    int64_t prev = -1, prevreal = -1;
    for (size_t k = 0; k < tb->n; k++) {
      size_t i = tb->first + k;
      ms_step *s = &m->steps[i];
      s->prev = prev, s->prevreal = prevreal;
      prev = (int64_t)i;
      if (s->kind != K_NOP) prevreal = (int64_t)i;
      const char *where = "";
      char w[96];
      snprintf(w, sizeof w, "gpu %u tb %u step %u", s->gpu, tb->id, s->idx);
      where = w;
      if (s->depid >= 0) {
        ms_gpu *g = &m->gpus[s->gpu];
        if ((uint64_t)s->depid >= g->ntb)
          return fail(err, MG_ERR_INVALID, m, "%s: depid %lld: gpu %u has %zu threadblocks", where, (long long)s->depid,
                      s->gpu, g->ntb);
        ms_tb *dt = &m->tbs[g->first_tb + (size_t)s->depid];
        if (s->deps < 0 || (uint64_t)s->deps >= dt->n)
          return fail(err, MG_ERR_INVALID, m, "%s: deps %lld: tb %lld has %zu steps", where, (long long)s->deps,
                      (long long)s->depid, dt->n);
        s->dep = (int64_t)(dt->first + (size_t)s->deps);
      }
      if (is_send_half(s) && tb->send < 0)
        return fail(err, MG_ERR_INVALID, m, "%s: a send in a threadblock with send=\"-1\"", where);
      if (is_recv_half(s) && tb->recv < 0)
        return fail(err, MG_ERR_INVALID, m, "%s: a receive in a threadblock with recv=\"-1\"", where);
      if (s->kind != K_NOP && s->cnt < 1) return fail(err, MG_ERR_INVALID, m, "%s: cnt must be at least 1", where);
      int ok = 1;
      if (s->kind == K_SEND || s->kind == K_CPY) ok = in_buf(m, s->gpu, s->srcbuf, s->srcoff, s->cnt);
      if (ok && (is_recv_half(s) || s->kind == K_CPY)) ok = in_buf(m, s->gpu, s->dstbuf, s->dstoff, s->cnt);
      /* a send names where it lands on its peer (msccl-tools writes the
       * receiver's buffer and offset): that too must be inside */
      if (ok && s->kind == K_SEND && s->dstoff >= 0 && tb->send >= 0 && tb->send < m->ngpus)
        ok = in_buf(m, (uint32_t)tb->send, s->dstbuf, s->dstoff, s->cnt);
      if (!ok)
        return fail(err, MG_ERR_INVALID, m, "%s: an offset plus cnt %lld is outside its buffer at gpu %u", where,
                    (long long)s->cnt, s->gpu);
    }
  }
  return MG_OK;
}

/* Pairs every send half with its receive half, channel by channel. */
static mg_status pair_steps(mg_msccl *m, mg_err *err) {
  mg_status st = MG_OK;
  size_t ns = 0, nr = 0;
  chan_key *S = mg_calloc(m->ntb + 1, sizeof *S), *R = mg_calloc(m->ntb + 1, sizeof *R);
  if (!S || !R) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
    goto out;
  }
  for (size_t t = 0; t < m->ntb; t++) {
    ms_tb *tb = &m->tbs[t];
    if (tb->send >= 0) S[ns++] = (chan_key){tb->gpu, (uint32_t)tb->send, tb->chan, t};
    if (tb->recv >= 0) R[nr++] = (chan_key){(uint32_t)tb->recv, tb->gpu, tb->chan, t};
  }
  qsort(S, ns, sizeof *S, key_cmp);
  qsort(R, nr, sizeof *R, key_cmp);
  for (size_t k = 1; k < ns; k++)
    if (!key_cmp(&S[k - 1], &S[k])) {
      st = fail(err, MG_ERR_INVALID, m, "gpu %u: two threadblocks send to %u on channel %lld", S[k].src, S[k].dst,
                (long long)S[k].chan);
      goto out;
    }
  for (size_t k = 1; k < nr; k++)
    if (!key_cmp(&R[k - 1], &R[k])) {
      st = fail(err, MG_ERR_INVALID, m, "gpu %u: two threadblocks receive from %u on channel %lld", R[k].dst, R[k].src,
                (long long)R[k].chan);
      goto out;
    }
  size_t i = 0, j = 0;
  while (i < ns || j < nr) {
    int c = i == ns ? 1 : j == nr ? -1 : key_cmp(&S[i], &R[j]);
    ms_tb *a = c <= 0 ? &m->tbs[S[i].tb] : NULL, *b = c >= 0 ? &m->tbs[R[j].tb] : NULL;
    size_t ka = 0, kb = 0;
    for (;;) {
      while (a && ka < a->n && !is_send_half(&m->steps[a->first + ka]))
        ka++;
      while (b && kb < b->n && !is_recv_half(&m->steps[b->first + kb]))
        kb++;
      int more_a = a && ka < a->n, more_b = b && kb < b->n;
      if (!more_a && !more_b) break;
      if (more_a && !more_b) {
        const ms_step *s = &m->steps[a->first + ka];
        st = fail(err, MG_ERR_INVALID, m,
                  "unpaired send: gpu %u tb %u step %u sends to %lld on channel %lld, which "
                  "has no receive left for it",
                  s->gpu, a->id, s->idx, (long long)a->send, (long long)a->chan);
        goto out;
      }
      if (!more_a) {
        const ms_step *s = &m->steps[b->first + kb];
        st = fail(err, MG_ERR_INVALID, m,
                  "unpaired receive: gpu %u tb %u step %u receives from %lld on channel "
                  "%lld, which sends nothing more",
                  s->gpu, b->id, s->idx, (long long)b->recv, (long long)b->chan);
        goto out;
      }
      ms_step *x = &m->steps[a->first + ka], *y = &m->steps[b->first + kb];
      if (x->cnt != y->cnt) {
        st = fail(err, MG_ERR_INVALID, m, "gpu %u tb %u step %u sends cnt %lld, gpu %u tb %u step %u receives %lld",
                  x->gpu, a->id, x->idx, (long long)x->cnt, y->gpu, b->id, y->idx, (long long)y->cnt);
        goto out;
      }
      x->to = (int64_t)(b->first + kb);
      y->from = (int64_t)(a->first + ka);
      ka++, kb++;
    }
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
out:
  free(S);
  free(R);
  return st;
}

/* ---- rounds ------------------------------------------------------------
 * Nodes, each the max over its predecessors of (value + weight):
 *   D(x) = x       the round by which step x is done (what depid waits for;
 *                  a send is done when its transfer is);
 *   T(x) = n + x   for a receive half: the round of the transfer it takes;
 *   I(x) = 2n + x  for a send half: the first round it may go (a send is
 *                  posted, not awaited: its threadblock moves on);
 *   N(x) = 3n + x  for a nop: the latest dependency of the nops before x.
 * T's and I's are at least 1; D of a copy or nop is 0 with nothing before. */
typedef struct pred {
  int64_t node;
  int w;
} pred;

/* The constraints of step y's threadblock order and own dependencies on
 * its transfer (sender: y's send half, else its receive half). */
static int side_preds(const mg_msccl *m, int64_t y, int sender, pred *p, int np) {
  int64_t n = (int64_t)m->nsteps;
  const ms_step *s = &m->steps[y];
  if (s->dep >= 0) p[np++] = (pred){s->dep, 1};
  if (s->prev >= 0 && m->steps[s->prev].kind == K_NOP) p[np++] = (pred){3 * n + s->prev, 1};
  if (s->prevreal >= 0) {
    int64_t q = s->prevreal;
    int k = m->steps[q].kind;
    if (k == K_SEND || k == K_RCS) /* posted: a later send continues the channel's message, a receive may overlap */
      p[np++] = (pred){2 * n + q, 0};
    else if (k == K_RECV) /* a send after a receive may forward it; receives continue the message */
      p[np++] = (pred){n + q, sender ? 1 : 0};
    else /* a copy is done between rounds */
      p[np++] = (pred){q, 1};
  }
  return np;
}

static int preds(const mg_msccl *m, int64_t v, pred *p) {
  int64_t n = (int64_t)m->nsteps, x = v % n;
  const ms_step *s = &m->steps[x];
  int np = 0;
  switch (v / n) {
  case 0: /* D */
    if (s->kind == K_SEND || s->kind == K_RCS)
      p[np++] = (pred){n + s->to, 0};
    else if (s->kind == K_RECV)
      p[np++] = (pred){n + x, 0};
    else {
      if (s->prev >= 0) p[np++] = (pred){s->prev, 0};
      if (s->dep >= 0) p[np++] = (pred){s->dep, 0};
    }
    break;
  case 1: /* T: x receives what s->from sends */
    p[np++] = (pred){2 * n + s->from, 0};
    np = side_preds(m, x, 0, p, np);
    break;
  case 2: /* I */
    np = side_preds(m, x, 1, p, np);
    if (s->kind == K_RCS) p[np++] = (pred){n + x, 1};
    break;
  default: /* N */
    if (s->dep >= 0) p[np++] = (pred){s->dep, 0};
    if (s->prev >= 0 && m->steps[s->prev].kind == K_NOP) p[np++] = (pred){3 * n + s->prev, 0};
    break;
  }
  return np;
}

static int is_node(const mg_msccl *m, int64_t v) {
  int64_t n = (int64_t)m->nsteps;
  const ms_step *s = &m->steps[v % n];
  switch (v / n) {
  case 0: return 1;
  case 1: return is_recv_half(s);
  case 2: return is_send_half(s);
  default: return s->kind == K_NOP;
  }
}

static mg_status derive_rounds(mg_msccl *m, mg_err *err) {
  mg_status st = MG_OK;
  int64_t n = (int64_t)m->nsteps, nodes = 4 * n, nd = 0;
  int64_t *stack = NULL;
  uint8_t *next = NULL;
  if (!charge(m, (uint64_t)nodes * (2 * sizeof(int64_t) + 2) + (uint64_t)n * sizeof(int64_t))) {
    st = mg_fail(err, m->pst, "%s", m->perr);
    goto out;
  }
  m->val = mg_calloc((uint64_t)nodes + 1, sizeof *m->val);
  m->color = mg_calloc((uint64_t)nodes + 1, 1);
  m->order = mg_calloc((uint64_t)n + 1, sizeof *m->order);
  stack = mg_calloc((uint64_t)nodes + 1, sizeof *stack);
  next = mg_calloc((uint64_t)nodes + 1, 1);
  if (!m->val || !m->color || !m->order || !stack || !next) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
    goto out;
  }
  for (int64_t root = 0; root < 3 * n; root++) {
    if (m->color[root] || !is_node(m, root)) continue;
    int64_t sp = 0;
    stack[sp++] = root;
    m->color[root] = 1;
    next[root] = 0;
    while (sp) {
      int64_t v = stack[sp - 1];
      pred p[8];
      int np = preds(m, v, p);
      if (next[v] < np) {
        int64_t u = p[next[v]++].node;
        if (m->color[u] == 1) {
          const ms_step *s = &m->steps[u % n];
          st = fail(err, MG_ERR_INVALID, m, "a cycle in the dependencies through gpu %u tb %u step %u", s->gpu,
                    m->tbs[s->tb].id, s->idx);
          goto out;
        }
        if (!m->color[u]) {
          m->color[u] = 1;
          next[u] = 0;
          stack[sp++] = u;
        }
        continue;
      }
      int64_t best = v >= n && v < 3 * n ? 1 : 0;
      for (int k = 0; k < np; k++) {
        int64_t c = m->val[p[k].node] + p[k].w;
        if (c > best) best = c;
      }
      m->val[v] = best;
      m->color[v] = 2;
      if (v < n) m->order[nd++] = v;
      if (v >= n && v < 2 * n && best > m->nrounds) m->nrounds = best;
      sp--;
    }
  }
out:
  free(stack);
  free(next);
  return st;
}

/* ---- items ------------------------------------------------------------- */

static mg_status init_slots(mg_msccl *m, mg_err *err) {
  uint32_t N = m->info.topo.N;
  for (uint32_t g = 0; g < N; g++) {
    ms_gpu *gp = &m->gpus[g];
    for (int b = 0; b < 3; b++) {
      if (!charge(m, gp->nchunks[b] * sizeof(uint64_t))) return mg_fail(err, m->pst, "%s", m->perr);
      gp->slot[b] = malloc((size_t)(gp->nchunks[b] ? gp->nchunks[b] : 1) * sizeof(uint64_t));
      if (!gp->slot[b]) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
      for (uint64_t k = 0; k < gp->nchunks[b]; k++)
        gp->slot[b][k] = NONE_SLOT;
    }
    uint64_t own = m->gossip ? m->C : N, base = m->gossip ? (uint64_t)g * m->C : 0;
    if (gp->nchunks[1] < (m->gossip ? (uint64_t)N * m->C : N))
      return fail(err, MG_ERR_INVALID, m, "gpu %u: o_chunks %llu is smaller than the output (%llu chunks)", g,
                  (unsigned long long)gp->nchunks[1], (unsigned long long)(m->gossip ? (uint64_t)N * m->C : N));
    if (gp->nchunks[0] < own && !m->inplace)
      return fail(err, MG_ERR_INVALID, m, "gpu %u: i_chunks %llu is smaller than its data (%llu chunks)", g,
                  (unsigned long long)gp->nchunks[0], (unsigned long long)own);
    for (uint64_t k = 0; k < own; k++) {
      uint64_t item = m->gossip ? base + k : (uint64_t)g * N + k;
      if (k < gp->nchunks[0]) gp->slot[0][k] = item;
      /* in place: the input is the output's own part (allgather) or the
       * whole output (alltoall) */
      if (m->inplace) gp->slot[1][m->gossip ? base + k : k] = item;
    }
  }
  return MG_OK;
}

static void violate(mg_msccl *m, mg_rule rule, int64_t round, int64_t node, int64_t item, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void violate(mg_msccl *m, mg_rule rule, int64_t round, int64_t node, int64_t item, const char *fmt, ...) {
  mg_violation *v = &m->viol;
  memset(v, 0, sizeof *v);
  v->rule = rule, v->round = round, v->node = node, v->item = item;
  v->xfer[0] = v->xfer[1] = -1, v->arc_node = -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->msg, sizeof v->msg, fmt, ap);
  va_end(ap);
}

static int u64_cmp(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

/* Transfers of a round in (src, dst) order: receive steps sorted. */
typedef struct xref {
  uint32_t src, dst;
  int64_t recv;
} xref;

static int xref_cmp(const void *x, const void *y) {
  const xref *a = x, *b = y;
  if (a->src != b->src) return a->src < b->src ? -1 : 1;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  return a->recv < b->recv ? -1 : a->recv > b->recv;
}

static int64_t d_of(const mg_msccl *m, int64_t x) { return m->val[x]; }

static mg_status local_steps(mg_msccl *m, const int64_t *loc, size_t nloc, size_t *li, int64_t r, mg_err *err) {
  (void)err;
  for (; *li < nloc && d_of(m, loc[*li]) <= r; (*li)++) {
    const ms_step *s = &m->steps[loc[*li]];
    ms_gpu *g = &m->gpus[s->gpu];
    uint64_t *src = g->slot[buf_index(s->srcbuf)], *dst = g->slot[buf_index(s->dstbuf)];
    /* memmove: a copy within one buffer may overlap */
    memmove(dst + s->dstoff, src + s->srcoff, (size_t)s->cnt * sizeof(uint64_t));
  }
  return MG_OK;
}

mg_status mg_msccl_generate(void *arg, mg_sink *sink, mg_err *err) {
  mg_msccl *m = arg;
  mg_status st = MG_OK;
  int64_t n = (int64_t)m->nsteps;
  size_t nx = 0, nloc = 0, li = 0, cap = 0;
  xref *xs = NULL;
  int64_t *loc = NULL, *start = NULL;
  uint64_t *items = NULL, *pending = NULL;
  size_t npending = 0, cappending = 0;
  mg_round rd;
  mg_round_init(&rd);
  memset(&m->viol, 0, sizeof m->viol);
  for (int64_t x = 0; x < n; x++) {
    if (is_recv_half(&m->steps[x])) nx++;
    if (m->steps[x].kind == K_CPY) nloc++;
  }
  xs = mg_calloc(nx + 1, sizeof *xs);
  loc = mg_calloc(nloc + 1, sizeof *loc);
  start = mg_calloc((uint64_t)m->nrounds + 2, sizeof *start);
  if (!xs || !loc || !start) goto nomem;
  /* transfers bucketed by round, then (src, dst) */
  for (int64_t x = 0; x < n; x++)
    if (is_recv_half(&m->steps[x])) start[m->val[n + x]]++;
  for (int64_t r = 1; r <= m->nrounds + 1; r++)
    start[r] += start[r - 1];
  for (int64_t x = n - 1; x >= 0; x--)
    if (is_recv_half(&m->steps[x])) {
      const ms_step *s = &m->steps[x];
      xs[--start[m->val[n + x]]] = (xref){m->steps[s->from].gpu, s->gpu, x};
    }
  /* local copies in topological order, stably by round */
  size_t k = 0;
  for (int64_t i = 0; i < n; i++)
    if (m->steps[m->order[i]].kind == K_CPY) loc[k++] = m->order[i];
  for (size_t i = 1; i < nloc; i++) { /* insertion sort by round: stable */
    int64_t v = loc[i];
    size_t j = i;
    while (j > 0 && d_of(m, loc[j - 1]) > d_of(m, v)) {
      loc[j] = loc[j - 1];
      j--;
    }
    loc[j] = v;
  }
  MG_CHECK(sink->begin(sink->ctx, &m->info, err));
  MG_CHECK(local_steps(m, loc, nloc, &li, 0, err));
  for (int64_t r = 1; r <= m->nrounds; r++) {
    size_t lo = (size_t)start[r], hi = (size_t)start[r + 1];
    qsort(xs + lo, hi - lo, sizeof *xs, xref_cmp);
    mg_round_clear(&rd);
    npending = 0;
    for (size_t i = lo; i < hi;) {
      size_t j = i, nit = 0;
      while (j < hi && xs[j].src == xs[i].src && xs[j].dst == xs[i].dst)
        j++;
      for (size_t q = i; q < j; q++) {
        const ms_step *b = &m->steps[xs[q].recv], *a = &m->steps[b->from];
        /* an rcs forwards what it received, from where it put it */
        char sb = a->kind == K_RCS ? a->dstbuf : a->srcbuf;
        int64_t so = a->kind == K_RCS ? a->dstoff : a->srcoff;
        const uint64_t *from = m->gpus[a->gpu].slot[buf_index(sb)] + so;
        if (!mg_grow((void **)&items, &cap, nit + (size_t)a->cnt, sizeof *items) ||
            !mg_grow((void **)&pending, &cappending, npending + (size_t)a->cnt, sizeof *pending))
          goto nomem;
        for (int64_t c = 0; c < a->cnt; c++) {
          if (from[c] == NONE_SLOT) {
            violate(m, MG_RULE_NOT_HELD, r - 1, a->gpu, -1,
                    "round %lld: gpu %u (tb %u step %u) sends %c[%lld], which holds no data yet", (long long)r, a->gpu,
                    m->tbs[a->tb].id, a->idx, sb, (long long)(so + c));
            st = mg_fail(err, MG_ERR_VIOLATION, "%s", m->viol.msg);
            goto out;
          }
          items[nit++] = from[c];
          pending[npending++] = from[c];
        }
      }
      if (m->gossip) { /* one message: each item once */
        qsort(items, nit, sizeof *items, u64_cmp);
        size_t u = 0;
        for (size_t q = 0; q < nit; q++)
          if (!u || items[u - 1] != items[q]) items[u++] = items[q];
        nit = u;
      }
      mg_transfer tr = mg_xfer(xs[i].src, xs[i].dst);
      const uint64_t *list = mg_round_add_list(&rd, items, nit);
      if (!list) goto nomem;
      tr.sel.flags = MG_SEL_LIST;
      tr.sel.list = list;
      tr.sel.list_len = nit;
      if (!mg_round_add(&rd, &tr)) goto nomem;
      i = j;
    }
    MG_CHECK(sink->round(sink->ctx, &rd, err));
    /* deliveries at the round's end, in the order read */
    size_t p = 0;
    for (size_t i = lo; i < hi; i++) {
      const ms_step *b = &m->steps[xs[i].recv];
      uint64_t *to = m->gpus[b->gpu].slot[buf_index(b->dstbuf)] + b->dstoff;
      for (int64_t c = 0; c < b->cnt; c++)
        to[c] = pending[p++];
    }
    MG_CHECK(local_steps(m, loc, nloc, &li, r, err));
  }
  MG_CHECK(sink->end(sink->ctx, err));
  /* the output, where the collective puts it */
  uint32_t N = m->info.topo.N;
  for (uint32_t g = 0; g < N; g++) {
    const uint64_t *o = m->gpus[g].slot[1];
    uint64_t len = m->gossip ? (uint64_t)N * m->C : N;
    for (uint64_t q = 0; q < len; q++) {
      uint64_t want = m->gossip ? q : q * N + g;
      /* alltoall's own block (g, g): our exchange counts it delivered from
       * the start, and out of place an algorithm may leave it in the input
       * (ours does: the copy is the runtime user's) */
      if (!m->gossip && q == g && o[q] == NONE_SLOT && m->gpus[g].slot[0][g] == want) continue;
      if (o[q] != want) {
        char held[32] = "nothing";
        if (o[q] != NONE_SLOT) snprintf(held, sizeof held, "item %llu", (unsigned long long)o[q]);
        violate(m, MG_RULE_INCOMPLETE, -1, g, (int64_t)want,
                "at the end gpu %u's output chunk %llu holds %s, not item %llu", g, (unsigned long long)q, held,
                (unsigned long long)want);
        st = mg_fail(err, MG_ERR_VIOLATION, "%s", m->viol.msg);
        goto out;
      }
    }
  }
  goto out;
nomem:
  st = mg_fail(err, MG_ERR_NOMEM, "out of memory generating the MSCCL rounds");
out:
  mg_round_free(&rd);
  free(xs);
  free(loc);
  free(start);
  free(items);
  free(pending);
  return st;
}

/* ---- open / close ------------------------------------------------------ */

static mg_status parse(mg_msccl *m, FILE *f, const char *data, size_t len, mg_err *err) {
  m->xp = XML_ParserCreate("UTF-8");
  if (!m->xp) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  XML_SetUserData(m->xp, m);
  XML_SetElementHandler(m->xp, on_start, on_end);
  XML_SetStartDoctypeDeclHandler(m->xp, on_doctype);
  char buf[1 << 16];
  size_t off = 0;
  for (;;) {
    size_t nread;
    const char *chunk;
    if (f) {
      nread = fread(buf, 1, sizeof buf, f);
      if (ferror(f)) return mg_fail(err, MG_ERR_IO, "%s: read error", m->name);
      chunk = buf;
    } else {
      nread = len - off > (1u << 20) ? (1u << 20) : len - off;
      chunk = data + off;
      off += nread;
    }
    int last = f ? feof(f) != 0 : off == len;
    if (XML_Parse(m->xp, chunk, (int)nread, last) == XML_STATUS_ERROR) {
      if (m->pst != MG_OK) return mg_fail(err, m->pst, "%s", m->perr);
      return mg_fail(err, MG_ERR_INVALID, "%s: line %lu: malformed XML: %s", m->name,
                     (unsigned long)XML_GetCurrentLineNumber(m->xp), XML_ErrorString(XML_GetErrorCode(m->xp)));
    }
    if (last) break;
  }
  if (m->pst != MG_OK) return mg_fail(err, m->pst, "%s", m->perr);
  if (!m->seen_algo) return fail(err, MG_ERR_INVALID, m, "no <algo> element");
  if (m->ngpu_seen != (uint64_t)m->ngpus)
    return fail(err, MG_ERR_INVALID, m, "%u <gpu> elements for ngpus=\"%lld\"", m->ngpu_seen, (long long)m->ngpus);
  return MG_OK;
}

mg_status mg_msccl_open(const char *path, const char *data, size_t len, const mg_problem_spec *pb, uint64_t mem_limit,
                        mg_msccl **out, mg_err *err) {
  mg_status st = MG_OK;
  FILE *f = NULL;
  *out = NULL;
  mg_msccl *m = calloc(1, sizeof *m);
  if (!m) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  snprintf(m->name, sizeof m->name, "%s", path ? path : "buffer");
  m->limit = mem_limit ? mem_limit : mg_phys_mem() / 4 * 3;
  if (!m->limit) m->limit = UINT64_MAX;
  if (pb->topo.kind == MG_TOPO_MESHBUS) {
    st = fail(err, MG_ERR_INVALID, m, "an MSCCL algorithm is point-to-point: give a torus or a mesh");
    goto out;
  }
  m->info.topo = pb->topo;
  m->info.model = pb->model;
  m->info.bytes = pb->bytes;
  if (path && !(f = fopen(path, "rb"))) {
    st = mg_fail(err, MG_ERR_IO, "cannot open '%s'", path);
    goto out;
  }
  MG_CHECK(parse(m, f, data, len, err));
  uint64_t N = m->info.topo.N;
  if (m->nchunksperloop < 0) m->nchunksperloop = (int64_t)m->gpus[0].nchunks[1];
  if ((uint64_t)m->nchunksperloop % N || !m->nchunksperloop) {
    st = fail(err, MG_ERR_INVALID, m, "nchunksperloop %lld is not a multiple of ngpus %llu",
              (long long)m->nchunksperloop, (unsigned long long)N);
    goto out;
  }
  m->C = (uint64_t)m->nchunksperloop / N;
  if (!m->gossip && m->C != 1) {
    st = fail(err, MG_ERR_UNSUPPORTED, m,
              "alltoall with %llu chunks per block: the exchange moves whole blocks (nchunksperloop = ngpus)",
              (unsigned long long)m->C);
    goto out;
  }
  if (m->gossip && m->C > (1u << 16)) {
    st = fail(err, MG_ERR_TOO_LARGE, m, "%llu chunks per gpu: at most 65536 pieces", (unsigned long long)m->C);
    goto out;
  }
  m->info.problem = m->gossip ? MG_GOSSIP : MG_EXCHANGE;
  m->info.pieces = m->gossip ? (uint32_t)m->C : 1;
  MG_CHECK(check_steps(m, err));
  MG_CHECK(pair_steps(m, err));
  MG_CHECK(derive_rounds(m, err));
  MG_CHECK(init_slots(m, err));
  m->info.rounds_hint = m->nrounds;
out:
  if (f) fclose(f);
  if (m->xp) XML_ParserFree(m->xp);
  m->xp = NULL;
  if (st != MG_OK)
    mg_msccl_close(m);
  else
    *out = m;
  return st;
}

const mg_schedule_info *mg_msccl_info(const mg_msccl *m) { return &m->info; }
const mg_violation *mg_msccl_violation(const mg_msccl *m) { return &m->viol; }

void mg_msccl_close(mg_msccl *m) {
  if (!m) return;
  if (m->gpus)
    for (int64_t g = 0; g < m->ngpus; g++)
      for (int b = 0; b < 3; b++)
        free(m->gpus[g].slot[b]);
  free(m->gpus);
  free(m->tbs);
  free(m->steps);
  free(m->val);
  free(m->color);
  free(m->order);
  free(m);
}
