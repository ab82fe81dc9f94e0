#!/usr/bin/env bash
# Build a small bootable GRUB ISO holding the pmuboot kernel.
#
#   tools/mkiso.sh [--efi|--no-efi] [--entry mb2|mb1] [--gfxmode WxH] KERNEL_ELF OUT_ISO [KERNEL_ARGS]
#
#   --efi         also boot on UEFI (needs grub-efi-amd64-bin); the default when it is installed
#   --no-efi      BIOS only
#   --entry E     default menu entry: mb2 (GRUB "multiboot2", the default) or mb1 (GRUB "multiboot")
#   --gfxmode WxH the framebuffer's size, e.g. 640x480 or 800x600 (default 1024x768): GRUB's gfxpayload. A mode
#                 the firmware or adapter lacks is not an error to GRUB: it falls back to a mode it has ("auto")
#
# The ISO boots on BIOS from a CD (El Torito) or as a disk (write it to a USB stick), and on UEFI from either
# when built with EFI. GRUB talks on COM1 at 115200 8N1 and on the screen, waits 0 s and boots the default
# entry. KERNEL_ARGS are written into grub.cfg (GRUB passes only the arguments its config names); the ISO that
# `make iso` builds for hardware gets none (no exit=qemu).
#
# Why not grub-mkrescue: it copies a module tree and always makes a 2.88 MB FAT image for EFI, so even with
# --install-modules and no fonts/locales/themes a BIOS+UEFI ISO is ~4 MB. Here grub-mkimage embeds just the
# needed modules in each platform's core image (no module tree on the ISO), the EFI FAT image is sized to its
# one file, and xorriso lays the ISO out the way grub-mkrescue does (hybrid MBR, El Torito, EFI partition).
set -euo pipefail

prog=mkiso
die() { echo "$prog: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

efi=auto
entry=mb2
gfxmode=1024x768
while [[ $# -gt 0 ]]; do
    case $1 in
        --efi) efi=yes ;;
        --no-efi) efi=no ;;
        --entry) [[ $# -ge 2 ]] || die "--entry needs a value (mb2 or mb1)"; entry=$2; shift ;;
        --entry=*) entry=${1#--entry=} ;;
        --gfxmode) [[ $# -ge 2 ]] || die "--gfxmode needs a value (WIDTHxHEIGHT, e.g. 800x600)"; gfxmode=$2; shift ;;
        --gfxmode=*) gfxmode=${1#--gfxmode=} ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        -*) die "unknown option '$1' (try --help)" ;;
        *) break ;;
    esac
    shift
done
[[ $# -ge 2 && $# -le 3 ]] || die "usage: $0 [--efi|--no-efi] [--entry mb2|mb1] [--gfxmode WxH] KERNEL_ELF OUT_ISO [KERNEL_ARGS]"
[[ $gfxmode =~ ^[1-9][0-9]{2,4}x[1-9][0-9]{2,4}$ ]] || die "--gfxmode wants WIDTHxHEIGHT in pixels (e.g. 800x600), not '$gfxmode'"
kernel=$1 out=$2 args=${3:-}
case $entry in
    mb2) default=0 ;;
    mb1) default=1 ;;
    *) die "--entry must be mb2 or mb1, not '$entry'" ;;
esac
[[ -f $kernel ]] || die "kernel image '$kernel' not found (run 'make kernel')"
# grub.cfg is parsed by GRUB's shell: keep the arguments to plain words.
allowed='^[A-Za-z0-9_=,.:/+@% -]*$'
[[ $args =~ $allowed ]] ||
    die "kernel arguments '$args' hold characters not allowed in grub.cfg (allowed: letters, digits, _=,.:/+@%- and blanks)"

bios_dir=/usr/lib/grub/i386-pc
efi_dir=/usr/lib/grub/x86_64-efi
for tool in grub-mkimage xorriso; do
    command -v "$tool" >/dev/null || die "'$tool' not found: apt-get install grub-common grub-pc-bin xorriso mtools"
done
[[ -f $bios_dir/kernel.img ]] || die "$bios_dir missing: apt-get install grub-pc-bin"
case $efi in
    auto) if [[ -f $efi_dir/kernel.img ]]; then efi=yes; else efi=no; fi ;;
    yes) [[ -f $efi_dir/kernel.img ]] || die "--efi: $efi_dir missing: apt-get install grub-efi-amd64-bin" ;;
esac
if [[ $efi == yes ]]; then
    for tool in mformat mmd mcopy; do
        command -v "$tool" >/dev/null || die "'$tool' not found: apt-get install mtools"
    done
fi

# GRUB modules; their dependencies (relocator, mmap, net, terminal, terminfo, ...) come along by themselves.
# Each was found needed by dropping it and booting (docs/running.md):
#   normal               reads grub.cfg, runs the menu (menuentry, set); without it UEFI stops at "grub>"
#   multiboot2 multiboot the two loaders (menu entries 1 and 2)
#   serial               the COM1 terminal (without it GRUB talks only to the screen)
#   iso9660              the file system holding grub.cfg and the kernel
#   biosdisk             (BIOS) disk access through INT 13h
#   vbe video_bochs      (BIOS) the VESA BIOS Extensions and QEMU's std VGA (Bochs dispi): the linear
#                        framebuffer the multiboot2 header asks for (the screen mirror, kernel/fbcon.c)
#   efi_gop              (EFI) the UEFI Graphics Output Protocol framebuffer, for the same
#   search_fs_uuid       (EFI) finds the ISO's file system by UUID, in case firmware started GRUB from the
#                        EFI FAT partition of a USB stick rather than from the CD
common_modules="normal multiboot2 multiboot serial iso9660"
bios_modules="biosdisk vbe video_bochs $common_modules"
efi_modules="search_fs_uuid efi_gop $common_modules"

work=$(mktemp -d "${TMPDIR:-/tmp}/mkiso.XXXXXX")
tmp_out="$out.tmp.$$"
trap 'rm -rf "$work" "$tmp_out"' EXIT
root=$work/root
mkdir -p "$root/boot/grub"
cp "$kernel" "$root/boot/pmuboot.elf"
cat >"$root/boot/grub/grub.cfg" <<EOF
# pmuboot: checks the PMU and local APIC of every CPU thread; the checklist (TAP) goes to COM1 at 115200 8N1.
serial --unit=0 --speed=115200 --word=8 --parity=no --stop=1
terminal_input serial console
terminal_output serial console
set timeout=0
set default=$default
# The video mode handed to the kernel (multiboot2 framebuffer tag): the first that works; none = text mode,
# and pmuboot then writes to the serial port only. "keep" would keep GRUB's own mode (a gfxterm menu). Set after
# the loader command, which sets gfxpayload to the mode the kernel's header prefers (1024x768x32, GRUB
# grub-core/loader/multiboot.c, grub_multiboot_set_console); the mode itself is set when the entry boots.
menuentry "pmuboot (multiboot2)" {
    multiboot2 /boot/pmuboot.elf $args
    set gfxpayload="${gfxmode}x32;${gfxmode};auto"
}
menuentry "pmuboot (multiboot)" {
    multiboot /boot/pmuboot.elf $args
    set gfxpayload="${gfxmode}x32;${gfxmode};auto"
}
EOF

run() {  # run a command quietly; show its output only when it fails
    if ! "$@" >"$work/cmd.log" 2>&1; then
        cat "$work/cmd.log" >&2
        die "failed: $*"
    fi
}

# The ISO 9660 volume's modification date doubles as the file-system UUID GRUB's search finds it by.
now=$(date -u +%Y%m%d%H%M%S)00
uuid="${now:0:4}-${now:4:2}-${now:6:2}-${now:8:2}-${now:10:2}-${now:12:2}-${now:14:2}"

# BIOS: cdboot.img + core image; root is the boot device (the CD, or the whole USB disk), prefix /boot/grub.
mkdir -p "$root/boot/grub/i386-pc"
# shellcheck disable=SC2086  # word splitting of the module lists is intended
run grub-mkimage -d "$bios_dir" -O i386-pc-eltorito -p /boot/grub -o "$root/boot/grub/i386-pc/eltorito.img" \
    $bios_modules
xorriso_efi=()
if [[ $efi == yes ]]; then
    cat >"$work/early-efi.cfg" <<EOF
search.fs_uuid $uuid root
set prefix=(\$root)/boot/grub
EOF
    # shellcheck disable=SC2086
    run grub-mkimage -d "$efi_dir" -O x86_64-efi -p /boot/grub -c "$work/early-efi.cfg" -o "$work/bootx64.efi" \
        $efi_modules
    # A FAT image just big enough for EFI/BOOT/BOOTX64.EFI (the removable-media path UEFI looks for).
    efi_bytes=$(stat -c %s "$work/bootx64.efi")
    sectors=$(( (efi_bytes + 511) / 512 + 96 ))
    sectors=$(( (sectors + 31) / 32 * 32 ))
    run mformat -i "$root/efi.img" -C -T "$sectors" -h 1 -s 32 -v PMUBOOT ::
    run mmd -i "$root/efi.img" ::/EFI ::/EFI/BOOT
    run mcopy -i "$root/efi.img" "$work/bootx64.efi" ::/EFI/BOOT/BOOTX64.EFI
    xorriso_efi=(--efi-boot efi.img -efi-boot-part --efi-boot-image)
fi

mkdir -p "$(dirname "$out")"
# Padding: mkisofs' default is 300 KiB; with none, SeaBIOS's CD read of the ISO's last sectors fails ("no multiboot
# header found": GRUB reads ahead in 32 KiB blocks); 64 KiB is enough with margin.
run xorriso -as mkisofs -graft-points --modification-date="$now" -V PMUBOOT \
    -b boot/grub/i386-pc/eltorito.img -no-emul-boot -boot-load-size 4 -boot-info-table \
    --grub2-boot-info --grub2-mbr "$bios_dir/boot_hybrid.img" \
    "${xorriso_efi[@]}" --protective-msdos-label \
    -o "$tmp_out" -r "$root" -- -padding 64k
mv "$tmp_out" "$out"
size=$(stat -c %s "$out")
platforms="BIOS"; [[ $efi == yes ]] && platforms="BIOS+UEFI"
echo "$prog: $out: $size bytes ($platforms, entry $entry, args '${args}')" >&2
