/* Algorithm parameters "k=v,..." and problem names. */
#include "../util/internal.h"

#include <stdio.h>
#include <string.h>

const char *mg_problem_name(mg_problem p) { return p == MG_EXCHANGE ? "exchange" : "gossip"; }

mg_status mg_problem_parse(const char *s, mg_problem *p, mg_err *err) {
  if (s && !strcmp(s, "gossip"))
    *p = MG_GOSSIP;
  else if (s && !strcmp(s, "exchange"))
    *p = MG_EXCHANGE;
  else
    return mg_fail(err, MG_ERR_INVALID, "problem must be gossip or exchange, not '%s'", s ? s : "");
  return MG_OK;
}

const char *mg_params_get(const mg_params *ps, const char *name) {
  for (int i = 0; i < ps->n; i++)
    if (!strcmp(ps->p[i].name, name)) return ps->p[i].value;
  return NULL;
}

mg_status mg_params_set(mg_params *ps, const char *name, const char *value, mg_err *err) {
  if (!*name || strlen(name) >= sizeof ps->p[0].name)
    return mg_fail(err, MG_ERR_INVALID, "bad parameter name '%s'", name);
  if (!*value) return mg_fail(err, MG_ERR_INVALID, "bad value for parameter '%s'", name);
  if (strlen(value) >= sizeof ps->p[0].value)
    return mg_fail(err, MG_ERR_INVALID, "value for parameter '%s' longer than %zu characters", name,
                   sizeof ps->p[0].value - 1);
  for (int i = 0; i < ps->n; i++)
    if (!strcmp(ps->p[i].name, name)) {
      strcpy(ps->p[i].value, value);
      return MG_OK;
    }
  if (ps->n == MG_MAX_PARAMS) return mg_fail(err, MG_ERR_INVALID, "more than %d parameters", MG_MAX_PARAMS);
  strcpy(ps->p[ps->n].name, name);
  strcpy(ps->p[ps->n].value, value);
  ps->n++;
  return MG_OK;
}

mg_status mg_params_set_int(mg_params *ps, const char *name, int64_t v, mg_err *err) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", (long long)v);
  return mg_params_set(ps, name, buf, err);
}

mg_status mg_params_parse(const char *spec, mg_params *ps, mg_err *err) {
  memset(ps, 0, sizeof *ps);
  if (!spec || !*spec) return MG_OK;
  char buf[512];
  if (strlen(spec) >= sizeof buf) return mg_fail(err, MG_ERR_INVALID, "parameter list too long");
  strcpy(buf, spec);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq) return mg_fail(err, MG_ERR_INVALID, "parameter '%s' is not k=v", tok);
    *eq = 0;
    /* as the model's keys: a key twice is refused, not the last one taken
     * (a review: circgos:a=3,a=4 ran as a=4) */
    if (mg_params_get(ps, tok)) return mg_fail(err, MG_ERR_INVALID, "parameter '%s' is given twice", tok);
    mg_status st = mg_params_set(ps, tok, eq + 1, err);
    if (st != MG_OK) return st;
  }
  return MG_OK;
}

char *mg_params_format(const mg_params *ps, char *buf, size_t len) {
  size_t off = 0;
  buf[0] = 0;
  for (int i = 0; i < ps->n && off < len; i++)
    off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", i ? "," : "", ps->p[i].name, ps->p[i].value);
  return buf;
}
