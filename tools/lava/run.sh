#!/usr/bin/env bash
# tools/lava/run.sh [OUTDIR]: `make lava`: run tools/lava/qemu.yaml with LAVA's own dispatcher (lava-run, Debian's
# lava-dispatcher) on the QEMU device tools/lava/qemu-device.yaml, then hold the results LAVA recorded against
# pmuboot's own verdicts of the same run, check for check (tools/lava/check-jobs --lava-log). The dispatcher's
# dependencies (about 120 Debian packages: systemd, libguestfs, ...) are too heavy for `make check`, which validates
# the jobs and applies their monitors to a QEMU run's log instead. As root, a missing lava-dispatcher is installed;
# otherwise the apt-get line is printed. Figures: docs/running.md "In a lab".
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
out=${1:-build/lava}
mkdir -p "$out"
if ! command -v lava-run >/dev/null; then
    if [[ $(id -u) -eq 0 ]]; then
        echo "lava: installing lava-dispatcher (about 120 packages)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends lava-dispatcher </dev/null >"$out/apt.log" 2>&1 ||
            { echo "lava: apt-get failed (see $out/apt.log)" >&2; exit 1; }
    else
        echo "lava: lava-run not found; as root: apt-get install --no-install-recommends lava-dispatcher" >&2
        exit 1
    fi
fi
make -s kernel >/dev/null || { echo "lava: the build failed" >&2; exit 1; }
sed "s|KERNEL_URL|file://$repo/build/pmuboot.elf|" tools/lava/qemu.yaml >"$out/job.yaml"
rm -rf "$out/dispatcher"
start=$(date +%s)
timeout 900 lava-run --job-id pmuboot --output-dir "$out/dispatcher" --device tools/lava/qemu-device.yaml \
    "$out/job.yaml" >"$out/lava.log" 2>&1 </dev/null   # its JSON log lines go to stderr
status=$?
secs=$(( $(date +%s) - start ))
# The serial stream as LAVA logged it (its "target" lines), and pmuboot's verdicts of it.
/usr/bin/python3 -c '
import sys, yaml
load = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
for line in open(sys.argv[1]):
    try:
        r = yaml.load(line, Loader=load)   # LAVA log lines are YAML flow mappings
    except yaml.YAMLError:
        continue
    if isinstance(r, dict) and r.get("lvl") == "target" and isinstance(r.get("msg"), str):
        print(r["msg"])' "$out/lava.log" >"$out/serial.log"
tools/pmuboot-report --quiet --json "$out/report.json" "$out/serial.log"
[[ -s $out/report.json ]] || { echo "lava: no pmuboot stream in LAVA's log (lava-run status $status, see $out/lava.log)" >&2; exit 1; }
echo "lava: lava-run status $status in $secs s; $(grep -c '"definition": "pmuboot"' "$out/lava.log") results recorded"
tools/lava/check-jobs --report "$out/report.json" --lava-log "$out/lava.log" | tee "$out/check.tap"
[[ $status -eq 0 ]] && ! grep -q '^not ok' "$out/check.tap"
