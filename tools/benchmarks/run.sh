#!/usr/bin/env bash
# tools/benchmarks/run.sh (`tools/bench run`): how the run grows with the number of CPUs, per-CPU checks run at
# once (run=parallel, the default) and one CPU after the other (run=serial). QEMU TCG, machine pc, the default
# suites with verbose=0; QEMU start to exit, median of BENCH_RUNS (default 3) rounds, each round running every
# configuration once in turn, so that a busy host slows all of them alike. One "name: value unit" line each:
#   run_<mode>_smp<N>_ms       median wall time
#   ratio_<mode>_smp64_smp4    smp64 / smp4 (the target for parallel: at most 3)
#   ratio_<mode>_smp4_smp1     smp4 / smp1 (target: at most 1.5)
#   todo_<mode>_smp<N>         TODO verdicts in the last round (timing checks inconclusive under load)
#   cpu_<mode>_smp<N>_ms       host CPU time (user + system) QEMU used, median: under TCG every vCPU's work
#                              runs on the host's cores, so wall time at -smp 64 is at least this / host_cores
#   host_cores                 nproc
#   qemu10_smp288_apic_ms      QEMU 10, q35 + IOMMU, -cpu max, -smp 288, suite=smp,apic through run-qemu.sh (its
#                              default 60 s timeout applies), one run; BENCH_288=0 leaves it out
# A run that does not pass is reported on stderr.
set -euo pipefail
cd "$(dirname "$0")/../.."
kernel=${KERNEL:-build/pmuboot.elf}
runs=${BENCH_RUNS:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench run: BENCH_RUNS must be a positive number, not '$runs'" >&2; exit 2; }
[[ -f $kernel ]] || { echo "bench run: $kernel missing: run make first" >&2; exit 2; }
out=build/bench
mkdir -p "$out"

# shellcheck source=tools/benchmarks/lib.sh
. tools/benchmarks/lib.sh

configs=("parallel 1" "parallel 4" "parallel 64" "serial 1" "serial 4" "serial 64")
declare -A times todo cpu
for ((r = 0; r < runs; r++)); do
    for cfg in "${configs[@]}"; do
        read -r mode n <<<"$cfg"
        log=$out/run-$mode-smp$n.log
        t0=$(date +%s%N)
        set +e
        TIMEFORMAT='%3U %3S'
        { time {
            timeout 300 qemu-system-x86_64 -machine pc -accel tcg -m 256 -smp "$n" -display none -vga none -net none \
                -no-reboot -kernel "$kernel" -append "exit=qemu verbose=0 run=$mode" -serial stdio -monitor none \
                -device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null 2>/dev/null | tr -d '\r' >"$log"
            status=${PIPESTATUS[0]}
        }; } 2>"$out/cpu-$mode-smp$n.txt"
        set -e
        t1=$(date +%s%N)
        cpu[$mode$n]+="$(awk '{printf "%d", ($1 + $2) * 1000}' "$out/cpu-$mode-smp$n.txt") "
        [[ $status -eq 1 ]] || echo "bench run: run=$mode -smp $n: QEMU status $status (not a pass; see $log)" >&2
        times[$mode$n]+="$(((t1 - t0) / 1000000)) "
        # TODO lines (a folded line once), read by the one log reader (tools/pmuboot-log)
        todo[$mode$n]=$(tools/pmuboot-log checks --lines "$log" | grep -c '^todo' || true)
    done
done
for cfg in "${configs[@]}"; do
    read -r mode n <<<"$cfg"
    times[$mode$n]=$(tr ' ' '\n' <<<"${times[$mode$n]}" | grep . | median)
    echo "run_${mode}_smp${n}_ms: ${times[$mode$n]} ms"
done
for cfg in "${configs[@]}"; do
    read -r mode n <<<"$cfg"
    echo "cpu_${mode}_smp${n}_ms: $(tr ' ' '\n' <<<"${cpu[$mode$n]}" | grep . | median) ms"
done
echo "host_cores: $(nproc)"
for mode in parallel serial; do
    awk -v a="${times[${mode}64]}" -v b="${times[${mode}4]}" -v m="$mode" 'BEGIN { printf "ratio_%s_smp64_smp4: %.2f\n", m, a / b }'
    awk -v a="${times[${mode}4]}" -v b="${times[${mode}1]}" -v m="$mode" 'BEGIN { printf "ratio_%s_smp4_smp1: %.2f\n", m, a / b }'
done
for cfg in "${configs[@]}"; do
    read -r mode n <<<"$cfg"
    echo "todo_${mode}_smp${n}: ${todo[$mode$n]}"
done
if [[ ${BENCH_288:-1} != 0 ]]; then
    if q10=$(tools/qemu10.sh 2>/dev/null); then
        t0=$(date +%s%N)
        set +e
        ./run-qemu.sh --no-build --kernel "$kernel" --qemu "$q10" --machine q35 --iommu --cpu max --smp 288 \
            --append "suite=smp,apic verbose=0" >"$out/run-qemu10-smp288.log" 2>"$out/run-qemu10-smp288.err"
        status=$?
        set -e
        t1=$(date +%s%N)
        echo "qemu10_smp288_apic_ms: $(((t1 - t0) / 1000000)) ms ($(tail -n 1 "$out/run-qemu10-smp288.err"))"
        [[ $status -eq 0 ]] || echo "bench run: QEMU 10 -smp 288: run-qemu status $status" >&2
    else
        echo "bench run: QEMU 10 not available (tools/qemu10.sh): no -smp 288 figure" >&2
    fi
fi
