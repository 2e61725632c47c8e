# usage.sh — what difftest.sh and minimize.sh share, sourced by both: each
# script's usage message is its own header, from "# Usage:" up to the
# line that starts "# $usage_end", so that the two never disagree.
usage() {
    sed -n "/^# Usage:/,/^# $usage_end/p" "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# need_operand "$@": the usage unless the first argument (the directory
# the script works on) is there and is no request for help.
need_operand() {
    [ $# -ge 1 ] || usage
    case $1 in -h | --help) usage ;; esac
}
