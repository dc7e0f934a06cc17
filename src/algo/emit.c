/* Helpers for generators: a reusable round and the sink protocol. */
#include "algo_internal.h"

#include <stdio.h>
#include <string.h>

mg_status mg_emit_begin(mg_emit *e, mg_sink *sink, const mg_problem_spec *pb, const char *algo, const mg_params *ps,
                        uint32_t pieces, uint32_t flags, int64_t rounds_hint, mg_err *err) {
  mg_schedule_info info;
  memset(&info, 0, sizeof info);
  info.problem = pb->problem;
  info.topo = pb->topo;
  info.model = pb->model;
  info.bytes = pb->bytes;
  info.pieces = pieces;
  info.flags = flags;
  snprintf(info.algorithm, sizeof info.algorithm, "%s", algo);
  if (ps) info.params = *ps;
  info.rounds_hint = rounds_hint;
  e->sink = sink;
  mg_round_init(&e->r);
  return sink->begin(sink->ctx, &info, err);
}

mg_status mg_emit_add(mg_emit *e, const mg_transfer *tr, mg_err *err) {
  if (!mg_round_add(&e->r, tr)) return mg_fail(err, MG_ERR_NOMEM, "out of memory for a round");
  return MG_OK;
}

mg_status mg_emit_round(mg_emit *e, mg_err *err) {
  mg_status st = e->sink->round(e->sink->ctx, &e->r, err);
  mg_round_clear(&e->r);
  return st;
}

mg_status mg_emit_end(mg_emit *e, mg_err *err) { return e->sink->end(e->sink->ctx, err); }

void mg_emit_free(mg_emit *e) { mg_round_free(&e->r); }

const char *mg_param_given(const mg_params *ps, const char *name) {
  const char *v = ps ? mg_params_get(ps, name) : NULL;
  return v && strcmp(v, "auto") ? v : NULL;
}

mg_status mg_param_int(const mg_params *ps, const char *name, int64_t def, int64_t lo, int64_t hi, int64_t *out,
                       mg_err *err) {
  const char *v = mg_param_given(ps, name);
  int64_t x = def;
  if (v && !mg_parse_i64(v, &x))
    return mg_fail(err, MG_ERR_INVALID, "parameter %s must be an integer, not '%s'", name, v);
  if (x < lo || x > hi)
    return mg_fail(err, MG_ERR_INVALID, "parameter %s = %lld is outside %lld..%lld", name, (long long)x, (long long)lo,
                   (long long)hi);
  *out = x;
  return MG_OK;
}

mg_status mg_check_1d_gossip(const mg_problem_spec *pb, const char *algo, mg_err *err) {
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "%s is a gossip algorithm", algo);
  if (pb->topo.kind != MG_TOPO_GRID || pb->topo.d != 1)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs a ring or a line (one dimension)", algo);
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs the all-port model (a node sends both ways at once)", algo);
  return MG_OK;
}

uint64_t mg_gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

int mg_is_pow(uint64_t n, uint64_t base, int *k) {
  int e = 0;
  uint64_t p = 1;
  while (p < n) {
    p *= base;
    e++;
  }
  if (k) *k = e;
  return p == n;
}
