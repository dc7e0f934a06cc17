/* libFuzzer harness: the MSCCL XML reader (meshgossip verify ALGO.xml
 * --topo T). The first byte picks the machine (ngpus must match it), the
 * rest is the XML; mg_verify_msccl parses it with expat, pairs and orders
 * the steps, tracks the chunks and replays the rounds through the
 * simulator under a 64 MiB limit, so a file that claims huge buffers is
 * refused (MG_ERR_TOO_LARGE) instead of exhausting the fuzzer. Any status
 * is fine; a crash, a leak, a sanitizer report, a hang or a message of
 * more than one line is a finding. */
#include "meshgossip.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const topos[8] = {"ring:4",    "ring:5", "torus:3x3", "mesh:2x3",
                                       "torus:4x4", "ring:6", "ring:9",    "torus:2x2x2"};
  if (size < 1) return 0;
  mg_problem_spec pb;
  mg_err err;
  memset(&pb, 0, sizeof pb);
  if (mg_topo_parse(topos[data[0] & 7], &pb.topo, &err) != MG_OK) __builtin_trap();
  mg_model_default(&pb.model);
  if (data[0] & 8 && mg_model_parse("contention=shared", &pb.model, &err) != MG_OK) __builtin_trap();
  pb.bytes = 4;
  mg_sim_opts o;
  mg_report rep;
  mg_schedule_info info;
  memset(&o, 0, sizeof o);
  o.mem_limit = 64u << 20;
  mg_status st = mg_verify_msccl(NULL, (const char *)data + 1, size - 1, &pb, &o, &rep, &info, &err);
  if (st != MG_OK && st != MG_ERR_VIOLATION && strchr(err.msg, '\n')) __builtin_trap();
  if (st == MG_ERR_VIOLATION && strchr(rep.violation.msg, '\n')) __builtin_trap();
  /* a verified algorithm delivered: a cost and at least one round, or none needed */
  if (st == MG_OK && !(rep.cost >= 0)) __builtin_trap();
  mg_report_free(&rep);
  return 0;
}
