/* Look-up in the generated table (see tco_lpc_ids.h), sorted by device ID. */
#include "lib/tco_lpc_ids.h"

const char *tco_lpc_name(u16 device)
{
    unsigned lo = 0, hi = tco_lpc_ids_count;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (tco_lpc_ids[mid].device == device)
            return tco_lpc_ids[mid].name;
        if (tco_lpc_ids[mid].device < device)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
