#!/usr/bin/env bash
# run-qemu.sh: build pmuboot if needed, boot it in QEMU, show the serial log on stdout, judge the run.
#
# Usage: ./run-qemu.sh [OPTIONS]
#
#   --smp N            virtual CPUs (default 1; more than 255 needs --machine q35 --iommu and a QEMU that
#                      offers x2APIC under TCG, e.g. QEMU 10 from tools/qemu10.sh with --cpu max)
#   --cpu MODEL        QEMU CPU model, e.g. max, Skylake-Client, EPYC (default: QEMU's, qemu64)
#   --machine pc|q35   machine type (default pc)
#   --no-pit           remove the 8254 PIT (-machine ...,pit=off), as platforms that gate it off do
#   --machine-opt OPTS more -machine properties, comma-separated, e.g. hpet=off,acpi=off
#   --mem MB           guest RAM in MiB (default 128)
#   --iso              boot through the GRUB ISO (BIOS, GRUB's multiboot2 command) instead of -kernel
#   --iso-mb1          the same ISO's multiboot (version 1) entry
#   --uefi             boot the GRUB ISO with OVMF (UEFI firmware), multiboot2 entry
#   --pxe              network boot: QEMU's built-in iPXE (e1000 option ROM) fetches an iPXE script over TFTP
#                      from QEMU's user-mode network and loads the kernel with it (multiboot1)
#   --vga std|none     QEMU's display adapter (default none); std gives GRUB a VBE/GOP framebuffer for the
#                      screen mirror (there is still no window: -display none; tools/screenshot.sh looks)
#   --append "ARGS"    kernel arguments (repeatable: joined with blanks); exit=qemu is always added
#   --accel tcg|kvm|auto  accelerator (default tcg; auto = kvm when /dev/kvm is usable, else tcg)
#   --timeout SECONDS  host-side limit: kill QEMU after this long (default 60, 120 with --uefi, doubled
#                      when suite reset is selected; 0 = none)
#   --log FILE         also write the serial log to FILE
#   --report DIR       write the log's reports to DIR: junit.xml, report.json, kcidb.json, report.html, report.md
#                      (tools/pmuboot-report), and the log itself to DIR/serial.log unless --log says where
#   --qemu BINARY      the QEMU to run (default qemu-system-x86_64 from PATH), e.g. --qemu "$(tools/qemu10.sh)"
#   --iommu            q35 only: add an Intel IOMMU with interrupt remapping and x2APIC (EIM) support,
#                      -device intel-iommu,intremap=on,eim=on, with -machine q35,kernel-irqchip=split (under
#                      KVM QEMU refuses intremap with the in-kernel irqchip, hw/i386/x86-iommu.c; TCG ignores
#                      the setting); needed for more than 255 CPUs
#   --qemu-arg ARG     pass ARG to QEMU as well (repeatable), e.g. --qemu-arg=-icount --qemu-arg=shift=auto
#   --spcr ttySN       add an ACPI SPCR table (QEMU -acpitable) naming COM<N+1> (I/O, 115200) and judge the
#                      stream on that port: it goes to stdout, the ports before it to files (COM1's is
#                      copied to LOG.com1 with --log); with console=auto the kernel must follow the table
#   --wdat             q35 only: add an ACPI WDAT table (QEMU -acpitable) describing the ICH9 TCO watchdog at the
#                      I/O and memory addresses SeaBIOS gives it (TCO at 0x660, GCS at 0xfed1f410), as QEMU's own
#                      hw/acpi/wdat-ich9.c does, plus SET_REBOOT; the kernel then drives the watchdog through it
#   --wdat-no-countdown  as --wdat, without the SET_COUNTDOWN_PERIOD action: the kernel must refuse the table
#   --erst FILE        add QEMU's ACPI ERST device (-device acpi-erst, docs/specs/acpi_erst.rst) with its store in
#                      FILE (64 KiB: a header and 7 records of 8 KiB; created when missing), so that the records the
#                      kernel keeps there survive a machine reset and later runs given the same FILE (docs/persist.md)
#   --kernel FILE      boot this kernel image instead of build/pmuboot.elf (nothing is built)
#   --no-build         do not run make; the kernel image must exist
#   --dry-run          print the QEMU command line and exit
#   -h, --help         this text
#
# The serial log (COM1) goes to stdout, cleaned of ANSI escapes and carriage returns; QEMU's own messages
# and the verdict go to stderr. With -kernel QEMU passes "<image path> ARGS" to the kernel; through GRUB the
# arguments are written into the ISO's grub.cfg, so each set of arguments gets its own cached ISO
# (build/iso/<hash>.iso).
#
# Suite reset (suite=...reset...): QEMU runs without -no-reboot, so a machine reset re-runs the firmware and the
# loader with the same arguments (-append, or the ISO's grub.cfg); each boot prints its own TAP stream and only
# the last one, the boot that ends the run through isa-debug-exit, is judged (the earlier ones stay in the log).
# A run passes only when QEMU's exit status says so (exit=qemu writes 0 to isa-debug-exit port 0xf4: QEMU
# exits 1; a failed check writes 1: QEMU exits 3) AND the TAP stream is complete and agrees: a
# "TAP version 13" line, the plan, the summary line "N passed, N failed, N skipped" matching the tests, and
# 0 failed (tools/tapsum judges the stream). The last line on stderr is the verdict, e.g.
#   run-qemu: PASS (qemu status 1, 23 passed, 0 failed, 4 skipped)
# On any failure QEMU's own stderr comes just before it (at most 20 lines, "run-qemu: qemu: ..."), a timeout's too.
# A stopped guest does not wait for the timeout: run-qemu asks QEMU's QMP socket for the run state (query-status)
# every quarter second, and when QEMU has paused the guest for a KVM emulation failure (internal-error) or the guest
# signalled a panic (guest-panicked: a pvpanic device or Hyper-V crash MSRs, with -action panic=pause), QEMU is ended
# at once and the run is BROKEN with that status.
#
# Exit status:
#   0  pass
#   1  the kernel ran to the end and some check failed (QEMU status 3, failures in the stream)
#   2  bad usage
#   3  broken run: no or incomplete TAP stream, QEMU exited by itself (status 0: reset or shutdown),
#      QEMU could not start, QEMU stopped the guest (internal-error, guest-panicked), or QEMU's status and the
#      stream disagree
#   4  timeout: QEMU was killed after --timeout seconds
#   5  missing tools (and not root on Debian to install them) or the build failed
#
# Missing tools: run as root on Debian, the script installs the packages it needs with apt-get; otherwise
# it prints the apt-get command to run.
set -euo pipefail

prog=run-qemu
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
bad_usage() { echo "$prog: $*" >&2; echo "$prog: see '$0 --help'" >&2; exit 2; }
verdict() {  # verdict EXIT_STATUS MESSAGE: the final line on stderr, after QEMU's own words on any failure
    [[ $1 -ne 0 ]] && qemu_messages
    [[ -n $report ]] && write_report
    echo "$prog: $2" >&2
    exit "$1"
}
# QEMU's stderr, once, bounded: all of it up to 20 lines, else its first 5 (a KVM internal error's own line comes
# before its register dump) and last 15. QEMU's note that the timeout's signal ended it says nothing new.
qemu_messages_shown=no
qemu_messages() {
    [[ $qemu_messages_shown == no && -n ${work:-} && -s ${work:-}/qemu.err ]] || return 0
    qemu_messages_shown=yes
    local lines n i
    mapfile -t lines < <(grep -v 'terminating on signal' "$work/qemu.err" || true)
    n=${#lines[@]}
    for ((i = 0; i < n; i++)); do
        if [[ $n -gt 20 && $i -eq 5 ]]; then
            echo "$prog: qemu: ... ($((n - 20)) lines left out)" >&2
            i=$((n - 15))
        fi
        echo "$prog: qemu: ${lines[i]}" >&2
    done
}

extra=()
smp=1 cpu="" machine=pc mem=128 boot=kernel append="" accel=tcg timeout="" log="" kernel="" build=yes dry_run=no
report=""
# --report: the reports of whatever the serial port said, written before the verdict line (never changes the
# exit status; a report that cannot be written is said on stderr).
write_report() {
    [[ -n ${serial:-} && -s ${serial:-} ]] || { echo "$prog: --report: no serial output to report on" >&2; return 0; }
    local rs=0
    "$repo/tools/pmuboot-report" --quiet --name "$(basename "$report")" --junit "$report/junit.xml" \
        --json "$report/report.json" --kcidb "$report/kcidb.json" --html "$report/report.html" \
        --markdown "$report/report.md" "${judged:-$serial}" >&2 || rs=$?
    if [[ $rs -le 1 ]]; then echo "$prog: reports in $report/ (junit.xml report.json kcidb.json report.html report.md)" >&2
    else echo "$prog: --report: tools/pmuboot-report failed (status $rs)" >&2; fi
}
qemu_bin=qemu-system-x86_64 iommu=no wdat=no spcr="" vga=none machine_extra="" erst=""

need_value() { [[ $# -ge 2 && -n $2 ]] || bad_usage "option $1 needs a value"; }
while [[ $# -gt 0 ]]; do
    opt=$1
    case $opt in
        --*=*) set -- "${opt%%=*}" "${opt#*=}" "${@:2}"; continue ;;
    esac
    case $opt in
        --smp) need_value "$@"; smp=$2; shift ;;
        --cpu) need_value "$@"; cpu=$2; shift ;;
        --machine) need_value "$@"; machine=$2; shift ;;
        --no-pit) machine_extra+=",pit=off" ;;
        --machine-opt) need_value "$@"; machine_extra+=",$2"; shift ;;
        --mem) need_value "$@"; mem=$2; shift ;;
        --iso) boot=iso ;;
        --iso-mb1) boot='iso-mb1' ;;
        --uefi) boot=uefi ;;
        --pxe) boot=pxe ;;
        --append) [[ $# -ge 2 ]] || bad_usage "option --append needs a value"; append="${append:+$append }$2"; shift ;;
        --accel) need_value "$@"; accel=$2; shift ;;
        --timeout) need_value "$@"; timeout=$2; shift ;;
        --log) need_value "$@"; log=$2; shift ;;
        --report) need_value "$@"; report=$2; shift ;;
        --qemu) need_value "$@"; qemu_bin=$2; shift ;;
        --iommu) iommu=yes ;;
        --qemu-arg) need_value "$@"; extra+=("$2"); shift ;;
        --spcr) need_value "$@"; spcr=$2; shift ;;
        --wdat) wdat=yes ;;
        --wdat-no-countdown) wdat=no-countdown ;;
        --erst) need_value "$@"; erst=$2; shift ;;
        --vga) need_value "$@"; vga=$2; shift ;;
        --kernel) need_value "$@"; kernel=$2; build=no; shift ;;
        --no-build) build=no ;;
        --dry-run) dry_run=yes ;;
        -h|--help) usage; exit 0 ;;
        *) bad_usage "unknown option '$opt'" ;;
    esac
    shift
done

[[ $smp =~ ^[1-9][0-9]*$ && $smp -le 4096 ]] || bad_usage "--smp wants a number of CPUs from 1 to 4096, not '$smp'"
[[ $smp -le 255 || $iommu == yes ]] || bad_usage "--smp $smp: more than 255 CPUs needs x2APIC IDs and interrupt remapping: add --machine q35 --iommu"
[[ $wdat == no || $machine == q35 ]] || bad_usage "--wdat and --wdat-no-countdown need --machine q35 (the table describes q35's ICH9 TCO)"
# QEMU's option syntax takes a comma as the end of the path.
[[ -z $erst || ( $erst != *,* && -d $(dirname "$erst") ) ]] ||
    bad_usage "--erst wants a file in an existing directory, without a comma in its path, not '$erst'"
[[ $iommu == no || $machine == q35 ]] || bad_usage "--iommu needs --machine q35 (the intel-iommu device is a q35 device)"
[[ $mem =~ ^[1-9][0-9]*$ && $mem -ge 32 ]] || bad_usage "--mem wants MiB, at least 32, not '$mem'"
case $machine in pc|q35) ;; *) bad_usage "--machine wants pc or q35, not '$machine'" ;; esac
[[ -z $machine_extra || $machine_extra =~ ^(,[A-Za-z0-9_.-]+=[A-Za-z0-9_.-]+)+$ ]] ||
    bad_usage "--machine-opt wants PROP=VALUE[,PROP=VALUE...], not '${machine_extra#,}'"
case $accel in tcg|kvm|auto) ;; *) bad_usage "--accel wants tcg, kvm or auto, not '$accel'" ;; esac
[[ -z $cpu || $cpu =~ ^[A-Za-z0-9_.,=+-]+$ ]] || bad_usage "--cpu: '$cpu' does not look like a QEMU CPU model"
# Suite reset resets the machine on purpose, and timeout_hang=bsp-nmi-blocked hangs the boot CPU for the watchdog to
# reset it (so does timeout_hang=bsp where no AP can stop it with an NMI, e.g. --smp 1): no -no-reboot, and the
# verdict comes from the last boot.
reboots=no
[[ " $append " =~ [[:space:]]suite=([^[:space:]]*,)?reset(,|[[:space:]]) ]] && reboots=yes
[[ " $append " =~ [[:space:]]timeout_hang=bsp(-nmi-blocked)?([[:space:]]) ]] && reboots=yes
if [[ -z $timeout ]]; then
    if [[ $boot == uefi ]]; then timeout=120; else timeout=60; fi
    [[ $reboots == yes ]] && timeout=$((timeout * 2))
fi
case $vga in std|none) ;; *) bad_usage "--vga wants std or none, not '$vga'" ;; esac
[[ -z $spcr || $spcr =~ ^ttyS[0-3]$ ]] || bad_usage "--spcr wants ttyS0..ttyS3, not '$spcr'"
[[ $timeout =~ ^[0-9]+$ ]] || bad_usage "--timeout wants whole seconds (0 = no limit), not '$timeout'"
case $append in *exit=*) bad_usage "--append: do not pass exit=...; run-qemu always adds exit=qemu" ;; esac
args="exit=qemu${append:+ $append}"
[[ $accel == auto ]] && { if [[ -r /dev/kvm && -w /dev/kvm ]]; then accel=kvm; else accel=tcg; fi; }
if [[ $accel == kvm && ! ( -r /dev/kvm && -w /dev/kvm ) ]]; then
    verdict 5 "FAIL: --accel kvm but /dev/kvm is missing or not accessible"
fi

# --- tools: install them (root on Debian) or say how ------------------------------------------------------
missing=()
want() {  # want COMMAND-OR-PATH PACKAGE
    if [[ $1 == /* ]]; then [[ -e $1 ]] || missing+=("$2"); else command -v "$1" >/dev/null || missing+=("$2"); fi
}
if [[ $qemu_bin == qemu-system-x86_64 ]]; then
    want qemu-system-x86_64 qemu-system-x86
elif ! command -v "$qemu_bin" >/dev/null; then
    verdict 5 "FAIL: --qemu '$qemu_bin' is not an executable (for QEMU 10: --qemu \"\$(tools/qemu10.sh)\")"
fi
want perl perl
if [[ -n $report ]]; then   # tools/pmuboot-report's libraries
    perl -MTAP::Formatter::JUnit -e1 2>/dev/null || missing+=(libtap-formatter-junit-perl)
    perl -MXML::LibXML -e1 2>/dev/null || missing+=(libxml-libxml-perl)
fi
perl -MTAP::Parser -e1 2>/dev/null || missing+=(perl)   # TAP::Parser is in perl-modules-*, which perl pulls in
if [[ $build == yes ]]; then
    want make make; want gcc gcc; want ld binutils; want nasm nasm
fi
[[ $boot == pxe ]] && want /usr/lib/ipxe/qemu/efi-e1000.rom ipxe-qemu
if [[ $boot != kernel && $boot != pxe ]]; then
    want grub-mkimage grub-common; want /usr/lib/grub/i386-pc/kernel.img grub-pc-bin
    want xorriso xorriso; want mformat mtools
fi
if [[ $boot == uefi ]]; then
    want /usr/lib/grub/x86_64-efi/kernel.img grub-efi-amd64-bin
    [[ -e /usr/share/OVMF/OVMF_CODE_4M.fd || -e /usr/share/OVMF/OVMF_CODE.fd ]] || missing+=(ovmf)
fi
if [[ ${#missing[@]} -gt 0 && $dry_run == no ]]; then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
    if [[ $(id -u) -eq 0 && -f /etc/debian_version ]] && command -v apt-get >/dev/null; then
        echo "$prog: installing ${missing[*]}" >&2
        if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
                "${missing[@]}"; } >&2; then
            verdict 5 "FAIL: could not install ${missing[*]}"
        fi
    else
        verdict 5 "FAIL: missing packages ${missing[*]}; install them with: $cmd"
    fi
fi

# --- build -------------------------------------------------------------------------------------------------
if [[ -z $kernel ]]; then
    kernel=$repo/build/pmuboot.elf
    if [[ $build == yes && $dry_run == no ]]; then
        make -C "$repo" --no-print-directory -s kernel >&2 || verdict 5 "FAIL: 'make kernel' failed"
    fi
fi
[[ -f $kernel || $dry_run == yes ]] || verdict 5 "FAIL: kernel image '$kernel' not found (run 'make kernel')"

work=$(mktemp -d "${TMPDIR:-/tmp}/run-qemu.XXXXXX")
# shellcheck disable=SC2317  # called by the trap
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

iso=""
if [[ $boot == pxe ]]; then
    # The TFTP root: the kernel and an iPXE script (ipxe.org/cmd/kernel: "kernel URI ARGS" loads a multiboot
    # image; iPXE passes "pmuboot.elf ARGS" as its command line, like QEMU -kernel).
    mkdir -p "$work/tftp"
    cp "$kernel" "$work/tftp/pmuboot.elf" 2>/dev/null || [[ $dry_run == yes ]]
    printf '#!ipxe\nkernel tftp://10.0.2.2/pmuboot.elf %s\nboot\n' "$args" >"$work/tftp/boot.ipxe"
elif [[ $boot != kernel ]]; then
    entry=mb2 efi_flag=--no-efi
    [[ $boot == iso-mb1 ]] && entry=mb1
    [[ $boot == uefi ]] && efi_flag=--efi
    key="$entry $efi_flag $(cd "$(dirname "$kernel")" && pwd)/$(basename "$kernel") $args"
    mkdir -p "$repo/build/iso"
    iso=$repo/build/iso/$(printf '%s' "$key" | sha256sum | cut -c1-16).iso
    # One builder at a time (make check boots several ISOs in parallel); rebuild when the kernel or the
    # builder is newer than the cached ISO.
    exec 9>"$repo/build/iso/.lock"
    flock 9
    if [[ $dry_run == no ]] && [[ ! -s $iso || $kernel -nt $iso || $repo/tools/mkiso.sh -nt $iso ]]; then
        "$repo/tools/mkiso.sh" "$efi_flag" --entry "$entry" "$kernel" "$iso" "$args" 2>"$work/mkiso.log" ||
            { cat "$work/mkiso.log" >&2; verdict 5 "FAIL: building the ISO failed"; }
        printf '%s\n' "$key" >"${iso%.iso}.key"
    fi
    exec 9>&-
fi

# --- QEMU --------------------------------------------------------------------------------------------------
# shellcheck disable=SC2054  # the commas belong to QEMU's option syntax
machine_opt=$machine
[[ $iommu == yes ]] && machine_opt="$machine,kernel-irqchip=split"
# The judged serial port: COM1, or with --spcr the port the SPCR table names (the ports before it to files).
serial_args=(-serial stdio)
if [[ -n $spcr ]]; then
    n=${spcr#ttyS}
    serial_args=()
    for ((i = 0; i < n; i++)); do serial_args+=(-serial "file:$work/com$((i + 1)).log"); done
    serial_args+=(-serial stdio)
    # SPCR fields after the 36-byte ACPI header (Microsoft "Serial Port Console Redirection Table" rev 2):
    # interface type 0 (16550), 3 reserved, Base Address GAS {I/O, 8 bits, offset 0, byte access, port},
    # interrupt type 1 (8259), IRQ, GSI, baud code 7 (115200), parity 0, stop bits 1, flow control 0,
    # terminal 0, language 0, PCI device/vendor 0xFFFF (not PCI), bus/device/function/flags/segment 0,
    # UART clock 0 (reserved in rev 2): 44 bytes, table length 80. QEMU writes the header and checksum.
    ports=(0x3f8 0x2f8 0x3e8 0x2e8) irqs=(4 3 4 3)
    perl -e 'print pack("C4 C4 Q< C C L< C6 S< S< C3 L< C L<", 0,0,0,0, 1,8,0,1,hex($ARGV[0]), 1,$ARGV[1],$ARGV[1],
                        7,0,1,0,0,0, 0xffff,0xffff, 0,0,0, 0, 0, 0)' "${ports[$n]}" "${irqs[$n]}" >"$work/spcr.bin"
    extra+=(-acpitable "sig=SPCR,rev=2,oem_id=PMUBT,oem_table_id=PMUBOOT,data=$work/spcr.bin")
fi
if [[ $wdat != no ]]; then
    # WDAT ("Hardware Watchdog Timers Design Specification", Tables 1-2) after the 36-byte ACPI header: header length
    # 32, PCI segment/bus/device/function 0xff (not a PCI device), period 600 ms, counts 4..1023, flags 0x81
    # (enabled, stopped in sleep), then 24-byte instructions {action, instruction, GAS, value, mask}. The TCO block
    # (ICH9 datasheet 13.9) is PMBASE 0x600 + 0x60 and GCS (10.1.75) RCBA 0xfed1c000 + 0x3410, where SeaBIOS puts
    # them on q35 (src/fw/pciinit.c). QEMU writes the header and checksum.
    perl -e '
        my @i = ( # action, instruction, space, bits, access, address, value, mask
            [0x01, 0x02, 1, 16, 2, 0x660, 0x1, 0x1ff],    # RESET: write TCO_RLD
            [0x08, 0x00, 1, 16, 2, 0x668, 0x0, 0x800],    # QUERY_RUNNING_STATE: TCO1_CNT.TMR_HLT clear
            [0x09, 0x82, 1, 16, 2, 0x668, 0x0, 0x800],    # SET_RUNNING_STATE
            [0x0a, 0x00, 1, 16, 2, 0x668, 0x800, 0x800],  # QUERY_STOPPED_STATE
            [0x0b, 0x82, 1, 16, 2, 0x668, 0x800, 0x800],  # SET_STOPPED_STATE
            [0x06, 0x03, 1, 16, 2, 0x672, 0x0, 0x3ff],    # SET_COUNTDOWN_PERIOD: TCO_TMR (left out by --wdat-no-countdown)
            [0x05, 0x01, 1, 16, 2, 0x672, 0x0, 0x3ff],    # QUERY_COUNTDOWN_PERIOD
            [0x20, 0x00, 1, 16, 2, 0x666, 0x2, 0x2],      # QUERY_WATCHDOG_STATUS: TCO2_STS.SECOND_TO_STS
            [0x21, 0x82, 1, 16, 2, 0x666, 0x2, 0x2],      # SET_WATCHDOG_STATUS (write 1 to clear)
            [0x11, 0x82, 0, 32, 3, 0xfed1f410, 0x0, 0x20], # SET_REBOOT: GCS.NO_REBOOT clear
            [0x10, 0x00, 0, 32, 3, 0xfed1f410, 0x0, 0x20], # QUERY_REBOOT
        );
        @i = grep { $_->[0] != 0x06 } @i if $ARGV[0] eq "no-countdown";
        print pack("L< S< C C C C3 L< L< L< C C3 L<", 32, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 600, 1023, 4, 0x81,
                   0, 0, 0, scalar @i);
        print pack("C C S< C C C C Q< L< L<", $_->[0], $_->[1], 0, $_->[2], $_->[3], 0, $_->[4], $_->[5], $_->[6],
                   $_->[7]) for @i;' "$wdat" >"$work/wdat.bin"
    extra+=(-acpitable "sig=WDAT,rev=1,oem_id=PMUBT,oem_table_id=PMUBOOT,data=$work/wdat.bin")
fi
if [[ -n $erst ]]; then
    # A PCI device (pc and q35 alike): BAR 0 its two registers, BAR 1 the record exchange buffer; QEMU builds the ERST
    # table for it (hw/acpi/erst.c build_erst). share=on writes the store through to FILE.
    extra+=(-object "memory-backend-file,id=erstnvram,mem-path=$erst,size=0x10000,share=on"
            -device acpi-erst,memdev=erstnvram)
fi
machine_opt+=$machine_extra
qemu=("$qemu_bin" -machine "$machine_opt" -accel "$accel" -m "$mem" -smp "$smp"
      -display none -vga "$vga" "${serial_args[@]}" -monitor none
      -qmp "unix:$work/qmp.sock,server=on,wait=off" -pidfile "$work/qemu.pid" -action panic=pause
      -device isa-debug-exit,iobase=0xf4,iosize=0x04)
[[ $boot == pxe ]] || qemu+=(-net none)
[[ $reboots == no ]] && qemu+=(-no-reboot)
[[ -n $cpu ]] && qemu+=(-cpu "$cpu")
[[ $iommu == yes ]] && qemu+=(-device intel-iommu,intremap=on,eim=on)
# q35's ICH9 TCO watchdog resets the machine at its second expiry, as the real chipset does without its no-reboot strap
# (hw/acpi/tco.c); QEMU 7.2 straps it by default (ICH9-LPC noreboot=true, off from QEMU 8), so the boot CPU's watchdog
# (watchdog_s=, harness/hang_guard.h) would expire without a reset there.
[[ $machine == q35 ]] && qemu+=(-global ICH9-LPC.noreboot=off)
qemu+=("${extra[@]}")
case $boot in
    kernel) qemu+=(-kernel "$kernel" -append "$args") ;;
    pxe) qemu+=(-netdev "user,id=n0,tftp=$work/tftp,bootfile=boot.ipxe" -device e1000,netdev=n0 -boot n) ;;
    iso|iso-mb1) qemu+=(-cdrom "$iso" -boot d) ;;
    uefi)
        code=/usr/share/OVMF/OVMF_CODE_4M.fd vars=/usr/share/OVMF/OVMF_VARS_4M.fd
        [[ -e $code && -e $vars ]] || { code=/usr/share/OVMF/OVMF_CODE.fd; vars=/usr/share/OVMF/OVMF_VARS.fd; }
        [[ -e $code && -e $vars ]] || verdict 5 "FAIL: OVMF firmware not found under /usr/share/OVMF"
        cp "$vars" "$work/ovmf_vars.fd"   # the firmware writes its variables: never touch the system copy
        qemu+=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$code"
               -drive "if=pflash,format=raw,unit=1,file=$work/ovmf_vars.fd"
               -cdrom "$iso" -boot d) ;;
esac
if [[ $dry_run == yes ]]; then
    printf '%q ' "${qemu[@]}"; echo
    exit 0
fi

serial=$work/serial.log
if [[ -n $report ]]; then
    mkdir -p "$report" || verdict 5 "FAIL: cannot create --report directory '$report'"
    [[ -n $log ]] || log=$report/serial.log
fi
[[ -n $log ]] && { mkdir -p "$(dirname "$log")"; : >"$log" || verdict 5 "FAIL: cannot write --log file '$log'"; }
echo "$prog: $qemu_bin, $boot boot,$([[ $vga != none ]] && echo " vga $vga,") machine $machine_opt$([[ $iommu == yes ]] && echo ' + intel-iommu'), smp $smp, ${cpu:-default cpu}, $accel, args '$args'$([[ $reboots == yes ]] && echo ', resets allowed')" >&2

# Clean the serial bytes (GRUB and firmware clear the screen and move the cursor) and copy them line by line
# to stdout, the run's log and --log.
filter='
    BEGIN { $| = 1; open(LOG, ">", shift @ARGV) or die; if (@ARGV) { open(USER, ">", shift @ARGV) or die }
            select((select(LOG), $| = 1)[0]); select((select(USER), $| = 1)[0]) if defined fileno(USER); }
    s/\e\[[0-9;?]*[ -\/]*[@-~]//g; s/\e[()][0-9A-Za-z]//g; s/\e[=>78cDEHM]//g; s/\r//g;
    print; print LOG; print USER if defined fileno(USER);'
# The run-state watch (see the header): QMP's greeting, qmp_capabilities, then query-status until QEMU closes the
# socket; internal-error or guest-panicked (also as a GUEST_PANICKED event) is written to qmp.stopped and QEMU told to
# quit. Perl's core IO::Socket::UNIX: nothing to install.
watch='
    use Socket; use IO::Socket::UNIX; use Time::HiRes qw(sleep time);
    my ($path, $out, $pidfile) = @ARGV; my ($s, $qemu_pid); my $give_up = time + 120;
    until ($s = IO::Socket::UNIX->new(Type => SOCK_STREAM, Peer => $path)) { exit 0 if time > $give_up; sleep 0.05 }
    $s->autoflush(1);
    sub answer { while (defined(my $l = <$s>)) { stopped("guest-panicked") if $l =~ /"event": *"GUEST_PANICKED"/;
                                               return $l if $l =~ /"(return|error)"/ } exit 0 }
    sub stopped { open(my $f, ">", $out) or die; print $f "$_[0]\n"; close $f; print $s "{\"execute\": \"quit\"}\n";
                  local $SIG{ALRM} = sub { open(my $p, "<", $pidfile) and ($qemu_pid = <$p>) and kill("TERM", 0 + $qemu_pid);
                                           exit 0 }; alarm 5;
                  1 while defined(<$s>); exit 0 }  # QEMU closes the socket as it exits (it drops a command left unread)
    <$s> // exit 0; print $s "{\"execute\": \"qmp_capabilities\"}\n"; answer();
    while (1) { print $s "{\"execute\": \"query-status\"}\n"; my $l = answer();
                stopped($1) if $l =~ /"status": *"(internal-error|guest-panicked)"/; sleep 0.25 }'
# --- KVM's side of the run (--accel kvm): which KVM this is, and its emulation counters before and after --------
# KVM runs guest code natively (VMX, SVM) or, where it cannot, through its instruction emulator
# (arch/x86/kvm/emulate.c): VMX without unrestricted guest in a state VM entry refuses, or no VMX/SVM at all
# (kvm_pvm). The emulator is ~100x slower and lacks many instructions (an emulation failure pauses the guest).
# The counters are KVM's debugfs statistics (Documentation/virt/kvm/api.rst "KVM_GET_STATS_FD"; all VMs of the
# host summed); when they cannot be read, the line says why. Nothing is mounted or changed on the host.
kvm_dir=/sys/kernel/debug/kvm
kvm_backend() {
    local m p out=""
    for m in kvm_intel kvm_amd kvm_pvm; do
        [[ -d /sys/module/$m ]] || continue
        out+="${out:+, }$m"
        for p in unrestricted_guest ept npt nested; do
            [[ -r /sys/module/$m/parameters/$p ]] && out+=" $p=$(cat "/sys/module/$m/parameters/$p" 2>/dev/null)"
        done
    done
    grep -qw -e vmx -e svm /proc/cpuinfo 2>/dev/null || out+="${out:+; }no vmx or svm in /proc/cpuinfo"
    echo "${out:-no KVM module under /sys/module}"
}
kvm_counters() {  # kvm_counters WHEN
    local f v line="" why=""
    if [[ ! -d $kvm_dir ]]; then
        why="$kvm_dir is absent (debugfs not mounted: mount -t debugfs none /sys/kernel/debug)"
    else
        for f in exits insn_emulation insn_emulation_fail; do
            if v=$(cat "$kvm_dir/$f" 2>&1); then line+=" $f=$v"; else why="${v##*: }"; break; fi
        done
        [[ -n $why ]] && why="$kvm_dir/exits etc.: $why (a kernel in lockdown refuses its writable debugfs files)"
    fi
    if [[ -n $why ]]; then echo "$prog: kvm counters $1: cannot be read: $why" >&2; return 1; fi
    echo "$prog: kvm counters $1:$line" >&2
}
kvm_readable=no
if [[ $accel == kvm ]]; then
    echo "$prog: kvm: $(kvm_backend)" >&2
    kvm_counters before && kvm_readable=yes
fi

perl -e "$watch" "$work/qmp.sock" "$work/qmp.stopped" "$work/qemu.pid" 2>"$work/watch.err" &
watch_pid=$!
set +e
if [[ $timeout -gt 0 ]]; then
    timeout -k 5 "$timeout" "${qemu[@]}" </dev/null 2>"$work/qemu.err" | perl -ne "$filter" "$serial" ${log:+"$log"}
else
    "${qemu[@]}" </dev/null 2>"$work/qemu.err" | perl -ne "$filter" "$serial" ${log:+"$log"}
fi
statuses=("${PIPESTATUS[@]}")
kill "$watch_pid" 2>/dev/null; wait "$watch_pid" 2>/dev/null
[[ $kvm_readable == yes ]] && { kvm_counters after || true; }
set -e
status=${statuses[0]}
if [[ -n $spcr && $spcr != ttyS0 ]]; then
    com1_bytes=$(stat -c %s "$work/com1.log" 2>/dev/null || echo 0)
    echo "$prog: --spcr $spcr: the stream above is $spcr's; COM1 received $com1_bytes bytes" >&2
    [[ -n $log ]] && cp "$work/com1.log" "$log.com1" 2>/dev/null || true
fi

# --- verdict -----------------------------------------------------------------------------------------------
if [[ -s $work/qmp.stopped ]]; then
    stopped=$(head -n 1 "$work/qmp.stopped")
    case $stopped in
        internal-error) why="KVM could not go on (an emulation failure or another KVM internal error paused the VM)" ;;
        *) why="the guest signalled a panic" ;;
    esac
    last=$(grep -v '^[[:space:]]*$' "$serial" | tail -n 1 || true)
    verdict 3 "BROKEN: QEMU stopped the guest, run state '$stopped': $why; ended at once; last serial line: '${last:-(none)}'"
fi
if [[ $timeout -gt 0 && ( $status -eq 124 || $status -eq 137 ) ]]; then
    last=$(grep -v '^[[:space:]]*$' "$serial" | tail -n 1 || true)
    verdict 4 "TIMEOUT: killed QEMU after ${timeout} s; last serial line: '${last:-(none)}'"
fi
if [[ ${statuses[1]} -ne 0 ]]; then
    verdict 3 "BROKEN: the serial log filter failed (status ${statuses[1]})"
fi

judged=$serial
if [[ $reboots == yes ]]; then  # judge the last boot's stream (see the header)
    boots=$(grep -c '^TAP version 13' "$serial" || true)
    echo "$prog: $boots boot(s) in this run; judging the last one's TAP stream" >&2
    judged=$work/last-boot.log
    awk '/^TAP version 13/ { n++ } { lines[NR] = $0; start[NR] = n } END { for (i = 1; i <= NR; i++) if (start[i] == n) print lines[i] }' "$serial" >"$judged"
fi
set +e
tapsum_out=$("$repo/tools/tapsum" --require-summary "serial=$judged")
tapsum_status=$?
set -e
counts=$(tail -n 1 <<<"$tapsum_out")
failed=$(sed -n 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/p' <<<"$tapsum_out" | tail -n 1)
broken=$(sed -n 's/^serial: .*; broken: //p' <<<"$tapsum_out")
show_tapsum() {  # the stream's line and its failures (not the expected failures: see the log for those)
    sed -n '/^expected failures/q; /^[0-9]* passed, /d; p' <<<"$tapsum_out" | sed "s/^/$prog: /" >&2
}

case $status in
    0) show_tapsum; verdict 3 "BROKEN: QEMU exited by itself (status 0: a reset under -no-reboot, or a shutdown) before the kernel reported; $counts" ;;
    1|3) ;;
    *) verdict 3 "BROKEN: QEMU failed (status $status)" ;;
esac
if [[ ! -s $serial ]]; then
    verdict 3 "BROKEN: no serial output at all (qemu status $status)"
fi
if [[ -n $broken ]]; then
    show_tapsum
    verdict 3 "BROKEN: incomplete or inconsistent TAP stream (qemu status $status): $broken"
fi
if [[ $tapsum_status -ne 0 && $tapsum_status -ne 1 ]]; then
    verdict 3 "BROKEN: tools/tapsum failed (status $tapsum_status)"
fi
if [[ $status -eq 1 && $failed -eq 0 ]]; then
    verdict 0 "PASS (qemu status 1, $counts)"
fi
if [[ $status -eq 3 && $failed -gt 0 ]]; then
    show_tapsum
    verdict 1 "FAIL: $failed failed checks (qemu status 3, $counts)"
fi
show_tapsum
if [[ $status -eq 1 ]]; then
    verdict 3 "BROKEN: QEMU status 1 says pass but the stream has $failed failed ($counts)"
fi
verdict 3 "BROKEN: QEMU status 3 says a check failed but the stream has none ($counts)"
