#!/usr/bin/env bash
# map_cli.sh HYPERDO WORK — `hyperdo map` and `hyperdo cost` (docs/meshes.md)
# against numbers Chung and Ranka 1990 print, and their errors:
#   - sample 1 (the 8 x 8-node quad grid) on the 3-cube: the 2-way stripes
#     mapping's speedups 7.08 (bi) and 6.36 (uni), load-balanced (Table 1);
#   - the greedy assignment on the 4-cube: 9.00 and 6.97 (Table 2), and its
#     bidirectional 6.32 on the 3-cube (Table 1);
#   - the JSON keys the issue fixes; -o writes one processor per line and
#     `hyperdo cost` of that file reports the same;
#   - a bad mapping file: file:line: error:, status 1; usage errors: 2; an
#     output that cannot be written leaves nothing behind;
#   - `hyperdo sim --model saf-bi|saf-uni` on an LCC worked by hand.
set -u
hyperdo=$1 work=$2
mkdir -p "$work"
fail=0
check() {   # check WHAT WANT GOT
    if [ "$2" != "$3" ]; then echo "FAIL: $1: expected '$2', got '$3'"; fail=1; else echo "ok: $1: $3"; fi
}
field() {   # field JSON KEY: a number rounded to 2 decimals, or the value
    python3 -c 'import json,sys
v = json.loads(sys.argv[1])[sys.argv[2]]
print(("%.2f" % v) if isinstance(v, float) else json.dumps(v))' "$1" "$2"
}
j=$("$hyperdo" map grid:8x8 --dim 3 --json -o "$work/s1.map")
check "stripes 3-cube speedup_bi (Table 1: 7.08*)" 7.08 "$(field "$j" speedup_bi)"
check "stripes 3-cube speedup_uni (Table 1: 6.36*)" 6.36 "$(field "$j" speedup_uni)"
check "stripes 3-cube lbc" true "$(field "$j" lbc)"
check "stripes 3-cube eubs_bi (Table 1: 7.12)" 7.12 "$(field "$j" eubs_bi)"
check "stripes 3-cube elbs_uni (Table 1: 5.10)" 5.10 "$(field "$j" elbs_uni)"
for key in max_load lbc neighbour_mapping steps_bi steps_uni c_bi_us c_uni_us speedup_bi \
           speedup_uni eubs_bi elbs_bi eubs_uni elbs_uni; do
    python3 -c 'import json,sys; json.loads(sys.argv[1])[sys.argv[2]]' "$j" "$key" 2>/dev/null ||
        { echo "FAIL: key $key missing"; fail=1; }
done
check "mapping file lines" 64 "$(wc -l < "$work/s1.map")"
c=$("$hyperdo" cost grid:8x8 "$work/s1.map" --json)
check "cost of the written mapping: speedup_bi" 7.08 "$(field "$c" speedup_bi)"
check "cost of the written mapping: c_uni_us" "$(field "$j" c_uni_us)" "$(field "$c" c_uni_us)"
g=$("$hyperdo" map grid:8x8 --dim 4 --algorithm greedy --json)
check "greedy 4-cube speedup_bi (Table 2: 9.00)" 9.00 "$(field "$g" speedup_bi)"
check "greedy 4-cube speedup_uni (Table 2: 6.97)" 6.97 "$(field "$g" speedup_uni)"
g=$("$hyperdo" map grid:8x8 --dim 3 --algorithm greedy --json)
check "greedy 3-cube speedup_bi (Table 1: 6.32*)" 6.32 "$(field "$g" speedup_bi)"

printf '0\n1\nseven\n' > "$work/bad.map"
"$hyperdo" cost grid:8x8 "$work/bad.map" 2> "$work/err" >/dev/null
check "bad mapping file: status" 1 "$?"
check "bad mapping file: message" 1 "$(grep -c "^$work/bad.map:3: error: expected a processor number" "$work/err")"
printf '0\n1\n' > "$work/short.map"
"$hyperdo" cost grid:8x8 "$work/short.map" 2>/dev/null >/dev/null
check "short mapping file: status" 1 "$?"
"$hyperdo" map grid:8x8 2>/dev/null
check "no --dim: status" 2 "$?"
"$hyperdo" map grid:8x8 --dim 3 --algorithm nonsense 2>/dev/null
check "unknown algorithm: status" 2 "$?"
"$hyperdo" map grid:1x8 --dim 3 2>/dev/null
check "bad generator: status" 2 "$?"
"$hyperdo" map grid:8x8 --dim 3 -o "$work/no/such/dir/x.map" >/dev/null 2>&1
check "unwritable output: status" 1 "$?"
check "unwritable output: nothing left" 0 "$(ls "$work/no" 2>/dev/null | wc -l)"
# hyperdo sim --model saf-bi|saf-uni: the inversion of the 2-cube, one
# word from every processor to the opposite corner, worked by hand: bi, 2
# steps of 1 word (C = 2 T_setup + 2 T_c = 2320 us); uni, 4 steps (the
# dimension-0 links carry one direction in step 1 and the other in step
# 2, the relays likewise in steps 3 and 4: 4640 us).
printf 'n 2\nlcc inv perm 0 1 b 11\n' > "$work/inv.lcc"
b=$("$hyperdo" sim --model saf-bi "$work/inv.lcc" --lcc inv --json)
check "saf-bi inversion: steps" 2 "$(field "$b" steps)"
check "saf-bi inversion: C" 2320.00 "$(field "$b" c_us)"
u=$("$hyperdo" sim --model saf-uni "$work/inv.lcc" --lcc inv --json)
check "saf-uni inversion: steps" 4 "$(field "$u" steps)"
check "saf-uni inversion: C" 4640.00 "$(field "$u" c_us)"
"$hyperdo" sim --model saf-bi "$work/inv.lcc" --lcc nosuch 2>/dev/null >/dev/null
check "saf: unknown LCC: status" 2 "$?"
exit $fail
