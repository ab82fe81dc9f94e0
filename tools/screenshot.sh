#!/usr/bin/env bash
# tools/screenshot.sh: boot pmuboot's GRUB ISO in QEMU with a display adapter (std VGA), wait for the run's
# summary line on the serial port, and save what the guest's screen shows (QEMU monitor `screendump`) as PNG.
# It shows the framebuffer mirror of the checklist (kernel/fbcon.c) the way a monitor or a BMC's remote
# screen would.
#
#   tools/screenshot.sh [--uefi] [--smp N] [--machine pc|q35] [--gfxmode WxH] [--append "ARGS"] [--timeout S]
#                       [--when REGEX] [--after S] [--pages] OUT.png
#
# --gfxmode WxH asks GRUB for a framebuffer of that size (tools/mkiso.sh --gfxmode; default 1024x768), e.g. 640x480:
# a smaller screen holds fewer QR codes, so the final screen pages them sooner. A screen of another size (GRUB
# fell back to a mode the firmware has) is an error.
# --when REGEX takes the picture as soon as a serial line matches REGEX (grep -E) instead of after the summary line:
# the live screen mid-run (screen=grid: the grid of threads by suite). --after S waits S more seconds.
# --pages photographs every page of the final screen (screen=grid): the kernel says on the serial port which page
# it shows, "# screen: page K of N: ...", as it shows it; each page is taken as its line appears, page 1 as OUT.png,
# page K as OUT.pageK.png (those of an earlier run removed first). The names are printed on stdout, one a line.
# The kernel runs with exit=halt so the screen stays as the run left it; the serial log is written next to
# OUT.png (OUT.serial.log). Needs what run-qemu.sh --iso (or --uefi) needs; PNG conversion is done in Perl
# (Compress::Zlib), no image tools. tools/check.sh takes its screen runs with it (docs/screen.md).
set -euo pipefail

prog=screenshot
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "$prog: $*" >&2; exit 2; }
uefi=no smp=1 machine=pc gfxmode="" append="" timeout=120 out="" when='^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' after=0 pages=no
while [[ $# -gt 0 ]]; do
    case $1 in
        --uefi) uefi=yes ;;
        --smp) smp=$2; shift ;;
        --machine) machine=$2; shift ;;
        --gfxmode) gfxmode=$2; shift ;;
        --append) append=$2; shift ;;
        --timeout) timeout=$2; shift ;;
        --when) when=$2; shift ;;
        --after) after=$2; shift ;;
        --pages) pages=yes ;;
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        -*) die "unknown option '$1'" ;;
        *) out=$1 ;;
    esac
    shift
done
[[ -n $out && $out == *.png ]] || die "usage: $0 [--uefi] [--smp N] [--machine pc|q35] [--gfxmode WxH] [--append ARGS] [--when REGEX] OUT.png"
case $append in *exit=*) die "--append: exit= is set here (exit=halt)" ;; esac
[[ $pages == no || $when == '^[0-9]+ passed'* ]] || die "--pages takes the final screen's pages: not with --when"
[[ $pages == yes ]] && when='^# screen: page 1 of [0-9]+'
rm -f "${out%.png}".page[0-9]*.png

make -C "$repo" -s --no-print-directory kernel >&2
work=$(mktemp -d "${TMPDIR:-/tmp}/screenshot.XXXXXX")
qpid=""
# shellcheck disable=SC2317  # called by the trap
cleanup() { [[ -n $qpid ]] && kill "$qpid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

efi=--no-efi
[[ $uefi == yes ]] && efi=--efi
"$repo/tools/mkiso.sh" $efi ${gfxmode:+--gfxmode "$gfxmode"} "$repo/build/pmuboot.elf" "$work/pmuboot.iso" \
    "exit=halt${append:+ $append}" 2>"$work/mkiso.log" || { cat "$work/mkiso.log" >&2; die "building the ISO failed"; }
qemu=(qemu-system-x86_64 -machine "$machine" -accel tcg -m 256 -smp "$smp" -display none -vga std -net none
      -no-reboot -serial "file:$work/serial.log" -monitor "unix:$work/monitor.sock,server,nowait"
      -cdrom "$work/pmuboot.iso" -boot d)
if [[ $uefi == yes ]]; then
    code=/usr/share/OVMF/OVMF_CODE_4M.fd vars=/usr/share/OVMF/OVMF_VARS_4M.fd
    [[ -e $code ]] || { code=/usr/share/OVMF/OVMF_CODE.fd; vars=/usr/share/OVMF/OVMF_VARS.fd; }
    cp "$vars" "$work/vars.fd"
    qemu+=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$code" -drive "if=pflash,format=raw,unit=1,file=$work/vars.fd")
fi
"${qemu[@]}" </dev/null >"$work/qemu.out" 2>&1 &
qpid=$!

# The run is over when the serial port shows the summary line (exit=halt keeps the screen).
deadline=$((SECONDS + timeout))
wait_line() {
    # grep -q stops at the first match: not in a pipeline, whose writer would die of SIGPIPE (pipefail).
    until grep -aEq -- "$1" <(tr -d '\r' 2>/dev/null <"$work/serial.log"); do
        kill -0 "$qpid" 2>/dev/null || { cat "$work/qemu.out" >&2; die "QEMU exited before a line matching '$1'"; }
        [[ $SECONDS -lt $deadline ]] || die "no line matching '$1' on the serial port within $timeout s"
        sleep 0.2
    done
}
# QEMU's screendump of what the guest shows now, as PNG (8-bit RGB, filter 0 on every row; no image tools).
# shellcheck disable=SC2016  # Perl code
shot() {
    rm -f "$work/screen.ppm"
    perl -MIO::Socket::UNIX -e '
        my ($sock, $ppm) = @ARGV;
        my $m = IO::Socket::UNIX->new(Peer => $sock) or die "monitor: $!\n";
        print $m "screendump $ppm\n";
        for (1 .. 100) { last if -s $ppm; select(undef, undef, undef, 0.1) }
        select(undef, undef, undef, 0.5);' "$work/monitor.sock" "$work/screen.ppm"
    [[ -s $work/screen.ppm ]] || die "QEMU's screendump wrote nothing"
    perl -MCompress::Zlib -e '
        my ($in, $out) = @ARGV;
        open(my $f, "<:raw", $in) or die "$in: $!\n"; local $/; my $d = <$f>;
        $d =~ s/^P6\s+(\d+)\s+(\d+)\s+255\s//s or die "$in: not a P6 PPM with maxval 255\n";
        my ($w, $h) = ($1, $2);
        my $raw = join("", map { "\0" . substr($d, $_ * $w * 3, $w * 3) } 0 .. $h - 1);
        sub chunk { my ($t, $b) = @_; pack("N", length $b) . $t . $b . pack("N", crc32($t . $b)) }
        open(my $o, ">:raw", $out) or die "$out: $!\n";
        print $o "\x89PNG\r\n\x1a\n", chunk("IHDR", pack("NNCCCCC", $w, $h, 8, 2, 0, 0, 0)),
                 chunk("IDAT", compress($raw, 9)), chunk("IEND", "");' "$work/screen.ppm" "$1"
    echo "$1"
}
wait_line "$when"
[[ $when == '^[0-9]+ passed'* ]] && sleep 1   # the final screen is drawn after the summary line
[[ $after =~ ^[0-9]+$ ]] || die "--after wants whole seconds, not '$after'"
sleep "$after"
shot "$out"
size=$(head -c 20 "$work/screen.ppm" | tr '\n' ' ' | cut -d' ' -f2,3 | tr ' ' x)
if [[ -n $gfxmode && $size != "$gfxmode" ]]; then
    tr -d '\r' <"$work/serial.log" >"${out%.png}.serial.log"
    die "--gfxmode $gfxmode: the screen is $size (GRUB fell back to a mode the firmware or adapter has; see $out)"
fi
if [[ $pages == yes ]]; then
    n=$(grep -aEo -m1 '^# screen: page 1 of [0-9]+' <(tr -d '\r' <"$work/serial.log") | grep -o '[0-9]*$')
    deadline=$((deadline + n * 10))   # a page every few seconds (lib/screen_final.h)
    for ((k = 2; k <= n; k++)); do
        wait_line "^# screen: page $k of $n:"
        shot "${out%.png}.page$k.png"
    done
fi
# shellcheck disable=SC2016  # Perl code
perl -MIO::Socket::UNIX -e '
    my $m = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "monitor: $!\n";
    print $m "quit\n";
    local $SIG{ALRM} = sub { exit 0 }; alarm 5; 1 while <$m>;' "$work/monitor.sock"
# QEMU should be gone after "quit"; never wait on it unbounded.
for _ in $(seq 50); do kill -0 "$qpid" 2>/dev/null || break; sleep 0.1; done
kill "$qpid" 2>/dev/null || true
wait "$qpid" 2>/dev/null || true
qpid=""
tr -d '\r' <"$work/serial.log" >"${out%.png}.serial.log"
echo "$prog: $out ($size pixels${n:+, $n page$([[ $n == 1 ]] || echo s)}); serial log ${out%.png}.serial.log" >&2
