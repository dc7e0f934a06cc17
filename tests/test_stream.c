/* The schedule reader streams (src/schedule/import.c, json_stream.c): a
 * large export verifies in memory that does not grow with the file (each
 * verify runs in a child whose peak RSS the parent reads with wait4), the
 * file-size refusal is gone (a file 18x over the old bound verifies) while
 * one round too large for the limit is refused, and the tokenizer's
 * corners: member order, an escaped "rounds" key, a duplicate "rounds",
 * deep nesting, trailing bytes, and a malformed transfer after a
 * violation (malformed wins: the whole file is checked before the
 * simulator sees a round), and a pipe (read twice through a temporary
 * file), whose copy stops at what cannot be a schedule and before the
 * temporary file system is down to its reserve. */
#include "helpers.h"

#include "../src/schedule/schedule_file.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define TS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_ASAN 1
#endif
#endif

static char dir[256];
static char big[300], small[300];

/* ring on ring:N, the papers' units with r = 1: N/2 rounds of ts + tl. */
static void export_ring(const char *path, const char *topo) {
  mg_problem_spec pb = th_paper(MG_GOSSIP, topo, 1);
  mg_report rep;
  mg_err e = {{0}};
  assert_int_equal(mg_export(mg_algo_find("ring"), &pb, NULL, path, NULL, &rep, &e), MG_OK);
  mg_report_free(&rep);
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/mg_stream_XXXXXX");
  if (!mkdtemp(dir)) return -1;
  snprintf(big, sizeof big, "%s/big.json", dir);
  snprintf(small, sizeof small, "%s/small.json", dir);
  export_ring(big, "ring:300");
  export_ring(small, "ring:8");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  unlink(big);
  unlink(small);
  return rmdir(dir);
}

static long file_size(const char *path) {
  struct stat sb;
  assert_int_equal(stat(path, &sb), 0);
  return (long)sb.st_size;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  long n = file_size(path);
  char *p = malloc((size_t)n + 1);
  assert_non_null(p);
  assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
  p[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return p;
}

/* Verifies path in a child under mem_limit; returns the child's peak RSS
 * in KiB, and its exit: 0 when verified with want_rounds rounds at cost
 * want_cost, 10 + the status otherwise. */
static long verify_in_child(const char *path, uint64_t mem_limit, int64_t want_rounds, double want_cost, int *code) {
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    mg_sim_opts o;
    mg_report rep;
    mg_err e;
    memset(&o, 0, sizeof o);
    o.mem_limit = mem_limit;
    mg_status st = mg_verify_file(path, &o, &rep, NULL, NULL, 0, &e);
    if (st != MG_OK) _exit(10 + (int)st);
    _exit(rep.verified && rep.rounds == want_rounds && rep.cost == want_cost ? 0 : 9);
  }
  int status = 0;
  struct rusage ru;
  assert_int_equal(wait4(pid, &status, 0, &ru), pid);
  assert_true(WIFEXITED(status));
  *code = WEXITSTATUS(status);
  return ru.ru_maxrss;
}

static void large_file_flat_memory(void **state) {
  (void)state;
  int code = -1;
  long rss_small = verify_in_child(small, 0, 4, 8, &code);
  assert_int_equal(code, 0);
  long rss_big = verify_in_child(big, 0, 150, 300, &code);
  assert_int_equal(code, 0);
  long size = file_size(big);
  printf("# verify of a %.1f MiB export: peak RSS %.1f MiB (a 8-node file: %.1f MiB); the whole-document reader "
         "took about 18 bytes per byte\n",
         size / 1048576.0, rss_big / 1024.0, rss_small / 1024.0);
  assert_true(size > 5000000);
#ifndef TS_ASAN
  /* ASan's quarantine keeps freed blocks: the bound is for plain builds */
  assert_true((rss_big - rss_small) * 1024 < size / 4);
#endif
  /* the old reader refused anything over limit / 18 up front: 64 MiB
   * admitted at most 3.6 MiB of file */
  assert_true(size > (64 << 20) / 18);
  verify_in_child(big, 64u << 20, 150, 300, &code);
  assert_int_equal(code, 0);
}

static void round_over_limit(void **state) {
  (void)state;
  /* one round of ring:300 is 300 transfers, about 20 KB of text: under a
   * 320 KiB limit (10 KiB of round text) it is refused before it is held */
  mg_sim_opts o;
  mg_report rep;
  mg_err e;
  memset(&o, 0, sizeof o);
  o.mem_limit = 320u << 10;
  assert_int_equal(mg_verify_file(big, &o, &rep, NULL, NULL, 0, &e), MG_ERR_TOO_LARGE);
  assert_non_null(strstr(e.msg, "rounds[0]"));
  mg_report_free(&rep);
}

/* A child writes s (len bytes) into a pipe, once or, with forever, until
 * the reader closes it; *path names the read end (/dev/fd/N). */
static pid_t feed(const char *s, size_t len, int forever, int *rd, char *path, size_t plen) {
  int fd[2];
  assert_int_equal(pipe(fd), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fd[0]);
    do {
      size_t off = 0;
      while (off < len) {
        ssize_t w = write(fd[1], s + off, len - off);
        if (w <= 0) _exit(!forever);
        off += (size_t)w;
      }
    } while (forever);
    _exit(0);
  }
  close(fd[1]);
  *rd = fd[0];
  snprintf(path, plen, "/dev/fd/%d", fd[0]);
  return pid;
}

/* a pipe cannot be read twice: the reader copies it to a temporary file */
static void pipe_input(void **state) {
  (void)state;
  size_t len;
  char *s = slurp(small, &len);
  char path[64];
  int rd, status;
  pid_t pid = feed(s, len, 0, &rd, path, sizeof path);
  mg_report rep;
  mg_err e;
  assert_int_equal(mg_verify_file(path, NULL, &rep, NULL, NULL, 0, &e), MG_OK);
  assert_true(rep.verified);
  assert_int_equal(rep.rounds, 4);
  assert_float_equal(rep.cost, 8, 0);
  mg_report_free(&rep);
  close(rd);
  assert_int_equal(waitpid(pid, &status, 0), pid);
  free(s);
}

/* An endless stream that passes the first byte's check ('{', then '{'
 * again: no key) is refused at once, not copied until the disk is full;
 * one that stays well formed as far as the copy looks (a key's string that
 * never ends) stops when the file system is down to its reserve: here a
 * reserve no file system has, so the first MiB's check stops it. */
static void endless_streams(void **state) {
  (void)state;
  char b[4096], path[64];
  memset(b, '{', sizeof b);
  int rd, status;
  pid_t pid = feed(b, sizeof b, 1, &rd, path, sizeof path);
  mg_report rep;
  mg_err e;
  assert_int_equal(mg_verify_file(path, NULL, &rep, NULL, NULL, 0, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "not JSON text"));
  close(rd);
  assert_int_equal(waitpid(pid, &status, 0), pid);

  size_t len = (size_t)3 << 20;
  char *text = malloc(len);
  assert_non_null(text);
  memset(text, 'a', len);
  memcpy(text, " {\"", 3);
  FILE *in = fmemopen(text, len, "rb"), *t = tmpfile();
  assert_non_null(in);
  assert_non_null(t);
  assert_int_equal(mg_sfile_copy_stream(in, t, "-", UINT64_MAX - 1, &e), MG_ERR_TOO_LARGE);
  assert_non_null(strstr(e.msg, "outgrew the temporary file system (1 MiB copied"));
  fclose(in);
  fclose(t);
  /* with no reserve the same bytes are copied whole, the copy at its start */
  in = fmemopen(text, len, "rb");
  t = tmpfile();
  assert_int_equal(mg_sfile_copy_stream(in, t, "-", 0, &e), MG_OK);
  char *back = malloc(len + 1);
  assert_non_null(back);
  assert_int_equal(fread(back, 1, len + 1, t), len);
  assert_memory_equal(back, text, len);
  fclose(in);
  fclose(t);
  free(back);
  free(text);
}

static mg_status verify_text(const char *text, mg_report *rep, mg_err *e) {
  return mg_verify_buffer(text, strlen(text), NULL, rep, NULL, NULL, 0, e);
}

/* s with one textual substitution (the first occurrence) */
static char *edit(const char *s, const char *from, const char *to) {
  const char *at = strstr(s, from);
  assert_non_null(at);
  char *out = malloc(strlen(s) + strlen(to) + 1);
  assert_non_null(out);
  size_t k = (size_t)(at - s);
  memcpy(out, s, k);
  strcpy(out + k, to);
  strcat(out, at + strlen(from));
  return out;
}

/* the small export, edited */
static char *edited(const char *from, const char *to) {
  size_t len;
  char *s = slurp(small, &len);
  char *out = edit(s, from, to);
  free(s);
  return out;
}

static void tokenizer_corners(void **state) {
  (void)state;
  mg_report rep;
  mg_err e;
  size_t len;
  char *s = slurp(small, &len);
  /* "rounds" first, the header after it: same report */
  json_error_t je;
  json_t *d = json_loads(s, 0, &je), *re = json_object();
  assert_non_null(d);
  json_object_set(re, "rounds", json_object_get(d, "rounds"));
  json_object_del(d, "rounds");
  json_object_update(re, d);
  char *reordered = json_dumps(re, JSON_PRESERVE_ORDER);
  assert_int_equal(strncmp(reordered, "{\"rounds\"", 9), 0);
  assert_int_equal(verify_text(reordered, &rep, &e), MG_OK);
  assert_true(rep.verified);
  assert_int_equal(rep.rounds, 4);
  assert_float_equal(rep.cost, 8, 0);
  mg_report_free(&rep);
  free(reordered);
  json_decref(re);
  json_decref(d);

  struct {
    const char *from, *to;
    mg_status want;
    const char *msg;
  } cases[] = {
      {"\"rounds\"", "\"\\u0072ounds\"", MG_OK, NULL},
      {"\"rounds\": [", "\"rounds\": [], \"rounds\": [", MG_ERR_INVALID, "duplicate object key \"rounds\""},
      {"\"params\": {}", "\"params\": {}, \"params\": {}", MG_ERR_INVALID, "duplicate"},
      {"\"rounds\": [", "\"rounds\": {\"a\": [", MG_ERR_INVALID, "line"},
      {"\"rounds\": [", "\"rounds\": 3, \"x\": [", MG_ERR_INVALID, "rounds: expected an array of rounds"},
      /* duplicate key inside a transfer: jansson's rule, with its path */
      {"\"items\": [0]}", "\"items\": [0], \"items\": [0]}", MG_ERR_INVALID, "rounds[0][0]: duplicate"},
      /* a header problem comes before a rounds problem, whatever the order */
      {"\"rounds\": [\n  [", "\"rounds\": [\n  [7, ", MG_ERR_INVALID, "rounds[0][0]: expected a transfer object"},
      {"\"format\": \"meshgossip.schedule\"", "\"format\": \"x\"", MG_ERR_INVALID, "format"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *t = edited(cases[i].from, cases[i].to);
    mg_status st = verify_text(t, &rep, &e);
    if (st != cases[i].want) fail_msg("case %zu: status %d, want %d (%s)", i, st, cases[i].want, e.msg);
    if (cases[i].msg && !strstr(e.msg, cases[i].msg)) fail_msg("case %zu: message '%s'", i, e.msg);
    if (st == MG_OK) assert_int_equal(rep.rounds, 4);
    mg_report_free(&rep);
    free(t);
  }
  /* format wrong and a malformed round: the header's problem is named */
  char *t = edited("\"format\": \"meshgossip.schedule\"", "\"format\": \"x\"");
  char *u = edit(t, "\"rounds\": [\n  [", "\"rounds\": [\n  [7, ");
  free(t);
  t = u;
  assert_int_equal(verify_text(t, &rep, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "format"));
  mg_report_free(&rep);
  free(t);

  /* a violation in round 0 and a malformed transfer in the last round:
   * the malformed file is reported (exit 2), not the violation */
  t = edited("\"items\": [0]}", "\"items\": [99]}");
  u = t;
  for (char *v; (v = strstr(u + 1, "\"items\": [")) != NULL;)
    u = v;
  char *neg = malloc(strlen(t) + 2);
  assert_non_null(neg);
  size_t at = (size_t)(u - t) + 10;
  memcpy(neg, t, at);
  neg[at] = '-';
  strcpy(neg + at + 1, t + at);
  free(t);
  t = neg;
  assert_int_equal(verify_text(t, &rep, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "rounds[3]["));
  assert_non_null(strstr(e.msg, "items"));
  mg_report_free(&rep);
  free(t);
  t = edited("\"items\": [0]}", "\"items\": [99]}");
  assert_int_equal(verify_text(t, &rep, &e), MG_ERR_VIOLATION);
  mg_report_free(&rep);
  free(t);

  /* trailing bytes, a truncated file, deep nesting (no recursion) */
  char *trail = malloc(len + 8);
  assert_non_null(trail);
  snprintf(trail, len + 8, "%s x", s);
  assert_int_equal(verify_text(trail, &rep, &e), MG_ERR_INVALID);
  mg_report_free(&rep);
  trail[len / 2] = 0;
  assert_int_equal(verify_text(trail, &rep, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "unexpected end of input"));
  mg_report_free(&rep);
  free(trail);
  size_t depth = 100000;
  char *deep = malloc(depth * 2 + 64);
  assert_non_null(deep);
  strcpy(deep, "{\"report\": ");
  size_t k = strlen(deep);
  memset(deep + k, '[', depth);
  memset(deep + k + depth, ']', depth);
  strcpy(deep + k + 2 * depth, "}");
  assert_int_equal(verify_text(deep, &rep, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "nesting deeper"));
  mg_report_free(&rep);
  free(deep);
  free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(large_file_flat_memory), cmocka_unit_test(round_over_limit),  cmocka_unit_test(pipe_input),
      cmocka_unit_test(endless_streams),        cmocka_unit_test(tokenizer_corners),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
