/* Schedule files: the reader. Every field is checked before use; a
 * malformed file (not JSON, a wrong type, a negative or unrepresentable
 * value, a missing field) is MG_ERR_INVALID with the JSON path of the
 * first problem, while ids that are well formed but name no node or item
 * of the file's machine are left to the simulator (MG_ERR_VIOLATION, exit
 * 1). The whole document is held in memory (jansson), so a file is refused
 * up front if that would exceed the memory limit. An open file is a
 * generator: it streams its rounds, with explicit item lists, into any sink
 * (the driver's verify replays it through the simulator and compares the
 * file's own report with ours). */
#include "schedule_file.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Peak memory of json_loadf per byte of a schedule file: 1.55 GB for a
 * 93 MB export (ring on ring:1200), 16.6; rounded up. */
#define MG_READ_FACTOR 18

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
  snprintf(info->algorithm, sizeof info->algorithm, "%s", json_is_string(al) ? json_string_value(al) : "file");
  json_t *params = json_object_get(root, "params");
  if (json_is_object(params)) {
    const char *k;
    json_t *v;
    json_object_foreach(params, k, v) {
      char buf[40];
      if (json_is_integer(v))
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
      else if (json_is_string(v))
        snprintf(buf, sizeof buf, "%s", json_string_value(v));
      else
        continue;
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
    if ((st = need_uint(json_array_get(dims, k), MG_MAX_NODES, &x, "topology.dims", err)) != MG_OK) return st;
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
    if (json_is_string(mv))
      snprintf(spec, sizeof spec, "%s=%s", mk, json_string_value(mv));
    else if (json_is_number(mv))
      snprintf(spec, sizeof spec, "%s=%.17g", mk, json_number_value(mv));
    else
      return mg_fail(err, MG_ERR_INVALID, "model.%s: expected a string or a number", mk);
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
  uint64_t src = 0, dst = 0;
  snprintf(what, sizeof what, "%s.src", where);
  if ((st = need_uint(json_object_get(o, "src"), UINT32_MAX - 1, &src, what, err)) != MG_OK) return st;
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
    tr.dst = UINT32_MAX;
  } else {
    snprintf(what, sizeof what, "%s.dst", where);
    if ((st = need_uint(json_object_get(o, "dst"), UINT32_MAX - 1, &dst, what, err)) != MG_OK) return st;
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
  json_t *root;
  json_t *rounds; /* borrowed from root */
  mg_schedule_info info;
};

/* Takes root (a parsed document) into a new mg_sfile; name names it in
 * messages. root is released on failure too. */
static mg_status sfile_from(json_t *root, const char *name, mg_sfile **out, mg_err *err) {
  mg_status st = MG_OK;
  mg_sfile *sf = calloc(1, sizeof *sf);
  if (!sf) {
    json_decref(root);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory reading '%s'", name);
  }
  sf->root = root;
  if (!json_is_object(sf->root)) {
    st = mg_fail(err, MG_ERR_INVALID, "%s: expected a JSON object", name);
    goto out;
  }
  MG_CHECK(read_info(sf->root, &sf->info, err));
  sf->rounds = json_object_get(sf->root, "rounds");
  if (!json_is_array(sf->rounds)) {
    st = mg_fail(err, MG_ERR_INVALID, "rounds: expected an array of rounds");
    goto out;
  }
  sf->info.rounds_hint = (int64_t)json_array_size(sf->rounds);
out:
  if (st != MG_OK)
    mg_sfile_close(sf);
  else
    *out = sf;
  return st;
}

mg_status mg_sfile_open(const char *path, uint64_t mem_limit, mg_sfile **out, mg_err *err) {
  json_error_t jerr;
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return mg_fail(err, MG_ERR_IO, "cannot open '%s'", path);
  /* jansson holds the whole document: about MG_READ_FACTOR bytes of memory
   * per byte of file (measured on exports); refuse before reading what
   * would not fit the limit the simulator applies */
  struct stat sb;
  uint64_t limit = mem_limit ? mem_limit : mg_phys_mem() / 4 * 3;
  if (fstat(fileno(f), &sb) == 0 && limit && (uint64_t)sb.st_size > limit / MG_READ_FACTOR) {
    fclose(f);
    return mg_fail(err, MG_ERR_TOO_LARGE,
                   "reading '%s' (%.1f MiB) takes about %.2f GiB (the reader holds the whole file), over the limit "
                   "of %.2f GiB",
                   path, (double)sb.st_size / (1u << 20), (double)sb.st_size * MG_READ_FACTOR / (1u << 30),
                   (double)limit / (1u << 30));
  }
  json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
  fclose(f);
  if (!root) return mg_fail(err, MG_ERR_INVALID, "%s: line %d: %s", path, jerr.line, jerr.text);
  return sfile_from(root, path, out, err);
}

mg_status mg_sfile_open_buffer(const char *data, size_t len, mg_sfile **out, mg_err *err) {
  json_error_t jerr;
  *out = NULL;
  json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!root) return mg_fail(err, MG_ERR_INVALID, "buffer: line %d: %s", jerr.line, jerr.text);
  return sfile_from(root, "buffer", out, err);
}

const mg_schedule_info *mg_sfile_info(const mg_sfile *sf) { return &sf->info; }

mg_status mg_sfile_generate(void *arg, mg_sink *sink, mg_err *err) {
  mg_sfile *sf = arg;
  mg_status st = MG_OK;
  mg_round r;
  mg_round_init(&r);
  MG_CHECK(sink->begin(sink->ctx, &sf->info, err));
  for (size_t i = 0; i < json_array_size(sf->rounds); i++) {
    json_t *rd = json_array_get(sf->rounds, i);
    if (!json_is_array(rd)) {
      st = mg_fail(err, MG_ERR_INVALID, "rounds[%zu]: expected an array of transfers", i);
      goto out;
    }
    mg_round_clear(&r);
    for (size_t j = 0; j < json_array_size(rd); j++) {
      char where[64];
      snprintf(where, sizeof where, "rounds[%zu][%zu]", i, j);
      MG_CHECK(read_transfer(json_array_get(rd, j), &r, where, err));
    }
    MG_CHECK(sink->round(sink->ctx, &r, err));
  }
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
  free(sf);
}
