/* Suite "uncore"'s per-scope plan (tests/uncore/portable/uncore_scope.h). */
#include "tests/uncore/portable/uncore_scope.h"

#include <string.h>

static u32 scope_index(struct uncore_scope_plan *p, u32 key, u32 thread, const char **why)
{
    for (u32 s = 0; s < p->nscopes; s++)
        if (p->scope_key[s] == key)
            return s;
    if (p->nscopes == UNCORE_SCOPE_MAX) {
        *why = "more packages or L3 complexes than the plan holds (UNCORE_SCOPE_MAX)";
        return UINT32_MAX;
    }
    u32 s = p->nscopes++;
    p->scope_key[s] = key;
    p->leader[s] = thread;
    return s;
}

static bool add_core(struct uncore_scope_plan *p, u32 s, u32 key, const char **why)
{
    u32 *keys = p->core_keys[s], n = p->cores[s], i = 0;
    while (i < n && keys[i] < key)
        i++;
    if (i < n && keys[i] == key)
        return true;
    if (n == UNCORE_SCOPE_MAX_CORES) {
        *why = "more cores in one package than the plan holds (UNCORE_SCOPE_MAX_CORES)";
        return false;
    }
    memmove(&keys[i + 1], &keys[i], (n - i) * sizeof(*keys));
    keys[i] = key;
    p->cores[s]++;
    return true;
}

bool uncore_scope_plan(const u32 *scope_key, const u32 *core_key, const bool *present, u32 n, u32 *scope_of,
                       u32 *core_index, struct uncore_scope_plan *p, const char **why)
{
    memset(p, 0, sizeof(*p));
    for (u32 i = 0; i < n; i++) {
        scope_of[i] = core_index[i] = UINT32_MAX;
        if (present && !present[i])
            continue;
        u32 s = scope_index(p, scope_key[i], i, why);
        if (s == UINT32_MAX || !add_core(p, s, core_key[i], why))
            return false;
        scope_of[i] = s;
        p->threads[s]++;
    }
    for (u32 i = 0; i < n; i++) {
        if (scope_of[i] == UINT32_MAX)
            continue;
        const u32 *keys = p->core_keys[scope_of[i]];
        for (u32 r = 0; r < p->cores[scope_of[i]]; r++)
            if (keys[r] == core_key[i])
                core_index[i] = r;
    }
    return true;
}
