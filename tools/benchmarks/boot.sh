#!/usr/bin/env bash
# tools/benchmarks/boot.sh (`tools/bench boot`): boot-time and size figures, one "name: value unit" line each.
#
#   boot_<how>_first_line_ms  QEMU start -> the kernel's first serial line ("TAP version 13"), median
#   boot_<how>_exit_ms        QEMU start -> QEMU exit (the default suite with exit=qemu), median
#   kernel_elf_bytes          size of build/pmuboot.elf
#   iso_bios_bytes, iso_bios_uefi_bytes, iso_default_bytes   the hardware ISO (no kernel arguments) built
#                             BIOS-only, BIOS+UEFI, and the way `make iso` builds it here
# <how> is "kernel" (qemu -kernel) and "iso" (GRUB ISO, BIOS, multiboot2). TCG, machine pc, 1 CPU, 128 MiB.
# Nothing is asserted about timing: the figures depend on the host. A run that does not end with QEMU
# status 1 (pass) is reported on stderr.
# Environment: BENCH_RUNS (runs per figure, default 5), BENCH_UEFI=1 (also time the UEFI boot: slow).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
runs=${BENCH_RUNS:-5}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench boot: BENCH_RUNS must be a positive number, not '$runs'" >&2; exit 2; }
kernel=build/pmuboot.elf
[[ -f $kernel ]] || { echo "bench boot: $kernel missing (run 'make kernel')" >&2; exit 2; }
out=build/bench
mkdir -p "$out"

# Times one QEMU run: prints "<first line ms> <exit ms> <qemu status>". The clock starts just before exec.
# shellcheck disable=SC2016  # Perl code: its $ are Perl's
timer='
use strict; use warnings;
use Time::HiRes qw(time);
my ($pattern, $limit, @cmd) = @ARGV;
pipe(my $r, my $w) or die "pipe: $!";
my $t0 = time;
my $pid = fork // die "fork: $!";
if (!$pid) {
    close $r; open(STDOUT, ">&", $w) or die; open(STDIN, "<", "/dev/null") or die;
    exec @cmd or die "exec $cmd[0]: $!";
}
close $w;
my $first = -1;
local $SIG{ALRM} = sub { kill "KILL", $pid };
alarm $limit;
while (my $line = <$r>) {
    $first = time if $first < 0 && $line =~ /$pattern/;
}
waitpid($pid, 0);
my $end = time;
alarm 0;
my $status = $? & 127 ? 128 + ($? & 127) : $? >> 8;
printf "%.0f %.0f %d\n", $first < 0 ? -1 : ($first - $t0) * 1000, ($end - $t0) * 1000, $status;
'

# shellcheck disable=SC2054  # the commas belong to QEMU's option syntax
qemu=(qemu-system-x86_64 -machine pc -accel tcg -m 128 -smp 1 -display none -vga none -net none -no-reboot
      -serial stdio -monitor none -device isa-debug-exit,iobase=0xf4,iosize=0x04)

# shellcheck source=tools/benchmarks/lib.sh
. tools/benchmarks/lib.sh

bench_boot() {  # bench_boot HOW TIMEOUT QEMU-ARGS...
    local how=$1 limit=$2
    shift 2
    local firsts=() exits=() i result first exit status
    for ((i = 0; i < runs; i++)); do
        result=$(perl -e "$timer" '^\r*TAP version 13' "$limit" "${qemu[@]}" "$@" 2>>"$out/qemu.err")
        read -r first exit status <<<"$result"
        [[ $status -eq 1 ]] || echo "bench boot: $how run $((i + 1)): QEMU status $status (not a pass)" >&2
        [[ $first -ge 0 ]] || echo "bench boot: $how run $((i + 1)): no 'TAP version 13' line" >&2
        firsts+=("$first")
        exits+=("$exit")
    done
    echo "boot_${how}_first_line_ms: $(printf '%s\n' "${firsts[@]}" | median) ms"
    echo "boot_${how}_exit_ms: $(printf '%s\n' "${exits[@]}" | median) ms"
}

: >"$out/qemu.err"
tools/mkiso.sh --no-efi "$kernel" "$out/bench-bios.iso" "exit=qemu" 2>/dev/null
bench_boot kernel 60 -kernel "$kernel" -append "exit=qemu"
bench_boot iso 60 -cdrom "$out/bench-bios.iso" -boot d
if [[ ${BENCH_UEFI:-0} == 1 ]]; then
    tools/mkiso.sh --efi "$kernel" "$out/bench-efi.iso" "exit=qemu" 2>/dev/null
    code=/usr/share/OVMF/OVMF_CODE_4M.fd vars=/usr/share/OVMF/OVMF_VARS_4M.fd
    [[ -e $code ]] || { code=/usr/share/OVMF/OVMF_CODE.fd; vars=/usr/share/OVMF/OVMF_VARS.fd; }
    cp "$vars" "$out/ovmf_vars.fd"
    bench_boot uefi 120 -drive "if=pflash,format=raw,unit=0,readonly=on,file=$code" \
        -drive "if=pflash,format=raw,unit=1,file=$out/ovmf_vars.fd" -cdrom "$out/bench-efi.iso" -boot d
fi

echo "kernel_elf_bytes: $(stat -c %s "$kernel") bytes"
tools/mkiso.sh --no-efi "$kernel" "$out/pmuboot-bios.iso" "" 2>/dev/null
echo "iso_bios_bytes: $(stat -c %s "$out/pmuboot-bios.iso") bytes"
if [[ -f /usr/lib/grub/x86_64-efi/kernel.img ]]; then
    tools/mkiso.sh --efi "$kernel" "$out/pmuboot-efi.iso" "" 2>/dev/null
    echo "iso_bios_uefi_bytes: $(stat -c %s "$out/pmuboot-efi.iso") bytes"
else
    echo "bench boot: grub-efi-amd64-bin not installed: no BIOS+UEFI ISO size" >&2
fi
tools/mkiso.sh "$kernel" "$out/pmuboot-default.iso" "" 2>/dev/null
echo "iso_default_bytes: $(stat -c %s "$out/pmuboot-default.iso") bytes"
