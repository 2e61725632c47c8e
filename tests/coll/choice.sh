#!/usr/bin/env bash
# choice.sh HYPERDO: the cost model's choice on tests/coll/choice.c, whose
# best choices are known: on the link-bound model (all ports, store-and-
# forward) the all-to-all redistribution is cheapest as COMPLETE EXCHANGE,
# the broadcast of one element as a BROADCAST, the inversion of 32 KiB
# messages as INVERSION, blocks of 128 bytes from one processor, to one
# and from all to all alike as DISTRIBUTE 2 (437.6 us against DISTRIBUTE
# 1's 929.6 and direct messages' 2606.56: docs/collectives.md's
# formulas), COLLECT and COMPLETE BROADCAST; --collectives off keeps
# direct messages; on the nCUBE-2 model (one port, wormhole) direct
# messages win the inversion.
set -u
hyperdo=$1
src=$(dirname "$0")/choice.c
fail=0
check() {   # check WHAT WANT GOT
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1: expected '$2', got '$3'"
        fail=1
    else
        echo "ok: $1: $3"
    fi
}
# "best" and "chosen" of each communication, in order, one per line.
fields() {   # fields FIELD ANALYZE-OPTIONS...
    local field=$1
    shift
    "$hyperdo" analyze --json "$@" "$src" | grep -o "\"$field\":\"[a-z0-9-]*\"" |
        cut -d'"' -f4 | tr '\n' ' '
}
check "patterns" "all-to-all broadcast inversion permutation distribute collect all-gather " \
    "$(fields pattern --cost linkbound)"
check "linkbound best" "alltoall bcast2 inversion permuted distribute2 collect allgather " \
    "$(fields best --cost linkbound)"
check "linkbound chosen" "alltoall bcast2 inversion permuted distribute2 collect allgather " \
    "$(fields chosen --cost linkbound)"
check "linkbound, --collectives off" "direct direct direct direct direct direct direct " \
    "$(fields chosen --cost linkbound --collectives off)"
check "ncube2 best of the inversion" "direct" "$(fields best --cost ncube2 | awk '{ print $3 }')"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$hyperdo" translate --cost linkbound "$src" -o "$tmp/on.c" &&
    "$hyperdo" translate --cost linkbound --collectives off "$src" -o "$tmp/off.c" || fail=1
check "translate --cost linkbound writes INVERSION" 1 \
    "$(grep -c 'hd_coll_exchange_new(HD_COLL_INVERSION' "$tmp/on.c")"
check "translate --cost linkbound writes COMPLETE EXCHANGE" 1 \
    "$(grep -c 'hd_exchange_run_alltoall(hd_msgs)' "$tmp/on.c")"
for alg in BCAST2 DISTRIBUTE2 COLLECT ALLGATHER; do
    check "translate --cost linkbound writes $alg" 1 \
        "$(grep -c "hd_exchange_run_collective(hd_msgs, HD_COLL_$alg, 0, 0)" "$tmp/on.c")"
done
check "translate --collectives off writes none" 0 \
    "$(grep -c 'hd_coll_exchange\|hd_exchange_run_alltoall\|hd_exchange_run_collective' "$tmp/off.c")"
"$hyperdo" translate --cost linkbound --mapping identity "$src" -o "$tmp/id.c" || fail=1
check "translate --mapping identity writes L.C. INVERSION for the transposition" 1 \
    "$(grep -c 'hd_coll_exchange_new(HD_COLL_TRANSPOSE_LC' "$tmp/id.c")"
exit $fail
