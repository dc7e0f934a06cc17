/*
 * meshgossip engines: other ways to time a verified schedule.
 *
 *   - SimGrid platforms for the project's topologies (mg_platform_write),
 *     with the project's dimension-order routes;
 *   - SimGrid time-independent traces, one per rank, for `smpirun -replay`
 *     (mg_engine_opts.ti_dir);
 *   - a replay of the schedule on SimGrid's flow-level network through its
 *     S4U API (built only when libsimgrid is found; mg_engine_run gets the
 *     replay function from the caller so that the core library never
 *     depends on SimGrid).
 *
 * Conventions of meshgossip.h: an mg_status, a one-line message in err,
 * nothing printed.
 */
#ifndef MESHGOSSIP_ENGINE_H
#define MESHGOSSIP_ENGINE_H

#include "meshgossip.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the exported interface: meshgossip.h */
#endif

/* ------------------------------------------------------------------ */
/* SimGrid platforms                                                    */
/* ------------------------------------------------------------------ */

/* Hosts are named "n<id>" (id as in the project: dimension 0 fastest). */
#define MG_PLATFORM_HOST_PREFIX "n"

typedef struct mg_platform_opts {
  int explicit_routes;    /* 1: never SimGrid's TORUS cluster */
  int torus_cluster;      /* 1: the TORUS cluster on any torus, even extents
                             too (SimGrid's tie rule, not ours) */
  uint64_t max_link_refs; /* explicit routes: most link references written
                             (0: 1<<22); beyond, MG_ERR_TOO_LARGE */
} mg_platform_opts;

/* Writes a SimGrid (v4.1) platform for t: links of bandwidth 1/tl bytes/s
 * and latency td per hop, SPLITDUPLEX (full duplex). A torus or ring whose
 * extents are all odd is one TORUS cluster (SimGrid routes it in dimension
 * order with the shorter way round, exactly our default routes; on an even
 * extent it breaks the tie n/2 -> 0 the other way, so even tori get
 * explicit routes); meshes, lines and even tori get one link per edge and
 * the default route of every ordered pair (Full routing). A mesh-bus gets
 * one SHARED link per row and per column bus and routes between aligned
 * nodes. Refuses tl <= 0 (MG_ERR_INVALID) and more than max_link_refs
 * (MG_ERR_TOO_LARGE). opts may be NULL. */
mg_status mg_platform_write(FILE *f, const mg_topo *t, const mg_model *m, const mg_platform_opts *opts, mg_err *err);
/* One host name per line, rank order (the smpirun host file). */
mg_status mg_platform_write_hosts(FILE *f, const mg_topo *t, mg_err *err);

/* ------------------------------------------------------------------ */
/* Engines                                                              */
/* ------------------------------------------------------------------ */

typedef enum mg_engine_kind { MG_ENGINE_MODEL = 0, MG_ENGINE_SIMGRID } mg_engine_kind;

/* The replay's clock (docs/engine.md). */
typedef enum mg_engine_sync {
  MG_SYNC_DATA = 0, /* a send starts once every item it carries has arrived at
                       its sender; messages flow eagerly */
  MG_SYNC_RANK,     /* as the MPI executor (src/mpi/exec.c): a rank posts a
                       round's receives, then its sends, then waits for all of
                       them; a message flows once its receive is posted */
} mg_engine_sync;

typedef struct mg_engine_opts {
  mg_engine_kind kind;
  /* Sender / receiver CPU seconds per message. o < 0: the model's o, else
   * its ts (the per-message start-up); or < 0: the model's or. */
  double o, or_;
  mg_engine_sync sync;
  /* The platform's links: seconds per byte and per hop; < 0: the model's
   * tl and td (set them apart when the schedule is generated under one
   * model, e.g. a calibrated one, and timed on another machine). */
  double link_tl, link_td;
  /* sync=rank: sends of at least this many bytes are waited for at the end
   * of their round, as MPI's non-detached sends (SMPI:
   * smpi/send-is-detached-thresh); 0: none (every send detached). */
  double detach;
  int simgrid_routes; /* 1: a torus gets SimGrid's TORUS cluster whatever its
                         extents (routes=simgrid: ties n/2 -> 0 go -, as in
                         platforms written by hand); the schedule's routes
                         are then not honoured on even extents */
  int network_smpi;   /* 0: CM02 with no factors and no cross traffic (one
                         flow gets a link's full bandwidth); 1: SMPI's network
                         model and default factors, as smpirun uses */
  uint64_t mem_limit; /* recorded schedule + dependency table (0: 3/4 RAM) */
  const char *ti_dir; /* non-NULL: write time-independent traces there */
} mg_engine_opts;

/* Defaults: model engine, o = -1 (ts), or = 0, data sync, links of the
 * model (link_tl = link_td = -1), CM02. */
void mg_engine_opts_default(mg_engine_opts *o);
/* Parses "model" or
 * "simgrid[:o=S,or=S,sync=data|rank,network=cm02|smpi,tl=S,td=S,detach=B,routes=ours|simgrid]". */
mg_status mg_engine_parse(const char *spec, mg_engine_opts *o, mg_err *err);

typedef struct mg_engine_result {
  int ran;                       /* 1: an engine timed the schedule */
  double time_s;                 /* its simulated time */
  double wall_s;                 /* wall time of the engine alone */
  double cpu_s;                  /* CPU time (user + system) of the engine */
  uint64_t peak_rss_bytes;       /* of the engine's own process (SimGrid runs in a
                                    forked child; the verifier's is in the report) */
  uint64_t messages;             /* messages replayed */
  uint64_t nondefault_routes;    /* transfers that took a route of their own */
  uint64_t ti_nondefault_routes; /* the same, of traces written (ti_dir): a
                                    replay on default routes times another
                                    network than the schedule's */
  int ti_platform;               /* 1: ti_dir/platform.xml and hosts.txt
                                    carry those routes (the model has
                                    links: tl > 0) */
  double o, or_;                 /* the overheads used */
  char note[MG_ERR_LEN];         /* what the engine could not honour, or "" */
} mg_engine_result;

typedef struct mg_deps mg_deps;
/* An engine's replay of a recorded schedule (mg_simgrid_replay). */
typedef mg_status (*mg_engine_replay_fn)(const mg_deps *d, const mg_engine_opts *eo, mg_engine_result *res,
                                         mg_err *err);

/* Generates and verifies like mg_run (rep as there), recording every
 * transfer's dependencies; then writes the TI traces (eo->ti_dir) and, for
 * MG_ENGINE_SIMGRID, replays the schedule with `replay` (NULL: the engine is
 * not built in, MG_ERR_UNSUPPORTED before anything runs). The engine runs
 * only on a verified schedule; res->ran says whether it did. */
mg_status mg_engine_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const mg_sim_opts *opts,
                        const mg_engine_opts *eo, mg_engine_replay_fn replay, mg_report *rep, mg_engine_result *res,
                        mg_err *err);

/* Writes one SimGrid time-independent trace per rank into dir (created if
 * missing): rank<id>.txt, and dir/traces.txt listing them (the file
 * `smpirun -replay` takes). Each rank, per round it takes part in: Irecv
 * its incoming messages, Isend its outgoing ones, waitall (the MPI
 * executor's order); bytes as MPI_BYTE counts. */
mg_status mg_ti_write(const mg_deps *d, const char *dir, mg_err *err);

#ifdef MG_HAVE_SIMGRID
/* The S4U replay (src/engine/simgrid/replay.c). SimGrid can be initialised
 * once per process, so each call replays in a forked child of its own:
 * calls may follow one another, and may come from several threads. */
mg_status mg_simgrid_replay(const mg_deps *d, const mg_engine_opts *eo, mg_engine_result *res, mg_err *err);
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
