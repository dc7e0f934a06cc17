/* The export formats by name and by file extension, and their taps:
 * JSON (export.c), MSCCL's XML algorithms (export_msccl.c), LogGOPSim's
 * GOAL (export_goal.c). */
#include "../util/internal.h"

#include <string.h>
#include <strings.h>

mg_status mg_export_format_parse(const char *name, mg_export_format *f, mg_err *err) {
  if (!strcmp(name, "json"))
    *f = MG_FORMAT_JSON;
  else if (!strcmp(name, "msccl") || !strcmp(name, "xml"))
    *f = MG_FORMAT_MSCCL;
  else if (!strcmp(name, "goal"))
    *f = MG_FORMAT_GOAL;
  else
    return mg_fail(err, MG_ERR_INVALID, "export format must be json, msccl or goal, not '%s'", name);
  return MG_OK;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcasecmp(s + n - k, suffix);
}

mg_export_format mg_export_format_of_path(const char *path) {
  if (ends_with(path, ".xml")) return MG_FORMAT_MSCCL;
  if (ends_with(path, ".goal")) return MG_FORMAT_GOAL;
  return MG_FORMAT_JSON;
}

mg_status mg_export_tap(mg_export_format format, const char *path, mg_tap *tap, mg_err *err) {
  switch (format) {
  case MG_FORMAT_MSCCL: return mg_export_msccl_tap(path, tap, err);
  case MG_FORMAT_GOAL: return mg_export_goal_tap(path, tap, err);
  case MG_FORMAT_JSON: return mg_export_json_tap(path, tap, err);
  }
  return mg_fail(err, MG_ERR_INVALID, "unknown export format %d", (int)format);
}
