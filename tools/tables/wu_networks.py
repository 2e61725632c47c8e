#!/usr/bin/env python3
"""tools/tables/wu_networks.py HYPERDO -- the table of docs/omega.md "The
networks compared": Wu 1984's Table I permutations (with Definition 2.1's
meaning of the perfect shuffle, see docs/omega.md) at n = 4, 6, 8, each
alone on the three networks, as `hyperdo analyze --json --network all`
reports them: e-cube contention degree T before and after its own
reordering (Hou et al. 2001, Section 4), and the passes D on the omega
network and the butterfly before and after the best linear mapping F for
it alone (exact to n = 4, a heuristic beyond: docs/omega.md).  A doc aid,
not a test: the tests check every number's ingredients independently."""
import json
import subprocess
import sys


def perms(n):
    h = n // 2
    sh_row = [0] * n
    bit_sh = [0] * n
    for t in range(n):          # position from the top: y_{n-1-t}
        sh_row[n - 1 - t] = n - 1 - t // 2 if t % 2 == 0 else h - 1 - (t - 1) // 2
    for t in range(h):
        bit_sh[n - 1 - t] = n - 1 - 2 * t
        bit_sh[h - 1 - t] = n - 2 - 2 * t
    return [
        ("matrix transpose", [(i + h) % n for i in range(n)], None),
        ("bit reversal", [n - 1 - i for i in range(n)], None),
        ("vector reversal", list(range(n)), "1" * n),
        ("perfect shuffle", [(i - 1) % n for i in range(n)], None),
        ("unshuffle", [(i + 1) % n for i in range(n)], None),
        ("shuffle row major", sh_row, None),
        ("bit shuffle", bit_sh, None),
    ]


def analyze(hyperdo, n, p, b):
    spec = "n %d\nlcc p perm %s%s\n" % (n, " ".join(map(str, p)), " b " + b if b else "")
    out = subprocess.run([hyperdo, "analyze", "--json", "--network", "all", "-"],
                         input=spec, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main():
    hyperdo = sys.argv[1]
    print("| permutation | n | e-cube T | omega D | butterfly D |")
    print("|---|---|---|---|---|")
    for n in (4, 6, 8):
        for name, p, b in perms(n):
            d = analyze(hyperdo, n, p, b)
            l = d["lccs"][0]
            t0, t1 = max(l["contention_before"]), max(l["alone_contention"])
            o, bf = l["omega"], l["butterfly"]
            print("| %s | %d | %d → %d | %d → %d | %d → %d |" % (
                name, n, t0, t1, o["passes"], o["passes_after"],
                bf["passes"], bf["passes_after"]))


main()
