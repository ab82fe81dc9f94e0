#!/usr/bin/env bash
# tools/deps.sh: install the Debian packages that `make check` needs, or say exactly how.
#
#   tools/deps.sh          check; as root on Debian install what is missing, otherwise print the apt-get line
#                          and exit 1
#   tools/deps.sh --list   print the package list (one line), for .ci/run and the docs
#
# The one list of what building and testing pmuboot takes: gcc, make, binutils, libc headers, nasm and cmocka
# build it; QEMU (SeaBIOS comes with it), GRUB for BIOS and UEFI, OVMF, xorriso and mtools boot it; perl carries
# TAP::Parser (tools/tapsum).
set -euo pipefail

# Reports (tools/pmuboot-report and tests/report): TAP::Formatter::JUnit and XML::LibXML for JUnit,
# JSON::Validator for the JSON schema, xmllint for the JUnit XSD and the HTML, chromium for the one headless
# render (that check SKIPs without it). LAVA (tools/lava/check-jobs): lava-common, LAVA's job schema.
# QR codes: libqrencode-dev (tests/host/test_qr.c holds lib/qr.c against it), zlib1g-dev (test_deflate and
# test_result_code read lib/deflate.c's streams back with zlib), qrencode (its command, for a look
# by hand), zbar-tools (zbarimg reads the final screen's codes: pmuboot-report --from-images).
packages=(gcc make binutils libc6-dev nasm libcmocka-dev perl qemu-system-x86 grub-common grub-pc-bin
          grub-efi-amd64-bin ovmf xorriso mtools
          libtap-formatter-junit-perl libxml-libxml-perl libjson-validator-perl libxml2-utils chromium
          lava-common libqrencode-dev qrencode zbar-tools zlib1g-dev)

if [[ ${1:-} == --list ]]; then
    echo "${packages[*]}"
    exit 0
fi
[[ $# -eq 0 ]] || { echo "deps: unknown argument '$1' (usage: tools/deps.sh [--list])" >&2; exit 2; }

if ! command -v dpkg-query >/dev/null; then
    echo "deps: not a Debian system (no dpkg-query); make sure these are installed: ${packages[*]}" >&2
    exit 0
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
    echo "deps: missing packages: ${missing[*]}" >&2
    echo "deps: install them as root with: $cmd" >&2
    exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# No recommends: they would pull a desktop's worth of QEMU GUI libraries.
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null; }; then
    echo "deps: apt-get failed; run by hand: $cmd" >&2
    exit 1
fi
