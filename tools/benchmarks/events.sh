#!/usr/bin/env bash
# tools/benchmarks/events.sh (`tools/bench events`): the events suite's cost per hardware thread, one
# "name: value unit" line each, from QEMU TCG runs at -smp 1:
#   events_suite_ms_per_thread    exit time of suite=events minus that of suite=boot (the boot cost), median
#   events_oracle_ms_per_thread   the single-step oracle's own time, summed from cpu0's stepping_time notes,
#                                 and its #DB traps
#   events_overhead_<event>       per-run overhead the n2-n1 difference cancelled (from exact_gp), when the
#                                 run had a PMU; without one a single line says so
# Environment: BENCH_RUNS (default 5), BENCH_EVENTS_ARGS (extra kernel arguments, e.g. a PMU option).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
runs=${BENCH_RUNS:-5}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench events: BENCH_RUNS must be a positive number, not '$runs'" >&2; exit 2; }
out=build/bench
mkdir -p "$out"

run_ms() {  # run_ms SUITE LOG: wall time of one run in ms; the serial log in LOG
    local t0 t1
    t0=$(date +%s%N)
    ./run-qemu.sh --no-build --smp 1 --append "suite=$1 ${BENCH_EVENTS_ARGS:-}" --log "$2" --timeout 120 \
        >/dev/null 2>>"$out/bench-events.err" || echo "bench events: suite=$1 run did not pass (see $2)" >&2
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}

# shellcheck source=tools/benchmarks/lib.sh
. tools/benchmarks/lib.sh

: >"$out/bench-events.err"
diffs=()
for ((i = 0; i < runs; i++)); do
    b=$(run_ms boot "$out/bench-boot.log")
    e=$(run_ms events "$out/bench-events.log")
    diffs+=($((e - b)))
done
echo "events_suite_ms_per_thread: $(printf '%s\n' "${diffs[@]}" | median) ms"

log=$out/bench-events.log
# The run's evidence, NAME<TAB>KEY<TAB>VALUE, read by the one log reader (tools/pmuboot-log).
evidence=$(tools/pmuboot-log evidence "$log")
awk -F'\t' '$1 ~ /^cpu0\/events\// && $2 == "stepping_time" {
                 match($3, /[0-9]+ #DB traps in [0-9]+ us/); split(substr($3, RSTART, RLENGTH), f, " "); traps += f[1]; us += f[5] }
             END { printf "events_oracle_ms_per_thread: %.1f ms (%d #DB traps)\n", us / 1000, traps }' <<<"$evidence"
if awk -F'\t' '$2 ~ /^overhead / || $3 ~ /^"overhead / { found = 1 } END { exit !found }' <<<"$evidence"; then
    awk -F'\t' 'sub(/^overhead /, "", $2) && sub(/^"per run, counted minus construction at n1: /, "", $3) && sub(/"$/, "", $3) {
                     print $2 " " $3 }' <<<"$evidence" |
        awk '!seen[$0]++ { ev = $1; for (i = 2; i < NF; i++) ev = ev "_" $i; print "events_overhead_" ev ": " $NF " events" }'
else
    echo "events_overhead: none measured (exact_gp skipped: no PMU in this run)"
fi
