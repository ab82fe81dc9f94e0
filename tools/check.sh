#!/usr/bin/env bash
# tools/check.sh: everything `make check` runs (the Makefile builds the host tests, tools and kernel first).
#
#   tools/check.sh                         every step, in the order of the table `steps` below
#   tools/check.sh --only STEP[,STEP...]   those steps, in the table's order (e.g. --only host,layers); build/check/
#                                          is kept, so a step that judges another's output (console, evidence,
#                                          reports, lava judge the qemu step's logs) judges what the last run left
#   tools/check.sh --list                  the steps: name, whether it boots QEMU, what it checks
#
# Each step is a function, step_NAME, whose comment says what it checks; "check: --- NAME: ..." comes before its
# own "check: ..." lines. A step records its verdicts as TAP streams (`streams`: NAME=FILE, summed by
# tools/tapsum) and as lines of build/check/runs.tap (`run_check`). The runs' tables (qemu_runs, error_runs,
# pattern_runs, bail_runs, screen_runs, ...) hold one row per run: add a run as a row, a check as a step.
#
# Logs: build/check/ (host/*.tap, decode/*.out, qemu/*.log and *.err, runs.tap, summary.txt).
# The last line is tapsum's "N passed, N failed, N skipped"; the exit status is non-zero if anything failed.
# Environment: CHECK_JOBS (QEMU runs at once, default 1: the kernel's APIC timer checks measure time, and on a
# small host parallel runs of 4-CPU guests starve each other's vCPUs), CHECK_QEMU=0 (skip the QEMU runs),
# CHECK_KERNEL=FILE (boot this image instead of build/pmuboot.elf: for testing this script), CHECK_QEMU10=0
# (skip the QEMU 10 runs, recorded as SKIP), CHECK_EMUL=0 (skip the emulated-PMU runs, recorded as SKIP),
# CHECK_SWEEP_SEED=S (the command-line sweep's seed, to repeat one; default from the clock), CHECK_KVM=0 (skip the
# KVM runs, recorded as SKIP).
# shellcheck disable=SC2317  # the steps are called by name, from the table
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
out=build/check

# name | qemu: boots QEMU or judges its runs (skipped with CHECK_QEMU=0) | what it checks
steps=(
    "host|-|every host test program, its exit status against its TAP"
    "layers|-|no #include and no call points up the layer order, no loop of calls within a layer; docs/architecture.md's include edges are the tree's"
    "kinds|-|a PMU kind is its descriptor: no file outside the kind files compares kinds (tools/kind-compare-count)"
    "generated|-|generated sources and docs regenerate byte for byte from their committed inputs"
    "decode|-|build/tools/pmu-decode --all on every CPUID dump"
    "decode_checks|-|build/tools/pmu-decode --checks on every dump of a whole machine: no FAIL"
    "report_tests|-|tests/report/run.sh: tools/pmuboot-report's own tests"
    "qemu|qemu|the QEMU runs (qemu_runs, error_runs, pattern_runs, bail_runs) and what their logs must show"
    "screen|qemu|the final screen's QR codes and the live grid (screen_runs, grid_runs)"
    "console|qemu|console= naming RAM refused, console=auto following the ACPI SPCR (logs of the qemu step)"
    "stop_guest|qemu|run-qemu.sh's own failure reports on tools/stop-guest.asm's guests"
    "sweep|qemu|tools/cmdline-sweep: random command lines"
    "emulated|qemu|the emulated PMU: every KIND, every pmu_fault= row (tools/emul-check.sh)"
    "evidence|qemu|no check's YAML cut in any QEMU or emulated-PMU run"
    "reports|qemu|tools/pmuboot-report's reports of every QEMU run, validated"
    "lava|qemu|the LAVA jobs against LAVA's schema, their monitors on the monitor=lava runs' logs"
)
step_names() { local s; for s in "${steps[@]}"; do printf '%s ' "${s%%|*}"; done; }

only=""
case ${1:-} in
    --list)
        for s in "${steps[@]}"; do IFS='|' read -r name needs what <<<"$s"; printf '%-14s %-5s %s\n' "$name" "$needs" "$what"; done
        exit 0 ;;
    --only)
        only=",${2:?usage: tools/check.sh --only STEP[,STEP...] (tools/check.sh --list)},"
        for s in ${2//,/ }; do
            [[ " $(step_names)" == *" $s "* ]] || { echo "check: no step '$s' (steps: $(step_names))" >&2; exit 2; }
        done ;;
    "") ;;
    *) echo "check: unknown argument '$1' (--only STEP[,STEP...], --list)" >&2; exit 2 ;;
esac
selected() { [[ -z $only || $only == *",$1,"* ]]; }   # selected STEP: is STEP to run?

[[ -n $only ]] || rm -rf "$out"
mkdir -p "$out/host" "$out/decode" "$out/qemu"
start=$(date +%s)

streams=()   # NAME=FILE arguments for tapsum
runs=()      # lines of runs.tap: "ok - ..." / "not ok - ..."
run_check() {  # run_check OK? DESCRIPTION
    if [[ $1 == yes ]]; then runs+=("ok - $2"); else runs+=("not ok - $2"); fi
}

# every host test (tests/host/test_*.c and the suites' tests/*/host/test_*.c, built in build/host/) with
# CMOCKA_MESSAGE_OUTPUT=TAP; its stdout is one TAP stream
step_host() {
    host_tests=()
    # From the sources (a stale binary of a renamed test is not run), in the Makefile's folders (HOST_TEST_DIRS).
    for src in tests/host/test_*.c tests/*/host/test_*.c; do
        host_tests+=("build/host/$(basename "$src" .c)")
    done
    echo "check: ${#host_tests[@]} host test programs"
    for t in "${host_tests[@]}"; do
        name=${t##*/}
        set +e
        CMOCKA_MESSAGE_OUTPUT=TAP PMUBOOT_IMAGE=${CHECK_KERNEL:-} "$t" >"$out/host/$name.tap" 2>"$out/host/$name.err" </dev/null
        status=$?
        tools/tapsum --quiet "$out/host/$name.tap" >/dev/null 2>&1
        tap_status=$?
        set -e
        streams+=("host/$name=$out/host/$name.tap")
        # cmocka exits with the number of failed tests; a signal (crash, sanitizer abort) gives 128+N or 1.
        if [[ $status -eq 0 && $tap_status -eq 0 ]]; then
            run_check yes "host/$name: exit status 0 agrees with its TAP"
        elif [[ $status -ne 0 && $tap_status -ne 0 ]]; then
            run_check yes "host/$name: exit status $status agrees with its failing TAP"
        elif [[ $status -ne 0 ]]; then
            run_check no "host/$name: exit status $status but its TAP passed (crash or sanitizer report? see $out/host/$name.err)"
        else
            run_check no "host/$name: exit status 0 but its TAP failed or is broken"
        fi
    done
}

# tools/layers: no #include points up the layer order (lib < kernel,apic,boot < pmu < emul < harness < tests)
# beyond the ones tools/layers.allow lists; no link reference in the kernel's objects (build/k/, built by make
# before this script) points up, and no files of one layer reference each other in a loop, beyond the ones
# tools/layers-calls.allow lists (both lists may only shrink); the evidence is the counts
step_layers() {
    for part in includes calls; do
        if layers_out=$(tools/layers --$part 2>&1); then
            run_check yes "layers: ${layers_out##*layers: } (tools/layers --$part)"
        else
            run_check no "layers: ${layers_out//$'\n'/; } (tools/layers --$part)"
        fi
    done

    # The include edges docs/architecture.md shows are the tree's (tools/layers --doc), so the map cannot drift.
    doc_edges=$(awk '/^Include edges between folders/ { on = 1; next } on && /^```$/ { if (in_block) exit; in_block = 1; next } in_block' docs/architecture.md)
    if [[ $doc_edges == "$(tools/layers --doc)" ]]; then
        run_check yes "layers: docs/architecture.md's include edges are the tree's (tools/layers --doc)"
    else
        run_check no "layers: docs/architecture.md's include edges differ from the tree's: put tools/layers --doc's output there"
    fi
}

# tools/kind-compare-count: no file outside the kind files (pmu/kind_*.c, pmu/kinds.c) compares PMU kinds; the
# host tests' count is printed, not failed (see the tool)
step_kinds() {
    if kinds_out=$(tools/kind-compare-count 2>&1); then
        run_check yes "kinds: ${kinds_out#kind-compare-count: } (tools/kind-compare-count)"
    else
        run_check no "kinds: ${kinds_out//$'\n'/; }: make each a field or predicate of the kind's descriptor, pmu/kind.h (tools/kind-compare-count -v lists them)"
    fi
}

# tools/gen-event-catalog generate on the committed inputs (tools/catalog/) gives the committed
# pmu/event_catalog_data.c, byte for byte
# build/tools/event-catalog-doc gives the committed docs/event-catalog-parts.md, byte for byte
step_generated() {
    if regen_err=$(tools/gen-event-catalog generate tools/catalog/intel-perfmon.json tools/catalog/linux-pmu-events.json 2>&1 >"$out/event_catalog_data.c") &&
        cmp -s "$out/event_catalog_data.c" pmu/event_catalog_data.c; then
        run_check yes "event catalog: pmu/event_catalog_data.c regenerates from tools/catalog/intel-perfmon.json"
    else
        run_check no "event catalog: pmu/event_catalog_data.c differs from what tools/gen-event-catalog generates${regen_err:+ ($regen_err)} (diff $out/event_catalog_data.c pmu/event_catalog_data.c)"
    fi
    if regen_err=$(tools/gen-tco-ids tools/tco/lpc-ich-itco2.txt 2>&1 >"$out/tco_lpc_ids.c") && cmp -s "$out/tco_lpc_ids.c" lib/tco_lpc_ids.c; then
        run_check yes "watchdog: lib/tco_lpc_ids.c regenerates from tools/tco/lpc-ich-itco2.txt (Linux lpc_ich)"
    else
        run_check no "watchdog: lib/tco_lpc_ids.c differs from what tools/gen-tco-ids generates${regen_err:+ ($regen_err)} (diff $out/tco_lpc_ids.c lib/tco_lpc_ids.c)"
    fi
    if build/tools/event-catalog-doc >"$out/event-catalog-parts.md" 2>&1 && cmp -s "$out/event-catalog-parts.md" docs/event-catalog-parts.md; then
        run_check yes "event catalog: docs/event-catalog-parts.md is what build/tools/event-catalog-doc generates"
    else
        run_check no "event catalog: docs/event-catalog-parts.md differs from build/tools/event-catalog-doc (diff $out/event-catalog-parts.md docs/event-catalog-parts.md)"
    fi
}

# build/tools/pmu-decode --all on each tests/host/data/*.txt: one check per dump (it must decode)
step_decode() {
    decode_tap=$out/decode.tap
    {
        echo "TAP version 13"
        dumps=(tests/host/data/*.txt)
        n=0
        if [[ ! -x build/tools/pmu-decode ]]; then
            echo "ok 1 - pmu-decode # SKIP build/tools/pmu-decode not built"; n=1
        elif [[ ! -e ${dumps[0]} ]]; then
            echo "ok 1 - pmu-decode # SKIP no dumps in tests/host/data/*.txt"; n=1
        else
            for d in "${dumps[@]}"; do
                n=$((n + 1))
                base=$(basename "$d" .txt)
                if build/tools/pmu-decode --all "$d" >"$out/decode/$base.out" 2>&1 </dev/null; then
                    echo "ok $n - pmu-decode/$base"
                else
                    echo "not ok $n - pmu-decode/$base (exit status $?, see $out/decode/$base.out)"
                fi
            done
        fi
        echo "1..$n"
    } >"$decode_tap"
    streams+=("pmu-decode=$decode_tap")
    echo "check: pmu-decode on $(grep -c '^\(not \)\{0,1\}ok' "$decode_tap") dumps"
}

# build/tools/pmu-decode --checks on each tests/host/data/*.txt holding more than one logical CPU: the
# verdicts pmuboot's CPUID-only checks would give on that (healthy) machine; one check per dump, which
# requires exit status 0, a well-formed stream and no "not ok" line (build/check/decode/*.checks.tap)
step_decode_checks() {
    # A dump of several logical CPUs is a machine: its predicted smp/topology, smp/features, pmu_enum/discover and
    # pmu_enum/consistent verdicts (the kernel's decision code, tests/host/support/checks_predict.c) must hold no
    # "not ok": the dumps are of healthy CPUs. Each prediction is kept in build/check/decode/NAME.checks.tap.
    checks_tap=$out/decode-checks.tap
    {
        echo "TAP version 13"
        n=0
        if [[ ! -x build/tools/pmu-decode ]]; then
            echo "ok 1 - pmu-decode --checks # SKIP build/tools/pmu-decode not built"; n=1
        else
            for d in tests/host/data/*.txt; do
                [[ -e $d ]] || continue
                cpus=$(build/tools/pmu-decode "$d" 2>/dev/null </dev/null |
                       sed -n 's/^dump: .*, logical CPU 0 of \([0-9]*\) .*/\1/p' || true)
                [[ ${cpus:-0} -gt 1 ]] || continue
                n=$((n + 1))
                base=$(basename "$d" .txt)
                pred=$out/decode/$base.checks.tap
                set +e
                build/tools/pmu-decode --checks "$d" >"$pred" 2>"$out/decode/$base.checks.err" </dev/null
                status=$?
                tools/tapsum --quiet "$pred" >/dev/null 2>&1
                tap_status=$?
                set -e
                fails=$(grep -c '^not ok' "$pred" || true)
                if [[ $status -eq 0 && $tap_status -eq 0 && $fails -eq 0 ]]; then
                    echo "ok $n - pmu-decode --checks/$base ($cpus CPUs: $(tail -n 1 "$pred"))"
                else
                    first=$(grep -m 1 '^not ok' "$pred" || true)
                    first=${first//#/}   # a '#' would start a TAP directive on this line
                    echo "not ok $n - pmu-decode --checks/$base (exit status $status, $fails not ok${first:+, first: $first}; see $pred)"
                fi
            done
            if [[ $n -eq 0 ]]; then
                echo "ok 1 - pmu-decode --checks # SKIP no dump in tests/host/data/*.txt holds more than one logical CPU"; n=1
            fi
        fi
        echo "1..$n"
    } >"$checks_tap"
    streams+=("pmu-decode-checks=$checks_tap")
    echo "check: pmu-decode --checks on $(grep -c '^\(not \)\{0,1\}ok' "$checks_tap") multi-CPU dumps"
}

# tests/report/run.sh: the report tool's own tests on fixtures (truncated, noisy CRLF+ANSI+BMC, normal),
# one headless Chromium render (SKIP without chromium)
step_report_tests() {
    set +e
    tests/report/run.sh "$out/report-tests" >"$out/report-tests.tap" 2>"$out/report-tests.err" </dev/null
    set -e
    streams+=("report-tests=$out/report-tests.tap")
    echo "check: report tests: $(grep -c '^ok' "$out/report-tests.tap") of $(grep -c '^\(not \)\{0,1\}ok' "$out/report-tests.tap") ok (see $out/report-tests/)"
}

# QEMU runs of the kernel through run-qemu.sh: -kernel on pc and q35 with -smp 1, 4, 16 and 64 (q35), the
# Skylake-Client, Icelake-Server and EPYC CPU models, serial bring-up, run=serial (checks one CPU at a
# time), the same -smp 4 run twice, the per-check time limit (suite=timeout), a hang of the boot CPU stopped by
# an idle AP's NMI in one boot (hang-nmi-q35) and one with NMIs blocked that the reset watchdog ends, the AP
# saying its NMI went unanswered (watchdog-*-q35); the GRUB ISO's
# multiboot2 entry on pc and multiboot entry on q35; UEFI (OVMF) once if OVMF and GRUB EFI are
# installed; without the 8254 PIT (--no-pit) on pc and q35; console=auto with an ACPI SPCR table naming
# COM2 (--spcr ttyS1: the stream must arrive on COM2 and say so in its "# console:" line, COM1 must not
# carry it); console= naming RAM (uart,0x3f8: MMIO at the real-mode IVT; uart,mmio32,0x200000: inside the image)
# must be refused with its reason in the "# console:" line on COM1, which carries the run; the ISO with std VGA (--vga std: the kernel must find GRUB's framebuffer and mirror lines on
# it); a network boot (--pxe: QEMU's iPXE loads the kernel over TFTP, default suites, 2 CPUs); and two runs
# that must fail: the bad-input path ("nonsense=1" must fail fast and name the word) and no-clock (no PIT,
# HPET or ACPI: boot/clocks must fail rather than a TSC frequency be made up). With QEMU 10 from
# bookworm-backports (tools/qemu10.sh; a SKIP line names the runs and the reason when it cannot be had):
# x2APIC mode under TCG (-cpu max -smp 4, q35) and 288 CPUs (q35 + intel-iommu, suite=smp,apic,x2apic: the
# APIC timer checks on 288 vCPUs sharing 2 host cores, the hardest case for timing verdicts). Where /dev/kvm
# is usable (else a SKIP line), suites boot and init under KVM at -smp 1 and 4 (kvm_runs).
# Suite reset (reset=all: 0xCF9, 8042 0xFE, triple fault) through -kernel on pc and q35, the GRUB ISO's
# multiboot2 entry on q35 and multiboot entry on pc, and UEFI on pc: QEMU must exit by itself with a PASS
# after four boots; the last boot's stream is the run's (build/check/qemu/reset-*.last.log)

# --- the runs' tables ------------------------------------------------------------------------------------------
have_uefi=yes uefi_why=""
[[ -f /usr/lib/grub/x86_64-efi/kernel.img ]] || { have_uefi=no; uefi_why="GRUB EFI (grub-efi-amd64-bin) not installed"; }
[[ -e /usr/share/OVMF/OVMF_CODE_4M.fd || -e /usr/share/OVMF/OVMF_CODE.fd ]] ||
    { have_uefi=no; uefi_why="${uefi_why:+$uefi_why; }OVMF (ovmf) not installed"; }

# name | run-qemu.sh options
qemu_runs=()
[[ $have_uefi == yes ]] && qemu_runs+=("uefi-q35|--uefi --machine q35 --smp 2 --timeout 120")   # longest: first
qemu_runs+=(
    "kernel-pc-smp1|--machine pc --smp 1"
    "kernel-pc-smp4|--machine pc --smp 4"
    "kernel-q35-smp1|--machine q35 --smp 1"
    "kernel-q35-smp4|--machine q35 --smp 4"
    "kernel-q35-smp4-unfolded|--machine q35 --smp 4 --append fold=off"
    "kernel-q35-smp16|--machine q35 --smp 16 --timeout 120"
    "kernel-q35-smp64|--machine q35 --smp 64 --timeout 240"
    "kernel-pc-skylake-smp2|--machine pc --cpu Skylake-Client --smp 2"
    "kernel-pc-icelake-smp2|--machine pc --cpu Icelake-Server --smp 2"
    "kernel-pc-epyc-smp2|--machine pc --cpu EPYC --smp 2"
    "kernel-pc-serial-smp4|--machine pc --smp 4 --append smp=serial"
    "kernel-pc-nopit-smp2|--machine pc --no-pit --smp 2"
    "kernel-q35-nopit-smp1|--machine q35 --no-pit --smp 1"
    "kernel-pc-smp4-again|--machine pc --smp 4"
    "kernel-pc-run-serial-smp4|--machine pc --smp 4 --append run=serial"
    "timeout-pc-smp4|--machine pc --smp 4 --append suite=timeout,harness --append check_timeout_ms=500"
    "iso-mb2-pc|--iso --machine pc --smp 2"
    "iso-mb1-q35|--iso-mb1 --machine q35 --smp 2"
    "spcr-com2|--machine pc --smp 1 --spcr ttyS1 --append suite=boot"
    "console-ram-ivt|--machine pc --smp 1 --append console=uart,0x3f8 --append suite=boot --timeout 30"
    "console-ram-image|--machine pc --smp 1 --append console=uart,mmio32,0x200000 --append suite=boot --timeout 30"
    "iso-mb2-fb|--iso --vga std --machine pc --smp 1 --append suite=boot"
    "pxe-pc-smp2|--pxe --machine pc --smp 2"
    "lava-monitor-pc-smp2|--machine pc --smp 2 --append monitor=lava"
    "lava-monitor-emulated-pc-smp2|--machine pc --smp 2 --append monitor=lava --append pmu=emulated:intel-v4 --append suite=pmu_regs,pmi"
    "reset-kernel-pc|--machine pc --smp 2 --append suite=reset"
    "reset-kernel-q35|--machine q35 --smp 2 --append suite=reset"
    "reset-cmos-pc|--machine pc --machine-opt acpi=off --append suite=reset --append cmos=0x60-0x7f --timeout 240"
    "reset-erst-q35|--machine q35 --smp 2 --erst $out/qemu/reset-erst-q35.erst --append suite=reset --timeout 240"
    "reset-iso-mb2-q35|--iso --machine q35 --smp 2 --append suite=reset"
    "reset-iso-mb1-pc|--iso-mb1 --machine pc --smp 2 --append suite=reset"
)
[[ $have_uefi == yes ]] && qemu_runs+=("reset-uefi-pc|--uefi --machine pc --smp 2 --append suite=reset --timeout 240")
# QEMU 10 (bookworm-backports, unpacked into build/qemu10 by tools/qemu10.sh; the system QEMU is untouched):
# x2APIC mode under TCG (QEMU 7.2's TCG offers no x2APIC) and more than 255 CPUs (x2APIC IDs, MADT type-9
# entries, interrupt remapping). When it cannot be had, one SKIP line in runs.tap names the runs and the reason.
qemu10_runs=(
    "qemu10-q35-max-smp4|--machine q35 --cpu max --smp 4"
    "qemu10-q35-iommu-max-smp288|--machine q35 --iommu --cpu max --smp 288 --append suite=smp,apic,x2apic --timeout 420"
    "qemu10-q35-iommu-max-smp520|--machine q35 --iommu --cpu max --smp 520 --append suite=smp --timeout 300"
)
qemu10_why="" q10=""
if [[ ${CHECK_QEMU:-1} == 0 ]]; then
    :
elif ! selected qemu; then   # --only without the qemu step: the QEMU 10 runs the last run left are judged
    [[ -e $out/qemu/${qemu10_runs[0]%%|*}.status ]] && q10=build/qemu10/qemu-system-x86_64
elif [[ ${CHECK_QEMU10:-1} == 0 ]]; then
    qemu10_why="CHECK_QEMU10=0"
elif q10=$(tools/qemu10.sh 2>"$out/qemu10.err" </dev/null); then
    q10=${q10#"$repo"/}   # relative: the options below are split on blanks
    echo "check: QEMU 10: $q10 ($("$q10" --version 2>/dev/null | head -n 1))"
else
    q10=""
    qemu10_why=$(tail -n 1 "$out/qemu10.err" | sed 's/^qemu10: //')
    qemu10_why=${qemu10_why:-tools/qemu10.sh failed without a reason}
fi
if [[ -n $q10 ]]; then
    for r in "${qemu10_runs[@]}"; do qemu_runs+=("${r%%|*}|--qemu $q10 ${r#*|}"); done
fi
# KVM, wherever /dev/kvm is usable (else one SKIP line in runs.tap names the runs and the reason): suites boot and
# init at -smp 1 and 4 must complete with 0 FAILs (KVM's named deviations are TODO). Not the default suites: on the
# development machine /dev/kvm is kvm_pvm without VMX/SVM, where the default suites take 35 s (-smp 1) and 108 s
# (-smp 4) and six checks FAIL for that hypervisor's own behaviour (docs/running.md, KVM); boot and init are what
# stopped the guest before (an emulation failure at the first x87 instruction of suite init).
kvm_runs=(
    "kvm-q35-smp1|--accel kvm --machine q35 --smp 1 --append suite=boot,init --timeout 120"
    "kvm-q35-smp4|--accel kvm --machine q35 --smp 4 --append suite=boot,init --timeout 180"
)
kvm_why=""
if [[ ${CHECK_QEMU:-1} == 0 ]]; then
    :
elif ! selected qemu; then   # as for QEMU 10: the KVM runs the last run left
    [[ -e $out/qemu/${kvm_runs[0]%%|*}.status ]] && qemu_runs+=("${kvm_runs[@]}")
elif [[ ${CHECK_KVM:-1} == 0 ]]; then
    kvm_why="CHECK_KVM=0"
elif [[ -r /dev/kvm && -w /dev/kvm ]]; then
    qemu_runs+=("${kvm_runs[@]}")
else
    kvm_why="/dev/kvm is missing or not accessible"
fi
# Runs that must fail, each for its one reason: name | options | a line the log must hold | what it shows.
error_runs=(
    "error-path|--machine pc --append nonsense=1 --timeout 20|nonsense|'nonsense=1' rejected"
    "deviations-strict|--machine pc --append deviations=strict --append suite=apic --timeout 60|^not ok [0-9]* - cpu0/apic/esr_clear\$|QEMU TCG's known deviations FAIL with deviations=strict (they are TODO in every other run)"
    "no-clock|--machine pc --no-pit --machine-opt hpet=off,acpi=off --append suite=boot --timeout 30|^not ok [0-9]* - boot/clocks|no PIT, HPET or ACPI PM timer: boot/clocks fails, no TSC frequency is made up"
    "hang-nmi-q35|--machine q35 --smp 2 --append suite=timeout --append check_timeout_ms=500 --append timeout_hang=bsp --append watchdog_s=4 --timeout 60|^  \"failure\": \"still running after check_timeout_ms=500: stopped by cpu1's NMI (the boot CPU's watcher)\"|the boot CPU hung inside cpu0/timeout/time_limit: the idle cpu1 stopped it with an NMI past check_timeout_ms, one boot, no reset"
    "watchdog-q35|--machine q35 --smp 2 --append suite=timeout --append check_timeout_ms=500 --append timeout_hang=bsp-nmi-blocked --append watchdog_s=4 --timeout 120|^  \"failure\": \"hung: no return within [0-9]* s on this thread, watchdog reset (Intel TCO, |the boot CPU hung inside cpu0/timeout/time_limit with NMIs blocked: cpu1's NMI went unanswered, q35's TCO watchdog reset the machine and the next boot reported that check failed and finished the stream"
    "watchdog-reset-q35|--machine q35 --smp 2 --append suite=timeout,reset --append check_timeout_ms=500 --append timeout_hang=bsp-nmi-blocked --append watchdog_s=4 --timeout 240|^[0-9]* passed, 1 failed, [0-9]* skipped\$|a hang, then suite reset's three deliberate resets: five boots, the hung check's skip carried across them, the reset round started over after the watchdog's reset and complete; the only failure is the hung check"
    "watchdog-erst-q35|--machine q35 --smp 2 --erst $out/qemu/watchdog-erst-q35.erst --append watchdog_erst=on --append suite=timeout --append check_timeout_ms=500 --append timeout_hang=bsp-nmi-blocked --append watchdog_s=4 --timeout 120|^  \"ACPI ERST record 0x80706d7562000001 (hang record)\": {expected: \"as found\", observed: \"found 0x0, now 0x0\"|as watchdog-q35, with the hang record in QEMU's ACPI ERST (run-qemu.sh --erst FILE): read across the reset, cleared at the end"
    "uncore-unbacked-pc|--machine pc --cpu Westmere,hypervisor=off --smp 4 --append suite=uncore --timeout 60|^[0-9]* passed, 1 failed, [0-9]* skipped\$|a part whose uncore is recognised (Westmere, no hypervisor bit) but whose registers are not there (QEMU TCG reads them as 0): the probe FAILs uncore/enumeration with what it wrote and read, every other uncore check SKIPs writing nothing, and the machine is left as found"
    "watchdog-wdat-q35|--machine q35 --wdat --smp 2 --append suite=timeout --append check_timeout_ms=500 --append timeout_hang=bsp-nmi-blocked --append watchdog_s=4 --timeout 120|^  \"failure\": \"hung: no return within [0-9]* s on this thread, watchdog reset (ACPI WDAT, |as watchdog-q35, with the TCO described by an ACPI WDAT table (run-qemu.sh --wdat): the kernel drove it through the table's actions"
)

# Runs that must pass and whose log must hold a line: name | options | the line (grep -E) | what it shows.
pattern_runs=(
    "wdat-no-countdown-q35|--machine q35 --wdat-no-countdown --smp 2 --append suite=boot --append watchdog_s=4 --append check_timeout_ms=500 --timeout 60|^# watchdog: an ACPI WDAT is listed but not used: WDAT: no SET_COUNTDOWN_PERIOD action|a WDAT without SET_COUNTDOWN_PERIOD is refused, as Linux's wdat_wdt refuses it (the firmware's countdown may be too short)"
    "records-none-pc|--machine pc --machine-opt acpi=off --append suite=reset --timeout 60|^ok [0-9]+ - reset/round # SKIP nowhere to keep the plan across a reset: no record store \\(none: no store the platform made for records, and this CMOS's layout is unknown|where nothing says this is QEMU (no ACPI FADT with QEMU's OEM ID) there is no record store: suite reset skips and writes no CMOS byte"
    "watchdog-default-q35|--machine q35 --smp 2 --append suite=boot --timeout 60|^# watchdog: none \\(.*GCS.NO_REBOOT is set, so an expiry would not reset; it is left as found by default|by default (watchdog_s=auto) the TCO's NO_REBOOT is left as found and the reset watchdog is not armed"
)
# Runs that must bail out (run-qemu status 3: no summary line of their own) and whose log must hold a line.
bail_runs=(
    "bail-out-q35|--machine q35 --smp 2 --append suite=timeout --append check_timeout_ms=500 --append timeout_hang=bsp-bail-out --append watchdog_s=30 --timeout 60|^# machine: [0-9]+ changes? put back before the exit|a bail-out inside a boot-CPU check, with the watchdog armed and its record written, still puts every change back (the record, the TCO) before the exit"
)
error_runs+=(
    "restore-skip-pmu|--smp 2 --append pmu=emulated:intel-v4 --append suite=pmu_regs --append restore_skip=PMU --timeout 300|^  \"global_ctrl\": {expected: \"as found\", observed: \"found 0xf, now 0x0\"|the PMU left as the run left it (restore_skip=PMU: pmu_regs zeroes GLOBAL_CTRL) makes cpuN/machine/pmu_restored fail, naming the register"
    "restore-skip-q35|--machine q35 --smp 2 --append suite=boot --append watchdog_s=30 --append restore_skip=record --timeout 60|^not ok [0-9]* - machine/restored\$|a change the ledger does not put back (restore_skip=record: the hang record's CMOS bytes) makes machine/restored fail"
)

# More CPUs than the memory holds: 288 vCPUs in 32 MiB leave about 120 without a check record and report buffer;
# each of their checks must FAIL naming the memory, never be left out in silence. QEMU 10 only (QEMU 7.2 TCG
# stops at 255).
[[ -n $q10 ]] && error_runs+=(
    "qemu10-smp288-mem32|--qemu $q10 --machine q35 --iommu --cpu max --smp 288 --mem 32 --append suite=smp --timeout 300|^  \"failure\": \"not run: no memory below 4 GiB for cpu[0-9]*'s check record|288 vCPUs in 32 MiB: the CPUs without memory for their checks FAIL each check, naming it"
)

# The runs of the tables above, judged; their logs hold what each must show.
# a run that must bail out inside a boot-CPU check and still put every change back (bail_runs); runs that must
# pass and print a line (pattern_runs: a WDAT without SET_COUNTDOWN_PERIOD refused, the default
# q35 run leaving the TCO's NO_REBOOT as found) and restore_skip=record failing machine/restored; every ledger
# entry the runs printed is in docs/running.md's table (tools/ledger-doc-check)
# tools/tap-order: the -smp 4 stream equals its repeat and its run=serial twin test point by test point
step_qemu() {
    jobs_max=${CHECK_JOBS:-1}
    [[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "check: CHECK_JOBS must be a positive number, not '$jobs_max'" >&2; exit 2; }
    echo "check: ${#qemu_runs[@]} QEMU runs, ${#pattern_runs[@]} that must print a line and ${#error_runs[@]} that must fail, $jobs_max at a time (logs in $out/qemu/)"
    # run-qemu.sh builds each ISO once (under a lock) and caches it in build/iso/.
    for r in "${qemu_runs[@]}" "${error_runs[@]%|*|*}" "${pattern_runs[@]%|*|*}" "${bail_runs[@]%|*|*}"; do
        name=${r%%|*}
        while [[ $(jobs -rp | wc -l) -ge $jobs_max ]]; do wait -n || true; done
        # shellcheck disable=SC2086
        ( set +e; ./run-qemu.sh --no-build ${CHECK_KERNEL:+--kernel "$CHECK_KERNEL"} ${r#*|} --log "$out/qemu/$name.log" --report "$out/qemu/$name.report" >/dev/null 2>"$out/qemu/$name.err"
          echo $? >"$out/qemu/$name.status" ) &
    done
    wait
    for r in "${qemu_runs[@]}"; do
        name=${r%%|*}
        status=$(cat "$out/qemu/$name.status")
        verdict=$(tail -n 1 "$out/qemu/$name.err")
        if [[ $name == reset-* ]]; then
            # Several boots, one TAP stream each: the run's is the last (run-qemu.sh judges the same one).
            tools/pmuboot-log last-boot "$out/qemu/$name.log" >"$out/qemu/$name.last.log" || true
            streams+=("qemu/$name=$out/qemu/$name.last.log")
            boots=$(tools/pmuboot-log boots "$out/qemu/$name.log" 2>/dev/null || echo 0)
            if [[ $status -eq 0 && $boots -eq 4 ]]; then
                run_check yes "qemu/$name: 4 boots (3 resets), QEMU exited by itself with a PASS"
            else
                run_check no "qemu/$name: want a PASS after 4 boots, got run-qemu status $status after $boots boot(s): ${verdict#run-qemu: }"
            fi
            echo "check: qemu/$name: $boots boots, ${verdict#run-qemu: }"
            continue
        fi
        streams+=("qemu/$name=$out/qemu/$name.log")
        case $status in
            0|1) run_check yes "qemu/$name: run complete, QEMU status agrees with the stream (${verdict#run-qemu: })" ;;
            *) run_check no "qemu/$name: ${verdict#run-qemu: } (see $out/qemu/$name.err)" ;;
        esac
        echo "check: qemu/$name: ${verdict#run-qemu: }"
    done
    # Every ledger entry a run printed is documented (docs/running.md "What pmuboot changes on your machine").
    if e=$(tools/ledger-doc-check "$out"/qemu/*.log 2>&1); then
        run_check yes "${e#ledger-doc-check: } (tools/ledger-doc-check)"
    else
        run_check no "${e#ledger-doc-check: }"
    fi
    # The stream's order is stable: the same configuration twice, and run=serial against the default (parallel).
    for pair in "kernel-pc-smp4 kernel-pc-smp4-again" "kernel-pc-smp4 kernel-pc-run-serial-smp4"; do
        read -r a b <<<"$pair"
        if e=$(tools/tap-order --quiet "$out/qemu/$a.log" "$out/qemu/$b.log" 2>&1); then
            run_check yes "order/$a~$b: same test points in the same order, well-formed stream (tools/tap-order)"
        else
            run_check no "order/$a~$b: ${e//$'\n'/; }"
        fi
    done
    # fold=on (the default) and fold=off say the same of every thread: the unfolded run, folded by tools/tap-fold
    # (the kernel's folding code, lib/tap_fold.c), gives pmuboot-report the same per-thread verdicts.
    name=kernel-q35-smp4-unfolded
    grid() { tools/pmuboot-report -q --json - "$1" 2>/dev/null |
        perl -MJSON::PP -0777 -ne 'print map { join(" ", $_->{cpu} // "-", "$_->{suite}/$_->{check}", $_->{verdict}) . "\n" } @{ decode_json($_)->{checks} }' | sort; }
    if build/tools/tap-fold "$out/qemu/$name.log" >"$out/qemu/$name.folded.log" 2>"$out/qemu/$name.folded.err" &&
        grid "$out/qemu/$name.log" >"$out/qemu/$name.grid" && grid "$out/qemu/$name.folded.log" >"$out/qemu/$name.folded.grid" &&
        [[ -s $out/qemu/$name.grid ]] && cmp -s "$out/qemu/$name.grid" "$out/qemu/$name.folded.grid"; then
        run_check yes "fold/$name: folded by tools/tap-fold, $(tools/pmuboot-log checks --lines "$out/qemu/$name.folded.log" | wc -l) lines give the same $(wc -l <"$out/qemu/$name.grid") per-thread verdicts as the $(tools/pmuboot-log checks --lines "$out/qemu/$name.log" | wc -l) unfolded ones (pmuboot-report JSON)"
    else
        run_check no "fold/$name: the folded stream's per-thread verdicts differ from the unfolded ones' (diff $out/qemu/$name.grid $out/qemu/$name.folded.grid; $out/qemu/$name.folded.err)"
    fi
    [[ $have_uefi == yes ]] || run_check yes "qemu/uefi-q35 # SKIP $uefi_why"
    [[ -z $kvm_why ]] ||
        run_check yes "qemu/kvm # SKIP runs $(for r in "${kvm_runs[@]}"; do printf '%s ' "${r%%|*}"; done)not done: $kvm_why"
    [[ -z $qemu10_why ]] ||
        run_check yes "qemu/qemu10 # SKIP runs $(for r in "${qemu10_runs[@]}"; do printf '%s ' "${r%%|*}"; done)not done: QEMU 10 not available: $qemu10_why"
    # The runs that must fail: each must end by itself with failed checks, and its log must show why.
    # judge_runs STATUS HOW GREP ENTRY...: each run (name|options|pattern|what) must end with run-qemu status STATUS (0
    # passed, 1 failed checks, 3 bailed out) and its log must hold the pattern (GREP: -G basic, -E extended regular
    # expressions); HOW says what is expected, in words.
    judge_runs() {
        local want=$1 how=$2 syntax=$3 r name pattern what status verdict
        shift 3
        for r in "$@"; do
            IFS='|' read -r name _ pattern what <<<"$r"
            status=$(cat "$out/qemu/$name.status")
            verdict=$(tail -n 1 "$out/qemu/$name.err")
            [[ $want -eq 0 ]] && streams+=("qemu/$name=$out/qemu/$name.log")
            if [[ $status -eq $want ]] && grep "$syntax" -q -- "$pattern" "$out/qemu/$name.log"; then
                run_check yes "qemu/$name: $what: the run $how and its log holds '$pattern'"
            elif [[ $status -eq $want ]]; then
                run_check no "qemu/$name: the run $how but its log has no '$pattern' (see $out/qemu/$name.log)"
            else
                run_check no "qemu/$name: the run must have $how (run-qemu status $want), got status $status: ${verdict#run-qemu: }"
            fi
            echo "check: qemu/$name: ${verdict#run-qemu: } (expected: $how)"
        done
    }
    judge_runs 3 "bailed out" -E "${bail_runs[@]}"
    judge_runs 0 "passed" -E "${pattern_runs[@]}"
    judge_runs 1 "failed" -G "${error_runs[@]}"
    # A hang of the boot CPU: with an idle AP the AP's NMI ends it in the same boot; with NMIs blocked the AP says the
    # NMI went unanswered before the watchdog's reset.
    name=hang-nmi-q35 log=$out/qemu/hang-nmi-q35.log
    boots=$(tools/pmuboot-log boots "$log" 2>/dev/null || echo 0)
    if [[ $boots -eq 1 ]] && grep -q $'^fail\tcpu0/timeout/time_limit\t' <<<"$(tools/pmuboot-log checks "$log" 2>/dev/null)" &&
        [[ -n $(tools/pmuboot-log summary "$log" 2>/dev/null) ]] && ! grep -q 'did not answer the NMI' "$log"; then
        run_check yes "qemu/$name: cpu0/timeout/time_limit FAILed by cpu1's NMI in one boot, the run went on to its summary line"
    else
        run_check no "qemu/$name: want one boot ($boots), cpu0/timeout/time_limit not ok, the summary line and no unanswered NMI (see $log)"
    fi
    for name in watchdog-q35 watchdog-wdat-q35; do
        if grep -q '^# runner: cpu1: the boot CPU did not answer the NMI sent at [0-9]* ms into cpu0/timeout/time_limit (NMIs blocked or in SMM): the reset watchdog is the last resort$' "$out/qemu/$name.log"; then
            run_check yes "qemu/$name: cpu1 said the boot CPU did not answer its NMI (NMIs blocked) before the watchdog's reset"
        else
            run_check no "qemu/$name: no '# runner: cpu1: the boot CPU did not answer the NMI ...' line before the reset (see $out/qemu/$name.log)"
        fi
    done
    # The framebuffer mirror: GRUB with std VGA hands over a linear RGB framebuffer and the kernel writes to it.
    name=iso-mb2-fb
    if grep -q '^# framebuffer: .* RGB at .*: checklist mirrored' "$out/qemu/$name.log" &&
        grep -Eq '^# framebuffer: [1-9][0-9]* lines mirrored' "$out/qemu/$name.log"; then
        run_check yes "qemu/$name: GRUB's framebuffer found and the checklist mirrored on it (tools/screenshot.sh shows it)"
    else
        run_check no "qemu/$name: no '# framebuffer: ... checklist mirrored' / 'N lines mirrored' lines (see $out/qemu/$name.log)"
    fi
}

# The pages of a final screen that span its QR codes (screen_runs): at least MIN pages of codes, by the serial log's
# "# screen: page K of N: ... QR codes C-D of M" lines; with more than one, the pages without the last page's codes
# must be refused by pmuboot-report --from-images, which names those codes as missing and writes no report, and
# with --partial must give a report of a run cut short.
screen_code_pages() {
    local name=$1 min=$2 dir=$out/screen
    shift 2
    local pages=("$@") ranges=() keep=() i n last c d missing comments
    comments=$(tools/pmuboot-log comments "$dir/$name.serial.log" 2>/dev/null)   # the page lines, through the log reader
    mapfile -t ranges < <(perl -ne '$r{$1} //= $2 if /^screen: page (\d+) of \d+: .*QR codes (\d+-\d+) of \d+$/;
        END { print "$r{$_}\n" for sort { $a <=> $b } keys %r }' <<<"$comments")
    n=$(printf '%s\n' "${ranges[@]}" | grep -v '^0-0$' | sort -u | grep -c . || true)
    if [[ $n -lt $min ]]; then
        run_check no "screen/$name: want the QR codes over at least $min pages, got $n ($(sed -n '/^screen: page 1 /{s/^/# /p;q}' <<<"$comments"))"
        return
    fi
    [[ $n -ge 2 ]] || return 0
    last=${ranges[-1]} c=${last%-*} d=${last#*-}
    for i in "${!ranges[@]}"; do [[ ${ranges[i]} == "$last" ]] || keep+=("${pages[i]}"); done
    missing=$(seq -s ', ' "$c" "$d")
    if [[ $c == "$d" ]]; then missing="code $missing"; else missing="codes $missing"; fi
    missing="missing $missing of $(grep -Eo -m1 'QR codes [0-9]+-[0-9]+ of [0-9]+' <<<"$comments" | grep -o '[0-9]*$')"
    rm -f "$dir/$name.part.json" "$dir/$name.partial.json"
    if tools/pmuboot-report -q --from-images --json "$dir/$name.part.json" "${keep[@]}" 2>"$dir/$name.part.err"; then
        run_check no "screen/$name: the pages without QR codes $last were read as a whole run"
    elif [[ -e $dir/$name.part.json ]]; then
        run_check no "screen/$name: the pages without QR codes $last gave a report without --partial ($dir/$name.part.json)"
    elif ! grep -qF -- "$missing (found" "$dir/$name.part.err"; then
        run_check no "screen/$name: the pages without QR codes $last: want '$missing', got: $(head -n 3 "$dir/$name.part.err" | tr '\n' ' ')"
    else
        tools/pmuboot-report -q --partial --from-images --json "$dir/$name.partial.json" "${keep[@]}" 2>/dev/null || true
        if [[ -s $dir/$name.partial.json ]] &&
            perl -MJSON::PP -0777 -ne 'exit(decode_json($_)->{run}{complete} ? 1 : 0)' "$dir/$name.partial.json"; then
            run_check yes "screen/$name: the QR codes over $n pages; ${#keep[@]} of ${#pages[@]} pages (QR codes $last left out) refused with '$missing', a report only with --partial, of a run cut short"
        else
            run_check no "screen/$name: --partial on the pages without QR codes $last gave no report of a run cut short ($dir/$name.partial.json)"
        fi
    fi
}

step_screen() {
    # The final screen (docs/screen.md): runs with a framebuffer (GRUB, std VGA, exit=halt), a screendump of the final
    # screen (tools/screenshot.sh), its QR codes read by zbarimg, and the report read from them (pmuboot-report
    # --from-images) the serial log's, check for check (tools/qr-report-match); -smp 1, 4 and 64, BIOS and UEFI, with
    # FAILs (an emulated PMU fault) and without. Every page of the final screen is taken (screenshot.sh --pages, a
    # page every 8 s): the codes are read from all of them, and the FAILs listed on them must be all the FAILs. When
    # the codes span pages (a 640x480 screen holds fewer), the pages but those with the last page's codes must be
    # refused, naming those codes as missing, and no report written but with --partial.
    # name | screenshot.sh options | --append | FAILs at least | pages at least | pages of codes at least
    screen_runs=(
        "screen-bios-pc-smp1|--smp 1|suite=boot|0|1|1"
        "screen-bios-pc-smp4-fails|--smp 4|pmu=emulated:intel-v4 pmu_fault=width suite=pmu_regs,pmi fold=off|20|2|1"
        "screen-bios-q35-smp64|--machine q35 --smp 64|suite=boot,apic|0|1|1"
        "screen-bios-q35-smp64-fails|--machine q35 --smp 64|pmu=emulated:intel-v4 pmu_fault=width suite=boot,pmu_regs|20|1|1"
        "screen-bios-pc-smp16-640x480|--smp 16 --gfxmode 640x480|suite=boot,apic fold=off|0|2|2"
    )
    [[ $have_uefi == yes ]] && screen_runs+=(
        "screen-uefi-q35-smp4|--uefi --machine q35 --smp 4|suite=boot,apic|0|1|1"
        "screen-uefi-pc-smp1-fails|--uefi --smp 1|pmu=emulated:intel-v4 pmu_fault=width suite=boot,pmu_regs|1|1|1"
        "screen-uefi-q35-smp64-fails|--uefi --machine q35 --smp 64|pmu=emulated:intel-v4 pmu_fault=width suite=boot,pmu_regs|20|1|1"
    )
    mkdir -p "$out/screen"
    for r in "${screen_runs[@]}"; do
        IFS='|' read -r name opts append min_fails min_pages min_code_pages <<<"$r"
        png=$out/screen/$name.png
        # shellcheck disable=SC2086
        if ! pngs=$(tools/screenshot.sh --pages $opts --append "$append" --timeout 120 "$png" 2>"$out/screen/$name.err"); then
            run_check no "screen/$name: no screenshot: $(tail -n 1 "$out/screen/$name.err")"
            continue
        fi
        mapfile -t pngs <<<"$pngs"
        if [[ ${#pngs[@]} -lt $min_pages ]]; then
            run_check no "screen/$name: want the final screen in at least $min_pages pages, got ${#pngs[@]} ($(grep -a '^# screen: page 1 ' "$out/screen/$name.serial.log"))"
        fi
        tools/pmuboot-report -q --json "$out/screen/$name.serial.json" "$out/screen/$name.serial.log" 2>/dev/null || true
        if ! tools/pmuboot-report -q --from-images --json "$out/screen/$name.qr.json" "${pngs[@]}" 2>"$out/screen/$name.qr.err" &&
            [[ ! -s $out/screen/$name.qr.json ]]; then
            run_check no "screen/$name: no report from the screen's QR codes: $(head -n 3 "$out/screen/$name.qr.err" | tr '\n' ' ')"
            continue
        fi
        failed=$(perl -MJSON::PP -0777 -ne 'print decode_json($_)->{run}{counts}{failed}' "$out/screen/$name.qr.json")
        if [[ ${failed:-0} -lt $min_fails ]]; then
            run_check no "screen/$name: want at least $min_fails FAILs in the report from the codes, got ${failed:-none}"
        elif m=$(tools/qr-report-match "$out/screen/$name.serial.json" "$out/screen/$name.qr.json" 2>&1); then
            run_check yes "screen/$name: the final screen's QR codes, read by zbarimg from its ${#pngs[@]} page(s), give the serial log's report ($failed failed; ${m#qr-report-match: }; $png)"
        else
            run_check no "screen/$name: the report from the QR codes differs from the serial log's: ${m//$'\n'/; }"
        fi
        screen_code_pages "$name" "$min_code_pages" "${pngs[@]}"
        # The FAILs listed above the codes, page by page: together as many rows of red text as the stream has FAIL lines.
        nf=$(tools/pmuboot-log checks --lines "$out/screen/$name.serial.log" 2>/dev/null | grep -c '^fail' || true)
        if m=$(tools/screen-grid-check --fails "$nf" --log "$out/screen/$name.serial.log" "${pngs[@]}" 2>&1); then
            run_check yes "screen/$name: the final screen lists the FAILs (${m#screen-grid-check: })"
        else
            run_check no "screen/$name: ${m//$'\n'/; }"
        fi
    done
    [[ $have_uefi == yes ]] || run_check yes "screen/screen-uefi-* # SKIP $uefi_why"
    # The live grid: a screendump mid-run (once the pmi suite starts, seconds before the run ends), its cells where
    # lib/screen_grid.c's layout puts them and of the colour the verdicts so far say (tools/screen-grid-check):
    # boot passed on every thread, pmu_regs failed on every thread (pmu_fault=width): the threads agree, one column
    # labelled cpu[0-63] (or cpu[0-3]).
    # name | screenshot.sh options | --append | threads (all agreeing) | colour of each suite's row so far
    grid_runs=("grid-bios-q35-smp64|--machine q35 --smp 64|pmu=emulated:intel-v4 pmu_fault=width suite=boot,pmu_regs,pmi|64|green red")
    [[ $have_uefi == yes ]] &&
        grid_runs+=("grid-uefi-q35-smp4|--uefi --machine q35 --smp 4|pmu=emulated:intel-v4 pmu_fault=width suite=boot,pmu_regs,pmi|4|green red")
    for r in "${grid_runs[@]}"; do
        IFS='|' read -r name opts append threads colours <<<"$r"
        png=$out/screen/$name.png
        # shellcheck disable=SC2086
        if ! tools/screenshot.sh $opts --append "$append" --when '^# suite pmi:' --timeout 120 "$png" >/dev/null \
            2>"$out/screen/$name.err"; then
            run_check no "screen/$name: no screenshot: $(tail -n 1 "$out/screen/$name.err")"
            continue
        fi
        st=0
        # shellcheck disable=SC2086  # the colours are words
        m=$(tools/screen-grid-check "$png" "$threads" $colours 2>&1) || st=$?
        case $st in
            0) run_check yes "screen/$name: the live grid: ${m##*screen-grid-check: } ($png)" ;;
            3) run_check yes "screen/$name # SKIP the run ended before the screendump (a loaded host): ${m#screen-grid-check: }" ;;
            *) run_check no "screen/$name: the live grid is not what the run reported: ${m//$'\n'/; }" ;;
        esac
    done
}

step_console() {
    # console= naming RAM (Linux's earlycon syntax for MMIO at 0x3f8, the real-mode IVT; an address inside the image):
    # refused before a register is touched, and the refusal said on COM1, which carries the whole run.
    for rp in "console-ram-ivt|MMIO 0x3f8-0x3ff lies in conventional memory below 640 KiB" \
              "console-ram-image|MMIO 0x200000-0x20001f lies inside pmuboot's own image"; do
        name=${rp%%|*} pattern=${rp#*|}
        if grep -q "^# console: ttyS0 I/O 0x3f8 115200 (console=uart.* refused: $pattern.*; fell back to COM1)" \
            "$out/qemu/$name.log"; then
            run_check yes "qemu/$name: the console= address is RAM: refused ('$pattern'), the run on COM1"
        else
            run_check no "qemu/$name: no '# console: ttyS0 ... refused: $pattern ... fell back to COM1' line on COM1 (see $out/qemu/$name.log)"
        fi
    done
    # console=auto with an ACPI SPCR naming COM2: the judged stream is COM2's; the header must say the SPCR
    # chose it, and COM1 must not carry the checklist.
    name=spcr-com2
    if grep -q '^# console: ttyS1 I/O 0x2f8 115200 (ACPI SPCR' "$out/qemu/$name.log" &&
        [[ $(tools/pmuboot-log boots "$out/qemu/$name.log.com1" 2>/dev/null || echo 0) -eq 0 ]]; then
        run_check yes "qemu/$name: console=auto followed the ACPI SPCR to COM2 (header line on COM2, no checklist on COM1)"
    else
        run_check no "qemu/$name: no '# console: ttyS1 ... (ACPI SPCR' line on COM2, or the checklist on COM1 (see $out/qemu/$name.log and .log.com1)"
    fi
}

# run-qemu.sh's own failure reports on tools/stop-guest.asm's tiny guests: a hang's TIMEOUT shows QEMU's stderr
# first; a guest panic (pvpanic) and, with /dev/kvm, a KVM internal error end the run at once, BROKEN with QEMU's
# run state (QMP query-status)
step_stop_guest() {
    # A hang: the timeout's verdict comes after QEMU's own stderr (a warning provoked on purpose). A guest that panics
    # (pvpanic) and, under KVM, one that runs from MMIO (KVM internal error): QEMU pauses it, run-qemu's QMP watch must
    # end the run at once with QEMU's run state, long before the timeout.
    mkdir -p "$out/stop-guest"
    guest() { nasm -f bin ${1:+-D$1} -o "$out/stop-guest/${2}.bin" tools/stop-guest.asm 2>"$out/stop-guest/$2.nasm.err"; }
    stop_run() {  # stop_run NAME SECONDS-AT-MOST run-qemu-options...: status and stderr in $out/qemu/NAME.*
        local name=$1 most=$2 t0
        shift 2
        t0=$(date +%s)
        set +e
        ./run-qemu.sh "$@" --log "$out/qemu/$name.log" >/dev/null 2>"$out/qemu/$name.err" </dev/null
        echo $? >"$out/qemu/$name.status"
        set -e
        secs=$(($(date +%s) - t0)) verdict=$(tail -n 1 "$out/qemu/$name.err") status=$(cat "$out/qemu/$name.status")
        echo "check: qemu/$name: ${verdict#run-qemu: } ($secs s)"
        [[ $secs -le $most ]]
    }
    if guest HANG hang && guest "" panic && guest FETCH_MMIO mmio; then
        name=qemu-stderr-timeout
        stop_run "$name" 30 --kernel "$out/stop-guest/hang.bin" --cpu qemu64,+pcid --timeout 3 || true
        if [[ $status -eq 4 && $verdict == "run-qemu: TIMEOUT: "* ]] &&
            grep -q "^run-qemu: qemu: .*warning: TCG doesn't support requested feature: CPUID.01H:ECX.pcid" "$out/qemu/$name.err"; then
            run_check yes "qemu/$name: a hung guest: run-qemu TIMEOUT (status 4) with QEMU's own warning on stderr before it"
        else
            run_check no "qemu/$name: want status 4, QEMU's pcid warning on stderr and a TIMEOUT last line; got status $status: ${verdict#run-qemu: } (see $out/qemu/$name.err)"
        fi
        name=qemu-guest-panicked
        if stop_run "$name" 20 --kernel "$out/stop-guest/panic.bin" --qemu-arg=-device --qemu-arg=pvpanic --timeout 120 &&
            [[ $status -eq 3 && $verdict == *"run state 'guest-panicked'"* ]]; then
            run_check yes "qemu/$name: a guest that panics (pvpanic, -action panic=pause) ends the run at once, BROKEN with QEMU's run state"
        else
            run_check no "qemu/$name: want status 3 naming run state 'guest-panicked' within 20 s; got status $status after $secs s: ${verdict#run-qemu: } (see $out/qemu/$name.err)"
        fi
        name=qemu-internal-error
        if [[ -r /dev/kvm && -w /dev/kvm ]]; then
            if stop_run "$name" 20 --kernel "$out/stop-guest/mmio.bin" --accel kvm --timeout 120 &&
                [[ $status -eq 3 && $verdict == *"run state 'internal-error'"* ]] &&
                grep -q '^run-qemu: qemu: KVM internal error' "$out/qemu/$name.err"; then
                run_check yes "qemu/$name: KVM's emulation failure pauses the guest: the run ends at once, BROKEN with QEMU's run state and its own message"
            else
                run_check no "qemu/$name: want status 3 naming run state 'internal-error' and QEMU's 'KVM internal error' within 20 s; got status $status after $secs s: ${verdict#run-qemu: } (see $out/qemu/$name.err)"
            fi
        else
            run_check yes "qemu/$name # SKIP /dev/kvm is missing or not accessible"
        fi
    else
        run_check no "qemu/stop-guest: nasm could not build tools/stop-guest.asm (see $out/stop-guest/*.nasm.err)"
    fi
}

# tools/cmdline-sweep: 7 boots (suite=boot, -smp 2) with random command lines of valid words, every other one with
# an invalid word; the seed is printed (CHECK_SWEEP_SEED=S repeats it); a boot that prints nothing, hangs, ends
# otherwise than its stream, or accepts an invalid word fails (build/check/sweep.tap, build/check/sweep/)
step_sweep() {
    set +e
    tools/cmdline-sweep ${CHECK_SWEEP_SEED:+--seed "$CHECK_SWEEP_SEED"} ${CHECK_KERNEL:+--kernel "$CHECK_KERNEL"} \
        --logs "$out/sweep" >"$out/sweep.tap" 2>"$out/sweep.err" </dev/null
    sweep_status=$?
    set -e
    streams+=("sweep=$out/sweep.tap")
    echo "check: command-line sweep: $(sed -n 's/^# cmdline-sweep: //p' "$out/sweep.tap"); $(grep -c '^ok' "$out/sweep.tap") of $(grep -c '^\(not \)\{0,1\}ok' "$out/sweep.tap") ok"
    if tools/tapsum --quiet "$out/sweep.tap" >/dev/null 2>&1; then t=0; else t=1; fi
    if [[ $sweep_status -eq $t ]]; then
        run_check yes "sweep: tools/cmdline-sweep exit status $sweep_status agrees with its TAP"
    else
        run_check no "sweep: tools/cmdline-sweep exit status $sweep_status disagrees with its TAP (see $out/sweep.err)"
    fi
}

# the emulated PMU (tools/emul-check.sh): every pmu=emulated:KIND at -smp 2 with the PMU suites, 0 FAILs
# and every PMU verdict marked; every row of tools/fault-expect.txt makes exactly its checks FAIL
step_emulated() {
    if [[ ${CHECK_EMUL:-1} == 0 ]]; then
        run_check yes "emulated # SKIP CHECK_EMUL=0"
    else
        emul_start=$(date +%s)
        set +e
        EMUL_KERNEL=${CHECK_KERNEL:-} tools/emul-check.sh "$out/emulated" >"$out/emulated.tap" 2>"$out/emulated.err" </dev/null
        emul_status=$?
        set -e
        streams+=("emulated=$out/emulated.tap")
        echo "check: emulated PMU: $(grep -c '^ok' "$out/emulated.tap") of $(grep -c '^\(not \)\{0,1\}ok' "$out/emulated.tap") runs ok in $(($(date +%s) - emul_start)) s (logs in $out/emulated/)"
        if tools/tapsum --quiet "$out/emulated.tap" >/dev/null 2>&1; then t=0; else t=1; fi
        if [[ $emul_status -eq 0 && $t -eq 0 ]] || [[ $emul_status -ne 0 && $t -ne 0 ]]; then
            run_check yes "emulated: tools/emul-check.sh exit status $emul_status agrees with its TAP"
        else
            run_check no "emulated: tools/emul-check.sh exit status $emul_status disagrees with its TAP (see $out/emulated.err)"
        fi
        # Every ledger entry the emulated runs printed (suite uncore's on the emulated uncore) is documented too.
        if e=$(tools/ledger-doc-check "$out"/emulated/*.log 2>&1); then
            run_check yes "emulated: ${e#ledger-doc-check: } (tools/ledger-doc-check)"
        else
            run_check no "emulated: ${e#ledger-doc-check: }"
        fi
    fi
}

step_evidence() {
    # Evidence is never cut: a check whose YAML outgrew its buffer says so in the stream ("diagnostics truncated"), and
    # so does one whose CPU's report buffer had no room left for it ("diagnostics dropped"); tools/pmuboot-log
    # cut-evidence reads every boot of every log for them.
    local logs=() f
    for f in "$out"/qemu/*.log "$out"/emulated/*.log; do [[ -e $f ]] && logs+=("$f"); done
    cut=""
    [[ ${#logs[@]} -eq 0 ]] || cut=$(tools/pmuboot-log cut-evidence "${logs[@]}" | tr '\n' ' ')
    if [[ -z $cut ]]; then
        run_check yes "evidence: no check's YAML was cut in any QEMU or emulated-PMU run"
    else
        run_check no "evidence: a check's YAML outgrew its buffer (harness/framework.h diag_buf, harness/report.h REPORT_RECORD_MAX, harness/cpu_report.h CPU_REPORT_BYTES) in: $cut"
    fi
}

# tools/pmuboot-report's reports of every QEMU run (run-qemu.sh --report), validated: JUnit against
# tests/report/junit.xsd, JSON against docs/report-json.schema.json, HTML parsed and self-contained, and the
# report's verdict agreeing with run-qemu's (build/check/reports.tap)
step_reports() {
    # shellcheck source=tests/report/lib.sh
    . tests/report/lib.sh
    {
        echo "TAP version 13"
        i=0
        tap() { i=$((i + 1)); if [[ $1 == yes ]]; then echo "ok $i - $2"; else echo "not ok $i - $2"; fi; }
        jsons=() kcidbs=()
        for r in "${qemu_runs[@]}" "${error_runs[@]}"; do
            name=${r%%|*}
            d=$out/qemu/$name.report
            if [[ -s $d/junit.xml && -s $d/report.json && -s $d/kcidb.json && -s $d/report.html && -s $d/report.md ]]; then
                tap yes "report/$name: junit.xml report.json kcidb.json report.html report.md written"
            else
                tap no "report/$name: reports missing in $d (see $out/qemu/$name.err)"; continue
            fi
            jsons+=("$d/report.json")
            kcidbs+=("$d/kcidb.json")
            if e=$(validate_junit "$d/junit.xml" 2>&1); then tap yes "report/$name: JUnit valid"
            else tap no "report/$name: JUnit invalid: ${e//$'\n'/; }"; fi
            if e=$(validate_html "$d/report.html" 2>&1); then tap yes "report/$name: HTML parses, self-contained"
            else tap no "report/$name: HTML: ${e//$'\n'/; }"; fi
            # The report's verdict must agree with run-qemu's: 0 pass, 1 fail, otherwise incomplete (or fail).
            status=$(cat "$out/qemu/$name.status")
            v=$(perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{run}{verdict} // ""' <"$d/report.json" 2>/dev/null)
            case $status:$v in
                0:pass|1:fail|[2-9]:incomplete|[2-9]:fail) tap yes "report/$name: verdict '$v' agrees with run-qemu status $status" ;;
                *) tap no "report/$name: verdict '$v' but run-qemu status $status" ;;
            esac
        done
        if [[ ${#jsons[@]} -gt 0 ]]; then
            if e=$(validate_json "${jsons[@]}" 2>&1); then tap yes "report: ${#jsons[@]} JSON reports valid against docs/report-json.schema.json"
            else tap no "report: JSON schema: $(head -n 5 <<<"$e" | tr '\n' ';')"; fi
            if e=$(validate_kcidb "${kcidbs[@]}" 2>&1); then tap yes "report: ${#kcidbs[@]} KCIDB reports valid against docs/kcidb.schema.v5.3.json"
            else tap no "report: KCIDB schema: $(head -n 5 <<<"$e" | tr '\n' ';')"; fi
        fi
        echo "1..$i"
    } >"$out/reports.tap"
    streams+=("reports=$out/reports.tap")
    echo "check: reports of the QEMU runs: $(grep -c '^ok' "$out/reports.tap") of $(grep -c '^\(not \)\{0,1\}ok' "$out/reports.tap") checks ok (build/check/qemu/*.report/)"
}

# tools/lava/check-jobs: every LAVA job (tools/lava/*.yaml) valid for LAVA's own schema (lava-common), and each
# job's test monitor, applied to the monitor=lava run's log as LAVA's dispatcher applies it, records one result
# per check and thread equal to pmuboot's verdict (lava-run itself: `make lava`)
step_lava() {
    # Two monitor=lava runs: the hardware path, and the emulated PMU's verdicts (their ids marked .emulated_pmu).
    lava_args=()
    for lava_run in lava-monitor-pc-smp2 lava-monitor-emulated-pc-smp2; do
        lava_args+=(--log "$out/qemu/$lava_run.log" --report "$out/qemu/$lava_run.report/report.json")
    done
    set +e
    /usr/bin/python3 tools/lava/check-jobs "${lava_args[@]}" >"$out/lava.tap" 2>"$out/lava.err" </dev/null
    lava_status=$?
    set -e
    if ! grep -q '^1\.\.' "$out/lava.tap"; then
        echo "TAP version 13" >"$out/lava.tap"
        echo "not ok 1 - lava: tools/lava/check-jobs did not finish (status $lava_status): $(tail -n 1 "$out/lava.err")" >>"$out/lava.tap"
        echo "1..1" >>"$out/lava.tap"
    fi
    streams+=("lava=$out/lava.tap")
    echo "check: LAVA jobs and monitors: $(grep -c '^ok' "$out/lava.tap") of $(grep -c '^\(not \)\{0,1\}ok' "$out/lava.tap") ok ($out/lava.tap; lava-run itself: make lava)"
}

# The steps, in the table's order (their own variables are global: the runner's are step_*).
for step_row in "${steps[@]}"; do
    IFS='|' read -r step_name step_needs step_what <<<"$step_row"
    selected "$step_name" || continue
    if [[ $step_needs == qemu && ${CHECK_QEMU:-1} == 0 ]]; then
        if [[ $step_name == qemu ]]; then
            echo "check: QEMU runs skipped (CHECK_QEMU=0)"
            run_check yes "qemu # SKIP CHECK_QEMU=0"
        fi
        continue
    fi
    echo "check: --- $step_name: $step_what"
    step_start=$(date +%s)
    "step_$step_name"
    echo "check: --- $step_name: $(($(date +%s) - step_start)) s"
done

# tools/tapsum over all streams, plus build/check/runs.tap: one check per program run that its exit
# status agrees with its stream (a crash, sanitizer abort, timeout or disagreement fails it)
{
    echo "TAP version 13"
    i=0
    for line in "${runs[@]}"; do
        i=$((i + 1))
        echo "${line/ok - /ok $i - }"
    done
    echo "1..$i"
} >"$out/runs.tap"
streams+=("runs=$out/runs.tap")

echo "check: $(($(date +%s) - start)) s; summary (also in $out/summary.txt):"
set +e
tools/tapsum "${streams[@]}" >"$out/summary.txt"
status=$?
set -e
cat "$out/summary.txt"
exit "$status"
