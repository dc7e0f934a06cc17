/* Schedule files: export -> verify round trips give the same report;
 * malformed files are refused with a reason; a failed export leaves no
 * file behind. */
#include "helpers.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/mg_export_XXXXXX");
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  return system(cmd) == 0 ? 0 : -1;
}

static void path_of(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s", dir, name); }

static int files_in_dir(void) {
  int n = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  if (d) closedir(d);
  return n;
}

static void round_trip(const char *algo, const char *topo, const char *model, double bytes) {
  char path[300];
  path_of(path, sizeof path, "s.json");
  mg_problem_spec pb = th_problem(MG_GOSSIP, topo, model, bytes);
  const mg_algo *a = mg_algo_find(algo);
  mg_report r1, r2;
  mg_err e = {{0}};
  char disagree[256];
  assert_int_equal(mg_export(a, &pb, NULL, path, NULL, &r1, &e), MG_OK);
  assert_true(r1.verified);
  mg_schedule_info info;
  assert_int_equal(mg_verify_file(path, NULL, &r2, &info, disagree, sizeof disagree, &e), MG_OK);
  assert_true(r2.verified);
  assert_string_equal(disagree, "");
  assert_int_equal(r1.rounds, r2.rounds);
  assert_float_equal(r1.cost, r2.cost, 1e-9 * (1 + r1.cost));
  assert_float_equal(r1.cost_transfer, r2.cost_transfer, 1e-9 * (1 + r1.cost));
  assert_float_equal(r1.bytes_moved, r2.bytes_moved, 1e-9 * (1 + r1.bytes_moved));
  assert_int_equal(r1.transfers, r2.transfers);
  assert_string_equal(info.algorithm, algo);
  mg_report_free(&r1);
  mg_report_free(&r2);
  unlink(path);
}

static void gossip_round_trips(void **state) {
  (void)state;
  round_trip("ring", "ring:9", "ts=3,td=0.5,tl=0.25", 8);
  round_trip("ring", "line:6", NULL, 1);
  round_trip("concentrate", "ring:27", "ts=10,tl=1", 1);
  round_trip("concentrate", "line:10", "switching=saf,ts=1,tl=1", 2);
  assert_int_equal(files_in_dir(), 0);
}

/* A small exchange generator for the exchange file path: every node sends
 * each block straight to its destination, one destination per round. */
static mg_status direct_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)pb;
  (void)ps;
  (void)err;
  return MG_OK;
}
static mg_status direct_gen(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_schedule_info info;
  memset(&info, 0, sizeof info);
  info.problem = MG_EXCHANGE;
  info.topo = pb->topo;
  info.model = pb->model;
  info.bytes = pb->bytes;
  info.pieces = 1;
  if (ps) info.params = *ps;
  snprintf(info.algorithm, sizeof info.algorithm, "direct-test");
  mg_status st = sink->begin(sink->ctx, &info, err);
  uint32_t N = pb->topo.N;
  mg_round r;
  mg_round_init(&r);
  for (uint32_t k = 1; st == MG_OK && k < N; k++) {
    mg_round_clear(&r);
    for (uint32_t u = 0; u < N; u++) {
      mg_transfer t = mg_xfer(u, (u + k) % N);
      t.sel.flags = MG_SEL_BOX;
      t.sel.box.lo[0] = (u + k) % N;
      t.sel.box.len[0] = 1;
      mg_round_add(&r, &t);
    }
    st = sink->round(sink->ctx, &r, err);
  }
  mg_round_free(&r);
  return st == MG_OK ? sink->end(sink->ctx, err) : st;
}

static void exchange_round_trip(void **state) {
  (void)state;
  mg_algo a = {.name = "direct-test", .problem = MG_EXCHANGE, .check = direct_check, .generate = direct_gen};
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "line:5", "contention=shared,ts=1,tl=1", 4);
  char path[300], disagree[256];
  path_of(path, sizeof path, "x.json");
  mg_report r1, r2;
  mg_err e;
  assert_int_equal(mg_export(&a, &pb, NULL, path, NULL, &r1, &e), MG_OK);
  assert_true(r1.verified);
  assert_int_equal(r1.rounds, 4);
  assert_int_equal(mg_verify_file(path, NULL, &r2, NULL, disagree, sizeof disagree, &e), MG_OK);
  assert_true(r2.verified);
  assert_float_equal(r1.cost, r2.cost, 1e-9);
  assert_float_equal(r2.bytes_moved, 5 * 4 * 4, 0);
  mg_report_free(&r1);
  mg_report_free(&r2);
  /* the same schedule under strict contention is refused and leaves no file */
  unlink(path);
  pb = th_problem(MG_EXCHANGE, "line:5", "ts=1,tl=1", 4);
  assert_int_equal(mg_export(&a, &pb, NULL, path, NULL, &r1, &e), MG_ERR_VIOLATION);
  assert_int_equal(r1.violation.rule, MG_RULE_ARC_CONTENTION);
  mg_report_free(&r1);
  assert_int_equal(files_in_dir(), 0);
}

static void write_file(const char *name, const char *text, char *path, size_t len) {
  path_of(path, len, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

#define HEAD                                                                                                           \
  "{\"format\": \"meshgossip.schedule\", \"version\": 1, \"problem\": \"gossip\", \"algorithm\": \"hand\", "           \
  "\"params\": {}, \"topology\": {\"kind\": \"torus\", \"dims\": [3]}, \"model\": {\"switching\": \"wormhole\", "      \
  "\"port\": \"all\", \"contention\": \"strict\", \"ts\": 1, \"td\": 0, \"tl\": 1}, \"bytes\": 1, \"pieces\": 1, "

static void malformed_files(void **state) {
  (void)state;
  const char *bad[] = {
      "",
      "{",
      "[1, 2]",
      "{\"format\": \"other\"}",
      HEAD "\"rounds\": 3}",
      HEAD "\"rounds\": [[{\"src\": -1, \"dst\": 1, \"items\": [0]}]]}",
      HEAD "\"rounds\": [[{\"src\": 0, \"dst\": 1, \"route\": [[0]], \"items\": [0]}]]}",
      HEAD "\"rounds\": [[{\"src\": 0, \"dst\": 1, \"route\": [[0, 1]]}]]}",
      HEAD "\"rounds\": [[{\"src\": 0, \"dst\": 1, \"route\": [[0, 1]], \"items\": [\"0\"]}]]}",
      HEAD "\"rounds\": [[{\"src\": 0, \"dst\": 1, \"route\": [[0, 1]], \"items\": [0.5]}]]}",
      HEAD "\"rounds\": [[{\"src\": 0, \"dst\": 1, \"route\": [[0, 1]], \"items\": [0]}]",
      "{\"format\": \"meshgossip.schedule\", \"version\": 2}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char path[300], disagree[64];
    mg_report rep;
    mg_err e = {{0}};
    write_file("bad.json", bad[i], path, sizeof path);
    mg_status st = mg_verify_file(path, NULL, &rep, NULL, disagree, sizeof disagree, &e);
    if (st != MG_ERR_INVALID) fail_msg("file %zu: status %d (%s)", i, st, e.msg);
    assert_true(strlen(e.msg) > 0);
    assert_null(strchr(e.msg, '\n'));
    mg_report_free(&rep);
  }
  char path[300];
  mg_report rep;
  mg_err e;
  /* well-formed, but item 3 does not exist on 3 nodes: a violation (exit 1) */
  write_file("bad.json", HEAD "\"rounds\": [[{\"src\": 0, \"dst\": 1, \"route\": [[0, 1]], \"items\": [3]}]]}", path,
             sizeof path);
  assert_int_equal(mg_verify_file(path, NULL, &rep, NULL, NULL, 0, &e), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_BAD_ITEM);
  mg_report_free(&rep);
  assert_int_equal(mg_verify_file("/nonexistent/x.json", NULL, &rep, NULL, NULL, 0, &e), MG_ERR_IO);
  /* a well-formed file whose schedule breaks a rule: a violation, not a parse error */
  write_file("v.json",
             HEAD "\"rounds\": [[{\"src\": 0, \"dst\": 2, \"route\": [[0, 2]], \"items\": [0]},"
                  " {\"src\": 1, \"dst\": 0, \"route\": [[0, 2]], \"items\": [1]}]]}",
             path, sizeof path);
  assert_int_equal(mg_verify_file(path, NULL, &rep, NULL, NULL, 0, &e), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_ARC_CONTENTION);
  mg_report_free(&rep);
  /* a hand-written valid schedule whose report lies about its cost */
  write_file("lie.json",
             HEAD "\"rounds\": [[{\"src\": 0, \"dst\": 1, \"route\": [[0, 1]], \"items\": [0]},"
                  " {\"src\": 1, \"dst\": 2, \"route\": [[0, 1]], \"items\": [1]},"
                  " {\"src\": 2, \"dst\": 0, \"route\": [[0, 1]], \"items\": [2]},"
                  " {\"src\": 0, \"dst\": 2, \"route\": [[0, -1]], \"items\": [0]},"
                  " {\"src\": 1, \"dst\": 0, \"route\": [[0, -1]], \"items\": [1]},"
                  " {\"src\": 2, \"dst\": 1, \"route\": [[0, -1]], \"items\": [2]}]],"
                  " \"report\": {\"verified\": true, \"rounds\": 1, \"cost\": 1}}",
             path, sizeof path);
  char disagree[256];
  assert_int_equal(mg_verify_file(path, NULL, &rep, NULL, disagree, sizeof disagree, &e), MG_OK);
  assert_true(rep.verified);
  assert_float_equal(rep.cost, 2, 0);
  assert_non_null(strstr(disagree, "cost"));
  mg_report_free(&rep);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gossip_round_trips),
      cmocka_unit_test(exchange_round_trip),
      cmocka_unit_test(malformed_files),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
