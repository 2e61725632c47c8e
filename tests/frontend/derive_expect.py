#!/usr/bin/env python3
"""Derive the expected JSON of tests/frontend/*.c without Hyperdo.

An independent model of docs/annotations.md, written from Hou et al. 2001 and the
annotation language, to check the hand-derived expectations:

  * every iteration i of a doall is enumerated;  the index of each reference
    is evaluated with Python's own integers (the C subscript text, evaluated
    with / as floor division, which is what C does for the non-negative
    values used here, and the bits.h helpers re-implemented bit by bit);
  * owners come from the distribution (exact, cyclic, block, block_cyclic);
  * the (source owner, destination owner) pairs decide the class: a gather
    when every processor is a source and the destination is a function of
    the source, a scatter in the mirror case;  A and b are fitted from the
    pairs (b = f(0), column j = f(e_j) + b) and then checked on every pair;
  * T_i is counted by routing every distinct message hop by hop with e-cube
    routing (lowest differing dimension first) and taking the busiest channel
    of each dimension -- not with Theorem 1;
  * the set cost (objective max) by trying all n! orderings, the contention
    of each being Theorem 1 implemented here (checked against the router on
    the identity ordering).

Usage: derive_expect.py [--write] [FILE.c ...]   (default: every file below)
Without --write it compares with the X.expect.json files and prints
differences; with --write it (re)writes them.
"""
import itertools
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# ------------------------------------------------------------ bits.h model
def reverse(i, n):
    return sum(((i >> t) & 1) << (n - 1 - t) for t in range(n))


def gray(i):
    return i ^ (i >> 1)


def rotl(i, r, n):
    r %= n
    i &= (1 << n) - 1
    return sum(((i >> ((t - r) % n)) & 1) << t for t in range(n))


def rotr(i, r, n):
    return rotl(i, -r, n)


def shuffle(i, n):
    return rotl(i, 1, n)


def unshuffle(i, n):
    return rotr(i, 1, n)


def transpose(i, n):
    h = n // 2
    lo, hi = i & ((1 << h) - 1), (i >> h) & ((1 << h) - 1)
    return (lo << h) | hi


def bit(i, k):
    return (i >> k) & 1


HELPERS = dict(reverse=reverse, gray=gray, rotl=rotl, rotr=rotr,
               shuffle=shuffle, unshuffle=unshuffle, transpose=transpose,
               bit=bit)


# ------------------------------------------------------------ the model
class Arr:
    def __init__(self, dims, dist=None, B=None):
        self.dims = dims
        self.size = 1
        for d in dims:
            self.size *= d
        self.dist = dist   # None (exact or replicated), cyclic, block, bc
        self.B = B

    def log2size(self):
        return self.size.bit_length() - 1

    def owner(self, e, n):
        assert 0 <= e < self.size, "index %d out of bounds" % e
        if self.dist is None:
            assert self.size == 1 << n, "replicated array has no owner"
            return e
        if self.dist == 'cyclic':
            return e & ((1 << n) - 1)
        if self.dist == 'block':
            return e >> (self.log2size() - n)
        if self.dist == 'block_cyclic':
            return (e >> (self.B.bit_length() - 1)) & ((1 << n) - 1)
        raise ValueError(self.dist)


def split_ref(text):
    """'img[a][b]' -> ('img', ['a', 'b'])"""
    m = re.match(r'\s*([A-Za-z_]\w*)', text)
    name, pos, subs = m.group(1), m.end(), []
    while pos < len(text):
        assert text[pos] == '[', text
        depth, start = 0, pos + 1
        for q in range(pos, len(text)):
            if text[q] == '[':
                depth += 1
            elif text[q] == ']':
                depth -= 1
                if depth == 0:
                    break
        subs.append(text[start:q])
        pos = q + 1
    return name, subs


def c_to_py(expr):
    expr = expr.replace('/', '//')
    expr = re.sub(r'\b(0x[0-9A-Fa-f]+|\d+)[uUlL]+\b', r'\1', expr)
    expr = expr.replace('(unsigned)', '')
    expr = expr.replace('(int)', '')
    return expr


def flat_index(text, arrays, var, i, ns, override=None):
    name, subs = split_ref(text)
    arr = arrays[name]
    env = dict(HELPERS)
    env.update(ns)
    env[var] = i
    if override:
        vals = [eval(e, env) for e in override]
    else:
        vals = [eval(c_to_py(s), env) for s in subs]
    assert len(vals) == len(arr.dims), text
    e = 0
    for v, d in zip(vals, arr.dims):
        assert 0 <= v < d, "%s: subscript %d out of [0, %d)" % (text, v, d)
        e = e * d + v
    return name, e


def rank(rows, n):
    rows = [r for r in rows]
    rk = 0
    for col in range(n):
        piv = None
        for k in range(rk, len(rows)):
            if (rows[k] >> col) & 1:
                piv = k
                break
        if piv is None:
            continue
        rows[rk], rows[piv] = rows[piv], rows[rk]
        for k in range(len(rows)):
            if k != rk and (rows[k] >> col) & 1:
                rows[k] ^= rows[rk]
        rk += 1
    return rk


def fit_affine(f, n):
    """f: dict x -> y over all 2^n x; returns (rows, b) with row t as an int
    whose bit j is a_tj, or None when f is not affine."""
    b = f[0]
    cols = [f[1 << j] ^ b for j in range(n)]
    rows = [0] * n
    for t in range(n):
        for j in range(n):
            if (cols[j] >> t) & 1:
                rows[t] |= 1 << j
    for x, y in f.items():
        v = b
        for j in range(n):
            if (x >> j) & 1:
                v ^= cols[j]
        if v != y:
            return None
    return rows, b


def route_contention(pairs, n):
    load = {}
    for x, y in pairs:
        at = x
        while at != y:
            d = (at ^ y) & -(at ^ y)
            dim = d.bit_length() - 1
            load[(at, dim)] = load.get((at, dim), 0) + 1
            at ^= d
    T = [0] * n
    for (node, dim), c in load.items():
        T[dim] = max(T[dim], c)
    return T


def theorem1(rows, b, n, scatter):
    """T_i of the LCC (rows, b) by Theorem 1 (gather), or for a scatter by
    the duality of docs/analysis.md (reverse the bit order)."""
    if scatter:
        rev = [0] * n
        for t in range(n):
            for j in range(n):
                if (rows[t] >> j) & 1:
                    rev[n - 1 - t] |= 1 << (n - 1 - j)
        rb = sum(((b >> t) & 1) << (n - 1 - t) for t in range(n))
        return list(reversed(theorem1(rev, rb, n, False)))
    T = []
    for i in range(n):
        if rows[i] == 1 << i and not (b >> i) & 1:
            T.append(0)
            continue
        sub = [rows[t] & ((1 << i) - 1) for t in range(i + 1)]
        T.append(1 << (i - rank(sub, i)))
    return T


def row_strings(rows, n):
    return [''.join('1' if (r >> j) & 1 else '0' for j in range(n))
            for r in rows]


def classify(pairs, n, k):
    """pairs: list over i of (src, dst).  Returns a dict of fields."""
    if all(s == d for s, d in pairs):
        return None
    N = 1 << n
    srcs = {s for s, _ in pairs}
    dsts = {d for _, d in pairs}
    g = {}
    gfun = True
    for s, d in pairs:
        if g.setdefault(s, d) != d:
            gfun = False
    if len(srcs) == N and gfun:
        fit = fit_affine(g, n)
        if fit:
            rows, b = fit
            return lcc_fields(rows, b, n, False, pairs)
    sc = {}
    sfun = True
    for s, d in pairs:
        if sc.setdefault(d, s) != s:
            sfun = False
    if len(dsts) == N and sfun:
        fit = fit_affine(sc, n)
        if fit:
            rows, b = fit
            return lcc_fields(rows, b, n, True, pairs)
    if len(srcs) < N and len(dsts) < N:
        reason = "only part of the processors send and only part receive"
    elif (len(srcs) == N and gfun) or (len(dsts) == N and sfun):
        reason = "NOT AFFINE"   # a function, but not an affine one
    else:
        reason = "a processor exchanges elements with several partners"
    return {'class': 'general', 'reason_contains': reason}


def lcc_fields(rows, b, n, scatter, pairs):
    rk = rank(rows, n)
    bpc = all(bin(r).count('1') == 1 for r in rows) and rk == n
    cls = 'LCP' if rk == n else ('LCS' if scatter else 'LCG')
    T = route_contention(set(pairs), n)
    T1 = theorem1(rows, b, n, scatter)
    assert T == T1, (T, T1)
    return {'class': cls, 'kind': 'scatter' if scatter else 'gather',
            'bpc': bpc, 'rank': rk, 'A': row_strings(rows, n),
            'b': ''.join(str((b >> t) & 1) for t in range(n)),
            'contention_before': T, '_rows': rows, '_b': b,
            '_scatter': scatter, '_pairs': set(pairs)}


def set_cost_max(lccs, n):
    best = None
    for r in itertools.permutations(range(n)):
        worst = 0
        for c in lccs:
            rows, b = c['_rows'], c['_b']
            # Theorem 2: entry (k, l) of Q A Q^-1 is a_{r_k, r_l}
            nr = [0] * n
            for kk in range(n):
                for ll in range(n):
                    if (rows[r[kk]] >> r[ll]) & 1:
                        nr[kk] |= 1 << ll
            nb = sum(((b >> r[kk]) & 1) << kk for kk in range(n))
            worst = max(worst, max(theorem1(nr, nb, n, c['_scatter'])))
            if best is not None and worst >= best:
                break
        if best is None or worst < best:
            best, best_r = worst, r
    # Check the optimum by routing the renamed messages (x' = Q x: new bit
    # kk is old bit r_kk) hop by hop.
    def rename(x):
        return sum(((x >> best_r[kk]) & 1) << kk for kk in range(n))
    routed = max(max(route_contention({(rename(x), rename(y))
                                       for x, y in c['_pairs']}, n))
                 for c in lccs)
    assert routed == best, (routed, best)
    return best


# ------------------------------------------------------------ locating
PRAGMA = re.compile(r'^\s*(#\s*pragma\s+hyperdo\s+doall\b|_Pragma\("hyperdo '
                    r'doall"\)|DOALL\s*$)')


def locate(path, loops_reads):
    """loops_reads: per loop, list of reference texts in source order.
    Returns per loop (loop_line, [(line, col), ...])."""
    lines = open(path).read().split('\n')
    starts = [k for k, l in enumerate(lines) if PRAGMA.match(l)]
    assert len(starts) == len(loops_reads), (path, len(starts),
                                             len(loops_reads))
    out = []
    for li, start in enumerate(starts):
        end = starts[li + 1] if li + 1 < len(starts) else len(lines)
        k = start + 1
        while not re.match(r'^\s*for\b', lines[k]):
            k += 1
        loop_line = k + 1
        found, ln, col0 = [], k, 0
        for text in loops_reads[li]:
            while True:
                p = lines[ln].find(text, col0)
                if p >= 0:
                    found.append((ln + 1, p + 1))
                    col0 = p + len(text)
                    break
                ln += 1
                col0 = 0
                assert ln < end, (path, text)
        out.append((loop_line, found))
    return out


# ------------------------------------------------------------ the corpus
def A(dims, dist=None, B=None):
    return Arr(dims, dist, B)


def loop(k, var, write, reads, override=None):
    """reads: list of texts, or (text, dict) for manual entries."""
    return dict(k=k, var=var, write=write, reads=reads,
                override=override or {})


def G(text, reason):
    return (text, {'class': 'general', 'reason_contains': reason})


E256 = [256]
CORPUS = {}

CORPUS['fig1_bitreverse.c'] = dict(
    n=8, ns=dict(N=8), arrays=dict(b=A(E256), r=A(E256)),
    loops=[loop(8, 'i', 'b[i]', ['r[reverse(i, N)]'])], cost=1)

CORPUS['transpose.c'] = dict(
    n=8, ns=dict(ROWS=16),
    arrays={'a': A(E256), 't1': A(E256), 't2': A(E256), 't3': A(E256),
            't4': A(E256)},
    loops=[loop(8, 'i', 't1[i]', ['a[(i >> 4) | ((i & 15) << 4)]']),
           loop(8, 'i', 't2[i]', ['a[(i >> 4) + ((i & 15) << 4)]']),
           loop(8, 'i', 't3[i]', ['a[i % 16 * 16 + i / 16]']),
           loop(8, 'i', 't4[i]', ['a[transpose(i, 8)]'])])

CORPUS['revflip.c'] = dict(
    n=8, ns=dict(N=256),
    arrays={'a': A(E256), 'f1': A(E256), 'f2': A(E256), 'f3': A(E256)},
    loops=[loop(8, 'i', 'f1[i]', ['a[reverse(i, 8) ^ (N - 1)]']),
           loop(8, 'i', 'f2[i]', ['a[N - 1 - reverse(i, 8)]']),
           loop(8, 'i', 'f3[i]', ['a[reverse(~i & 255, 8)]'])])

CORPUS['complement.c'] = dict(
    n=8, ns=dict(N=256),
    arrays=dict({'c%d' % j: A(E256) for j in range(1, 7)}, a=A(E256)),
    loops=[loop(8, 'i', 'c1[i]', ['a[N - 1 - i]']),
           loop(8, 'i', 'c2[i]', ['a[(N - 1) ^ i]']),
           loop(8, 'i', 'c3[i]', ['a[~i & 255]']),
           loop(8, 'i', 'c4[i]', ['a[255 - i]']),
           loop(8, 'i', 'c5[i]', ['a[(unsigned char)~i]'],
                override={'a[(unsigned char)~i]': ['~i & 255']}),
           loop(8, 'i', 'c6[i]', ['a[i ^ 0xff]'])])

CORPUS['constants.c'] = dict(
    n=8, ns={},
    arrays={x: A(E256) for x in 'abcdefg'},
    loops=[loop(8, 'i', 'b[i]', ['a[i ^ 5]']),
           loop(8, 'i', 'c[i]', ['a[i & 0xF0]']),
           loop(8, 'i', 'd[i]', ['a[i | 3]']),
           loop(8, 'i', 'e[i]', ['a[(i & 0x0F) | 0xA0]']),
           loop(8, 'i', 'f[i]', ['a[7]', 'a[0]']),
           loop(8, 'i', 'g[i]', ['a[i]'])])

CORPUS['shifts.c'] = dict(
    n=8, ns={}, arrays={x: A(E256) for x in 'abcd'},
    loops=[loop(8, 'i', 'b[i]', ['a[i >> 1]']),
           loop(8, 'i', 'c[i]', ['a[(i << 1) & 255]']),
           loop(8, 'i', 'd[i]', ['a[(i >> 2) | ((i << 6) & 255)]'])])

CORPUS['gray.c'] = dict(
    n=8, ns={}, arrays={x: A(E256) for x in 'abcd'},
    loops=[loop(8, 'i', 'b[i]', ['a[i ^ (i >> 1)]']),
           loop(8, 'i', 'c[i]', ['a[gray(i)]']),
           loop(8, 'i', 'd[gray(i)]', ['a[i]'])])

CORPUS['helpers.c'] = dict(
    n=8, ns={},
    arrays=dict({'h%d' % j: A(E256) for j in range(1, 10)}, a=A(E256)),
    loops=[loop(8, 'i', 'h1[i]', ['a[reverse(i, 8)]']),
           loop(8, 'i', 'h2[i]', ['a[rotl(i, 3, 8)]']),
           loop(8, 'i', 'h3[i]', ['a[rotr(i, 2, 8)]']),
           loop(8, 'i', 'h4[i]', ['a[shuffle(i, 8)]']),
           loop(8, 'i', 'h5[i]', ['a[unshuffle(i, 8)]']),
           loop(8, 'i', 'h6[i]', ['a[transpose(i, 8)]']),
           loop(8, 'i', 'h7[i]', ['a[bit(i, 3)]']),
           loop(8, 'i', 'h8[i]', ['a[reverse(i, 4)]']),
           loop(8, 'i', 'h9[i]', ['a[(bit(i, 7) | (i << 1)) & 255]'])])

M16 = [16, 16]
CORPUS['twod.c'] = dict(
    n=8, ns={},
    arrays=dict(m=A(M16), t=A(M16), u=A(M16), r=A([4, 64]), w=A([4, 64]),
                c3=A([4, 8, 8]), d3=A([4, 8, 8])),
    loops=[loop(8, 'i', 't[i >> 4][i & 15]', ['m[i & 15][i >> 4]']),
           loop(8, 'i', 'u[i & 15][i >> 4]', ['m[i >> 4][i & 15]']),
           loop(8, 'i', 'w[i >> 6][i & 63]', ['r[i & 3][i >> 2]']),
           loop(8, 'i', 'd3[i >> 6][(i >> 3) & 7][i & 7]',
                ['c3[i & 3][(i >> 2) & 7][i >> 5]'])])

CORPUS['loopforms.c'] = dict(
    n=8, ns=dict(LOG=8, SIZE=256, COUNT=256, HALF=128),
    arrays={x: A(E256) for x in 'abcdef'},
    loops=[loop(8, 'i', 'b[i]', ['a[i ^ 1]']),
           loop(8, 'j', 'c[j]', ['a[j ^ 2]']),
           loop(8, 'k', 'd[k]', ['a[k ^ 4]']),
           loop(8, 'i', 'e[i]', ['a[i ^ 8]']),
           loop(8, 'idx', 'f[idx]', ['a[idx ^ 16]'])])

CORPUS['cube.c'] = dict(
    n=3, ns={},
    arrays=dict(a=A([16], 'cyclic'), b=A([16], 'cyclic'), v=A([8]),
                w=A([8])),
    loops=[loop(4, 'i', 'b[i]', ['a[i ^ 8]']),
           loop(4, 'i', 'b[i]', ['a[i ^ 1]']),
           loop(4, 'i', 'b[i]', ['a[reverse(i, 4)]']),
           loop(4, 'i', 'b[i]', ['v[i & 7]']),
           loop(3, 'i', 'w[i]', ['v[reverse(i, 3)]'])])

CORPUS['dim.c'] = dict(
    n=6, ns={},
    arrays=dict(a=A(E256, 'block'), b=A(E256, 'block')),
    loops=[loop(8, 'i', 'b[i]', ['a[i ^ 3]']),
           loop(8, 'i', 'b[i]', ['a[i ^ 0x80]']),
           loop(8, 'i', 'b[i]', ['a[(i & 3) | (reverse(i >> 2, 6) << 2)]']),
           loop(8, 'i', 'b[i]', ['a[reverse(i, 8)]'])])

CORPUS['fft_block_cyclic.c'] = dict(
    n=3, ns={},
    arrays=dict(x=A([32], 'block_cyclic', 2), y=A([32], 'block_cyclic', 2),
                cx=A([32], 'cyclic'), cy=A([32], 'cyclic'),
                kx=A([32], 'block'), ky=A([32], 'block')),
    loops=[loop(5, 'i', 'y[i]', ['x[reverse(i, 5)]']),
           loop(5, 'i', 'x[i]', ['y[i]', 'y[i ^ 1]']),
           loop(5, 'i', 'y[i]', ['x[i]', 'x[i ^ 2]']),
           loop(5, 'i', 'x[i]', ['y[i]', 'y[i ^ 4]']),
           loop(5, 'i', 'y[i]', ['x[i]', 'x[i ^ 8]']),
           loop(5, 'i', 'x[i]', ['y[i]', 'y[i ^ 16]']),
           loop(5, 'i', 'cy[i]', ['cx[(i & 24) | reverse(i & 7, 3)]']),
           loop(5, 'i', 'ky[i]', ['kx[i ^ 16]'])])

CORPUS['lcg.c'] = dict(
    n=3, ns={},
    arrays=dict(v=A([8]), packed=A([16], 'block'), w=A([16], 'block'),
                big=A([32], 'block')),
    loops=[loop(3, 'i', 'packed[i]', ['v[i]']),
           loop(4, 'i', 'big[i]', ['w[i]'])])

CORPUS['general.c'] = dict(
    n=8, ns={},
    arrays=dict({x: A(E256) for x in 'abcdef'}, p=A(E256)),
    loops=[loop(8, 'i', 'b[i]', [G('a[(i + 1) & 255]', 'carry')]),
           loop(8, 'i', 'c[i]', [G('a[(i * 3) & 255]', 'power of two')]),
           loop(8, 'i', 'd[i]', [G('a[p[i]]', "contents of 'p'")]),
           loop(8, 'i', 'e[i]', [G('a[(i << s) & 255]', "'s', which is not a compile-time constant")]),
           loop(8, 'i', 'f[i]', ['a[i ^ 64]'])])

CORPUS['calls.c'] = dict(
    n=8, ns={},
    arrays={x: A(E256) for x in 'abc'},
    loops=[loop(8, 'i', 'b[i]', ['a[i ^ 1]', 'a[i]']),
           loop(8, 'i', 'c[i]', [G('a[scramble(i)]', "the index calls 'scramble', whose "
                                   "value is known only when the loop runs"), 'a[i]'])])

EX5 = ['diag', 'anti', 'cw', 'ccw', 'vert', 'horiz', 'r180', 'scale', 'fft',
       'rows', 'cols']
EX5_READS = ['img[i & 15][i >> 4]',
             'img[15 - (i & 15)][15 - (i >> 4)]',
             'img[15 - (i & 15)][i >> 4]',
             'img[i & 15][15 - (i >> 4)]',
             'img[i >> 4][15 - (i & 15)]',
             'img[15 - (i >> 4)][i & 15]',
             'img[15 - (i >> 4)][15 - (i & 15)]',
             'img[(i >> 4) >> 1][(i & 15) >> 1]',
             'img[reverse(i, 8) >> 4][reverse(i, 8) & 15]',
             'img[i >> 4][reverse(i & 15, 4)]',
             'img[reverse(i >> 4, 4)][i & 15]']
CORPUS['example5.c'] = dict(
    n=8, ns={}, arrays=dict({x: A(M16) for x in EX5}, img=A(M16)),
    loops=[loop(8, 'i', '%s[i >> 4][i & 15]' % o, [r])
           for o, r in zip(EX5, EX5_READS)])

CORPUS['example6.c'] = dict(
    n=8, ns={}, arrays={x: A(E256) for x in 'atr'},
    loops=[loop(8, 'i', 't[i]', ['a[transpose(i, 8)]']),
           loop(8, 'i', 'r[i]', ['a[reverse(i, 8)]'])], cost=2)

CORPUS['bodies.c'] = dict(
    n=8, ns={}, arrays=dict(a=A(E256), b=A(E256), c=A(E256)),
    loops=[loop(8, 'i', 'b[i]', ['a[i]', 'a[i]', 'a[i]', 'b[i]', 'a[i]']),
           loop(8, 'i', 'b[i]', ['a[i]', 'c[i]']),
           loop(8, 'i', 'b[i]', ['a[i ^ 128]'])])

CORPUS['arith.c'] = dict(
    n=8, ns={}, arrays={x: A(E256) for x in 'abcdefg'},
    loops=[loop(8, 'i', 'b[i]', ['a[i / 2]']),
           loop(8, 'i', 'c[i]', ['a[i / 16 % 4]']),
           loop(8, 'i', 'd[i]', ['a[(i & 7) * 32 + (i >> 3)]']),
           loop(8, 'i', 'e[i]', ['a[(unsigned char)(i << 1)]'],
                override={'a[(unsigned char)(i << 1)]': ['(i << 1) & 255']}),
           loop(8, 'i', 'f[i]', ['a[(int)((unsigned)i ^ 0x55u)]']),
           loop(8, 'i', 'g[i]', ['a[1 ? i ^ 64 : 0]'],
                override={'a[1 ? i ^ 64 : 0]': ['i ^ 64']})])

CORPUS['clang_args.c'] = dict(
    n=6, ns=dict(LOGN=6), arrays=dict(a=A([64]), b=A([64])),
    loops=[loop(6, 'i', 'b[i]', ['a[reverse(i, LOGN)]'])])

CORPUS['compdb.c'] = dict(
    n=5, ns=dict(LOGN=5), arrays=dict(a=A([32]), b=A([32])),
    loops=[loop(5, 'i', 'b[i]', ['a[reverse(i, LOGN)]'])])

CORPUS['edges.c'] = dict(
    n=8, ns={}, arrays={x: A(E256) for x in 'abcdg'},
    loops=[loop(8, 'i', 'g[i]', ['a[i ^ 32]']),
           loop(8, 'i', 'b[i]', ['a[reverse(~i, 8)]'],
                override={'a[reverse(~i, 8)]': ['reverse(~i & 255, 8)']}),
           loop(8, 'u', 'c[u]', ['a[u ^ 2]']),
           loop(8, 'l', 'd[l]', ['a[l ^ 4]'])])

CORPUS['macro_constants.c'] = dict(
    n=8, ns=dict(N=256, MASK=255, HALF=128, SHIFT=4, LOW=15),
    arrays={x: A(E256) for x in 'abcd'},
    loops=[loop(8, 'i', 'b[i]', ['a[i ^ MASK]']),
           loop(8, 'i', 'c[i]', ['a[i ^ HALF]']),
           loop(8, 'i', 'd[i]', ['a[(i >> SHIFT) | ((i & LOW) << SHIFT)]'])])

CORPUS['general_owners.c'] = dict(
    n=3, ns={},
    arrays=dict(v=A([8]), packed=A([16], 'block'), x=A([32], 'cyclic'),
                y=A([32], 'cyclic')),
    loops=[loop(3, 'i', 'packed[i]', ['v[i & 3]']),
           loop(5, 'i', 'y[i]', ['x[i >> 2]']),
           loop(3, 'i', 'packed[i]', ['v[i >> 1]'])])

CORPUS['no_carry.c'] = dict(
    n=8, ns={}, arrays={x: A(E256) for x in 'abcde'},
    loops=[loop(8, 'i', 'b[i]', ['a[i - (i & 1)]']),
           loop(8, 'i', 'c[i]', ['a[(i & 0x0F) + 0xF0 - (i & 0xF0)]']),
           loop(8, 'i', 'd[i]', ['a[(i | 1) - 1]']),
           loop(8, 'i', 'e[i]', ['a[(i & 0xF0) + 8 + (i & 7)]'])])

CORPUS['pragma_forms.c'] = dict(
    n=8, ns={}, arrays={x: A(E256) for x in 'abcd'},
    loops=[loop(8, 'i', 'b[i]', ['a[i ^ 1]']),
           loop(8, 'i', 'c[i]', ['a[i ^ 2]']),
           loop(8, 'i', 'd[i]', ['a[i ^ 4]'])])

# A doall that only reduces runs on the owner of its first element read at
# every iteration (a[i]): 'write' names that home.
CORPUS['reductions.c'] = dict(
    n=8, ns=dict(N=256), arrays={x: A(E256) for x in 'abc'},
    loops=[loop(8, 'i', 'a[i]', ['c[N - 1 - i]']),
           loop(8, 'i', 'b[i]', ['a[i ^ 1]'])])


def derive(fname, spec):
    n = spec['n']
    arrays, ns = spec['arrays'], spec['ns']
    texts = [[r if isinstance(r, str) else r[0] for r in lp['reads']]
             for lp in spec['loops']]
    where = locate(os.path.join(HERE, fname), texts)
    lccs = []
    for lp, (loop_line, pos) in zip(spec['loops'], where):
        k, var, ov = lp['k'], lp['var'], lp['override']
        home = []
        written = set()
        for i in range(1 << k):
            name, e = flat_index(lp['write'], arrays, var, i, ns,
                                 ov.get(lp['write']))
            assert (name, e) not in written, "two iterations write one element"
            written.add((name, e))
            home.append(arrays[name].owner(e, n))
        for r, (line, col) in zip(lp['reads'], pos):
            manual = None
            if not isinstance(r, str):
                r, manual = r
            name = split_ref(r)[0]
            entry = {'name': r, 'array': name, 'line': line, 'col': col,
                     'loop_line': loop_line}
            if manual:
                entry.update(manual)
                lccs.append(entry)
                continue
            arr = arrays[name]
            pairs = []
            for i in range(1 << k):
                _, e = flat_index(r, arrays, var, i, ns, ov.get(r))
                pairs.append((arr.owner(e, n), home[i]))
            fields = classify(pairs, n, k)
            if fields is None:
                continue
            entry.update(fields)
            lccs.append(entry)
    out = {'n': n}
    # The objective max over all LCCs of the file, by exhaustive search;
    # where the paper states the value (spec 'cost'), it must agree.
    sets = [c for c in lccs if c['class'] != 'general']
    if sets:
        cost = set_cost_max(sets, n)
        assert spec.get('cost', cost) == cost, (fname, cost, spec['cost'])
        out['cost'] = cost
    out['lccs'] = [{k2: v for k2, v in c.items() if not k2.startswith('_')}
                   for c in lccs]
    return out


def dump(obj):
    """JSON with one lccs entry field per line and short lists inline."""
    text = json.dumps(obj, indent=2)
    text = re.sub(r'\[\s+([^\[\]{}]*?)\s+\]',
                  lambda m: '[' + re.sub(r'\s*\n\s*', ' ', m.group(1)) + ']',
                  text)
    return text + '\n'


def main(argv):
    write = '--write' in argv
    names = [a for a in argv if not a.startswith('--')] or sorted(CORPUS)
    bad = 0
    for fname in names:
        got = derive(fname, CORPUS[fname])
        path = os.path.join(HERE, fname[:-2] + '.expect.json')
        if write:
            with open(path, 'w') as f:
                f.write(dump(got))
            print('wrote', path)
        elif not os.path.exists(path) or json.load(open(path)) != got:
            bad += 1
            print('DIFFERS:', fname)
            print(dump(got))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
