# shellcheck shell=bash
# tools/benchmarks/lib.sh: what several benchmarks share; sourced once they are in the repository's top folder.

# median: the median of the numbers on standard input, one a line (an even count: the middle two's mean, rounded down)
median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
