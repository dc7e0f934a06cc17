/* Schedule files read back: an open file is a generator of its rounds. */
#ifndef MG_SCHEDULE_FILE_H
#define MG_SCHEDULE_FILE_H

#include "../util/internal.h"

#include <stdio.h>

typedef struct mg_sfile mg_sfile;

/* Reads and checks the file's header (format, topology, model, sizes) and
 * every transfer of its rounds (without holding them: the file stays open
 * and the rounds are read again by mg_sfile_generate). MG_ERR_IO if it
 * cannot be read, MG_ERR_TOO_LARGE if the header, one transfer or one round
 * would pass mem_limit (0: 3/4 of physical memory), MG_ERR_INVALID with
 * the first malformed field; *out is NULL then. */
mg_status mg_sfile_open(const char *path, uint64_t mem_limit, mg_sfile **out, mg_err *err);
/* Copies a stream (a pipe, a device) into t, stopping at what cannot be a
 * schedule file (MG_ERR_INVALID) and before the file system of t has less
 * than reserve bytes free (MG_ERR_TOO_LARGE; MG_COPY_RESERVE_DEFAULT: 5% of
 * it, at most 1 GiB); t is left at its start. MG_ERR_IO if a read or a
 * write fails. Nothing is printed; f and t stay open. */
#define MG_COPY_RESERVE_DEFAULT UINT64_MAX
mg_status mg_sfile_copy_stream(FILE *f, FILE *t, const char *path, uint64_t reserve, mg_err *err);
/* The same for a document in memory (named "buffer" in messages); data
 * must outlive the mg_sfile. */
mg_status mg_sfile_open_buffer(const char *data, size_t len, uint64_t mem_limit, mg_sfile **out, mg_err *err);
const mg_schedule_info *mg_sfile_info(const mg_sfile *sf);
/* An mg_generator_fn (arg: the mg_sfile): streams the rounds, checking
 * each transfer as it goes (MG_ERR_INVALID for a malformed one). */
mg_status mg_sfile_generate(void *sf, mg_sink *sink, mg_err *err);
/* Where the file's own report disagrees with ours, a one-line note in
 * disagree (left untouched otherwise). */
void mg_sfile_disagreement(const mg_sfile *sf, const mg_report *rep, char *disagree, size_t len);
void mg_sfile_close(mg_sfile *sf);

#endif
