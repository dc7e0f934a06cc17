/* Schedule files: the reader. Every field is checked before use; a
 * malformed file (not JSON, a wrong type, a negative or unrepresentable
 * value, a missing field) is MG_ERR_INVALID with the JSON path of the
 * first problem, while ids that are well formed but name no node or item
 * of the file's machine are left to the simulator (MG_ERR_VIOLATION, exit
 * 1). An open file is a generator: it streams its rounds, with explicit
 * item lists, into any sink (the driver's verify replays it through the
 * simulator and compares the file's own report with ours).
 *
 * The reader streams: a file with millions of rounds is never held whole.
 * The incremental tokenizer of json_stream.c walks the top-level object;
 * every member but "rounds" (the header: format, version, problem,
 * algorithm, params, topology, model, bytes, pieces, report) is collected
 * as text and parsed by jansson, and "rounds" is read one round at a time,
 * each transfer object parsed by jansson from its own text and checked by
 * read_transfer. Opening reads the rounds once without a sink, so every
 * malformed transfer is reported (exit 2) before the simulator sees the
 * first round; generating seeks back and streams them. Memory is that of
 * the largest round (refused if it would pass the limit), not of the
 * file. */
#include "schedule_file.h"

#include "json_stream.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

/* Peak memory of jansson per byte of the JSON text it parses: 1.55 GB for
 * a 93 MB export (ring on ring:1200) read whole, 16.6; rounded up. Bounds
 * the header and one transfer object's text. */
#define MG_READ_FACTOR 18
/* Memory of one round held as an mg_round per byte of its text: a transfer
 * (about 330 bytes) takes at least 28 bytes of text, an item id (8 bytes)
 * at least 2; doubled for the arrays' growth. */
#define MG_ROUND_FACTOR 32

static mg_status need_uint(json_t *v, uint64_t max, uint64_t *out, const char *what, mg_err *err) {
  if (!json_is_integer(v)) return mg_fail(err, MG_ERR_INVALID, "%s: expected a whole number", what);
  json_int_t x = json_integer_value(v);
  if (x < 0 || (uint64_t)x > max) return mg_fail(err, MG_ERR_INVALID, "%s: %lld out of range", what, (long long)x);
  *out = (uint64_t)x;
  return MG_OK;
}

static mg_status need_number(json_t *v, double *out, const char *what, mg_err *err) {
  if (!json_is_number(v)) return mg_fail(err, MG_ERR_INVALID, "%s: expected a number", what);
  double x = json_number_value(v);
  if (!isfinite(x) || x < 0) return mg_fail(err, MG_ERR_INVALID, "%s: must be finite and >= 0", what);
  *out = x;
  return MG_OK;
}

static mg_status read_info(json_t *root, mg_schedule_info *info, mg_err *err) {
  mg_status st;
  memset(info, 0, sizeof *info);
  json_t *fmt = json_object_get(root, "format"), *ver = json_object_get(root, "version");
  if (!json_is_string(fmt) || strcmp(json_string_value(fmt), "meshgossip.schedule") != 0)
    return mg_fail(err, MG_ERR_INVALID, "format: not a meshgossip.schedule file");
  if (!json_is_integer(ver) || json_integer_value(ver) != 1)
    return mg_fail(err, MG_ERR_INVALID, "version: only version 1 is understood");
  json_t *pr = json_object_get(root, "problem");
  if ((st = mg_problem_parse(json_is_string(pr) ? json_string_value(pr) : "", &info->problem, err)) != MG_OK) return st;
  json_t *al = json_object_get(root, "algorithm");
  if (al && !json_is_string(al)) return mg_fail(err, MG_ERR_INVALID, "algorithm: expected a string");
  snprintf(info->algorithm, sizeof info->algorithm, "%s", al ? json_string_value(al) : "file");
  /* algorithm and params may be left out (a schedule written by another
   * program), but not given in another type (a review: "params": "x" and
   * [] and null were read as none) */
  json_t *params = json_object_get(root, "params");
  if (params && !json_is_object(params))
    return mg_fail(err, MG_ERR_INVALID, "params: expected an object of names and values");
  if (params) {
    const char *k;
    json_t *v;
    json_object_foreach(params, k, v) {
      char buf[MG_PARAM_VALUE_LEN];
      int w;
      if (json_is_integer(v))
        w = snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
      else if (json_is_string(v))
        w = snprintf(buf, sizeof buf, "%s", json_string_value(v));
      else
        return mg_fail(err, MG_ERR_INVALID, "params.%s: expected a whole number or a string", k);
      /* a value cut short would name another schedule */
      if (w < 0 || (size_t)w >= sizeof buf)
        return mg_fail(err, MG_ERR_INVALID, "params.%s: longer than %zu characters", k, sizeof buf - 1);
      if (mg_params_set(&info->params, k, buf, NULL) != MG_OK) break;
    }
  }
  json_t *topo = json_object_get(root, "topology");
  if (!json_is_object(topo)) return mg_fail(err, MG_ERR_INVALID, "topology: expected an object");
  json_t *kind = json_object_get(topo, "kind"), *dims = json_object_get(topo, "dims");
  if (!json_is_string(kind)) return mg_fail(err, MG_ERR_INVALID, "topology.kind: expected a string");
  if (!json_is_array(dims) || json_array_size(dims) < 1 || json_array_size(dims) > MG_MAX_DIMS)
    return mg_fail(err, MG_ERR_INVALID, "topology.dims: expected 1..%d extents", MG_MAX_DIMS);
  uint32_t n[MG_MAX_DIMS];
  for (size_t k = 0; k < json_array_size(dims); k++) {
    uint64_t x = 0;
    json_t *e = json_array_get(dims, k);
    /* an extent over the node limit is an instance too large (exit 3), as a product over it is */
    if (json_is_integer(e) && json_integer_value(e) > (json_int_t)MG_MAX_NODES)
      return mg_fail(err, MG_ERR_TOO_LARGE, "topology.dims: extent %lld is over the limit of %u nodes",
                     (long long)json_integer_value(e), (unsigned)MG_MAX_NODES);
    if ((st = need_uint(e, MG_MAX_NODES, &x, "topology.dims", err)) != MG_OK) return st;
    n[k] = (uint32_t)x;
  }
  const char *ks = json_string_value(kind);
  int d = (int)json_array_size(dims);
  if (!strcmp(ks, "meshbus")) {
    if (d != 2 || n[0] != n[1]) return mg_fail(err, MG_ERR_INVALID, "topology.dims: a meshbus is [N, N]");
    st = mg_topo_meshbus(&info->topo, n[0], err);
  } else if (!strcmp(ks, "torus") || !strcmp(ks, "mesh")) {
    st = mg_topo_grid(&info->topo, d, n, !strcmp(ks, "torus"), err);
  } else {
    return mg_fail(err, MG_ERR_INVALID, "topology.kind: '%s' is not torus, mesh or meshbus", ks);
  }
  if (st != MG_OK) return st;
  mg_model_default(&info->model);
  json_t *model = json_object_get(root, "model");
  if (!json_is_object(model)) return mg_fail(err, MG_ERR_INVALID, "model: expected an object");
  const char *mk;
  json_t *mv;
  json_object_foreach(model, mk, mv) {
    char spec[640]; /* a model value can be a bwf table */
    /* one key = one value: no ',', '=' or '@' may smuggle in another
     * setting (a review: "ts": "2,contention=shared" verified a contended
     * schedule of a strict file) or a model file; the words are strings,
     * every other key a number, as the exporter writes them */
    if (!*mk || strspn(mk, "abcdefghijklmnopqrstuvwxyz_") != strlen(mk))
      return mg_fail(err, MG_ERR_INVALID, "model: '%.40s' is no model key", mk);
    static const char *const words[] = {"switching", "port", "contention", "timing", "bwf", "share", "routes"};
    int word = 0;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
      word |= !strcmp(mk, words[i]);
    if (word && !json_is_string(mv)) return mg_fail(err, MG_ERR_INVALID, "model.%s: expected a string", mk);
    if (!word && !json_is_number(mv)) return mg_fail(err, MG_ERR_INVALID, "model.%s: expected a number", mk);
    if (word && strpbrk(json_string_value(mv), ",=@ \t\n"))
      return mg_fail(err, MG_ERR_INVALID, "model.%s: '%.40s' is not one value", mk, json_string_value(mv));
    int w = word ? snprintf(spec, sizeof spec, "%s=%s", mk, json_string_value(mv))
                 : snprintf(spec, sizeof spec, "%s=%.17g", mk, json_number_value(mv));
    if (w < 0 || (size_t)w >= sizeof spec) return mg_fail(err, MG_ERR_INVALID, "model.%s: too long", mk);
    if ((st = mg_model_parse(spec, &info->model, err)) != MG_OK) return st;
  }
  if ((st = need_number(json_object_get(root, "bytes"), &info->bytes, "bytes", err)) != MG_OK) return st;
  uint64_t P = 0;
  if ((st = need_uint(json_object_get(root, "pieces"), 1u << 16, &P, "pieces", err)) != MG_OK) return st;
  if (P < 1) return mg_fail(err, MG_ERR_INVALID, "pieces: must be at least 1");
  info->pieces = (uint32_t)P;
  return MG_OK;
}

static mg_status read_transfer(json_t *o, mg_round *r, const char *where, mg_err *err) {
  mg_status st;
  char what[96];
  if (!json_is_object(o)) return mg_fail(err, MG_ERR_INVALID, "%s: expected a transfer object", where);
  /* a key the format does not have is a slip, not something to skip (a
   * review: "rute" for "route" took the default route without a word) */
  const char *key;
  json_t *val;
  json_object_foreach(o, key, val) {
    if (strcmp(key, "src") && strcmp(key, "dst") && strcmp(key, "route") && strcmp(key, "items") && strcmp(key, "bus"))
      return mg_fail(err, MG_ERR_INVALID, "%s: unknown key '%.40s' (src, dst, route, items, bus)", where, key);
  }
  uint64_t src = 0, dst = 0;
  /* the field's path is formatted only for a message: this runs for every
   * transfer of a file */
  if ((st = need_uint(json_object_get(o, "src"), UINT32_MAX - 1, &src, "", NULL)) != MG_OK) {
    snprintf(what, sizeof what, "%s.src", where);
    return need_uint(json_object_get(o, "src"), UINT32_MAX - 1, &src, what, err);
  }
  mg_transfer tr = mg_xfer((uint32_t)src, 0);
  json_t *bus = json_object_get(o, "bus");
  if (bus) {
    const char *b = json_is_string(bus) ? json_string_value(bus) : "";
    if (!strcmp(b, "row"))
      tr.bus = MG_BUS_ROW;
    else if (!strcmp(b, "col"))
      tr.bus = MG_BUS_COL;
    else
      return mg_fail(err, MG_ERR_INVALID, "%s.bus: expected \"row\" or \"col\"", where);
    /* a bus message reaches its row or column: a receiver or a route
     * beside it says something the schedule would not do */
    if (json_object_get(o, "dst") || json_object_get(o, "route"))
      return mg_fail(err, MG_ERR_INVALID, "%s: a bus message has no dst or route", where);
    tr.dst = UINT32_MAX;
  } else {
    if ((st = need_uint(json_object_get(o, "dst"), UINT32_MAX - 1, &dst, "", NULL)) != MG_OK) {
      snprintf(what, sizeof what, "%s.dst", where);
      return need_uint(json_object_get(o, "dst"), UINT32_MAX - 1, &dst, what, err);
    }
    tr.dst = (uint32_t)dst;
    json_t *route = json_object_get(o, "route");
    if (route) {
      if (!json_is_array(route) || json_array_size(route) > MG_MAX_SEGS)
        return mg_fail(err, MG_ERR_INVALID, "%s.route: expected at most %d segments [dim, hops]", where, MG_MAX_SEGS);
      for (size_t g = 0; g < json_array_size(route); g++) {
        json_t *sg = json_array_get(route, g);
        if (!json_is_array(sg) || json_array_size(sg) != 2 || !json_is_integer(json_array_get(sg, 0)) ||
            !json_is_integer(json_array_get(sg, 1)))
          return mg_fail(err, MG_ERR_INVALID, "%s.route[%zu]: expected [dim, hops]", where, g);
        json_int_t dim = json_integer_value(json_array_get(sg, 0)), hops = json_integer_value(json_array_get(sg, 1));
        if (dim < 0 || dim >= MG_MAX_DIMS || hops < -(json_int_t)MG_MAX_NODES || hops > (json_int_t)MG_MAX_NODES)
          return mg_fail(err, MG_ERR_INVALID, "%s.route[%zu]: segment out of range", where, g);
        tr.seg[g].dim = (int8_t)dim;
        tr.seg[g].hops = (int32_t)hops;
      }
      tr.nseg = (uint8_t)json_array_size(route);
      if (tr.nseg == 0 && src != dst)
        return mg_fail(err, MG_ERR_INVALID, "%s.route: empty route between different nodes", where);
    }
  }
  json_t *items = json_object_get(o, "items");
  if (!json_is_array(items)) return mg_fail(err, MG_ERR_INVALID, "%s.items: expected an array of item ids", where);
  size_t ni = json_array_size(items);
  uint64_t *buf = mg_calloc(ni ? ni : 1, sizeof(uint64_t));
  if (!buf) return mg_fail(err, MG_ERR_NOMEM, "out of memory reading %s", where);
  for (size_t k = 0; k < ni; k++) {
    json_t *it = json_array_get(items, k);
    /* a negative or non-integer id is malformed; an id past this
     * topology's items is the simulator's MG_RULE_BAD_ITEM (exit 1) */
    if (!json_is_integer(it) || json_integer_value(it) < 0) {
      free(buf);
      return mg_fail(err, MG_ERR_INVALID, "%s.items[%zu]: expected an item id (a whole number >= 0)", where, k);
    }
    buf[k] = (uint64_t)json_integer_value(it);
  }
  const uint64_t *list = mg_round_add_list(r, buf, ni);
  free(buf);
  if (!list) return mg_fail(err, MG_ERR_NOMEM, "out of memory reading %s", where);
  tr.sel.flags = MG_SEL_LIST;
  tr.sel.list = list;
  tr.sel.list_len = ni;
  if (!mg_round_add(r, &tr)) return mg_fail(err, MG_ERR_NOMEM, "out of memory reading %s", where);
  return MG_OK;
}

struct mg_sfile {
  json_t *root; /* the header: every top-level member but "rounds" */
  char *name;   /* the path, or "buffer", for messages */
  FILE *f;      /* the open file, or NULL for a buffer */
  uint64_t limit;
  uint64_t rounds_off; /* where the "rounds" array starts, and its line */
  long rounds_line;
  mg_jbuf tbuf; /* one transfer object's text */
  mg_schedule_info info;
  mg_jsr rd; /* large (its window): last */
};

/* A tokenizer error as a status: syntax MG_ERR_INVALID with the line,
 * a value over the limit MG_ERR_TOO_LARGE. */
static mg_status js_fail(mg_sfile *sf, int js, mg_err *err) {
  switch (js) {
  case MG_JS_NOMEM: return mg_fail(err, MG_ERR_NOMEM, "out of memory reading '%s'", sf->name);
  case MG_JS_IO: return mg_fail(err, MG_ERR_IO, "%s: %s", sf->name, sf->rd.msg);
  case MG_JS_TOO_LARGE: {
    char b[32];
    return mg_fail(err, MG_ERR_TOO_LARGE, "%s: %s: parsing it would pass the memory limit of %s", sf->name, sf->rd.msg,
                   mg_fmt_bytes(sf->limit, b, sizeof b));
  }
  default: return mg_fail(err, MG_ERR_INVALID, "%s: %s", sf->name, sf->rd.msg);
  }
}

/* "rounds[i][j]" without printf: this runs for every transfer of a file */
static void where_of(char *buf, size_t len, int64_t i, size_t j) {
  char tmp[64];
  size_t n;
  uint64_t v[2] = {(uint64_t)i, (uint64_t)j};
  memcpy(tmp, "rounds", 6);
  n = 6;
  for (int k = 0; k < 2; k++) {
    char d[24];
    int m = 0;
    do
      d[m++] = (char)('0' + v[k] % 10);
    while ((v[k] /= 10) != 0);
    tmp[n++] = '[';
    while (m)
      tmp[n++] = d[--m];
    tmp[n++] = ']';
  }
  if (n >= len) n = len - 1;
  memcpy(buf, tmp, n);
  buf[n] = 0;
}

/* Reads the "rounds" array at the reader's position, one round at a time
 * into rd, each handed to sink (NULL: only checked). *doc is set to 1 when
 * the error is one of the document (syntax, a value jansson refuses, a
 * limit, the sink's) and 0 for a well-formed value of the wrong shape
 * (which open reports only after the header's problems). */
static mg_status read_rounds(mg_sfile *sf, mg_sink *sink, mg_round *rd, int64_t *count, int *doc, mg_err *err) {
  mg_jsr *r = &sf->rd;
  mg_status st;
  int js;
  int64_t i = 0;
  *doc = 1;
  if ((js = mg_jsr_expect(r, '[')) != MG_JS_OK) return js_fail(sf, js, err);
  if (mg_jsr_peek(r, 1) == ']') goto end;
  for (;; i++) {
    if (mg_jsr_peek(r, 1) != '[') {
      *doc = 0;
      return mg_fail(err, MG_ERR_INVALID, "rounds[%lld]: expected an array of transfers", (long long)i);
    }
    uint64_t start = mg_jsr_offset(r);
    mg_jsr_expect(r, '[');
    mg_round_clear(rd);
    if (mg_jsr_peek(r, 1) == ']') goto round_end;
    for (size_t j = 0;; j++) {
      char where[64];
      where_of(where, sizeof where, i, j);
      if (mg_jsr_peek(r, 1) != '{') {
        *doc = 0;
        return mg_fail(err, MG_ERR_INVALID, "%s: expected a transfer object", where);
      }
      sf->tbuf.len = 0;
      r->cap = &sf->tbuf;
      js = mg_jsr_skip(r);
      r->cap = NULL;
      r->cap_fail = 0;
      if (js != MG_JS_OK) return js_fail(sf, js, err);
      json_error_t jerr;
      json_t *o = json_loadb(sf->tbuf.p, sf->tbuf.len, JSON_REJECT_DUPLICATES, &jerr);
      if (!o) return mg_fail(err, MG_ERR_INVALID, "%s: %s: %s", sf->name, where, jerr.text);
      st = read_transfer(o, rd, where, err);
      json_decref(o);
      if (st != MG_OK) {
        *doc = st != MG_ERR_INVALID;
        return st;
      }
      /* the round is held whole: about MG_ROUND_FACTOR bytes per byte of
       * its text; refuse one that would not fit before it grows further */
      if (mg_jsr_offset(r) - start > sf->limit / MG_ROUND_FACTOR) {
        char a[32], b[32];
        return mg_fail(err, MG_ERR_TOO_LARGE,
                       "%s: rounds[%lld] is over %s of text: holding it would pass the memory limit of %s", sf->name,
                       (long long)i, mg_fmt_bytes(sf->limit / MG_ROUND_FACTOR, a, sizeof a),
                       mg_fmt_bytes(sf->limit, b, sizeof b));
      }
      if (mg_jsr_peek(r, 1) != ',') break;
      mg_jsr_expect(r, ',');
    }
  round_end:
    if ((js = mg_jsr_expect(r, ']')) != MG_JS_OK) return js_fail(sf, js, err);
    if (sink && (st = sink->round(sink->ctx, rd, err)) != MG_OK) return st;
    if (mg_jsr_peek(r, 1) != ',') break;
    mg_jsr_expect(r, ',');
  }
  i++;
end:
  if ((js = mg_jsr_expect(r, ']')) != MG_JS_OK) return js_fail(sf, js, err);
  *count = i;
  return MG_OK;
}

/* The first pass: walks the top-level object, collects the text of every
 * member but "rounds" (parsed by jansson with JSON_REJECT_DUPLICATES, so
 * the header's checks are those of a whole-document read) and reads the
 * rounds once without a sink, to find every malformed transfer before the
 * simulator sees one: errors come as a whole-document reader would give
 * them (syntax and JSON first, then the header, then the rounds). */
static mg_status sfile_scan(mg_sfile *sf, mg_err *err) {
  mg_jsr *r = &sf->rd;
  mg_status st = MG_OK, deferred = MG_OK;
  mg_err derr;
  mg_round scratch;
  memset(&derr, 0, sizeof derr);
  mg_jbuf hdr = {0};
  int js, have_rounds = 0, rounds_array = 0;
  int64_t count = 0;
  size_t members = 0;
  mg_round_init(&scratch);
  hdr.limit = sf->limit / MG_READ_FACTOR > SIZE_MAX ? SIZE_MAX : (size_t)(sf->limit / MG_READ_FACTOR);
  sf->tbuf.limit = hdr.limit;
  int c = mg_jsr_peek(r, 1);
  if (c != '{') {
    js = c == '[' ? mg_jsr_skip(r) : mg_jsr_expect(r, '{');
    if (js == MG_JS_OK && mg_jsr_peek(r, 1) >= 0) js = mg_jsr_expect(r, -2);
    st = js != MG_JS_OK ? js_fail(sf, js, err) : mg_fail(err, MG_ERR_INVALID, "%s: expected a JSON object", sf->name);
    goto out;
  }
  mg_jsr_expect(r, '{');
  if ((js = mg_jbuf_put(&hdr, "{", 1)) != MG_JS_OK) goto jsfail;
  if (mg_jsr_peek(r, 1) != '}') {
    for (;;) {
      size_t mark = hdr.len;
      int is_rounds = 0;
      if (members && (js = mg_jbuf_put(&hdr, ",", 1)) != MG_JS_OK) goto jsfail;
      r->cap = &hdr;
      js = mg_jsr_string(r, "rounds", &is_rounds);
      if (js == MG_JS_OK) js = mg_jsr_expect(r, ':');
      if (js != MG_JS_OK) goto jsfail;
      if (!is_rounds) {
        js = mg_jsr_skip(r);
        r->cap = NULL;
        if (js != MG_JS_OK) goto jsfail;
        members++;
      } else {
        r->cap = NULL;
        hdr.len = mark;
        if (have_rounds) {
          st = mg_fail(err, MG_ERR_INVALID, "%s: line %ld: duplicate object key \"rounds\"", sf->name, r->line);
          goto out;
        }
        have_rounds = 1;
        c = mg_jsr_peek(r, 1);
        sf->rounds_off = mg_jsr_offset(r);
        sf->rounds_line = r->line;
        if (c == '[') {
          int doc = 1;
          rounds_array = 1;
          st = read_rounds(sf, NULL, &scratch, &count, &doc, err);
          if (st != MG_OK && doc) goto out;
          if (st != MG_OK) {
            deferred = st;
            if (err) derr = *err;
            st = MG_OK;
            /* the rest of the rounds: their syntax only */
            if ((js = mg_jsr_seek(r, sf->rounds_off, sf->rounds_line)) != MG_JS_OK) goto jsfail;
          }
          mg_round_free(&scratch);
          mg_round_init(&scratch);
        }
        if (c != '[' || deferred != MG_OK) {
          if ((js = mg_jsr_skip(r)) != MG_JS_OK) goto jsfail;
        }
      }
      if (mg_jsr_peek(r, 1) != ',') break;
      mg_jsr_expect(r, ',');
    }
  }
  if ((js = mg_jsr_expect(r, '}')) != MG_JS_OK) goto jsfail;
  if (mg_jsr_peek(r, 1) >= 0 && (js = mg_jsr_expect(r, -2)) != MG_JS_OK) goto jsfail;
  if ((js = mg_jbuf_put(&hdr, "}", 1)) != MG_JS_OK) goto jsfail;
  json_error_t jerr;
  sf->root = json_loadb(hdr.p, hdr.len, JSON_REJECT_DUPLICATES, &jerr);
  if (!sf->root) {
    st = mg_fail(err, MG_ERR_INVALID, "%s: %s", sf->name, jerr.text);
    goto out;
  }
  MG_CHECK(read_info(sf->root, &sf->info, err));
  if (!rounds_array) {
    st = mg_fail(err, MG_ERR_INVALID, "rounds: expected an array of rounds");
    goto out;
  }
  if (deferred != MG_OK) {
    if (err) *err = derr;
    st = deferred;
    goto out;
  }
  sf->info.rounds_hint = count;
  goto out;
jsfail:
  r->cap = NULL;
  if (js == MG_JS_TOO_LARGE && !r->msg[0])
    snprintf(r->msg, sizeof r->msg, "line %ld: the header is over %zu bytes", r->line, hdr.limit);
  st = js_fail(sf, js, err);
out:
  r->cap = NULL;
  mg_jbuf_free(&hdr);
  mg_round_free(&scratch);
  return st;
}

/* Opens a document read through f (or data, len when f is NULL). */
static mg_status sfile_open(FILE *f, const char *data, size_t len, const char *name, uint64_t mem_limit, mg_sfile **out,
                            mg_err *err) {
  mg_status st = MG_OK;
  *out = NULL;
  mg_sfile *sf = calloc(1, sizeof *sf);
  if (!sf || !(sf->name = strdup(name))) {
    free(sf);
    if (f) fclose(f);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory reading '%s'", name);
  }
  sf->f = f;
  if (f)
    mg_jsr_init_file(&sf->rd, f);
  else
    mg_jsr_init_mem(&sf->rd, data, len);
  sf->limit = mem_limit ? mem_limit : mg_phys_mem() / 4 * 3;
  if (!sf->limit) sf->limit = UINT64_MAX;
  MG_CHECK(sfile_scan(sf, err));
out:
  if (st != MG_OK)
    mg_sfile_close(sf);
  else
    *out = sf;
  return st;
}

/* How much of the temporary file system a copy leaves free. */
static uint64_t copy_reserve(FILE *t, uint64_t reserve) {
  if (reserve != MG_COPY_RESERVE_DEFAULT) return reserve;
  struct statvfs v;
  if (fstatvfs(fileno(t), &v) != 0) return 0;
  uint64_t total = (uint64_t)v.f_blocks * v.f_frsize, cap = (uint64_t)1 << 30;
  return total / 20 < cap ? total / 20 : cap;
}

mg_status mg_sfile_copy_stream(FILE *f, FILE *t, const char *path, uint64_t reserve, mg_err *err) {
  /* A stream may never end (/dev/zero, /dev/urandom, `yes '{'`): what is
   * no JSON text stops the copy at once, so that a mistake cannot fill the
   * disk (a review). A schedule file opens with '{' (after white space or
   * a byte order mark) and then a key or '}'; JSON text holds no NUL byte.
   * What passes that and never ends stops when the temporary file system
   * is down to its reserve, checked every MiB. */
  unsigned char buf[1 << 16];
  size_t n;
  int ok = 1, text = 1, opened = 0, keyed = 0;
  uint64_t copied = 0, checked = 0;
  reserve = copy_reserve(t, reserve);
  while (ok && text && (n = fread(buf, 1, sizeof buf, f)) > 0) {
    if (memchr(buf, 0, n)) text = 0;
    for (size_t i = 0; text && !keyed && i < n; i++) {
      unsigned char c = buf[i];
      int space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
      if (!opened) {
        if (c == '{')
          opened = 1;
        else if (!(space || c == 0xEF || c == 0xBB || c == 0xBF))
          text = 0;
      } else if (c == '"' || c == '}')
        keyed = 1;
      else if (!space)
        text = 0;
    }
    if (!text) break;
    ok = fwrite(buf, 1, n, t) == n;
    copied += n;
    if (ok && copied - checked >= ((uint64_t)1 << 20)) {
      checked = copied;
      struct statvfs v;
      if (fflush(t) != 0) {
        ok = 0;
        break;
      }
      if (fstatvfs(fileno(t), &v) == 0 && (uint64_t)v.f_bavail * v.f_frsize < reserve)
        return mg_fail(err, MG_ERR_TOO_LARGE,
                       "'%s' outgrew the temporary file system (%" PRIu64 " MiB copied, under %" PRIu64
                       " MiB left free): save it to a file and verify that",
                       path, copied >> 20, reserve >> 20);
    }
  }
  if (!text) return mg_fail(err, MG_ERR_INVALID, "'%s' is not a schedule file (not JSON text)", path);
  if (!ok || ferror(f) || fflush(t) != 0 || fseek(t, 0, SEEK_SET) != 0)
    return mg_fail(err, MG_ERR_IO, "cannot copy '%s' to a temporary file", path);
  return MG_OK;
}

mg_status mg_sfile_open(const char *path, uint64_t mem_limit, mg_sfile **out, mg_err *err) {
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return mg_fail(err, MG_ERR_IO, "cannot open '%s'", path);
  /* the rounds are read twice: a pipe is first copied to a temporary file */
  struct stat sb;
  int known = fstat(fileno(f), &sb) == 0;
  if (known && S_ISDIR(sb.st_mode)) {
    fclose(f);
    return mg_fail(err, MG_ERR_IO, "'%s' is a directory", path);
  }
  if (!known || !S_ISREG(sb.st_mode)) {
    FILE *t = tmpfile();
    if (!t) {
      fclose(f);
      return mg_fail(err, MG_ERR_IO, "cannot copy '%s' to a temporary file", path);
    }
    mg_status st = mg_sfile_copy_stream(f, t, path, MG_COPY_RESERVE_DEFAULT, err);
    fclose(f);
    if (st != MG_OK) {
      fclose(t);
      return st;
    }
    f = t;
  }
  return sfile_open(f, NULL, 0, path, mem_limit, out, err);
}

mg_status mg_sfile_open_buffer(const char *data, size_t len, uint64_t mem_limit, mg_sfile **out, mg_err *err) {
  return sfile_open(NULL, data, len, "buffer", mem_limit, out, err);
}

const mg_schedule_info *mg_sfile_info(const mg_sfile *sf) { return &sf->info; }

mg_status mg_sfile_generate(void *arg, mg_sink *sink, mg_err *err) {
  mg_sfile *sf = arg;
  mg_status st = MG_OK;
  mg_round r;
  int64_t count = 0;
  int doc = 1, js;
  mg_round_init(&r);
  MG_CHECK(sink->begin(sink->ctx, &sf->info, err));
  if ((js = mg_jsr_seek(&sf->rd, sf->rounds_off, sf->rounds_line)) != MG_JS_OK) {
    st = js_fail(sf, js, err);
    goto out;
  }
  MG_CHECK(read_rounds(sf, sink, &r, &count, &doc, err));
  st = sink->end(sink->ctx, err);
out:
  mg_round_free(&r);
  return st;
}

void mg_sfile_disagreement(const mg_sfile *sf, const mg_report *rep, char *disagree, size_t dlen) {
  json_t *fr = json_object_get(sf->root, "report");
  if (!json_is_object(fr) || !disagree) return;
  json_t *c = json_object_get(fr, "cost"), *nr = json_object_get(fr, "rounds"), *v = json_object_get(fr, "verified");
  if (json_is_number(c) && fabs(json_number_value(c) - rep->cost) > 1e-9 * (1 + fabs(rep->cost)))
    snprintf(disagree, dlen, "the file says cost %.17g, the simulator finds %.17g", json_number_value(c), rep->cost);
  else if (json_is_integer(nr) && json_integer_value(nr) != rep->rounds)
    snprintf(disagree, dlen, "the file says %lld rounds, the simulator finds %lld", (long long)json_integer_value(nr),
             (long long)rep->rounds);
  else if (json_is_boolean(v) && json_is_false(v))
    snprintf(disagree, dlen, "the file says not verified, the simulator verifies it");
}

void mg_sfile_close(mg_sfile *sf) {
  if (!sf) return;
  json_decref(sf->root);
  if (sf->f) fclose(sf->f);
  mg_jbuf_free(&sf->tbuf);
  free(sf->name);
  free(sf);
}
