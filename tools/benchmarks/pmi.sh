#!/usr/bin/env bash
# tools/benchmarks/pmi.sh (`tools/bench pmi`): the PMI handler's cost per PMI, one `name: value unit` line each.
#
#   pmi_<variant>_<single|all>_accesses      PMU/APIC register accesses per PMI (the hw_access counters), handler
#                                            pmu/pmi.c against the register model (tests/host/support/), PMU
#                                            intel_v4 (4 GP + 3 fixed); single = one counter overflows, all = all
#                                            7 at once. <variant>: unmask-stopped (default), late, early, nostop (the negative
#                                            control), unmask_stopped_exact (pmi_state.exact_reload).
#   pmi_unmask_stopped_single_accesses_<pmu>            the default handler, one overflow, on every PMU of tests/pmi/host/test_pmi.c
#   pmi_<variant>_<single|all>_instructions  instructions per PMI: callgrind --toggle-collect=pmi_handle over a loop
#                                            of N PMIs, counting only functions in pmu/ (the portable handler and
#                                            the PMU backends it calls; the register model it calls is excluded),
#                                            divided by N. HOST x86-64 instructions of the portable C built with
#                                            gcc -O2 - not kernel instructions (the kernel's accessors differ).
# Environment: BENCH_PMI_N (PMIs per callgrind loop, default 2000).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
n=${BENCH_PMI_N:-2000}
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "bench pmi: BENCH_PMI_N must be a positive number, not '$n'" >&2; exit 2; }
bin=build/tools/bench-pmi
"${MAKE:-make}" --no-print-directory -s "$bin" >&2
out=build/bench
mkdir -p "$out"

"$bin"

if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
    echo "bench pmi: valgrind/callgrind_annotate not installed: no instruction counts" >&2
    exit 0
fi
echo "# pmi_*_instructions: host x86-64 instructions of the portable handler (pmu/, gcc -O2) per PMI, not kernel instructions"
for variant in unmask_stopped late early nostop unmask_stopped_exact; do
    for mode in single all; do
        cg=$out/callgrind.pmi.$variant.$mode
        valgrind --tool=callgrind --toggle-collect=pmi_handle --callgrind-out-file="$cg" \
            "$bin" --loop "$variant" "$mode" "$n" >/dev/null 2>"$cg.log" ||
            { echo "bench pmi: callgrind run $variant $mode failed (see $cg.log)" >&2; exit 1; }
        # Self cost per function; keep those whose source file is under pmu/.
        ir=$(callgrind_annotate --inclusive=no --threshold=100 --auto=no "$cg" 2>/dev/null |
            awk '$1 ~ /^[0-9,]+$/ && match($0, /%\) +[^ ]+/) {
                     f = substr($0, RSTART, RLENGTH); sub(/^%\) +/, "", f)
                     if (f ~ /^(\.\/|.*\/)?pmu\/[^:]*:/) { gsub(",", "", $1); s += $1 } }
                 END { print s + 0 }')
        [[ $ir -gt 0 ]] || { echo "bench pmi: no pmu/ instructions in $cg" >&2; exit 1; }
        echo "pmi_${variant}_${mode}_instructions: $(( (ir + n / 2) / n )) host-instructions"
    done
done
