/* The emulated PMU's branch predictor (emul/emul.h): static backward-taken / forward-not-taken prediction, the
 * rule of the static predictors of early Pentium-class cores (Intel 64 and IA-32 Optimization Reference Manual,
 * "Static Prediction": "predict backward conditional branches to be taken ... forward conditional branches to
 * be not taken"). Deterministic and simple, so "mispredicted branches retired" has a defined value for every
 * run; it is a model, not a claim about any real predictor. */
#include "emul/emul.h"

/* Legacy and REX prefixes that may precede a Jcc/LOOP/JCXZ (SDM Vol.2A 2.1.1, 2.2.1). */
static bool is_prefix(u8 b)
{
    return b == 0x2e || b == 0x3e || b == 0x26 || b == 0x36 || b == 0x64 || b == 0x65 || b == 0x66 ||
           b == 0x67 || b == 0xf2 || b == 0xf3 || (b & 0xf0) == 0x40;
}

bool pmu_emul_mispredicted(const u8 *insn, u8 len, bool taken)
{
    u8 i = 0;
    while (i < len && is_prefix(insn[i]))
        i++;
    if (i >= len)
        return false;
    s64 disp;
    if (insn[i] == 0x0f && len >= 4) { /* Jcc rel32: 0F 8x cd, the displacement last (SDM Vol.2A Jcc) */
        const u8 *d = insn + len - 4;
        disp = (s32)((u32)d[0] | (u32)d[1] << 8 | (u32)d[2] << 16 | (u32)d[3] << 24);
    } else { /* Jcc rel8 (7x cb), LOOPcc/LOOP/JrCXZ (E0-E3 cb): the displacement last */
        disp = (s8)insn[len - 1];
    }
    bool predicted_taken = disp < 0;
    return predicted_taken != taken;
}
