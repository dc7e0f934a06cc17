/* Machine models: the key=value spec, its defaults and its checks. How
 * each model prices a message and a round is in price.c. */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* whole-number keys (ell, detach) stop at 2^53, the last integer a JSON
 * number (a double) holds exactly */
#define MG_MODEL_INT_MAX 9007199254740992ull

void mg_model_default(mg_model *m) {
  memset(m, 0, sizeof *m);
  m->switching = MG_SW_WORMHOLE;
  m->port = MG_PORT_ALL;
  m->contention = MG_CONT_STRICT;
  m->ts = 1.0;
  m->td = 0.0;
  m->tl = 0.0;
  m->ell = 0;
}

mg_status mg_model_paper_units(mg_model *m, double r, mg_err *err) {
  if (!isfinite(r) || r < 0) return mg_fail(err, MG_ERR_INVALID, "r must be a finite number >= 0");
  m->ts = r;
  m->td = 0.0;
  m->tl = 1.0;
  return MG_OK;
}

const char *mg_switching_name(mg_switching s) {
  static const char *names[] = {"wormhole", "circuit", "saf", "bus"};
  return (unsigned)s < 4 ? names[s] : "?";
}
const char *mg_timing_name(mg_timing t) {
  return t == MG_TIMING_ASYNC ? "async" : t == MG_TIMING_RANKS ? "ranks" : "sync";
}
const char *mg_port_name(mg_port p) { return p == MG_PORT_ONE ? "one" : "all"; }
const char *mg_contention_name(mg_contention c) {
  return c == MG_CONT_SHARED ? "shared" : c == MG_CONT_FAIR ? "fair" : "strict";
}

const char *mg_routes_name(mg_routes r) {
  return r == MG_ROUTES_DOR ? "dor" : r == MG_ROUTES_SIMGRID ? "simgrid" : "schedule";
}

static mg_status set_key(mg_model *m, const char *k, const char *v, mg_err *err) {
  if (!strcmp(k, "switching")) {
    for (int i = 0; i < 4; i++)
      if (!strcmp(v, mg_switching_name((mg_switching)i))) {
        m->switching = (mg_switching)i;
        return MG_OK;
      }
    if (!strcmp(v, "store-and-forward")) {
      m->switching = MG_SW_SAF;
      return MG_OK;
    }
    return mg_fail(err, MG_ERR_INVALID, "switching must be wormhole, circuit, saf or bus, not '%s'", v);
  }
  if (!strcmp(k, "port")) {
    if (!strcmp(v, "all"))
      m->port = MG_PORT_ALL;
    else if (!strcmp(v, "one"))
      m->port = MG_PORT_ONE;
    else
      return mg_fail(err, MG_ERR_INVALID, "port must be all or one, not '%s'", v);
    return MG_OK;
  }
  if (!strcmp(k, "contention")) {
    if (!strcmp(v, "strict"))
      m->contention = MG_CONT_STRICT;
    else if (!strcmp(v, "shared"))
      m->contention = MG_CONT_SHARED;
    else if (!strcmp(v, "fair"))
      m->contention = MG_CONT_FAIR;
    else
      return mg_fail(err, MG_ERR_INVALID, "contention must be strict, shared or fair, not '%s'", v);
    return MG_OK;
  }
  if (!strcmp(k, "ell")) {
    uint64_t e;
    /* at most 2^53, so that a schedule file (JSON numbers, doubles) reads
     * back the same model (a review: 2^64 - 1 was exported and refused) */
    if (!mg_parse_u64(v, &e) || e > MG_MODEL_INT_MAX)
      return mg_fail(err, MG_ERR_INVALID, "ell must be a whole number 0 .. 2^53, not '%s'", v);
    m->ell = e;
    return MG_OK;
  }
  if (!strcmp(k, "bwf")) {
    /* T:F;T:F;... thresholds in bytes, factors > 0; kept sorted */
    char tmp[512];
    if (strlen(v) >= sizeof tmp) return mg_fail(err, MG_ERR_INVALID, "bwf: too long");
    strcpy(tmp, v);
    int n = 0;
    char *save = NULL;
    for (char *it = strtok_r(tmp, ";", &save); it; it = strtok_r(NULL, ";", &save)) {
      char *colon = strchr(it, ':');
      uint64_t at;
      double f;
      if (!colon) return mg_fail(err, MG_ERR_INVALID, "bwf: '%s' is not BYTES:FACTOR", it);
      *colon = 0;
      if (!mg_parse_u64(it, &at) || !mg_parse_double(colon + 1, &f) || !(f > 0))
        return mg_fail(err, MG_ERR_INVALID, "bwf: '%s:%s' needs a whole number of bytes and a factor > 0", it,
                       colon + 1);
      if (n == MG_MAX_BWF) return mg_fail(err, MG_ERR_INVALID, "bwf: at most %d steps", MG_MAX_BWF);
      int j = n++;
      for (; j > 0 && m->bwf_at[j - 1] > at; j--)
        m->bwf_at[j] = m->bwf_at[j - 1], m->bwf[j] = m->bwf[j - 1];
      if (j > 0 && m->bwf_at[j - 1] == at)
        return mg_fail(err, MG_ERR_INVALID, "bwf: %llu bytes given twice", (unsigned long long)at);
      m->bwf_at[j] = at;
      m->bwf[j] = f;
    }
    if (n == 0) return mg_fail(err, MG_ERR_INVALID, "bwf: give BYTES:FACTOR;...");
    for (int j = n; j < MG_MAX_BWF; j++)
      m->bwf_at[j] = 0, m->bwf[j] = 0;
    m->nbwf = n;
    return MG_OK;
  }
  if (!strcmp(k, "share")) {
    if (!strcmp(v, "even"))
      m->share = MG_SHARE_EVEN;
    else if (!strcmp(v, "hops"))
      m->share = MG_SHARE_HOPS;
    else
      return mg_fail(err, MG_ERR_INVALID, "share must be even or hops, not '%s'", v);
    return MG_OK;
  }
  if (!strcmp(k, "detach")) {
    if (!mg_parse_u64(v, &m->detach) || m->detach > MG_MODEL_INT_MAX)
      return mg_fail(err, MG_ERR_INVALID, "detach takes bytes, 0 (none) .. 2^53, not '%s'", v);
    return MG_OK;
  }
  if (!strcmp(k, "ack")) {
    double x;
    if (!mg_parse_double(v, &x) || x < 0 || x > 1)
      return mg_fail(err, MG_ERR_INVALID, "ack is a fraction of a flow's rate, 0 to 1, not '%s'", v);
    m->ack = x;
    return MG_OK;
  }
  if (!strcmp(k, "routes")) {
    if (!strcmp(v, "schedule"))
      m->routes = MG_ROUTES_SCHEDULE;
    else if (!strcmp(v, "dor"))
      m->routes = MG_ROUTES_DOR;
    else if (!strcmp(v, "simgrid"))
      m->routes = MG_ROUTES_SIMGRID;
    else
      return mg_fail(err, MG_ERR_INVALID, "routes must be schedule, dor or simgrid, not '%s'", v);
    return MG_OK;
  }
  if (!strcmp(k, "timing")) {
    if (!strcmp(v, "sync"))
      m->timing = MG_TIMING_SYNC;
    else if (!strcmp(v, "async"))
      m->timing = MG_TIMING_ASYNC;
    else if (!strcmp(v, "ranks"))
      m->timing = MG_TIMING_RANKS;
    else
      return mg_fail(err, MG_ERR_INVALID, "timing must be sync, async or ranks, not '%s'", v);
    return MG_OK;
  }
  double *dst = !strcmp(k, "ts")   ? &m->ts
                : !strcmp(k, "td") ? &m->td
                : !strcmp(k, "tl") ? &m->tl
                : !strcmp(k, "o")  ? &m->o
                : !strcmp(k, "or") ? &m->orecv
                                   : NULL;
  if (!dst)
    return mg_fail(err, MG_ERR_INVALID,
                   "unknown model key '%s' (switching, port, contention, ts, td, tl, ell, o, or, timing, bwf, "
                   "share, routes, detach, ack)",
                   k);
  double x;
  if (!mg_parse_double(v, &x) || x < 0)
    return mg_fail(err, MG_ERR_INVALID, "%s must be a finite number >= 0, not '%s'", k, v);
  *dst = x;
  return MG_OK;
}

/* Adds one line (without its '\n') to spec: the comment cut, blanks and
 * trailing commas dropped. */
static mg_status file_line(const char *path, char *line, size_t len, char *spec, size_t cap, size_t *n, mg_err *err) {
  line[len] = 0;
  line[strcspn(line, "#")] = 0;
  len = strlen(line);
  if (len && line[len - 1] == '\r') line[--len] = 0; /* CRLF */
  /* a carriage return that ends no line: a file of old Mac lines
   * ("ts=3\rcontention=shared\r") was one line cut at the first, ts=3
   * read and the rest dropped unsaid */
  if (strchr(line, '\r'))
    return mg_fail(err, MG_ERR_INVALID, "model file '%s': a carriage return inside a line (lines end in \\n or \\r\\n)",
                   path);
  /* no key or value holds a blank: drop them, and trailing commas */
  char *w = line;
  for (char *r = line; *r; r++)
    if (*r != ' ' && *r != '\t') *w++ = *r;
  while (w > line && w[-1] == ',')
    w--;
  *w = 0;
  if (!*line) return MG_OK;
  if (*n + strlen(line) + 2 > cap) return mg_fail(err, MG_ERR_INVALID, "model file '%s' is too long", path);
  *n += (size_t)snprintf(spec + *n, cap - *n, "%s%s", *n ? "," : "", line);
  return MG_OK;
}

/* Bytes a model file may hold, comments included (calibrate writes about
 * 300): a file named by mistake (a log, a core dump without NUL) is
 * refused before it is read whole. */
#define MG_MODEL_FILE_MAX (1u << 20)

/* "@FILE": the spec is the file's key=value items, one or more a line
 * (comma-separated), "#" to the end of a line a comment. */
static mg_status parse_file(const char *path, mg_model *m, mg_err *err) {
  /* opened without blocking: a named pipe with no writer blocked fopen
   * for ever (O_NONBLOCK does nothing to a regular file's reads) */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return mg_fail(err, MG_ERR_IO, "cannot read the model file '%s'", path);
  /* a regular file only: a model is read more than once (compare asks
   * whether the file sets contention), which a pipe cannot give twice,
   * and a stream may never end (`yes | meshgossip ... --model
   * @/dev/stdin` hung, the NUL check reading it for ever) */
  struct stat sb;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    close(fd);
    return mg_fail(err, MG_ERR_IO, "the model file '%s' is not a regular file (save a pipe's model to a file)", path);
  }
  FILE *f = fdopen(fd, "r");
  if (!f) {
    close(fd);
    return mg_fail(err, MG_ERR_NOMEM, "cannot read the model file '%s': out of memory", path);
  }
  /* One pass, a character at a time: the whole line is seen, comment and
   * all (cut at its '#' before fgets had it all, the tail of a comment
   * past the buffer came back as a line of its own and was read as
   * settings: "ts=1 #", 505 characters, ",contention=shared"), a NUL byte
   * is refused where it is (it would end a line early and hide the rest). */
  char spec[512] = "", line[512];
  size_t n = 0, len = 0;
  uint64_t total = 0;
  mg_status st = MG_OK;
  for (int c;;) {
    c = fgetc(f);
    if (c == EOF || c == '\n') {
      if ((c == EOF && ferror(f)) || (st = file_line(path, line, len, spec, sizeof spec, &n, err)) != MG_OK) break;
      if (c == EOF) break;
      len = 0;
    } else if (c == 0) {
      st = mg_fail(err, MG_ERR_INVALID, "model file '%s' holds a NUL byte: it is not text", path);
      break;
    } else if (len == sizeof line - 2) {
      st = mg_fail(err, MG_ERR_INVALID, "model file '%s': a line longer than %zu characters", path, sizeof line - 2);
      break;
    } else {
      line[len++] = (char)c;
    }
    if (++total > MG_MODEL_FILE_MAX) {
      st = mg_fail(err, MG_ERR_INVALID, "model file '%s' is over %u bytes: no model file", path, MG_MODEL_FILE_MAX);
      break;
    }
  }
  int failed = st == MG_OK && ferror(f);
  fclose(f);
  if (failed) return mg_fail(err, MG_ERR_IO, "cannot read the model file '%s'", path);
  if (st != MG_OK) return st;
  if (n == 0) return mg_fail(err, MG_ERR_INVALID, "model file '%s' holds no key=value", path);
  if (spec[0] == '@') return mg_fail(err, MG_ERR_INVALID, "model file '%s' names another file", path);
  return mg_model_parse(spec, m, err);
}

mg_status mg_model_parse(const char *spec, mg_model *m, mg_err *err) {
  if (!spec) return MG_OK;
  if (spec[0] == '@') return parse_file(spec + 1, m, err);
  char buf[512];
  if (strlen(spec) >= sizeof buf) return mg_fail(err, MG_ERR_INVALID, "model spec too long");
  strcpy(buf, spec);
  mg_model tmp = *m;
  char *save = NULL;
  /* a key given twice is refused: "ts=1e-6,...,ts=2e-6" kept the last
   * without a word, and a typo should not choose the machine (a spec
   * holds under 256 items: the buffer is 512 bytes) */
  const char *seen[256];
  size_t nseen = 0;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq) return mg_fail(err, MG_ERR_INVALID, "model item '%s' is not key=value", tok);
    *eq = 0;
    for (size_t i = 0; i < nseen; i++)
      if (!strcmp(seen[i], tok)) return mg_fail(err, MG_ERR_INVALID, "model key '%s' is given twice", tok);
    if (nseen < sizeof seen / sizeof *seen) seen[nseen++] = tok;
    mg_status st = set_key(&tmp, tok, eq + 1, err);
    if (st != MG_OK) return st;
  }
  *m = tmp;
  return MG_OK;
}

char *mg_model_format_bwf(const mg_model *m, char *buf, size_t len) {
  char x[32];
  size_t n = 0;
  buf[0] = 0;
  for (int j = 0; j < m->nbwf && n < len; j++)
    n += (size_t)snprintf(buf + n, len - n, "%s%llu:%s", j ? ";" : "", (unsigned long long)m->bwf_at[j],
                          mg_fmt_double(m->bwf[j], x, sizeof x));
  return buf;
}

char *mg_model_format(const mg_model *m, char *buf, size_t len) {
  char ts[32], td[32], tl[32], x[32]; /* shortest round-trip (src/util/fmt.c) */
  snprintf(buf, len, "switching=%s,port=%s,contention=%s,ts=%s,td=%s,tl=%s,ell=%llu", mg_switching_name(m->switching),
           mg_port_name(m->port), mg_contention_name(m->contention), mg_fmt_double(m->ts, ts, sizeof ts),
           mg_fmt_double(m->td, td, sizeof td), mg_fmt_double(m->tl, tl, sizeof tl), (unsigned long long)m->ell);
  size_t n = strlen(buf);
  /* the overheads and the clock only where they are not the defaults, so
   * every model of the papers prints as it always did */
  if (m->o != 0 && n < len) n += (size_t)snprintf(buf + n, len - n, ",o=%s", mg_fmt_double(m->o, x, sizeof x));
  if (m->orecv != 0 && n < len) n += (size_t)snprintf(buf + n, len - n, ",or=%s", mg_fmt_double(m->orecv, x, sizeof x));
  if (m->timing != MG_TIMING_SYNC && n < len)
    n += (size_t)snprintf(buf + n, len - n, ",timing=%s", mg_timing_name(m->timing));
  if (m->nbwf && n < len) {
    char t[1024];
    n += (size_t)snprintf(buf + n, len - n, ",bwf=%s", mg_model_format_bwf(m, t, sizeof t));
  }
  if (m->share == MG_SHARE_HOPS && n < len) n += (size_t)snprintf(buf + n, len - n, ",share=hops");
  if (m->routes != MG_ROUTES_SCHEDULE && n < len)
    n += (size_t)snprintf(buf + n, len - n, ",routes=%s", mg_routes_name(m->routes));
  if (m->detach && n < len) n += (size_t)snprintf(buf + n, len - n, ",detach=%llu", (unsigned long long)m->detach);
  if (m->ack != 0 && n < len) snprintf(buf + n, len - n, ",ack=%s", mg_fmt_double(m->ack, x, sizeof x));
  return buf;
}

double mg_model_wire_bytes(const mg_model *m, double bytes) {
  double f = 1;
  for (int j = 0; j < m->nbwf && (double)m->bwf_at[j] <= bytes; j++)
    f = m->bwf[j];
  return bytes / f;
}

mg_status mg_model_validate(const mg_model *m, const mg_topo *t, mg_problem problem, mg_err *err) {
  /* a model filled in by a program, not parsed: the parser's rules hold
   * (a review: ts = -1 priced a verified schedule below its bound) */
  const double num[5] = {m->ts, m->td, m->tl, m->o, m->orecv};
  static const char *const key[5] = {"ts", "td", "tl", "o", "or"};
  for (int i = 0; i < 5; i++)
    if (!isfinite(num[i]) || num[i] < 0)
      return mg_fail(err, MG_ERR_INVALID, "model %s must be a finite number >= 0, not %g", key[i], num[i]);
  if (!isfinite(m->ack) || m->ack < 0 || m->ack > 1)
    return mg_fail(err, MG_ERR_INVALID, "model ack must be between 0 and 1, not %g", m->ack);
  if (m->nbwf < 0 || m->nbwf > MG_MAX_BWF)
    return mg_fail(err, MG_ERR_INVALID, "model nbwf must be 0 to %d, not %d", MG_MAX_BWF, m->nbwf);
  for (int j = 0; j < m->nbwf; j++)
    if (!isfinite(m->bwf[j]) || m->bwf[j] <= 0 || (j > 0 && m->bwf_at[j] <= m->bwf_at[j - 1]))
      return mg_fail(err, MG_ERR_INVALID, "model bwf: factors must be finite and > 0, thresholds increasing");
  if (m->switching == MG_SW_BUS && t->kind != MG_TOPO_MESHBUS)
    return mg_fail(err, MG_ERR_INVALID, "switching=bus needs a meshbus topology");
  if (t->kind == MG_TOPO_MESHBUS && m->switching != MG_SW_BUS)
    return mg_fail(err, MG_ERR_INVALID, "a meshbus topology needs switching=bus");
  /* Fujita defines the mesh-bus for gossip; the simulator resolves only
   * gossip selectors on buses */
  if (t->kind == MG_TOPO_MESHBUS && problem != MG_GOSSIP)
    return mg_fail(err, MG_ERR_INVALID, "the mesh-bus model (Fujita) is defined for gossip only");
  if (m->contention == MG_CONT_FAIR && m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_INVALID, "contention=fair is defined for wormhole and circuit switching");
  /* Fujita's bus step is one start-up per round, whatever is on the bus */
  if (m->switching == MG_SW_BUS && (m->o != 0 || m->orecv != 0 || m->timing != MG_TIMING_SYNC || m->nbwf))
    return mg_fail(err, MG_ERR_INVALID,
                   "o, or, bwf and timing=async|ranks are defined for wormhole, circuit and saf switching");
  /* a route the network picks may share arcs the schedule kept apart:
   * only the rules that price sharing can price it */
  if (m->routes != MG_ROUTES_SCHEDULE && (m->contention == MG_CONT_STRICT || m->switching == MG_SW_BUS))
    return mg_fail(err, MG_ERR_INVALID, "routes=%s needs contention=shared or fair (strict keeps the named routes)",
                   mg_routes_name(m->routes));
  /* the fluid of timing=async|ranks under fair lets a node's messages of
   * different rounds share the wire; it has no one-port rule (strict and
   * shared keep one message in and one out at a time, async.c) */
  if (m->port == MG_PORT_ONE && m->contention == MG_CONT_FAIR && m->timing != MG_TIMING_SYNC)
    return mg_fail(err, MG_ERR_INVALID, "port=one with contention=fair is priced by timing=sync only (or use %s)",
                   "contention=shared");
  /* acknowledgements load arcs only where flows share them fairly */
  if (m->ack != 0 && m->contention != MG_CONT_FAIR)
    return mg_fail(err, MG_ERR_INVALID, "ack= is priced by contention=fair only");
  return MG_OK;
}
