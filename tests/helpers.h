/* Test helpers: build problems and run algorithms through the simulator. */
#ifndef MG_TEST_HELPERS_H
#define MG_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "meshgossip.h"

/* 1 in a sanitizer build (the CI's second stage, 2-5x slower), where the
 * longest exhaustive sweeps stop at a smaller size: the same code paths
 * under ASan and UBSan, while the RelWithDebInfo build runs them in full. */
#if defined(__SANITIZE_ADDRESS__)
#define TH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TH_SANITIZED 1
#endif
#endif
#ifndef TH_SANITIZED
#define TH_SANITIZED 0
#endif

/* A problem from a topology spec and model spec (NULL = defaults). */
mg_problem_spec th_problem(mg_problem problem, const char *topo, const char *model, double bytes);
/* The papers' units: ts = r, td = 0, tl = 1, L = 1. */
mg_problem_spec th_paper(mg_problem problem, const char *topo, double r);
/* Runs "name[:k=v,..]" on pb; returns the status, fills rep. */
mg_status th_run(const char *algo_spec, const mg_problem_spec *pb, mg_report *rep);
/* Runs and asserts verified; returns the cost. */
double th_cost(const char *algo_spec, const mg_problem_spec *pb);
/* Runs "name[:k=v,..]" on pb with the round costs kept; fails the test
 * unless it verifies. The caller frees the report. */
mg_report th_report(const char *algo_spec, const mg_problem_spec *pb);
/* Asserts algo's closed form equals its simulated cost (relative 1e-9)
 * on every shape x model, at `bytes`; algo is "name[:k=v,..]". */
void th_closed_form_matches(const char *algo, mg_problem problem, const char *const *shapes, size_t nshapes,
                            const char *const *models, size_t nmodels, double bytes);
/* |rho_j| of Swing (De Sensi et al., NSDI 2024): (1 - (-2)^(j+1)) / 3 in
 * absolute value, reduced to the shorter way round a ring of n. */
long long th_swing_rho(int j, uint32_t n);
/* Feeds hand-made rounds to a fresh simulator; returns the final status. */
typedef struct th_sched {
  mg_schedule_info info;
  mg_round rounds[16];
  int nrounds;
} th_sched;
void th_sched_init(th_sched *s, mg_problem problem, const char *topo, const char *model, uint32_t pieces);
mg_transfer *th_add(th_sched *s, int round, mg_transfer tr);
mg_status th_simulate(th_sched *s, mg_report *rep);
/* The hand-made rounds of s as a generator (an mg_generator_fn, arg = s). */
mg_status th_stream(void *arg, mg_sink *k, mg_err *err);
void th_sched_free(th_sched *s);
/* The cost of the last round of algo_spec on pb (verified; fails the test
 * otherwise). */
double th_last_round_cost(const char *algo_spec, const mg_problem_spec *pb);
/* 1 if algo refuses the gossip instance on topo (MG_ERR_UNSUPPORTED with
 * a message), else 0. */
int th_refuses(const char *algo, const char *topo);
/* src -> dst carrying the one item with id `item` (0..15), as an explicit
 * list (the list lives in static storage, so the transfer may be copied). */
mg_transfer th_one_item(uint32_t src, uint32_t dst, int item);

#endif
