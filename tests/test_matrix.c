/* The verification matrix: every registered algorithm x a set of shapes x
 * the machine models, through the simulator. An algorithm either refuses
 * the instance with a one-line reason or its schedule verifies: a schedule
 * that an algorithm accepts and the simulator rejects is a bug. Algorithms
 * that are not contention-free (needs_shared) run under contention=shared
 * and, under strict, must be rejected with an arc named or refuse. */
#include "helpers.h"

#include <stdio.h>
#include <string.h>

static const char *const SHAPES[] = {
    "ring:2",      "ring:3",     "ring:7",      "ring:12",       "line:2",    "line:5",    "line:13",  "torus:2x2",
    "torus:4x4",   "torus:3x5",  "mesh:1x1",    "mesh:4x4",      "mesh:3x5",  "torus:2x7", "mesh:6x2", "torus:9x9",
    "torus:3x4x5", "mesh:2x3x4", "torus:4x4x4", "torus:2x2x2x2", "meshbus:2", "meshbus:5",
};

static const char *const MODELS[] = {
    "ts=3,td=0.5,tl=1",        "port=one,ts=3,td=0.5,tl=1",          "switching=circuit,ts=3,td=0.5,tl=1",
    "switching=saf,ts=3,tl=1", "contention=shared,ts=3,td=0.5,tl=1",
};

static void matrix(void **state) {
  (void)state;
  int runs = 0, refusals = 0;
  for (size_t a = 0; a < mg_algo_count(); a++) {
    const mg_algo *al = mg_algo_at(a);
    for (size_t s = 0; s < sizeof SHAPES / sizeof SHAPES[0]; s++) {
      mg_topo t;
      if (mg_topo_parse(SHAPES[s], &t, NULL) != MG_OK) continue; /* mesh:1x1 is not a topology */
      for (size_t m = 0; m < sizeof MODELS / sizeof MODELS[0]; m++) {
        int bus = t.kind == MG_TOPO_MESHBUS;
        if (bus && m > 0) continue;
        mg_problem_spec pb = th_problem(al->problem, SHAPES[s], bus ? "ts=1" : MODELS[m], 2.0);
        int strict = pb.model.contention == MG_CONT_STRICT;
        mg_err e = {{0}};
        mg_params none;
        memset(&none, 0, sizeof none);
        mg_status st = mg_algo_check(al, &pb, &none, &e);
        if (st != MG_OK) {
          if (st != MG_ERR_UNSUPPORTED && st != MG_ERR_INVALID)
            fail_msg("%s on %s [%s]: check returned %d", al->name, SHAPES[s], MODELS[m], st);
          if (!e.msg[0] || strchr(e.msg, '\n'))
            fail_msg("%s on %s: refusal without a one-line reason", al->name, SHAPES[s]);
          refusals++;
          continue;
        }
        mg_report rep;
        st = mg_run(al, &pb, &none, NULL, &rep, &e);
        runs++;
        if (al->needs_shared && strict) {
          /* rejected with the contended arc named, or it happened to be free */
          if (st == MG_ERR_VIOLATION && rep.violation.rule != MG_RULE_ARC_CONTENTION &&
              rep.violation.rule != MG_RULE_ONE_PORT_SEND && rep.violation.rule != MG_RULE_ONE_PORT_RECV)
            fail_msg("%s on %s [%s]: %s", al->name, SHAPES[s], MODELS[m], rep.violation.msg);
        } else if (st != MG_OK || !rep.verified) {
          fail_msg("%s on %s [%s]: status %d: %s", al->name, SHAPES[s], MODELS[m], st,
                   rep.violation.msg[0] ? rep.violation.msg : e.msg);
        } else {
          /* no schedule beats the lower bound */
          if (rep.cost < rep.lower_bound * (1 - 1e-9))
            fail_msg("%s on %s [%s]: cost %g below the lower bound %g", al->name, SHAPES[s], MODELS[m], rep.cost,
                     rep.lower_bound);
        }
        mg_report_free(&rep);
      }
    }
  }
  print_message("matrix: %d runs verified, %d refusals\n", runs, refusals);
  assert_true(runs > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(matrix)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
