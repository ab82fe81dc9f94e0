#!/usr/bin/env bash
# tools/benchmarks/scale.sh (`tools/bench scale`): how the checklist's size and time grow with the thread count, default
# suites and options, QEMU TCG q35, one run each, side by side. One "name: value unit" line each:
#
#   scale_smpN_bytes              serial bytes from "TAP version 13" to the summary line, CR LF line ends as sent
#                                 (fold=on, the default)
#   scale_smpN_wall_ms            QEMU start -> QEMU exit
#   scale_smpN_115200_s           how long those bytes take on a 115200-baud line (10 bits a byte)
#   scale_smp64_unfolded_bytes    the same run with fold=off (one line per thread), for the ratio
#   scale_bytes_per_thread        (bytes at -smp 64 - bytes at -smp 4) / 60: what each more thread costs
#   scale_wall_ratio_64_4, scale_wall_ratio_4_1   wall time ratios
#   scale_448_threads_115200_s    bytes at -smp 4 + 444 x bytes_per_thread, at 115200 baud
#
# N is 1, 4, 64 (the system QEMU) and 288 with QEMU 10 (tools/qemu10.sh: q35 + IOMMU, -cpu max) when it can be
# had (BENCH_QEMU10=0 leaves it out). Nothing is asserted: the figures depend on the host (2 host cores run all
# vCPUs under TCG here).
set -euo pipefail
cd "$(dirname "$0")/../.."
kernel=build/pmuboot.elf
[[ -f $kernel ]] || { echo "bench scale: $kernel missing (run 'make kernel')" >&2; exit 2; }
out=build/bench/scale
mkdir -p "$out"

# run NAME SECONDS RUN-QEMU-OPTIONS...: prints "<bytes> <wall ms>"; the log is $out/NAME.log.
run() {
    local name=$1 limit=$2 t0 t1
    shift 2
    t0=$(date +%s%N)
    ./run-qemu.sh --no-build --machine q35 --timeout "$limit" --log "$out/$name.log" "$@" >/dev/null 2>"$out/$name.err" ||
        echo "bench scale: $name: $(tail -n 1 "$out/$name.err")" >&2
    t1=$(date +%s%N)
    local bytes
    bytes=$(awk '/^TAP version 13/ { on = 1 } on { n += length($0) + 2 } on && /^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped/ { exit } END { print n + 0 }' "$out/$name.log")
    echo "$bytes $(((t1 - t0) / 1000000))"
}

report() {  # report NAME BYTES MS
    echo "scale_$1_bytes: $2 bytes"
    echo "scale_$1_wall_ms: $3 ms"
    echo "scale_$1_115200_s: $(awk -v b="$2" 'BEGIN { printf "%.1f", b * 10 / 115200 }') s"
}

declare -A bytes ms
for n in 1 4 64; do
    read -r bytes[$n] ms[$n] < <(run "smp$n" 300 --smp "$n")
    report "smp$n" "${bytes[$n]}" "${ms[$n]}"
done
read -r ub ums < <(run smp64-unfolded 300 --smp 64 --append fold=off)
echo "scale_smp64_unfolded_bytes: $ub bytes"
echo "scale_smp64_unfolded_wall_ms: $ums ms"
per=$(((bytes[64] - bytes[4]) / 60))
echo "scale_bytes_per_thread: $per bytes"
echo "scale_wall_ratio_64_4: $(awk -v a="${ms[64]}" -v b="${ms[4]}" 'BEGIN { printf "%.2f", a / b }')"
echo "scale_wall_ratio_4_1: $(awk -v a="${ms[4]}" -v b="${ms[1]}" 'BEGIN { printf "%.2f", a / b }')"
echo "scale_448_threads_115200_s: $(awk -v b="${bytes[4]}" -v p="$per" 'BEGIN { printf "%.1f", (b + 444 * p) * 10 / 115200 }') s"
if [[ ${BENCH_QEMU10:-1} != 0 ]] && q10=$(tools/qemu10.sh 2>/dev/null </dev/null); then
    read -r b288 ms288 < <(run smp288 900 --qemu "$q10" --iommu --cpu max --smp 288)
    report smp288 "$b288" "$ms288"
else
    echo "bench scale: QEMU 10 not available (or BENCH_QEMU10=0): no -smp 288 figures" >&2
fi
