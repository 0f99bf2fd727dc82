#!/usr/bin/env python3
"""A plain backtracking Sudoku solver in Python, speaking the exec: line protocol: a slow
foreign program for studies (scripts/verdicts-study.sh: a third backend in a run)."""
import os, sys

LIMIT = int(os.environ.get("SUDOKU_BENCH_MAX_SOLUTIONS", "2"))
PEERS = []
for c in range(81):
    r, k = divmod(c, 9)
    b = (r // 3) * 27 + (k // 3) * 3
    ps = {r * 9 + i for i in range(9)} | {i * 9 + k for i in range(9)} | {b + (i // 3) * 9 + i % 3 for i in range(9)}
    ps.discard(c)
    PEERS.append(tuple(ps))

def solve(g):
    found = []
    def search():
        best, opts = -1, None
        for c in range(81):
            if g[c] == 0:
                used = {g[p] for p in PEERS[c]}
                o = [d for d in range(1, 10) if d not in used]
                if best < 0 or len(o) < len(opts):
                    best, opts = c, o
                    if not o:
                        return
        if best < 0:
            if not found:
                found.append(''.join(map(str, g)))
            found.append(None)
            return
        for d in opts:
            g[best] = d
            search()
            g[best] = 0
            if len(found) - 1 >= LIMIT:
                return
    search()
    return len(found) - 1 if found else 0, (found[0] if found else None)

for line in sys.stdin:
    p = line.strip()
    g = [int(ch) if ch.isdigit() else 0 for ch in p[:81]]
    n, s = solve(g)
    print(f"{n}:{s}" if n else "0", flush=True)
