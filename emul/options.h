/* The emulated PMU's command-line options: pmu=, pmu_fault= (docs/options.md). */
#pragma once
#include "lib/cmdline.h"

struct emul_options {
    char pmu_emulated[24];      /* pmu=emulated:KIND: the kind's name (emul/emul.h); empty = the real PMU */
    u32 pmu_emulated_kvm;       /* pmu=emulated:KIND@kvm: presented as a KVM guest's vPMU (hypervisor bit) */
    char pmu_part[32];          /* pmu_part=NAME: the emulated kind presents this part of the event catalog */
    u32 pmu_faults;             /* pmu_fault=NAME[,NAME]: enum pmu_model_fault bits (needs pmu=emulated) */
    u32 pmu_skid;               /* pmu_skid=N: the emulated PMU's PMI comes N instructions after the overflow */
    char pmu_lbr[16];           /* pmu_lbr=none|arch|amd|legacy:N: the emulated PMU's LBR; empty = the kind's own */
    char pmu_pebs[8];           /* pmu_pebs=none|N|Na: the emulated PMU's PEBS format; empty = the kind's own */
    char uncore_emulated[16];   /* uncore=emulated:FACE: an uncore kind's emulated face (pmu/uncore_kind.h); empty:
                                 * none (docs/uncore.md) */
    u32 uncore_off;             /* uncore=off: suite uncore writes no uncore register of a recognised part (it SKIPs) */
    u32 uncore_hw_path;         /* uncore_test=hardware-path: suite uncore drives the emulated uncore through its
                                 * hardware path (testing: the probe, topology plan, repeats, sanity clock, put-back) */
    u32 uncore_faults;          /* uncore_fault=NAME[,NAME]: enum uncore_model_fault bits (needs uncore=emulated) */
};

extern const struct opt_table emul_option_table;
const struct emul_options *emul_options(void);
