/* The per-model event catalog: for each part the vendor's catalog describes, the events whose meaning the
 * events suite's single-step oracle can construct, with the counters the catalog allows them on. Generated
 * from the vendor's data by tools/gen-event-catalog (pmu/event_catalog_data.c, from tools/catalog/: Intel's
 * intel/perfmon, its mapfile.csv and core event files), never typed. Portable: the kernel and the host tests
 * compile it. */
#pragma once
#include "lib/cpu_ident.h"
#include "lib/insn_class.h"
#include "lib/types.h"
#include "pmu/events.h"

struct pmu_caps;

/* What an event counts, in the oracle's terms (lib/insn_class.h). Uop events are bounded, not exact. */
enum evc {
    EVC_INSTRUCTIONS,  /* instructions retired */
    EVC_BRANCHES,      /* branch instructions retired, near and far */
    EVC_COND,          /* conditional branches retired */
    EVC_COND_TAKEN,    /* ... that were taken */
    EVC_COND_NTAKEN,   /* ... that were not taken */
    EVC_NEAR_TAKEN,    /* taken near branches: conditional taken and every unconditional near one */
    EVC_TAKEN,         /* taken branches, far ones included (AMD's PMCx0C4 counts every control transfer) */
    EVC_NEAR_CALL,     /* near calls, direct and indirect */
    EVC_NEAR_RETURN,   /* near returns */
    EVC_FAR,           /* far branches (far JMP/CALL/RET, INT, IRET, SYSCALL/SYSRET) */
    EVC_INDIRECT,      /* indirect near branches, returns excluded */
    EVC_INDIRECT_CALL, /* indirect near calls */
    EVC_INDIRECT_JMP,  /* indirect near jumps */
    EVC_REL_CALL,      /* direct (relative) near calls */
    EVC_REL_JMP,       /* direct (relative) near jumps */
    EVC_LOADS,         /* load instructions retired */
    EVC_STORES,        /* store instructions retired */
    EVC_LOAD_UOPS,     /* load uops retired: one per load on the workloads, not exact in general */
    EVC_STORE_UOPS,    /* store uops retired */
    EVC_COUNT
};
const char *evc_name(enum evc c);
/* The classes one retired instruction belongs to (bit n: class n), from its opcode class and whether it left the
 * fall-through path (`taken`; a conditional branch that did not is not taken, every other transfer is). The one
 * place the oracle's view of an instruction becomes event classes: the events suite's oracle pass and the emulated
 * PMU both count by it, and tests/host/test_event_catalog.c holds it to the catalog's descriptions. */
u32 evc_classes(const struct insn_class *cls, bool taken);

#define CATALOG_NO_FIXED 255

struct catalog_event {
    struct pmu_event ev; /* as pmu/events.h programs it: EventName, EventCode, UMask, CounterMask, the file */
    u8 cls;             /* enum evc */
    u8 inv, edge;       /* Invert, EdgeDetect */
    u8 deprecated;      /* Deprecated */
    u32 gp_mask;        /* Counter: the general-purpose counters it may be programmed on (bit n = counter n) */
    u8 fixed;           /* Counter "Fixed counter N": IA32_FIXED_CTRn (the older files' 1-based numbers made
                         * 0-based by the generator), else CATALOG_NO_FIXED */
    const char *errata; /* Errata ("" when none) */
    const char *brief;  /* BriefDescription: what the class stands for (tests/host/test_event_catalog.c) */
};

struct catalog_part {
    const char *name;    /* Intel: the event file's stem (sapphirerapids_core); AMD: Linux's directory (amdzen4) */
    const char *file;    /* its path in the catalog */
    const char *catalog; /* "intel/perfmon" or "Linux tools/perf/pmu-events" */
    const char *source;  /* the repository and commit the part's files were read at */
    const char *version; /* its Version */
    u8 vendor;           /* enum cpu_vendor: VENDOR_INTEL, VENDOR_AMD */
    u8 family;           /* as CPUID.01H displays it */
    u64 models[4];       /* bit m: model m matches (the row's pattern, less the models an earlier row claims) */
    u16 stepping_mask;   /* bit n: stepping n matches (0xFFFF: any) */
    u8 core_type;        /* hybrid parts: CPUID.1AH:EAX[31:24] (0x20 Atom, 0x40 Core); 0 otherwise */
    const char *core_role;
    u32 first, count;    /* its events: catalog_events[first .. first + count) */
    u32 total;           /* events in the file, those the oracle cannot construct included */
    u32 gp_all;          /* every GP counter any event of the file lists: the part's counters as the file sees
                          * them (an event listing fewer is constrained to those); 0xffffffff where the files list
                          * no counters (AMD) */
    u8 num_gp, num_fixed; /* Linux's counter.json for the part (its core unit, or the core type's): 0 if none */
    const char *counters_source; /* that file and its commit ("" if none) */
};

extern const char event_catalog_source[];
extern const struct catalog_event catalog_events[];
extern const u32 catalog_event_count;
extern const struct catalog_part catalog_parts[];
extern const u32 catalog_part_count;

/* The part for a CPU (vendor; CPUID.01H family, model, stepping as displayed; core_type from CPUID.1AH, 0 where
 * the CPU has none): the row of the catalog's mapfile that matches, a hybrid part's row for that core type.
 * NULL when the catalog has none: the caller says so. */
const struct catalog_part *event_catalog_find(u32 vendor, u32 family, u32 model, u32 stepping, u8 core_type);
/* The part named `name` (catalog_part.name; the first row of that name), NULL if none. */
const struct catalog_part *event_catalog_part_named(const char *name);
/* The lowest model and stepping the part matches: a signature that selects it. False if it matches none. */
bool event_catalog_part_example(const struct catalog_part *p, u32 *model, u32 *stepping);
/* The part's event of class c that may count on GP counter `counter` (the first in catalog order), or NULL. */
const struct catalog_event *event_catalog_event(const struct catalog_part *p, enum evc c, u32 counter);

/* The part for the CPU these capabilities describe (Intel architectural and AMD kinds; NULL otherwise or when
 * the catalog has none). */
const struct catalog_part *event_catalog_for(const struct pmu_caps *caps);
/* The class named `name` (evc_name), EVC_COUNT if none. */
enum evc evc_from_name(const char *name);
/* The part's first general-counter event of class c, as pmu/events.h programs it; NULL if the part has none. */
const struct pmu_event *event_catalog_pmu_event(const struct catalog_part *p, enum evc c);
/* Whether e is the event of one of catalog_events. */
bool event_catalog_owns(const struct pmu_event *e);
/* The part's event with this encoding on general counters (the first in catalog order), or NULL. */
const struct catalog_event *event_catalog_by_code(const struct catalog_part *p, u16 code, u8 umask);
