/* The register model's PEBS (part of struct pmu_model, emul/model/pmu_model.h): IA32_DS_AREA, IA32_PEBS_ENABLE and
 * MSR_PEBS_DATA_CFG, and the assist that writes records into the DS buffer through the memory callbacks it is given
 * (the kernel's identity map, or a host test's buffer). Its own reading of the SDM for when a record is written and
 * what it holds (pebs_model.c cites each rule); pmu/pebs.c decodes what this writes. */
#pragma once
#include "lib/types.h"
#include "emul/model/lbr_model.h"
#include "pmu/pebs.h"

struct pebs_model_mem {
    bool (*read)(void *ctx, u64 addr, void *buf, u32 len);
    bool (*write)(void *ctx, u64 addr, const void *buf, u32 len);
    void *ctx;
};

/* The instruction being retired, as the assist records it: its address, the next one, the registers after it (in
 * the x86 encoding order RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8-R15), RFLAGS and the time stamp. */
struct pebs_model_insn {
    u64 ip, next_ip, rflags, tsc;
    u64 gpr[16];
};

struct pebs_model {
    struct pebs_caps c;
    struct pebs_model_mem mem;
    u64 ds_area, enable, data_cfg;
    u64 armed;          /* counters that overflowed with PEBS enabled: the next event writes a record */
    struct pebs_model_insn insn;
    u64 records;        /* records the assist made (for the missing-record fault) */
    u8 buf[0x1d0 + 24 * 256]; /* one record being built: every group, 256 LBR entries */
};

void pebs_model_init(struct pebs_model *p, const struct pebs_caps *c, const struct pebs_model_mem *mem);
void pebs_model_reset(struct pebs_model *p);
bool pebs_model_owns(const struct pebs_model *p, u32 msr);
/* 0 or HW_GP. gp_mask/fixed_mask: the counters that exist (an enable bit for another one is reserved). */
int pebs_model_rdmsr(const struct pebs_model *p, u32 msr, u64 *val);
int pebs_model_wrmsr(struct pebs_model *p, u32 msr, u64 val);
/* Build the record for the counters `bits` in out (p->buf): the instruction p->insn, `adaptive` when one of them has
 * Adaptive_Record set, `status` the global status (formats 1-2), `lbr` the LBR the LBR group copies (may be NULL).
 * Returns its size. */
u32 pebs_model_record(const struct pebs_model *p, u64 bits, bool adaptive, u64 status, const struct lbr_model *lbr,
                      u32 faults, u8 *out);
