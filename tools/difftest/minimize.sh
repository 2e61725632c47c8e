#!/usr/bin/env bash
# minimize.sh — shrink a failing program of tools/difftest/difftest.sh
# while its failure persists (docs/difftest.md).
#
# Usage:
#   minimize.sh FAILDIR [-o OUT.c] [--predicate CMD] [--max-runs N]
#
#   FAILDIR        a failure directory of difftest.sh: prog.c and repro.sh
#   -o OUT.c       where the smallest program goes (default FAILDIR/min.c)
#   --predicate C  the test instead of FAILDIR/repro.sh: 'C CANDIDATE.c'
#                  must exit 0 while the failure is there
#   --max-runs N   stop after N runs of the predicate (default 3000)
#
# Greedy deletion, largest pieces first, until nothing more can go:
#   1. whole units: a doall (its pragma and loop), a braced block or
#      function, a loop or if with its one-line body, a line;
#   2. the right-hand side of each assignment replaced by 0;
#   3. parenthesised subexpressions replaced by (0), outermost first;
#   4. again from 1 while anything changed.
# Each candidate is kept only if the predicate says the failure is still
# there (repro.sh also refuses candidates that do not build as sequential
# C, time out, or have undefined behaviour under ASan/UBSan, so a deletion
# that makes the program invalid is never kept).  Progress on stderr.
set -u

usage_end=Greedy
. "$(dirname "${BASH_SOURCE[0]}")/usage.sh"
need_operand "$@"
dir=$(cd "$1" && pwd) || exit 2
shift
out=$dir/min.c predicate=$dir/repro.sh max_runs=3000
while [ $# -gt 0 ]; do
    case $1 in
    -o) out=$2; shift 2 ;;
    --predicate) predicate=$2; shift 2 ;;
    --max-runs) max_runs=$2; shift 2 ;;
    *) usage ;;
    esac
done
[ -f "$dir/prog.c" ] || { echo "minimize: no prog.c in $dir" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/minimize.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
cand=$work/cand.c
runs=0

# The predicate on a file: 0 while the failure is there.
interesting() {
    runs=$((runs + 1))
    $predicate "$1" >/dev/null 2>&1
}

if ! interesting "$dir/prog.c"; then
    echo "minimize: the failure does not reproduce with $predicate on $dir/prog.c" >&2
    exit 1
fi

mapfile -t L <"$dir/prog.c"
N=${#L[@]}
alive=()
for ((i = 0; i < N; i++)); do alive[i]=1; done

# write FILE: the live lines.
write() {
    local i
    : >"$1"
    for ((i = 0; i < N; i++)); do
        [ "${alive[i]}" = 1 ] && printf '%s\n' "${L[i]}" >>"$1"
    done
}

count_live() {
    local i c=0
    for ((i = 0; i < N; i++)); do [ "${alive[i]}" = 1 ] && c=$((c + 1)); done
    echo $c
}

# next_live I: the first live line after I (or N).
next_live() {
    local i=$(($1 + 1))
    while [ $i -lt $N ] && [ "${alive[i]}" != 1 ]; do i=$((i + 1)); done
    echo $i
}

# match_brace I: the live line that closes the brace opened on line I.
match_brace() {
    local i=$1 depth=0 line opens closes
    while [ $i -lt $N ]; do
        if [ "${alive[i]}" = 1 ]; then
            line=${L[i]}
            opens=${line//[^\{]/}
            closes=${line//[^\}]/}
            depth=$((depth + ${#opens} - ${#closes}))
            [ $depth -le 0 ] && { echo $i; return; }
        fi
        i=$((i + 1))
    done
    echo $((N - 1))
}

# unit_end I: the last line of the unit that starts on line I.
unit_end() {
    local i=$1 line j
    line=${L[i]}
    local t=${line#"${line%%[![:space:]]*}"}
    case $t in
    "#pragma hyperdo doall"*)
        j=$(next_live "$i")
        while [ $j -lt $N ]; do
            case ${L[j]} in *"/*"*"*/"*) j=$(next_live "$j") ;; *) break ;; esac
        done
        [ $j -ge $N ] && { echo $i; return; }
        case ${L[j]} in
        *"{") match_brace "$j" ;;
        *) next_live "$j" ;;
        esac
        return
        ;;
    esac
    j=$(next_live "$i")
    if [ $j -lt $N ] && [ "${L[j]}" = "{" ]; then
        # a function: its header, then its body
        match_brace "$j"
        return
    fi
    case $line in
    *"{") match_brace "$i" ;;
    *)
        case $t in
        "for ("*")" | "while ("*")" | "if ("*")" | "else")
            next_live "$i"
            ;;
        *) echo "$i" ;;
        esac
        ;;
    esac
}

# try_delete A B: delete lines A..B if the failure stays; 0 if deleted.
try_delete() {
    local a=$1 b=$2 i saved=()
    for ((i = a; i <= b; i++)); do saved[i]=${alive[i]}; alive[i]=0; done
    write "$cand"
    if interesting "$cand"; then
        return 0
    fi
    for ((i = a; i <= b; i++)); do alive[i]=${saved[i]}; done
    return 1
}

report() {
    echo "minimize: $(count_live) lines, $runs runs" >&2
}

# siblings FIRST LAST: the units that follow each other from line FIRST to
# line LAST (starts in US, ends in UE).
siblings() {
    local i=$1 last=$2 e
    US=() UE=()
    while [ $i -le $last ] && [ $i -lt $N ]; do
        if [ "${alive[i]}" != 1 ]; then i=$((i + 1)); continue; fi
        e=$(unit_end "$i")
        US+=("$i")
        UE+=("$e")
        i=$((e + 1))
    done
}

# chunks FIRST LAST: delete runs of 32, 16, .. 2 sibling units at once
# (most of a program goes in a few runs this way).
chunks() {
    local c j k n
    for c in 32 16 8 4 2; do
        siblings "$1" "$2"
        n=${#US[@]}
        [ $n -gt $c ] || continue
        for ((j = 0; j + c <= n && runs < max_runs; j += c)); do
            k=$((j + c - 1))
            if [ "${alive[${US[j]}]}" = 1 ] && try_delete "${US[j]}" "${UE[k]}"; then
                changed=1
                report
            fi
        done
    done
}

echo "minimize: $N lines to start with" >&2
changed=1
while [ $changed = 1 ] && [ $runs -lt $max_runs ]; do
    changed=0
    # 0. Runs of units: the file's top-level items (the first line and the
    # includes stay), then main's statements.
    first=1
    while [ $first -lt $N ] && case ${L[first]} in "#include"* | "") true ;; *) false ;; esac; do
        first=$((first + 1))
    done
    chunks "$first" $((N - 1))
    for ((i = 0; i < N; i++)); do
        case ${L[i]} in "int main"*) break ;; esac
    done
    if [ $i -lt $N ]; then
        j=$(next_live "$i")
        if [ $j -lt $N ] && [ "${L[j]}" = "{" ]; then
            close=$(match_brace "$j")
            chunks $((j + 1)) $((close - 1))
        fi
    fi
    # 1. Units, from the first line on; a deleted unit's lines are gone,
    # a kept one is stepped into (its inner units are tried next).
    i=1   # line 1 says what the program is: kept
    while [ $i -lt $N ] && [ $runs -lt $max_runs ]; do
        if [ "${alive[i]}" != 1 ]; then i=$((i + 1)); continue; fi
        case ${L[i]} in
        "#include"* | "}" | "{") i=$((i + 1)); continue ;;
        esac
        e=$(unit_end "$i")
        if try_delete "$i" "$e"; then
            changed=1
            report
            i=$((e + 1))
        else
            i=$((i + 1))
        fi
    done
    # 2. Right-hand sides replaced by 0.
    for ((i = 1; i < N && runs < max_runs; i++)); do
        [ "${alive[i]}" = 1 ] || continue
        line=${L[i]}
        case $line in
        *" = "*";") ;;
        *) continue ;;
        esac
        lhs=${line%% = *}
        case $lhs in *"("* | *'"'*) continue ;; esac
        new="$lhs = 0;"
        [ "$new" = "$line" ] && continue
        L[i]=$new
        write "$cand"
        if interesting "$cand"; then
            changed=1
            report
        else
            L[i]=$line
        fi
    done
    # 3. Parenthesised subexpressions replaced by 0, outermost first, in the
    # lines that are left (a line shrinks as groups go; a kept group is stepped
    # into).
    for ((i = 1; i < N && runs < max_runs; i++)); do
        [ "${alive[i]}" = 1 ] || continue
        case ${L[i]} in "#"* | *'"'*) continue ;; esac
        p=0
        while [ $runs -lt $max_runs ]; do
            line=${L[i]}
            rest=${line:p}
            [[ $rest == *"("* ]] || break
            pre=${rest%%"("*}
            p=$((p + ${#pre}))
            # the matching parenthesis
            depth=0 j=$p
            while [ $j -lt ${#line} ]; do
                c=${line:j:1}
                if [ "$c" = "(" ]; then depth=$((depth + 1)); elif [ "$c" = ")" ]; then
                    depth=$((depth - 1))
                    [ $depth -eq 0 ] && break
                fi
                j=$((j + 1))
            done
            [ $j -ge ${#line} ] && break
            group=${line:p:j-p+1}
            if [ "$group" != "(0)" ] && [ ${#group} -gt 3 ]; then
                L[i]="${line:0:p}(0)${line:j+1}"
                write "$cand"
                if interesting "$cand"; then
                    changed=1
                    report
                    p=$((p + 3))
                    continue
                fi
                L[i]=$line
            fi
            p=$((p + 1))
        done
    done
done
write "$out"
echo "minimize: $(count_live) lines (from $N) in $runs runs: $out" >&2
