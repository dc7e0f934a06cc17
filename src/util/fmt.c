/* Numbers for people and for files: the shortest decimal that reads back
 * as the same double (0.0003, not 0.00029999999999999997; 8.825, not
 * 8.8249999999999993), and whole numbers below 10^15 without an exponent
 * (121467043800, not 1.214670438e+11). */
#include "meshgossip.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

char *mg_fmt_bytes(uint64_t bytes, char *buf, size_t len) {
  const char *unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double x = (double)bytes;
  int k = 0;
  while (x >= 1024 && k < 6)
    x /= 1024, k++;
  if (buf && len) snprintf(buf, len, k ? "%.2f %s" : "%.0f %s", x, unit[k]);
  return buf;
}

char *mg_fmt_double(double x, char *buf, size_t len) {
  if (!buf || !len) return buf;
  if (!isfinite(x)) {
    snprintf(buf, len, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
    return buf;
  }
  if (x == floor(x) && fabs(x) < 1e15) {
    snprintf(buf, len, "%.0f", x == 0 ? 0.0 : x); /* no "-0" */
    return buf;
  }
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, len, "%.*g", p, x);
    if (strtod(buf, NULL) == x) break;
  }
  return buf;
}
