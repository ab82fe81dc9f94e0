#!/usr/bin/env bash
# tools/qemu10.sh: provide QEMU 10.0 (Debian bookworm-backports) in a private prefix, build/qemu10/, without
# touching the system QEMU, and print the path of a wrapper that runs it.
#
# Usage: tools/qemu10.sh [--offline]
#
#   --offline   only report whether the prefix is already unpacked (never touch apt)
#
# Steps (each skipped when already done: a complete prefix is cached):
#   1. add bookworm-backports to apt as /etc/apt/sources.list.d/bookworm-backports.list, on the same host as
#      the machine's existing Debian source, if no apt source names bookworm-backports yet
#   2. refresh only that source's index (apt timeouts: never hangs)
#   3. apt-get download -t bookworm-backports qemu-system-x86 qemu-system-common qemu-system-data, plus any
#      shared library the binary needs that the system lacks (ldd), and dpkg -x them into build/qemu10/root
#   4. write build/qemu10/qemu-system-x86_64, a wrapper running the private binary with LD_LIBRARY_PATH and
#      -L <prefix>/usr/share/qemu -L <prefix>/usr/share/seabios -L /usr/share/seabios (firmware: QEMU's own
#      blobs, backports' SeaBIOS 1.16.3, then the system's)
#
# Output: the wrapper's path on stdout, exit 0. On failure (not root, backports unreachable, the binary does
# not run) exit 1 with a one-line reason on stderr, starting with "qemu10: ".
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$repo/build/qemu10
root=$dir/root
wrapper=$dir/qemu-system-x86_64
stamp=$dir/.complete
# seabios: bookworm's 1.16.2 waits 32 s in an AHCI command timeout on QEMU 10's q35 ("WARNING - Timeout at
# ahci_command:153!" on the debug console, before the kernel starts); backports' 1.16.3 does not.
packages=(qemu-system-x86 qemu-system-common qemu-system-data seabios)
apt_opts=(-q -o Acquire::http::Timeout=20 -o Acquire::https::Timeout=20 -o Acquire::Retries=1)

die() { echo "qemu10: $*" >&2; exit 1; }
in_backports() {  # in_backports PACKAGE: apt knows a bookworm-backports version of it
    local p
    p=$(apt-cache policy "$1" 2>/dev/null || true)
    [[ $p == *bookworm-backports* ]]
}

offline=no
case ${1:-} in
    --offline) offline=yes ;;
    "") ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
esac

version_ok() {  # the wrapper runs and says QEMU 10.x
    local v
    v=$("$wrapper" --version 2>/dev/null | head -n 1) || return 1
    [[ $v =~ version\ 10\. ]]
}
complete() { [[ -f $stamp && -x $wrapper && -f $root/usr/share/seabios/bios-256k.bin ]] && version_ok; }
if complete; then
    echo "$wrapper"
    exit 0
fi
[[ $offline == yes ]] && die "not unpacked in $dir (run tools/qemu10.sh as root to fetch it)"

# One unpacker at a time (make check and a user may start it together).
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock -w 300 9 || die "another tools/qemu10.sh holds $dir/.lock for more than 300 s"
if complete; then echo "$wrapper"; exit 0; fi

[[ -f /etc/debian_version ]] && command -v apt-get >/dev/null || die "not a Debian system with apt-get"
[[ $(id -u) -eq 0 ]] || die "not root: cannot add bookworm-backports to apt (run as root once; the prefix is then cached)"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[[ $codename == bookworm ]] || die "this is Debian '${codename:-unknown}', not bookworm: bookworm-backports does not apply"

# --- 1. the backports source ------------------------------------------------------------------------------
list=/etc/apt/sources.list.d/bookworm-backports.list
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; then
    # Mirror the host of the existing Debian source (deb822 "URIs:" or one-line "deb URL bookworm ...").
    mirror=$(sed -n 's/^URIs:[[:space:]]*\(http[^[:space:]]*\/debian\)\/\{0,1\}[[:space:]]*$/\1/p' \
                 /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
    [[ -n $mirror ]] || mirror=$(sed -n 's/^deb[[:space:]]\{1,\}\(http[^[:space:]]*\/debian\)\/\{0,1\}[[:space:]]\{1,\}bookworm[[:space:]].*/\1/p' \
                 /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -n 1)
    mirror=${mirror:-http://deb.debian.org/debian}
    echo "deb $mirror bookworm-backports main" >"$list" || die "cannot write $list"
    echo "qemu10: added $list ($mirror)" >&2
fi
src=$(grep -ls 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1 || true)

# --- 2. refresh that source only ----------------------------------------------------------------------------
if ! in_backports "${packages[0]}"; then
    upd=("${apt_opts[@]}" -o APT::Get::List-Cleanup=0)
    case $src in
        */sources.list.d/*) upd+=(-o "Dir::Etc::sourcelist=$src" -o Dir::Etc::sourceparts=-) ;;
    esac
    timeout 180 apt-get "${upd[@]}" update >"$dir/apt-update.log" 2>&1 ||
        die "apt-get update of bookworm-backports failed or timed out (see $dir/apt-update.log: $(grep -m1 -E '^(E|W|Err):' "$dir/apt-update.log" || echo 'no message'))"
    in_backports "${packages[0]}" ||
        die "bookworm-backports has no ${packages[0]} after apt-get update (see $dir/apt-update.log)"
fi

# --- 3. download and unpack ---------------------------------------------------------------------------------
debs=$dir/debs
rm -rf "$debs" "$root"
mkdir -p "$debs" "$root"
chmod 777 "$debs"   # apt-get download runs as the _apt user
fetch() {  # fetch PACKAGE...: download from backports when it has the package, else the default release
    (cd "$debs" && timeout 300 apt-get "${apt_opts[@]}" download "$@") >>"$dir/apt-download.log" 2>&1
}
fetch $(for p in "${packages[@]}"; do echo "$p/bookworm-backports"; done) ||
    die "apt-get download from bookworm-backports failed or timed out (see $dir/apt-download.log)"
for d in "$debs"/*.deb; do dpkg -x "$d" "$root" || die "dpkg -x $d failed"; done
bin=$root/usr/bin/qemu-system-x86_64
[[ -x $bin ]] || die "no usr/bin/qemu-system-x86_64 in the downloaded packages"
[[ -f $root/usr/share/seabios/bios-256k.bin ]] || die "no usr/share/seabios/bios-256k.bin in the downloaded seabios package"
libdir=$root/usr/lib/x86_64-linux-gnu

# Libraries the binary needs that the system lacks: fetch the package that provides each (backports first).
for round in 1 2 3; do
    mapfile -t absent < <(LD_LIBRARY_PATH=$libdir ldd "$bin" 2>/dev/null | sed -n 's/^[[:space:]]*\([^[:space:]]*\) => not found.*/\1/p')
    [[ ${#absent[@]} -eq 0 ]] && break
    want=()
    for lib in "${absent[@]}"; do
        # Debian library package name from the soname: libfoo.so.3 -> libfoo3, libfoo-1.2.so.0 -> libfoo-1.2-0
        base=${lib%%.so*} ver=${lib##*.so.}
        if [[ $base =~ [0-9]$ ]]; then pkg="$base-$ver"; else pkg="$base$ver"; fi
        pkg=${pkg,,}; pkg=${pkg//_/-}
        if in_backports "$pkg"; then want+=("$pkg/bookworm-backports"); else want+=("$pkg"); fi
    done
    fetch "${want[@]}" || die "missing libraries ${absent[*]}: apt-get download ${want[*]} failed (see $dir/apt-download.log)"
    for d in "$debs"/*.deb; do dpkg -x "$d" "$root"; done
done
[[ ${#absent[@]} -eq 0 ]] || die "libraries still missing after 3 rounds: ${absent[*]}"

# --- 4. the wrapper -----------------------------------------------------------------------------------------
cat >"$wrapper" <<EOF
#!/bin/sh
# QEMU 10 from bookworm-backports, unpacked by tools/qemu10.sh; its own modules (not the system QEMU's), firmware
# from the prefix, then the system's SeaBIOS.
QEMU_MODULE_DIR="$libdir/qemu" LD_LIBRARY_PATH="$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$bin" -L "$root/usr/share/qemu" -L "$root/usr/share/seabios" -L /usr/share/seabios "\$@"
EOF
chmod 755 "$wrapper"
version_ok || die "the unpacked QEMU does not run: $("$wrapper" --version 2>&1 | head -n 1)"
ls "$debs" >"$stamp"
echo "qemu10: $("$wrapper" --version | head -n 1) in $root" >&2
echo "$wrapper"
