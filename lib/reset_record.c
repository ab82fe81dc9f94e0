#include "lib/reset_record.h"

#include <string.h>

#define MAGIC0 'P'
#define MAGIC1 'R'
#define VERSION 1

void reset_record_encode(const struct reset_record *r, u8 out[RESET_RECORD_BYTES])
{
    memset(out, 0, RESET_RECORD_BYTES);
    out[0] = MAGIC0;
    out[1] = MAGIC1;
    out[2] = VERSION;
    out[3] = r->requested;
    out[4] = r->state;
    out[5] = r->current;
    out[6] = r->boots;
    for (u32 i = 0; i < RESET_TYPES; i++) {
        out[7 + i] = r->result[i];
        out[7 + RESET_TYPES + i] = r->mismatches[i];
    }
    cmos_record_seal(out);
}

bool reset_record_decode(const u8 in[RESET_RECORD_BYTES], struct reset_record *r)
{
    memset(r, 0, sizeof(*r));
    if (in[0] != MAGIC0 || in[1] != MAGIC1 || in[2] != VERSION || !cmos_record_sealed(in))
        return false;
    if (in[4] > RESET_STATE_RUNNING || in[5] >= RESET_TYPES || (in[3] & ~RESET_ALL))
        return false;
    r->requested = in[3];
    r->state = in[4];
    r->current = in[5];
    r->boots = in[6];
    for (u32 i = 0; i < RESET_TYPES; i++) {
        r->result[i] = in[7 + i];
        r->mismatches[i] = in[7 + RESET_TYPES + i];
    }
    return true;
}

bool reset_record_valid(const u8 b[RESET_RECORD_BYTES])
{
    struct reset_record r;
    return reset_record_decode(b, &r);
}
