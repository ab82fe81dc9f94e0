#!/usr/bin/env bash
# tools/benchmarks/smp.sh (`tools/bench smp`): AP bring-up time (first INIT -> all online, as the kernel measures
# it with the TSC) under QEMU TCG for -smp 1, 4, 16 and 64 in both bring-up modes; median of several boots. One
# `name: value unit` line each.
set -euo pipefail
cd "$(dirname "$0")/../.."
KERNEL=${KERNEL:-build/pmuboot.elf}
RUNS=${RUNS:-3}
[ -f "$KERNEL" ] || { echo "bench smp: $KERNEL missing: run make first" >&2; exit 1; }
out=build/bench
mkdir -p "$out"

# shellcheck source=tools/benchmarks/lib.sh
. tools/benchmarks/lib.sh

for mode in parallel serial; do
    for n in 1 4 16 64; do
        vals=()
        for _ in $(seq "$RUNS"); do
            timeout 120 qemu-system-x86_64 -machine pc -smp "$n" -m 256 -display none -no-reboot \
                -kernel "$KERNEL" -append "exit=qemu suite=boot smp=$mode" -serial stdio \
                -device isa-debug-exit,iobase=0xf4,iosize=0x04 2>/dev/null >"$out/smp.log" </dev/null || true
            # the stream's "# smp: ..." comment, read by the one log reader (tools/pmuboot-log)
            line=$(tools/pmuboot-log comments "$out/smp.log" 2>/dev/null | grep -m1 '^smp:' || true)
            line=${line:+# $line}
            us=$(sed -n 's/.*bring-up \([0-9]*\) us.*/\1/p' <<<"$line")
            online=$(sed -n 's/^# smp: \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' <<<"$line")
            if [ -z "$us" ] || [ "$(cut -d' ' -f1 <<<"$online")" != "$(cut -d' ' -f2 <<<"$online")" ]; then
                echo "bench smp: -smp $n smp=$mode: no complete bring-up line (got: '${line}')" >&2
                exit 1
            fi
            vals+=("$us")
        done
        echo "bringup_${mode}_smp${n}_us: $(printf '%s\n' "${vals[@]}" | median) us"
    done
done
