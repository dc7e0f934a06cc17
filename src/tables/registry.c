/* The one table of reproducible paper tables (`meshgossip table NAME`),
 * and the cell container. Each table lives in its own file. */
#include "tables.h"

#include <math.h>
#include <string.h>

static const mg_table_desc *const tables[] = {
    &mg_table_juurlink_t1, &mg_table_juurlink_c1, &mg_table_juurlink_t2, &mg_table_tseng_t3, &mg_table_tseng_t4,
    &mg_table_tseng_t5,    &mg_table_tseng_sync,  &mg_table_delmas,      &mg_table_fujita,
};

size_t mg_table_count(void) { return sizeof tables / sizeof tables[0]; }
const mg_table_desc *mg_table_at(size_t i) { return i < mg_table_count() ? tables[i] : NULL; }

const mg_table_desc *mg_table_find(const char *name) {
  for (size_t i = 0; i < mg_table_count(); i++)
    if (!strcmp(tables[i]->name, name)) return tables[i];
  return NULL;
}

mg_table_cell mg_table_cell_empty(void) {
  mg_table_cell c;
  memset(&c, 0, sizeof c);
  c.paper = c.closed_form = c.simulated = NAN;
  return c;
}

mg_status mg_table_add(mg_table *t, const mg_table_cell *c, mg_err *err) {
  if (!mg_grow((void **)&t->cells, &t->cap, t->n + 1, sizeof *t->cells))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for a table");
  t->cells[t->n++] = *c;
  return MG_OK;
}

void mg_table_free(mg_table *t) {
  free(t->cells);
  memset(t, 0, sizeof *t);
}
