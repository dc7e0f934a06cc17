/* The report's violation: the first rule a schedule breaks, with the
 * round, the transfers, the node or arc and the item it concerns. Every
 * part of the simulator that checks a rule ends here. */
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

mg_status mg_sim_violate(mg_sim *s, mg_err *err, mg_rule rule, int64_t xa, int64_t xb, int64_t node, int64_t item,
                         const char *fmt, ...) {
  mg_violation *v = &s->rep.violation;
  memset(v, 0, sizeof *v);
  v->rule = rule;
  v->round = s->ended ? -1 : s->rep.rounds;
  v->xfer[0] = xa;
  v->xfer[1] = xb;
  v->node = node;
  v->arc_node = -1;
  v->item = item;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->msg, sizeof v->msg, fmt, ap);
  va_end(ap);
  s->rep.verified = 0;
  s->failed = 1;
  /* the key the shards agree on (meshgossip_shard.h) */
  s->vkey[0] = s->ended ? s->rep.rounds : v->round;
  s->vkey[1] = s->ended ? node : (int64_t)s->cur_xfer;
  s->vkey[2] = s->vsub;
  s->vkey[3] = s->shard ? (int64_t)s->shard->index : 0;
  if (err) snprintf(err->msg, sizeof err->msg, "%s", v->msg);
  return MG_ERR_VIOLATION;
}

const char *mg_rule_name(mg_rule r) {
  static const char *names[] = {"none",      "arc-contention", "one-port-send", "one-port-recv", "off-mesh",
                                "bad-route", "not-held",       "sent-twice",    "incomplete",    "bad-node",
                                "bad-item",  "bus-conflict",   "bus-too-long",  "not-bus",       "selector"};
  return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}
