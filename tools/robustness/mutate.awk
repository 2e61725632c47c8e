# tools/robustness/mutate.awk — the doall and canon passes of sweep.sh:
# `#pragma hyperdo doall` before every line that starts with
# `for (`, and with -v canon=1 each such header (when on one line)
# replaced by `for (int i = 0; i < 256; i++)`.

# The header of the for at the start of line s, up to its closing
# parenthesis when that is on the same line.
function header_end(s,    k, depth, ch) {
    depth = 0
    for (k = index(s, "("); k <= length(s); k++) {
        ch = substr(s, k, 1)
        if (ch == "(") depth++
        else if (ch == ")" && --depth == 0) return k
    }
    return 0
}
/^[ \t]*for[ \t]*\(/ {
    match($0, /^[ \t]*/)
    indent = substr($0, 1, RLENGTH)
    print indent "#pragma hyperdo doall"
    if (canon && (e = header_end($0)) > 0)
        $0 = indent "for (int i = 0; i < 256; i++)" substr($0, e + 1)
}
{ print }
