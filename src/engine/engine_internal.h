/* Pieces of the platform writer (platform.c) that the S4U replay reuses to
 * write a platform with only the routes a schedule takes. Not public. */
#ifndef MG_ENGINE_INTERNAL_H
#define MG_ENGINE_INTERNAL_H

#include "meshgossip_engine.h"

#include <stdio.h>

/* XML prolog and <platform> opening, with an optional comment. */
void mg_platform_header(FILE *f, const char *comment);
/* Hosts n<id> and the links of every grid edge (or every bus). */
void mg_platform_hosts_links(FILE *f, const mg_topo *t, double bw, double lat);
/* One route from a walking seg; 0 if it leaves the grid or misses b. */
int mg_platform_route(FILE *f, const mg_topo *t, uint32_t a, uint32_t b, const mg_seg *seg, int nseg);

/* The schedule's own platform (platform_routed.c): every grid link, the
 * route each talking pair walked and the default route back of one-way
 * pairs, in a Full zone. MG_ERR_UNSUPPORTED when a pair takes two routes or
 * the topology is no grid; MG_ERR_INVALID without links (tl > 0, td >= 0). */
mg_status mg_platform_write_routed(FILE *f, const mg_deps *d, const mg_model *m, const char *comment, mg_err *err);

#endif
