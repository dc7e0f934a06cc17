/* Engines: option parsing and the driver that records a schedule's
 * dependencies while the simulator verifies it, then hands the recording
 * to the TI trace writer and to an engine's replay (meshgossip_engine.h).
 * The replay function comes from the caller, so this file (and the core
 * library) never depends on SimGrid. */
#include "meshgossip_engine.h"

#include "../schedule/deps.h"
#include "../util/internal.h"
#include "engine_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void mg_engine_opts_default(mg_engine_opts *o) {
  memset(o, 0, sizeof *o);
  o->kind = MG_ENGINE_MODEL;
  o->o = -1;
  o->or_ = -1; /* as o: < 0 is "the model's", so or=0 can override it */
  o->sync = MG_SYNC_DATA;
  o->link_tl = -1;
  o->link_td = -1;
}

static mg_status seconds(const char *key, const char *v, double *out, mg_err *err) {
  if (!mg_parse_double(v, out) || *out < 0)
    return mg_fail(err, MG_ERR_INVALID, "engine option %s takes seconds >= 0, not '%s'", key, v);
  return MG_OK;
}

mg_status mg_engine_parse(const char *spec, mg_engine_opts *o, mg_err *err) {
  mg_engine_opts_default(o);
  if (!strcmp(spec, "model")) return MG_OK;
  if (strncmp(spec, "simgrid", 7) != 0 || (spec[7] != 0 && spec[7] != ':'))
    return mg_fail(err, MG_ERR_INVALID,
                   "unknown engine '%s' (model, or simgrid[:o=S,or=S,sync=data|rank,"
                   "network=cm02|smpi])",
                   spec);
  o->kind = MG_ENGINE_SIMGRID;
  if (!spec[7]) return MG_OK;
  mg_params ps;
  mg_status st = mg_params_parse(spec + 8, &ps, err);
  if (st != MG_OK) return st;
  for (int i = 0; i < ps.n; i++) {
    const char *k = ps.p[i].name, *v = ps.p[i].value;
    if (!strcmp(k, "o")) {
      if ((st = seconds(k, v, &o->o, err)) != MG_OK) return st;
    } else if (!strcmp(k, "or")) {
      if ((st = seconds(k, v, &o->or_, err)) != MG_OK) return st;
    } else if (!strcmp(k, "tl")) {
      if ((st = seconds(k, v, &o->link_tl, err)) != MG_OK) return st;
      if (!(o->link_tl > 0)) return mg_fail(err, MG_ERR_INVALID, "engine option tl must be > 0");
    } else if (!strcmp(k, "routes") && (!strcmp(v, "ours") || !strcmp(v, "simgrid"))) {
      o->simgrid_routes = !strcmp(v, "simgrid");
    } else if (!strcmp(k, "detach")) {
      if (!mg_parse_double(v, &o->detach) || o->detach < 0)
        return mg_fail(err, MG_ERR_INVALID, "engine option detach takes bytes >= 0, not '%s'", v);
    } else if (!strcmp(k, "td")) {
      if ((st = seconds(k, v, &o->link_td, err)) != MG_OK) return st;
    } else if (!strcmp(k, "sync") && (!strcmp(v, "data") || !strcmp(v, "rank"))) {
      o->sync = !strcmp(v, "data") ? MG_SYNC_DATA : MG_SYNC_RANK;
    } else if (!strcmp(k, "network") && (!strcmp(v, "cm02") || !strcmp(v, "smpi"))) {
      o->network_smpi = !strcmp(v, "smpi");
    } else {
      return mg_fail(err, MG_ERR_INVALID,
                     "bad engine option '%s=%s' (o=S, or=S, sync=data|rank, network=cm02|smpi, tl=S, td=S, detach=B, "
                     "routes=ours|simgrid)",
                     k, v);
    }
  }
  return MG_OK;
}

/* dir/platform.xml (mg_platform_write_routed) and dir/hosts.txt (rank i on
 * host n<i>), each written whole or not at all. */
static mg_status write_ti_platform(const mg_deps *d, const mg_model *links, const char *dir, mg_err *err) {
  char path[4096];
  mg_outfile o;
  mg_status st, cst;
  if (snprintf(path, sizeof path, "%s/platform.xml", dir) >= (int)sizeof path)
    return mg_fail(err, MG_ERR_INVALID, "the directory name is too long for its platform");
  if ((st = mg_outfile_open(&o, path, err)) != MG_OK) return st;
  st = mg_platform_write_routed(o.f, d, links, "meshgossip: the routes of the traces beside this file", err);
  cst = mg_outfile_close(&o, st == MG_OK, st == MG_OK ? err : NULL);
  if (st != MG_OK || cst != MG_OK) return st != MG_OK ? st : cst;
  snprintf(path, sizeof path, "%s/hosts.txt", dir); /* shorter than the first */
  if ((st = mg_outfile_open(&o, path, err)) != MG_OK) return st;
  st = mg_platform_write_hosts(o.f, &mg_deps_info(d)->topo, err);
  cst = mg_outfile_close(&o, st == MG_OK, st == MG_OK ? err : NULL);
  return st != MG_OK ? st : cst;
}

mg_status mg_engine_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const mg_sim_opts *opts,
                        const mg_engine_opts *eo, mg_engine_replay_fn replay, mg_report *rep, mg_engine_result *res,
                        mg_err *err) {
  mg_status st;
  mg_deps *d = NULL;
  memset(res, 0, sizeof *res);
  memset(rep, 0, sizeof *rep);
  if (eo->kind == MG_ENGINE_SIMGRID && !replay)
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "--engine simgrid is not built in (libsimgrid was not found when meshgossip was built)");
  if (pb->topo.kind == MG_TOPO_MESHBUS && (eo->kind == MG_ENGINE_SIMGRID || eo->ti_dir))
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "SimGrid has no broadcast medium: a bus message reaches n-1 nodes at once, which SimGrid (and "
                   "MPI traces) can only write as n-1 messages on the shared bus link");
  if (eo->kind == MG_ENGINE_SIMGRID && !(pb->model.tl > 0) && !(eo->link_tl > 0))
    return mg_fail(err, MG_ERR_INVALID, "the simgrid engine needs tl > 0 (link bandwidth 1/tl); the model has tl=%g",
                   pb->model.tl);
  MG_CHECK(mg_deps_create(eo->mem_limit, &d, err));
  MG_CHECK(mg_deps_run(a, pb, ps, opts, d, rep, err));
  if (!rep->verified) {
    st = MG_ERR_VIOLATION;
    goto out;
  }
  if (eo->ti_dir) {
    MG_CHECK(mg_ti_write(d, eo->ti_dir, err));
    /* traces name no routes: smpirun -replay takes the platform's, the
     * default ones of `meshgossip platform` (a review: lee3d's own routes
     * replayed 31% apart from the engine's, unsaid) */
    const mg_dep_xfer *x = mg_deps_xfers(d);
    for (size_t i = 0; i < mg_deps_count(d); i++)
      res->ti_nondefault_routes += x[i].route_id != MG_DEP_NONE;
    /* so the traces get the schedule's own platform beside them, when the
     * model has links to give it */
    mg_model links = pb->model;
    if (eo->link_tl > 0) links.tl = eo->link_tl;
    if (eo->link_td >= 0) links.td = eo->link_td;
    if (res->ti_nondefault_routes && links.tl > 0 && isfinite(1.0 / links.tl)) {
      MG_CHECK(write_ti_platform(d, &links, eo->ti_dir, err));
      res->ti_platform = 1;
    }
  }
  if (eo->kind == MG_ENGINE_SIMGRID) MG_CHECK(replay(d, eo, res, err));
out:
  mg_deps_destroy(d);
  return st;
}
