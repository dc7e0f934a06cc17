/* Descriptors of the paper tables; one file each under src/tables/. */
#ifndef MG_TABLES_H
#define MG_TABLES_H

#include "../util/internal.h"

extern const mg_table_desc mg_table_juurlink_t1;
extern const mg_table_desc mg_table_juurlink_c1;
extern const mg_table_desc mg_table_juurlink_t2;
extern const mg_table_desc mg_table_tseng_t3;
extern const mg_table_desc mg_table_tseng_t4;
extern const mg_table_desc mg_table_tseng_t5;
extern const mg_table_desc mg_table_tseng_sync;
extern const mg_table_desc mg_table_delmas;
extern const mg_table_desc mg_table_fujita;

/* The fujita table limited to n <= max_n (the test pins n <= 32; the
 * command prints all). */
mg_status mg_table_fujita_build(mg_table *out, const mg_sim_opts *opts, uint32_t max_n, mg_err *err);

/* Runs "algo[:params]" on pb and stores cost (NaN if it does not verify). */
mg_status mg_table_simulate(const char *algo_spec, const mg_problem_spec *pb, const mg_sim_opts *opts, double *cost,
                            mg_err *err);

/* Tseng, Ni, Sheu 1999 tables (tseng_t3.c): simulate an exchange algorithm with ts = 0,
 * tl = 1, one-port, giving start-ups and critical-path blocks (NaN if it
 * does not verify); add a cell "d=D ALGO" x col. */
mg_status mg_tseng_simulate(const char *algo, const char *topo, const mg_sim_opts *opts, double *startups,
                            double *blocks, mg_err *err);
mg_status mg_tseng_add(mg_table *out, int d, const char *algo, const char *col, double paper, double closed, double sim,
                       const char *note, mg_err *err);

#endif
