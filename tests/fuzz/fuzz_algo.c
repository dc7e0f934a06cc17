/* libFuzzer harness: algorithm specs and parameters. The input is
 * "NAME[:k=v,...]" as given to --algo; mg_algo_lookup parses it (through
 * mg_params_parse) and the algorithm's check runs on small machines of
 * its problem. Where the check accepts, the schedule is generated and
 * verified on the smallest of them (a 64 MiB state limit): a check that
 * lets through parameters the generator cannot honour shows up as an error
 * other than a violation, a crash or a hang. */
#include "meshgossip.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* torus:9x9 last: tried only when every smaller machine refuses, as torgos
 * finish=period9 and pair9 do (their extents are multiples of 9) */
static const char *const gossip_topos[] = {"ring:9",      "line:6",    "torus:6x6", "mesh:3x3",
                                           "torus:3x3x3", "meshbus:4", "torus:9x9"};
static const char *const exchange_topos[] = {"ring:8", "torus:4x4", "torus:4x4x4"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char spec[256];
  if (size >= sizeof spec) return 0;
  memcpy(spec, data, size);
  spec[size] = 0;
  const mg_algo *a;
  mg_params ps, again;
  mg_err err = {{0}};
  if (mg_algo_lookup(spec, &a, &ps, &err) != MG_OK) {
    if (strchr(err.msg, '\n')) __builtin_trap();
    return 0;
  }
  /* the parameters format back to a list that parses to the same */
  char buf[600];
  mg_params_format(&ps, buf, sizeof buf);
  if (mg_params_parse(buf, &again, &err) != MG_OK || again.n != ps.n) __builtin_trap();
  const char *const *topos = a->problem == MG_GOSSIP ? gossip_topos : exchange_topos;
  size_t ntopos = a->problem == MG_GOSSIP ? sizeof gossip_topos / sizeof *gossip_topos
                                          : sizeof exchange_topos / sizeof *exchange_topos;
  for (size_t i = 0; i < ntopos; i++) {
    mg_problem_spec pb;
    memset(&pb, 0, sizeof pb);
    pb.problem = a->problem;
    pb.bytes = 1;
    if (mg_topo_parse(topos[i], &pb.topo, &err) != MG_OK) __builtin_trap();
    mg_model_paper_units(&pb.model, 2, &err);
    if (pb.topo.kind == MG_TOPO_MESHBUS) pb.model.switching = MG_SW_BUS;
    if (a->needs_shared) pb.model.contention = MG_CONT_SHARED;
    if (mg_algo_check(a, &pb, &ps, &err) != MG_OK) continue;
    mg_sim_opts o;
    memset(&o, 0, sizeof o);
    o.mem_limit = 64u << 20;
    mg_report rep;
    mg_status st = mg_run(a, &pb, &ps, &o, &rep, &err);
    if (st != MG_OK && st != MG_ERR_VIOLATION && strchr(err.msg, '\n')) __builtin_trap();
    mg_report_free(&rep);
    break;
  }
  return 0;
}
