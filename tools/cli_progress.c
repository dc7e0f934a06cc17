/* Step progress of the long commands (compare, table, tune) on a
 * terminal: the library announces each step through mg_sim_opts.on_step
 * (it never prints), and this file shows the latest one on stderr,
 * overwritten in place ("\r[compare] 7/19 torgos") and cleared when the
 * command is done. Nothing at all when stderr is not a terminal, so
 * scripts, pipes and tests see the same output as before.
 * MESHGOSSIP_PROGRESS=all shows every step at once (no half-second
 * delay, no rate limit), so a test on a fast command sees them all. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STEP_WIDTH 79 /* one line of an 80-column terminal: \r must not wrap */

static double step_t0, step_last;
static int step_shown; /* characters on the line now */
static int64_t step_runs;
static int step_all;

static void on_step(void *arg, const char *what, int64_t done, int64_t total) {
  const char *label = arg;
  char line[STEP_WIDTH + 1];
  step_runs++;
  double now = mg_now();
  /* quiet for the first half second (short commands stay silent), then
   * at most ten updates a second */
  if (!step_all && (now - step_t0 < 0.5 || now - step_last < 0.1)) return;
  step_last = now;
  int k;
  if (total > 0)
    k = snprintf(line, sizeof line, "[%s] %lld/%lld %s", label, (long long)done + 1, (long long)total, what);
  else
    k = snprintf(line, sizeof line, "[%s] run %lld: %s", label, (long long)step_runs, what);
  if (k < 0) return;
  if (k > STEP_WIDTH) k = STEP_WIDTH;
  /* pad over what the previous line left */
  fprintf(stderr, "\r%s%*s", line, step_shown > k ? step_shown - k : 0, "");
  if (step_shown > k) fprintf(stderr, "\r%s", line);
  step_shown = k;
  fflush(stderr);
}

void cli_step_progress(mg_sim_opts *so, const char *label) {
  if (!isatty(2)) return;
  step_t0 = mg_now();
  step_last = 0;
  step_runs = 0;
  const char *e = getenv("MESHGOSSIP_PROGRESS");
  step_all = e && !strcmp(e, "all");
  so->on_step = on_step;
  so->on_step_arg = (void *)label;
}

void cli_step_done(void) {
  if (step_shown) fprintf(stderr, "\r%*s\r", step_shown, "");
  fflush(stderr);
  step_shown = 0;
}
