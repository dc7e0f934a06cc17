/* The library from several threads at once (meshgossip.h, "Threads"):
 * every call works on its arguments and on memory it allocates; what is
 * shared is constant (the registry, the tables' descriptors), atomic (the
 * registry of files a signal must take back, src/util/pending.c),
 * thread-local (Swing's plan cache, src/algo/gossip/swing_plan.c) or
 * behind a mutex (the memo of plan searches, src/util/memo.c). This
 * test holds the library to it: a list of jobs (runs of most kinds of
 * generator, a tuned run, auto, a compare, a bound, an export read back)
 * is first run on one thread, then by four threads at once, each in an
 * order of its own and each twice; every figure must be the one-thread
 * figure, bit for bit. Under the sanitizers (CI) a race that corrupts
 * memory fails here; `bench/tsan.sh` runs it under ThreadSanitizer. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

enum { JOB_RUN, JOB_TUNE, JOB_AUTO, JOB_COMPARE, JOB_BOUND, JOB_EXPORT };

typedef struct job {
  int kind;
  const char *algo; /* "name[:k=v,..]", or NULL */
  mg_problem problem;
  const char *topo, *model;
  double bytes;
} job;

/* What a job produced: the figures compared across threads. */
typedef struct outcome {
  mg_status st;
  int verified;
  int64_t rounds;
  uint64_t transfers;
  double cost, bytes_moved, bound;
  char pick[128]; /* auto's or tune's choice, compare's order */
  char msg[MG_ERR_LEN];
} outcome;

static const job jobs[] = {
    {JOB_RUN, "circgos:a=3,b=1", MG_GOSSIP, "ring:27", "ts=10,td=0,tl=1", 1},
    {JOB_RUN, "torgos", MG_GOSSIP, "torus:9x9", "ts=10,td=0,tl=1", 1},
    {JOB_RUN, "cubgos", MG_GOSSIP, "torus:4x4x4", "ts=10,td=0,tl=1", 1},
    {JOB_RUN, "lee3d", MG_GOSSIP, "torus:7x7x7", NULL, 4096},
    {JOB_RUN, "torus-swing", MG_GOSSIP, "torus:8x8", NULL, 1024},
    {JOB_RUN, "bus-simple", MG_GOSSIP, "meshbus:6", "switching=bus,ell=4", 1},
    {JOB_RUN, "exchange-partitioned", MG_EXCHANGE, "torus:8x8", "port=one", 64},
    {JOB_RUN, "exchange-moves:search=3000", MG_EXCHANGE, "torus:4x4x4", "contention=fair,timing=async,o=2.5e-4,tl=6e-9",
     16384},
    {JOB_RUN, "torus-ternary:split=2", MG_GOSSIP, "torus:9x9", "contention=shared", 32768},
    {JOB_TUNE, "circgos", MG_GOSSIP, "ring:27", "ts=10,td=0,tl=1", 1},
    {JOB_AUTO, NULL, MG_GOSSIP, "torus:8x8", "ts=2.5e-4,tl=5.7e-9", 4096},
    {JOB_AUTO, NULL, MG_EXCHANGE, "torus:4x4", NULL, 1024},
    {JOB_COMPARE, NULL, MG_GOSSIP, "ring:9", "ts=10,td=0,tl=1", 1},
    {JOB_BOUND, NULL, MG_EXCHANGE, "torus:8x8", "port=one,ts=1,tl=1e-3", 1024},
    {JOB_EXPORT, "dimwise-colored", MG_GOSSIP, "torus:6x6", NULL, 256},
    {JOB_EXPORT, "exchange-ring", MG_EXCHANGE, "ring:12", NULL, 64},
};
enum { NJOBS = sizeof jobs / sizeof jobs[0], NTHREADS = 4 };

static char tmpdir[] = "/tmp/mg_threadsXXXXXX";

static void from_report(outcome *o, const mg_report *rep) {
  o->verified = rep->verified;
  o->rounds = rep->rounds;
  o->transfers = rep->transfers;
  o->cost = rep->cost;
  o->bytes_moved = rep->bytes_moved;
}

/* One job's work; its figures into o. */
static void run_kind(const job *jb, int j, int who, const mg_algo *a, const mg_params *ps, const mg_problem_spec *pb,
                     outcome *o, mg_err *err) {
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  switch (jb->kind) {
  case JOB_RUN:
    o->st = mg_run(a, pb, ps, NULL, &rep, err);
    from_report(o, &rep);
    mg_report_free(&rep);
    break;
  case JOB_TUNE: {
    mg_params best, second;
    mg_report second_rep;
    size_t n = 0;
    o->st = mg_tune(a, pb, NULL, &best, &rep, &second, &second_rep, &n, err);
    if (o->st != MG_OK) break;
    from_report(o, &rep);
    mg_params_format(&best, o->pick, sizeof o->pick);
    mg_report_free(&rep);
    mg_report_free(&second_rep);
    break;
  }
  case JOB_AUTO: {
    mg_auto_choice c;
    o->st = mg_algo_auto_choice(pb, NULL, &c, err);
    if (o->st != MG_OK) break;
    char p[64];
    snprintf(o->pick, sizeof o->pick, "%s:%s %s", c.algo->name, mg_params_format(&c.params, p, sizeof p),
             c.runner_up ? c.runner_up->name : "-");
    o->cost = c.cost;
    o->transfers = c.verified;
    break;
  }
  case JOB_COMPARE: {
    mg_compare_row *rows = NULL;
    size_t n = 0;
    o->st = mg_compare(pb, NULL, 1, &rows, &n, err);
    if (o->st != MG_OK) break;
    for (size_t i = 0; i < n; i++) {
      size_t at = strlen(o->pick);
      if (!rows[i].refused && at + 2 < sizeof o->pick)
        snprintf(o->pick + at, sizeof o->pick - at, "%.2s", rows[i].algo->name);
      if (!rows[i].refused) o->cost += rows[i].rep.cost * (double)(i + 1);
      if (!rows[i].refused) mg_report_free(&rows[i].rep);
    }
    o->transfers = n;
    free(rows);
    break;
  }
  case JOB_BOUND: {
    mg_bound b;
    o->st = mg_lower_bound(pb, &b, err);
    o->bound = b.lower_bound;
    o->transfers = (uint64_t)b.n;
    break;
  }
  case JOB_EXPORT: {
    char path[96];
    snprintf(path, sizeof path, "%s/%d_%d.json", tmpdir, j, who);
    o->st = mg_export(a, pb, ps, path, NULL, &rep, err);
    mg_report_free(&rep);
    if (o->st != MG_OK) break;
    char disagree[256] = "";
    mg_schedule_info info;
    o->st = mg_verify_file(path, NULL, &rep, &info, disagree, sizeof disagree, err);
    from_report(o, &rep);
    mg_report_free(&rep);
    if (disagree[0]) o->st = MG_ERR_INVALID;
    unlink(path);
    break;
  }
  }
}

/* Runs job j as thread `who` (its export goes to a file of its own). The
 * library's failures are outcomes (st), compared like the figures. */
static void run_job(int j, int who, outcome *o) {
  const job *jb = &jobs[j];
  mg_problem_spec pb = th_problem(jb->problem, jb->topo, jb->model, jb->bytes);
  mg_err err = {{0}};
  memset(o, 0, sizeof *o);
  const mg_algo *a = NULL;
  mg_params ps;
  memset(&ps, 0, sizeof ps);
  if (!jb->algo || (o->st = mg_algo_lookup(jb->algo, &a, &ps, &err)) == MG_OK)
    run_kind(jb, j, who, a, &ps, &pb, o, &err);
  snprintf(o->msg, sizeof o->msg, "%s", err.msg);
}

typedef struct worker {
  int who;
  outcome got[2][NJOBS];
} worker;

static void *work(void *arg) {
  worker *w = arg;
  /* each thread its own order: rotated by who, backwards for odd who */
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < NJOBS; k++) {
      int j = (k + w->who * 5) % NJOBS;
      if (w->who % 2) j = NJOBS - 1 - j;
      run_job(j, w->who, &w->got[pass][j]);
    }
  return NULL;
}

static void same(const outcome *want, const outcome *got, int j, int who, int pass) {
  if (want->st != got->st || want->verified != got->verified || want->rounds != got->rounds ||
      want->transfers != got->transfers || want->cost != got->cost || want->bytes_moved != got->bytes_moved ||
      want->bound != got->bound || strcmp(want->pick, got->pick) != 0)
    fail_msg("job %d (%s %s on %s), thread %d pass %d: status %d cost %.17g rounds %lld '%s', alone: status %d cost "
             "%.17g rounds %lld '%s'",
             j, jobs[j].algo ? jobs[j].algo : "-", mg_problem_name(jobs[j].problem), jobs[j].topo, who, pass, got->st,
             got->cost, (long long)got->rounds, got->pick, want->st, want->cost, (long long)want->rounds, want->pick);
}

static void test_threads_agree(void **state) {
  (void)state;
  assert_non_null(mkdtemp(tmpdir));
  static outcome alone[NJOBS];
  for (int j = 0; j < NJOBS; j++) {
    run_job(j, 99, &alone[j]);
    /* every job must do its work: a failure alike on all threads proves nothing */
    if (alone[j].st != MG_OK ||
        (jobs[j].kind != JOB_BOUND && jobs[j].kind != JOB_AUTO && jobs[j].kind != JOB_COMPARE && !alone[j].verified))
      fail_msg("job %d (%s on %s) alone: status %d, verified %d: %s", j, jobs[j].algo ? jobs[j].algo : "-",
               jobs[j].topo, alone[j].st, alone[j].verified, alone[j].msg);
  }
  static worker w[NTHREADS];
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    w[i].who = i;
    assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
  }
  for (int i = 0; i < NTHREADS; i++)
    assert_int_equal(pthread_join(t[i], NULL), 0);
  for (int i = 0; i < NTHREADS; i++)
    for (int pass = 0; pass < 2; pass++)
      for (int j = 0; j < NJOBS; j++)
        same(&alone[j], &w[i].got[pass][j], j, i, pass);
  assert_int_equal(rmdir(tmpdir), 0); /* every export read back and removed, no temporary file left */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_threads_agree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
