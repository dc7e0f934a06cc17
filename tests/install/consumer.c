/* An outside program built against an installed meshgossip (by pkg-config
 * and by find_package; tests/install/install_test.sh): it runs the ring
 * gossip of Juurlink, Rao and Sibeyn ("Gossiping on meshes and tori",
 * Approach 1) on a ring of 9 through the public API and checks the
 * simulator's figures against the closed form of their Lemma 4,
 * floor(n/2) * (ts + td + L*tl), recomputed here, and the transfer count
 * 2n per step. Exit 0 when all agree; prints what it found. */
#include <meshgossip.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  mg_err err = {{0}};
  mg_problem_spec pb = {.problem = MG_GOSSIP, .bytes = 4096};
  if (mg_topo_parse("ring:9", &pb.topo, &err) != MG_OK) return fprintf(stderr, "%s\n", err.msg), 1;
  mg_model_default(&pb.model);
  if (mg_model_parse("ts=3e-4,td=1e-6,tl=2.5e-8", &pb.model, &err) != MG_OK) return fprintf(stderr, "%s\n", err.msg), 1;
  const mg_algo *a = mg_algo_find("ring");
  if (!a) return fprintf(stderr, "no algorithm 'ring'\n"), 1;
  mg_report rep;
  mg_status st = mg_run(a, &pb, NULL, NULL, &rep, &err);
  if (st != MG_OK) return fprintf(stderr, "run: %s\n", err.msg), 1;
  double closed = 4 * (3e-4 + 1e-6 + 4096 * 2.5e-8);
  int ok = rep.verified && rep.rounds == 4 && rep.transfers == 72 && fabs(rep.cost - closed) <= 1e-12 * closed;
  if (argc > 1 && strcmp(argv[1], mg_version()) != 0) ok = 0;
  printf("meshgossip %s: ring on ring:9, %lld rounds, %llu transfers, cost %.9g s (Lemma 4: %.9g s) %s\n", mg_version(),
         (long long)rep.rounds, (unsigned long long)rep.transfers, rep.cost, closed, ok ? "agree" : "DISAGREE");
  mg_report_free(&rep);
  return ok ? 0 : 1;
}
