/* An option with a fixed set of values (lib/cmdline.h opt_choice), shared by every layer's option table. */
#include "lib/cmdline.h"

#include <string.h>

const char *opt_choice(const char *v, const char *const *names, u32 *out, const char *why)
{
    for (u32 i = 0; names[i]; i++)
        if (!strcmp(v, names[i])) {
            *out = i;
            return NULL;
        }
    return why;
}
