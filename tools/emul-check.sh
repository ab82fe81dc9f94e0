#!/usr/bin/env bash
# tools/emul-check.sh OUTDIR: the emulated-PMU runs of `make check` (docs/emulated-pmu.md), as one TAP stream on
# stdout. Every KIND runs the PMU suites (pmu_enum, pmu_regs, pmi, events, init, skid, lbr, pebs; and reset, with one cf9 reset,
# in a run of its own; the pmi suite's delivery-dependent checks run in both modes, fixed vector and NMI, by default) at -smp 2 and must end with 0 failed checks, every PMU verdict marked [emulated PMU], and no SKIP for want of a
# PMU; the hybrid kinds also run smp (smp/features groups threads by kind of core) and must show two kinds of core
# (CPUID.1AH:EAX values) in their 2 CPUs; every row of tools/fault-expect.txt runs its fault and must make
# exactly the named checks FAIL, on every CPU. Logs in OUTDIR. EMUL_KINDS (blank-separated) limits the kinds,
# EMUL_FAULTS=0 skips the fault rows (EMUL_FAULT_ROWS=REGEX runs the matching ones), EMUL_UNCORE the uncore runs, EMUL_JOBS runs that many QEMUs at once (default 2: these suites measure no
# time, so parallel runs cannot disturb them). Exit status: 0 when every line is ok.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
out=${1:?usage: tools/emul-check.sh OUTDIR}
mkdir -p "$out"
suites=pmu_enum,pmu_regs,pmi,events,init,skid,lbr,pebs
smp=2
# Every kind of the table in emul/emul_kinds.c (its rows, one per line, begin `{.name = "KIND", .kind = PMU_KIND_`), so
# a kind added there runs here without a line of its own; KIND@kvm: the same kind presented as a KVM guest's vPMU
# (hypervisor bit and signature), so the verdicts that depend on running under a hypervisor take that path.
table_kinds=$(sed -n 's/^ *{\.name = "\([^"]*\)", \.kind = PMU_KIND_.*/\1/p' emul/emul_kinds.c | tr '\n' ' ')
[[ -n $table_kinds ]] || { echo "emul-check: no kinds found in emul/emul_kinds.c" >&2; exit 2; }
kinds=${EMUL_KINDS:-$table_kinds intel-v4@kvm amd-v2@kvm}
# Hybrid kinds: each CPU's kind of core by its index (emul/emul.h pmu_emul_core_of): at -smp 2 CPU 0 is a P-core and
# CPU 1 an E-core on both (mtl's low-power E-cores come third, from 3 CPUs on).
hybrid_kinds="adl mtl"
# KIND:PART: the kind presenting a part of the event catalog (pmu_part=, docs/event-catalog.md), running pmu_enum and
# events: every catalog event the part has is compared exactly on every counter its catalog allows. With the kinds'
# own parts (intel-v* Skylake-SP, adl, mtl, amd-v2 Zen 3) these cover Intel client, server and hybrid cores and
# AMD Zen 2 to 5.
parts=${EMUL_PARTS-intel-v3:NehalemEP_core intel-v4:skylake_core intel-v5:icelake_core intel-v5:sapphirerapids_core intel-v6:graniterapids_core amd-core-ext:amdzen2 amd-v2:amdzen4 amd-v2:amdzen5}
# KIND:OPTION: the kind with one more emulated-PMU option, running the suites that option concerns; 0 failed checks, as
# the kinds. pmu_skid=: its PMIs come that many instructions late (pmu_regs, pmi, skid); pmu_lbr=: every model-specific
# LBR format the kinds do not present themselves (intel-v2/v3 present format 3, intel-v4/v5 format 5), and Nehalem's
# 16-entry ring (pmu_part=NehalemEP_core: the model decides the depth) (lbr, init); pmu_pebs=: the PEBS record formats
# the kinds do not present themselves (intel-v2 presents 0, v3 1, v4 3, v5 and adl 4 adaptive, v6 and mtl 5 adaptive)
# (pebs).
variants=${EMUL_VARIANTS-intel-v4:pmu_skid=3 amd-v2:pmu_skid=7 adl:pmu_skid=1 intel-v4:pmu_lbr=legacy:0 intel-v4:pmu_lbr=legacy:1 intel-v4:pmu_lbr=legacy:2 intel-v4:pmu_lbr=legacy:4 intel-v4:pmu_lbr=legacy:6 intel-v4:pmu_lbr=legacy:7 intel-v3:pmu_part=NehalemEP_core intel-v4:pmu_pebs=2 intel-v4:pmu_pebs=4}
# FACE:KIND:SMP: the emulated uncore (uncore=emulated:FACE, docs/uncore.md) beside the emulated core PMU KIND of the
# same machine, suite uncore at -smp SMP: 0 failed checks, every uncore verdict marked [emulated PMU], none SKIPped for
# want of an uncore. wsm-ep at 4 CPUs: two packages of two cores, so each routed set leaves a core of the package
# out and another package must take nothing; snb-client at 4 CPUs: four cores, so the routing also tries every core
# but the arming one. A fourth field, TEST, adds uncore_test=TEST: hardware-path drives the emulated uncore through
# the path a recognised part's own registers take (the probe, the topology plan, the put-back; docs/uncore.md).
# EMUL_UNCORE limits them ("" for none).
uncore_runs=${EMUL_UNCORE-wsm-ep:intel-v3:4 snb-client:intel-v3:4 zen3-ccx:amd-v2:2 snb-client:intel-v3:4:hardware-path}
variant_suites() { case $1 in pmu_skid=*) echo pmu_regs,pmi,skid ;; pmu_pebs=*) echo pebs ;; *) echo lbr,init ;; esac; }
is_hybrid() { [[ " $hybrid_kinds " == *" ${1%@kvm} "* ]]; }
n=0 bad=0
tap() {  # tap yes|no|skip TEXT [REASON]
    n=$((n + 1))
    case $1 in
        yes) echo "ok $n - $2" ;;
        skip) echo "ok $n - $2 # SKIP $3" ;;
        *) echo "not ok $n - $2"; bad=1 ;;
    esac
}
jobs_max=${EMUL_JOBS:-2}
launch() {  # launch NAME ARGS [SUITES]: start one run in the background; its status goes to OUTDIR/NAME.status
    while [[ $(jobs -rp | wc -l) -ge $jobs_max ]]; do wait -n || true; done
    local extra=""
    [[ ,${3:-$suites}, == *,reset,* ]] && extra=" reset=cf9" # one machine reset: two boots, the last one judged
    ( s=$(date +%s.%N)
      ./run-qemu.sh --no-build ${EMUL_KERNEL:+--kernel "$EMUL_KERNEL"} --smp $smp --timeout 120 \
          --append "$2 suite=${3:-$suites}$extra verbose=${4:-0}" --log "$out/$1.log" >/dev/null 2>"$out/$1.err" </dev/null
      echo $? >"$out/$1.status"; echo "$(date +%s.%N) - $s" | bc >"$out/$1.secs" ) &
}
status_of() { cat "$out/$1.status" 2>/dev/null || echo 99; }
# EMUL_FAULT_ROWS: an extended regular expression a row must match to run (default: every row).
rows() { grep -v '^\s*\(#\|$\)' tools/fault-expect.txt | grep -E -- "${EMUL_FAULT_ROWS:-.}"; }
# A row's KIND may carry options after '+' (KIND+OPTION[+OPTION]), e.g. intel-v4+pmi_delivery=nmi.
# A fault of the emulated uncore (uncore-*) is given with uncore_fault=, every other with pmu_fault=.
fault_opt() { [[ $1 == uncore-* ]] && echo uncore_fault || echo pmu_fault; }
row_args() { local k=$1 o=""; [[ $k == *+* ]] && o=" ${k#*+}"; echo "pmu=emulated:${k%%+*}${o//+/ }"; }

# Suite reset boots twice (its reset comes after a first pass of every suite): it runs alone, which is cheap.
for k in $kinds; do
    if is_hybrid "$k"; then launch "kind-$k" "pmu=emulated:$k" "$suites,smp"; else launch "kind-$k" "pmu=emulated:$k"; fi
    launch "kind-$k-reset" "pmu=emulated:$k" reset
done
for kv in $variants; do
    launch "variant-${kv%%:*}-${kv#*:}" "pmu=emulated:${kv%%:*} ${kv#*:}" "$(variant_suites "${kv#*:}")"
done
for u in $uncore_runs; do
    IFS=: read -r face ukind usmp utest <<<"$u"
    smp=$usmp launch "uncore-$face${utest:+-$utest}" "pmu=emulated:$ukind uncore=emulated:$face${utest:+ uncore_test=$utest}" uncore 1
done
for kp in $parts; do
    launch "part-${kp#*:}" "pmu=emulated:${kp%%:*} pmu_part=${kp#*:}" pmu_enum,events 1 # verbose: the evidence is judged
done
if [[ ${EMUL_FAULTS:-1} != 0 ]]; then
    while read -r fault kind fsuites expected; do
        [[ $expected == pending:* ]] || launch "fault-$fault-$kind" "$(row_args "$kind") $(fault_opt "$fault")=$fault" "$fsuites"
    done < <(rows)
fi
wait
# The logs are read by the one log reader (tools/pmuboot-log, tools/lib/PmuBoot/Log.pm): the stream's comments, its
# check lines (VERDICT<TAB>NAME<TAB>REASON, a folded line once), its evidence, its summary line, and the suite/check
# of each failed check once per failing CPU (failed-ids).
log_lines() { tools/pmuboot-log checks --lines "$1"; }
# count_lines LINES ERE: how many check lines have a NAME matching ERE
count_lines() { cut -f2 <<<"$1" | grep -cE -- "$2"; }
pmu_names='^cpu([0-9]+|\[[0-9,-]+\])/(pmu_enum/|pmu_regs/|pmi/|skid/|lbr/|pebs/|[a-z_]+/pmu_)'

echo "TAP version 13"
for run in $(for k in $kinds; do echo "$k" "$k-reset"; done); do
    k=${run%-reset}
    status=$(status_of "kind-$run")
    secs=$(cat "$out/kind-$run.secs" 2>/dev/null || echo 0)
    log=$out/kind-$run.log
    summary=$(tools/pmuboot-log summary "$log")
    comments=$(tools/pmuboot-log comments "$log")
    lines=$(log_lines "$log")
    problems=()
    [[ $status -eq 0 ]] || problems+=("run-qemu status $status: $(tail -n 1 "$out/kind-$run.err")")
    grep -q "^pmu: emulated (${k%@kvm})" <<<"$comments" || problems+=("no '# pmu: emulated (${k%@kvm})' header")
    [[ $k != *@kvm ]] || grep -q "^pmu: emulated as a KVM guest's vPMU" <<<"$comments" || problems+=("no '@kvm' header")
    grep -q "^emulated-PMU verdicts" <<<"$comments" || problems+=("no emulated-PMU count line")
    unmarked=$(count_lines "$lines" "$pmu_names")
    marked=$(count_lines "$lines" "${pmu_names}[^ ]+ \\[emulated PMU\\]")
    [[ $unmarked -gt 0 && $unmarked -eq $marked ]] || problems+=("$marked of $unmarked PMU verdicts marked [emulated PMU]")
    nopmu=$(awk -F'\t' '$1 == "skip" && $3 ~ /^no PMU/ { n++ } END { print n + 0 }' <<<"$lines")
    [[ $nopmu -eq 0 ]] || problems+=("$nopmu SKIPs for want of a PMU")
    if is_hybrid "$k"; then  # two kinds of core in the 2 CPUs, per the header comment of emul/kernel/pmu_emul.c
        cores=$(grep -m1 "^pmu: emulated hybrid part" <<<"$comments" | grep -o 'CPUID.1AH:EAX=0x[0-9a-f]*' | sort -u | wc -l)
        [[ $cores -ge 2 ]] || problems+=("$cores kind(s) of core in the hybrid header, expected 2")
    fi
    if [[ ${#problems[@]} -eq 0 ]]; then
        tap yes "emulated/$run: $summary, every PMU verdict marked, no SKIP for want of a PMU (${secs%??????} s)"
    else
        tap no "emulated/$run: $(IFS=';'; echo "${problems[*]}") (see $log)"
    fi
    echo "$run $secs" >>"$out/times.txt"
done
for kv in $variants; do
    name=variant-${kv%%:*}-${kv#*:} log=$out/variant-${kv%%:*}-${kv#*:}.log
    status=$(status_of "$name")
    if [[ $status -eq 0 ]] && grep -q "^pmu: emulated (${kv%%:*})" <<<"$(tools/pmuboot-log comments "$log")"; then
        tap yes "emulated/$kv ($(variant_suites "${kv#*:}")): $(tools/pmuboot-log summary "$log")"
    else
        tap no "emulated/$kv ($(variant_suites "${kv#*:}")): run-qemu status $status: $(tail -n 1 "$out/$name.err") (see $log)"
    fi
done
for u in $uncore_runs; do
    IFS=: read -r face ukind usmp utest <<<"$u"
    name=uncore-$face${utest:+-$utest}
    log=$out/$name.log status=$(status_of "$name")
    problems=()
    [[ $status -eq 0 ]] || problems+=("run-qemu status $status: $(tail -n 1 "$out/$name.err")")
    lines=$(log_lines "$log")
    grep -q "^uncore: emulated ($face:" <<<"$(tools/pmuboot-log comments "$log")" || problems+=("no '# uncore: emulated ($face: ...' header")
    all=$(count_lines "$lines" "^uncore/")
    marked=$(count_lines "$lines" "^uncore/[^ ]+ \\[emulated PMU\\]")
    [[ $all -gt 0 && $all -eq $marked ]] || problems+=("$marked of $all uncore verdicts marked [emulated PMU]")
    unknown=$(awk -F'\t' '$1 == "skip" && $3 ~ /^no uncore PMU known/ { n++ } END { print n + 0 }' <<<"$lines")
    [[ $unknown -eq 0 ]] || problems+=("$unknown SKIPs for want of an uncore")
    if [[ ${#problems[@]} -eq 0 ]]; then
        tap yes "emulated/uncore $face on $ukind, $usmp CPUs${utest:+, uncore_test=$utest}: $(tools/pmuboot-log summary "$log"), every uncore verdict marked"
    else
        tap no "emulated/uncore $face on $ukind, $usmp CPUs${utest:+, uncore_test=$utest}: $(IFS=';'; echo "${problems[*]}") (see $log)"
    fi
done
for kp in $parts; do
    part=${kp#*:} log=$out/part-${kp#*:}.log
    status=$(status_of "part-$part")
    problems=()
    [[ $status -eq 0 ]] || problems+=("run-qemu status $status: $(tail -n 1 "$out/part-$part.err")")
    evidence=$(tools/pmuboot-log evidence "$log")
    grep -q "^pmu: emulated as the part $part " <<<"$(tools/pmuboot-log comments "$log")" || problems+=("no '# pmu: emulated as the part $part' header")
    grep -q $'\t'"event catalog"$'\t'"\"$part version" <<<"$evidence" || problems+=("pmu_enum/discover does not name the part")
    compared=$(awk -F'\t' '$2 == "compared" && $3 ~ /^"[0-9]+ exact events/ { print substr($3, 2) + 0; exit }' <<<"$evidence")
    [[ ${compared:-0} -ge 4 ]] || problems+=("events/exact_gp compared ${compared:-no} exact events")
    if [[ ${#problems[@]} -eq 0 ]]; then
        tap yes "emulated/$kp: $(tools/pmuboot-log summary "$log"), $compared exact events on the part's counters"
    else
        tap no "emulated/$kp: $(IFS=';'; echo "${problems[*]}") (see $log)"
    fi
done
if [[ ${EMUL_FAULTS:-1} != 0 ]]; then
    while read -r fault kind fsuites expected; do
        name="fault/$fault on $kind ($fsuites)"
        if [[ $expected == pending:* ]]; then
            tap skip "$name" "${expected#pending: }"
            continue
        fi
        status=$(status_of "fault-$fault-$kind")
        log=$out/fault-$fault-$kind.log
        problems=()
        want=(); [[ $expected == - ]] || read -r -a want <<<"$expected"
        got=$(tools/pmuboot-log failed-ids "$log" | sort | uniq -c)
        for w in "${want[@]}"; do
            c=$(awk -v id="$w" '$2 == id {print $1}' <<<"$got")
            # A global check (no cpuN/ prefix: suite uncore's) has one line for the machine.
            on=$smp; grep -qE "^[a-z_]+"$'\t'"$w( |"$'\t'")" <<<"$(log_lines "$log")" && on=1
            [[ ${c:-0} -eq $on ]] || problems+=("$w failed on ${c:-0} of $on CPUs")
        done
        while read -r c id; do
            [[ -z $id ]] && continue
            # A membership test in bash, not printf | grep -q: under pipefail grep's early exit on the first line can
            # kill printf with SIGPIPE, and the pipeline then fails although the row names the check (seen under load).
            named=no
            for w in "${want[@]}"; do [[ $w == "$id" ]] && named=yes; done
            [[ $named == yes ]] || problems+=("$id failed ($c CPUs) but the table does not name it")
        done <<<"$got"
        if [[ ${#want[@]} -gt 0 && $status -ne 1 ]] || [[ ${#want[@]} -eq 0 && $status -ne 0 ]]; then
            problems+=("run-qemu status $status: $(tail -n 1 "$out/fault-$fault-$kind.err")")
        fi
        grep -q "^$(fault_opt "$fault"): $fault" <<<"$(tools/pmuboot-log comments "$log")" || problems+=("no '# $(fault_opt "$fault"): $fault' header")
        # As a KVM guest's vPMU a fault that fails nothing must show as that hypervisor's deviation (TODO).
        if [[ ${kind%%+*} == *@kvm && ${#want[@]} -eq 0 ]] && ! grep -q "^todo"$'\t'"cpu" <<<"$(log_lines "$log")"; then
            problems+=("no TODO: the hypervisor's deviation was not reported")
        fi
        if [[ ${#problems[@]} -eq 0 ]]; then
            tap yes "$name: ${expected/#-/nothing} FAIL on every CPU, every other check passes"
        else
            tap no "$name: $(IFS=';'; echo "${problems[*]}") (see $log)"
        fi
    done < <(rows)
fi
echo "1..$n"
exit $bad
