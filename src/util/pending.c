/* What a command killed midway must take back: the temporary files of open
 * output files, a replay's temporary platform, the hidden directory of TI
 * traces being written (internal.h, mg_pending_add). A signal handler reads
 * this registry (mg_outfile_discard_pending), so a slot is claimed with a
 * compare-and-swap and its path written before it is marked ready: the
 * handler reads whole paths only, and builds the names of a TI directory's
 * files by hand (snprintf is not async-signal-safe). */
#include "internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char pending[MG_OUTFILE_PENDING][4096];
static uint32_t pending_ranks[MG_OUTFILE_PENDING];
static int pending_kind[MG_OUTFILE_PENDING];
static _Atomic int pending_state[MG_OUTFILE_PENDING]; /* 0 free, 1 claimed, 2 ready */

int mg_pending_add(const char *path, int kind, uint32_t ranks) {
  size_t len = strlen(path);
  if (len >= sizeof pending[0]) return -1;
  for (int i = 0; i < MG_OUTFILE_PENDING; i++) {
    int free_slot = 0;
    if (atomic_compare_exchange_strong(&pending_state[i], &free_slot, 1)) {
      memcpy(pending[i], path, len + 1);
      pending_kind[i] = kind;
      pending_ranks[i] = ranks;
      atomic_store(&pending_state[i], 2);
      return i;
    }
  }
  return -1;
}

int mg_pending_mkstemp(char *tmpl, int *slot) {
  /* the signals a CLI's handler takes wait until the file is on the list:
   * one that came between mkstemp and mg_pending_add left the file behind
   * (cli_signal failed so, once, under ASan) */
  sigset_t stop, old;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGHUP);
  int masked = pthread_sigmask(SIG_BLOCK, &stop, &old) == 0;
  int fd = mkstemp(tmpl);
  *slot = fd >= 0 ? mg_pending_add(tmpl, MG_PENDING_FILE, 0) : -1;
  if (masked) pthread_sigmask(SIG_SETMASK, &old, NULL);
  return fd;
}

void mg_pending_drop(int slot) {
  if (slot >= 0 && slot < MG_OUTFILE_PENDING) atomic_store(&pending_state[slot], 0);
}

void mg_outfile_discard_pending(void) {
  /* files and TI directories first, then the directories they were in */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < MG_OUTFILE_PENDING; i++) {
      if (atomic_load(&pending_state[i]) != 2) continue;
      int kind = pending_kind[i];
      if (pass == 0 && kind == MG_PENDING_FILE) unlink(pending[i]);
      if (pass == 0 && kind == MG_PENDING_TI_DIR) {
        char path[4096 + 32];
        size_t len = strlen(pending[i]);
        memcpy(path, pending[i], len);
        path[len++] = '/';
        for (uint64_t v = 0; v <= pending_ranks[i]; v++) {
          size_t at = len;
          if (v == pending_ranks[i]) {
            memcpy(path + at, "traces.txt", 11);
          } else {
            char digits[16];
            size_t k = 0;
            uint64_t u = v;
            do
              digits[k++] = (char)('0' + u % 10);
            while ((u /= 10) > 0);
            memcpy(path + at, "rank", 4);
            at += 4;
            while (k > 0)
              path[at++] = digits[--k];
            memcpy(path + at, ".txt", 5);
          }
          unlink(path);
        }
        rmdir(pending[i]);
      }
      if (pass == 1 && kind == MG_PENDING_DIR) rmdir(pending[i]);
    }
}
