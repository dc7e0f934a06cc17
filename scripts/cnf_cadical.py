"""CNF for CaDiCaL, shared by the research scripts torgos_finish9_sat.py and torgos_gather9_sat.py.

Cnf holds clauses over numbered variables (variable `true` is fixed true), Sinz's sequential counter for "at most
k of these", and solve(), which writes DIMACS to a temporary file and runs `cadical -q` (Debian: cadical) on it,
returning the status line's word (SATISFIABLE, UNSATISFIABLE or UNKNOWN) and the set of true variables; it exits
with a message if cadical is missing or fails.
"""
import os
import subprocess
import tempfile


class Cnf:
    def __init__(self):
        self.nv = 0
        self.clauses = []
        self.true = self.var()
        self.clauses.append([self.true])

    def var(self):
        self.nv += 1
        return self.nv

    def at_most(self, lits, k):
        """Sinz's sequential counter: at most k of lits are true."""
        n = len(lits)
        if k >= n:
            return
        if k == 0:
            self.clauses.extend([[-l] for l in lits])
            return
        s = [[self.var() for _ in range(k)] for _ in range(n)]
        for i in range(n):
            self.clauses.append([-lits[i], s[i][0]])
            if i > 0:
                for j in range(k):
                    self.clauses.append([-s[i - 1][j], s[i][j]])
                for j in range(1, k):
                    self.clauses.append([-lits[i], -s[i - 1][j - 1], s[i][j]])
                self.clauses.append([-lits[i], -s[i - 1][k - 1]])

    def solve(self):
        with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as f:
            f.write(f"p cnf {self.nv} {len(self.clauses)}\n")
            for cl in self.clauses:
                f.write(" ".join(map(str, cl)) + " 0\n")
        try:
            run = subprocess.run(["cadical", "-q", f.name], capture_output=True, text=True)
        except FileNotFoundError:
            raise SystemExit("cadical not found (Debian: apt-get install cadical)")
        finally:
            os.unlink(f.name)
        # CaDiCaL exits 10 (satisfiable), 20 (unsatisfiable) or 0 (no answer); anything else is a failure
        if run.returncode not in (0, 10, 20):
            raise SystemExit(f"cadical failed (exit {run.returncode}): {run.stderr.strip()[:200]}")
        out = run.stdout
        status = next((l[2:] for l in out.splitlines() if l.startswith("s ")), "UNKNOWN")
        model = {int(t) for l in out.splitlines() if l.startswith("v ") for t in l.split()[1:] if int(t) > 0}
        return status, model
