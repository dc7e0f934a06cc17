/* libFuzzer harness: the schedule reader (meshgossip verify, --import).
 * The input is a schedule document; mg_verify_buffer parses it with the
 * same code as mg_verify_file and replays it through the simulator under
 * a 64 MiB state limit, so a header that claims a huge machine is
 * refused (MG_ERR_TOO_LARGE) instead of exhausting the fuzzer. Any status
 * is fine; a crash, a leak, a sanitizer report or a hang is a finding. */
#include "meshgossip.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mg_sim_opts o;
  mg_report rep;
  mg_schedule_info info;
  mg_err err;
  char disagree[128];
  memset(&o, 0, sizeof o);
  o.mem_limit = 64u << 20;
  mg_status st = mg_verify_buffer((const char *)data, size, &o, &rep, &info, disagree, sizeof disagree, &err);
  /* the message is one line whatever happened */
  if (st != MG_OK && st != MG_ERR_VIOLATION && strchr(err.msg, '\n')) __builtin_trap();
  mg_report_free(&rep);
  return 0;
}
