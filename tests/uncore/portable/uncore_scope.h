/* Suite "uncore"'s per-scope plan: which thread runs each package's (AMD: each L3 complex's) checks, and which bit of
 * the PMI routing field names each thread's core. The inputs are plain keys so that the caller decides where they
 * come from (the package ID of its topology, or on AMD the L3 ID Linux amd/uncore.c groups by). */
#pragma once
#include "lib/types.h"

#define UNCORE_SCOPE_MAX 64       /* scopes (packages, L3 complexes) */
#define UNCORE_SCOPE_MAX_CORES 64 /* distinct cores in one scope */

struct uncore_scope_plan {
    u32 nscopes;
    u32 scope_key[UNCORE_SCOPE_MAX];
    u32 leader[UNCORE_SCOPE_MAX]; /* the lowest-index present thread of the scope */
    u32 threads[UNCORE_SCOPE_MAX];
    u32 cores[UNCORE_SCOPE_MAX];  /* distinct core keys in the scope */
    u32 core_keys[UNCORE_SCOPE_MAX][UNCORE_SCOPE_MAX_CORES]; /* ascending */
};

/* n threads (index = CPU index) with their scope and core keys; present[i] false leaves thread i out (NULL: all).
 * Scopes are numbered by first appearance. scope_of[i] and core_index[i] (the rank of thread i's core key among its
 * scope's, ascending: the manuals' "core n", assumed to count a package's cores in APIC ID order, docs/uncore.md)
 * are set for present threads, UINT32_MAX for the others. false with *why when a limit is passed. */
bool uncore_scope_plan(const u32 *scope_key, const u32 *core_key, const bool *present, u32 n, u32 *scope_of,
                       u32 *core_index, struct uncore_scope_plan *p, const char **why);
