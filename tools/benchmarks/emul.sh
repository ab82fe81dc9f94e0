#!/usr/bin/env bash
# tools/benchmarks/emul.sh (`tools/bench emul`): the cost of the emulated PMU (docs/emulated-pmu.md): one run of
# the PMU suites (pmu_enum, pmu_regs, pmi, events) at -smp 2 per pmu=emulated:KIND, wall time and instructions
# single-stepped into the model (from the kernel's "# emulated PMU cpuN" lines), against the same run on the real
# (absent) PMU, whose checks SKIP.
# One `name: value unit` line each. Nothing is asserted: the figures depend on the host and its load.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f build/pmuboot.elf ] || { echo "bench emul: build/pmuboot.elf missing: run make first" >&2; exit 1; }
out=build/bench/emul
mkdir -p "$out"
suites=pmu_enum,pmu_regs,pmi,events
one() {  # one NAME ARGS: prints "<ms> <steps>"
    local t0 t1
    t0=$(date +%s%N)
    ./run-qemu.sh --no-build --smp 2 --timeout 120 --append "$2 suite=$suites verbose=0" --log "$out/$1.log" \
        >/dev/null 2>"$out/$1.err" </dev/null || echo "bench emul: $1: $(tail -n 1 "$out/$1.err")" >&2
    t1=$(date +%s%N)
    # the kernel's "# emulated PMU cpuN: ..." comments, read by the one log reader (tools/pmuboot-log)
    echo "$(((t1 - t0) / 1000000)) $(tools/pmuboot-log comments "$out/$1.log" |
        sed -n 's/^emulated PMU cpu[0-9]*: \([0-9]*\) instructions.*/\1/p' | awk '{s += $1} END {print s + 0}')"
}
read -r ms _ < <(one hardware "")
echo "emul_baseline_hardware_run_ms: $ms ms"
for k in intel-v1 intel-v2 intel-v3 intel-v4 intel-v5 intel-v6 amd-legacy amd-core-ext amd-v2 knc adl mtl; do
    read -r ms steps < <(one "$k" "pmu=emulated:$k")
    echo "emul_${k}_run_ms: $ms ms"
    echo "emul_${k}_stepped_instructions: $steps"
done
