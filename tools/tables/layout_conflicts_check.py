#!/usr/bin/env python3
"""layout_conflicts_check.py — docs/layouts.md's conflict table counted a
second way: every template's elements are dealt to their owners by the
layouts' formulas as docs/layouts.md states them (division, remainder and
XOR on the row i and the column j, not GF(2) rows), and the most on one
processor is compared with what build/bin/layout_conflicts printed (the
analysis's conflict degrees).

    build/bin/layout_conflicts > table.md
    tools/tables/layout_conflicts_check.py table.md

Exit status 0 when every cell agrees; the differing cells are listed.
"""
import re
import sys


def owners(N):
    """Each layout's owner of A(i, j) on N = 2^n processors, n even."""
    r = int(round(N ** 0.5))
    return {
        "cyclic": lambda i, j: (i * N + j) % N,
        "block": lambda i, j: (i * N + j) // N,
        # block_cyclic(sqrt N): blocks of sqrt N elements dealt out in turn.
        "block_cyclic": lambda i, j: ((i * N + j) // r) % N,
        # Lee and Aboelaze, Section 3: xi swaps the halves of i's bits.
        "skew": lambda i, j: ((i % r) * r + i // r) ^ j,
        # HPF (BLOCK, BLOCK) on the r x r grid: blocks of N/r x N/r.
        "2-D block": lambda i, j: (i // (N // r)) * r + j // (N // r),
        # HPF (CYCLIC, CYCLIC) on the r x r grid.
        "2-D cyclic": lambda i, j: (i % r) * r + j % r,
        # Batcher's i XOR j.
        "xor": lambda i, j: i ^ j,
    }


def degree(owner, cells):
    count = {}
    for i, j in cells:
        m = owner(i, j)
        count[m] = count.get(m, 0) + 1
    return max(count.values())


def templates(N):
    r = int(round(N ** 0.5))
    ps = range(N)
    t = {
        "row 1": [(1, p) for p in ps],
        "column 2": [(p, 2) for p in ps],
        "contiguous block 1,1": [(r + p // r, r + p % r) for p in ps],
        "distributed block 1,1": [(1 + p // r * r, 1 + p % r * r) for p in ps],
        "diagonal": [(p, p) for p in ps],
        "anti-diagonal": [(p, N - 1 - p) for p in ps],
    }
    span = N - r + 1 if N <= 64 else 2 * r
    t["any-position block (worst)"] = [
        [(i0 + p // r, j0 + p % r) for p in ps]
        for i0 in range(span) for j0 in range(span)]
    return t


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    text = open(sys.argv[1]).read()
    bad = cells = 0
    for block in re.split(r"\nN = ", text)[1:]:
        N = int(block.split()[0])
        lines = [l for l in block.splitlines() if l.startswith("|")]
        header = [h.strip() for h in lines[0].strip("|").split("|")][1:]
        header = [re.sub(r"\(\d+\)$", "", h) for h in header]
        own = owners(N)
        tmpl = templates(N)
        for line in lines[2:]:
            row = [c.strip() for c in line.strip("|").split("|")]
            name, got = row[0], [int(c) for c in row[1:]]
            for layout, value in zip(header, got):
                if name.startswith("any-position"):
                    want = max(degree(own[layout], b) for b in tmpl[name])
                else:
                    want = degree(own[layout], tmpl[name])
                cells += 1
                if want != value:
                    bad += 1
                    print(f"N = {N}, {name}, {layout}: the table says {value}, counted {want}")
    print(f"{cells} cells compared, {bad} differ")
    sys.exit(1 if bad or cells == 0 else 0)


if __name__ == "__main__":
    main()
