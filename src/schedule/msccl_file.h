/* MSCCL XML algorithms read back: an open algorithm is a generator of the
 * rounds derived from its steps (import_msccl.c). */
#ifndef MG_MSCCL_FILE_H
#define MG_MSCCL_FILE_H

#include "../util/internal.h"

typedef struct mg_msccl mg_msccl;

/* Parses the algorithm in path (or, when path is NULL, the len bytes at
 * data, named "buffer"), pairs its sends with their receives, derives the
 * rounds from the dependencies and places them on pb's machine (topology,
 * model, bytes; the problem comes from the algorithm's coll). MG_ERR_IO if
 * it cannot be read, MG_ERR_INVALID with one line for malformed XML, an
 * unpaired send, a bad peer or a cycle, MG_ERR_TOO_LARGE past mem_limit
 * (0: 3/4 of physical memory), MG_ERR_UNSUPPORTED for a collective or an
 * instruction our problems do not have; *out is NULL then. */
mg_status mg_msccl_open(const char *path, const char *data, size_t len, const mg_problem_spec *pb, uint64_t mem_limit,
                        mg_msccl **out, mg_err *err);
const mg_schedule_info *mg_msccl_info(const mg_msccl *m);
/* An mg_generator_fn (arg: the mg_msccl). MG_ERR_VIOLATION with the
 * reason in mg_msccl_violation when the algorithm sends a chunk slot that
 * holds no data yet, or ends with an output chunk that is not the
 * collective's; every rule of the machine is the simulator's. */
mg_status mg_msccl_generate(void *m, mg_sink *sink, mg_err *err);
/* The reader's own violation (rule MG_RULE_NONE if none). */
const mg_violation *mg_msccl_violation(const mg_msccl *m);
void mg_msccl_close(mg_msccl *m);

#endif
