/* Status strings and the one-line error helper. */
#include "internal.h"

#include <stdio.h>

const char *mg_strerror(mg_status st) {
  switch (st) {
  case MG_OK: return "ok";
  case MG_ERR_INVALID: return "invalid input";
  case MG_ERR_NOMEM: return "out of memory";
  case MG_ERR_TOO_LARGE: return "instance too large";
  case MG_ERR_UNSUPPORTED: return "not applicable";
  case MG_ERR_IO: return "i/o error";
  case MG_ERR_VIOLATION: return "schedule violates a rule";
  case MG_ERR_NOTFOUND: return "not found";
  }
  return "unknown status";
}

mg_status mg_fail(mg_err *err, mg_status st, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* one line whatever the input echoed into it (a spec with a newline) */
    for (char *c = err->msg; *c; c++)
      if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
  }
  return st;
}
