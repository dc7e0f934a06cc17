/* Mesh-bus phases shared by the Fujita algorithms (bus_simple.c,
 * bus_partition.c, bus_centralize.c): the paper describes every phase as
 * "these nodes send these token sets through their row (column) bus", each
 * bus used by its senders one after another. A phase here is that
 * description: per bus, its messages in order. Emitting it cuts every
 * message into chunks of at most ell tokens (section 2: a message carries
 * at most ell tokens) and runs the buses in parallel, step s carrying on
 * every bus its s-th chunk, as an explicit token list that the simulator
 * checks the sender holds. */
#include "../algo_internal.h"

#include <string.h>

void mg_bus_sets_free(mg_bus_sets *s) {
  free(s->even);
  free(s->odd);
  free(s->neven);
  free(s->nodd);
  memset(s, 0, sizeof *s);
}

mg_status mg_bus_sets_build(uint32_t n, mg_bus_sets *s, mg_err *err) {
  uint64_t nn = (uint64_t)n * n;
  memset(s, 0, sizeof *s);
  s->even = mg_calloc(nn, sizeof *s->even);
  s->odd = mg_calloc(nn, sizeof *s->odd);
  s->neven = mg_calloc(n, sizeof *s->neven);
  s->nodd = mg_calloc(n, sizeof *s->nodd);
  if (!s->even || !s->odd || !s->neven || !s->nodd) {
    mg_bus_sets_free(s);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the token sets");
  }
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < n; j++) {
      uint64_t tok = j + (uint64_t)n * i;
      if ((i + j) % 2 == 0)
        s->even[(uint64_t)i * n + s->neven[i]++] = tok;
      else
        s->odd[(uint64_t)j * n + s->nodd[j]++] = tok;
    }
  return MG_OK;
}

mg_status mg_bus_phase_init(mg_bus_phase *ph, uint32_t n, uint64_t ell, mg_err *err) {
  memset(ph, 0, sizeof *ph);
  ph->n = n;
  ph->ell = ell;
  ph->q = mg_calloc(2 * (uint64_t)n, sizeof *ph->q);
  ph->nq = mg_calloc(2 * (uint64_t)n, sizeof *ph->nq);
  ph->capq = mg_calloc(2 * (uint64_t)n, sizeof *ph->capq);
  if (!ph->q || !ph->nq || !ph->capq) {
    mg_bus_phase_free(ph);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for a mesh-bus phase");
  }
  return MG_OK;
}

mg_status mg_bus_phase_add(mg_bus_phase *ph, uint32_t src, mg_bus bus, const uint64_t *tok, size_t len, mg_err *err) {
  if (len == 0) return MG_OK;
  /* node (i, j) = j + n*i: row bus i, column bus j */
  size_t b = bus == MG_BUS_ROW ? src / ph->n : ph->n + src % ph->n;
  if (!mg_grow((void **)&ph->tok, &ph->captok, ph->ntok + len, sizeof *ph->tok) ||
      !mg_grow((void **)&ph->q[b], &ph->capq[b], ph->nq[b] + 1, sizeof *ph->q[b]))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for a mesh-bus phase");
  memcpy(ph->tok + ph->ntok, tok, len * sizeof *tok);
  ph->q[b][ph->nq[b]++] = (mg_bus_msg){.src = src, .off = ph->ntok, .len = len};
  ph->ntok += len;
  return MG_OK;
}

static uint64_t msg_chunks(const mg_bus_phase *ph, size_t len) {
  return ph->ell == 0 ? 1 : (len + ph->ell - 1) / ph->ell;
}

uint64_t mg_bus_phase_steps(const mg_bus_phase *ph) {
  uint64_t most = 0;
  for (size_t b = 0; b < 2 * (size_t)ph->n; b++) {
    uint64_t s = 0;
    for (size_t k = 0; k < ph->nq[b]; k++)
      s += msg_chunks(ph, ph->q[b][k].len);
    if (s > most) most = s;
  }
  return most;
}

mg_status mg_bus_phase_emit(mg_bus_phase *ph, mg_emit *e, mg_err *err) {
  size_t nb = 2 * (size_t)ph->n;
  mg_status st = MG_OK;
  size_t *msg = mg_calloc(nb, sizeof *msg), *off = mg_calloc(nb, sizeof *off);
  if (!msg || !off) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for a mesh-bus phase");
    goto out;
  }
  for (;;) {
    int any = 0;
    for (size_t b = 0; b < nb; b++) {
      if (msg[b] == ph->nq[b]) continue;
      const mg_bus_msg *m = &ph->q[b][msg[b]];
      size_t k = m->len - off[b];
      if (ph->ell && k > ph->ell) k = (size_t)ph->ell;
      mg_transfer tr = mg_xfer_bus(m->src, b < ph->n ? MG_BUS_ROW : MG_BUS_COL);
      tr.sel.flags = MG_SEL_LIST;
      tr.sel.list = mg_round_add_list(&e->r, ph->tok + m->off + off[b], k);
      tr.sel.list_len = k;
      if (!tr.sel.list) {
        st = mg_fail(err, MG_ERR_NOMEM, "out of memory for a token list");
        goto out;
      }
      MG_CHECK(mg_emit_add(e, &tr, err));
      any = 1;
      off[b] += k;
      if (off[b] == m->len) {
        msg[b]++;
        off[b] = 0;
      }
    }
    if (!any) break;
    MG_CHECK(mg_emit_round(e, err));
  }
  for (size_t b = 0; b < nb; b++)
    ph->nq[b] = 0;
  ph->ntok = 0;
out:
  free(msg);
  free(off);
  return st;
}

void mg_bus_phase_free(mg_bus_phase *ph) {
  if (ph->q)
    for (size_t b = 0; b < 2 * (size_t)ph->n; b++)
      free(ph->q[b]);
  free(ph->q);
  free(ph->nq);
  free(ph->capq);
  free(ph->tok);
  memset(ph, 0, sizeof *ph);
}
