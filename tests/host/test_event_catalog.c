/* The generated event catalog (pmu/event_catalog_data.c, tools/gen-event-catalog from intel/perfmon): which part
 * a CPU gets, the counters each event may use, and each event's oracle class held against the vendor's own
 * description of it, so a wrong row of the generator's name table fails here. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <string.h>

#include "pmu/event_catalog.h"

static const struct catalog_part *find(u32 model, u32 stepping, u8 core_type)
{
    return event_catalog_find(VENDOR_INTEL, 6, model, stepping, core_type);
}

/* Rows of intel/perfmon's mapfile.csv: family-model(-stepping) and core type pick the file. */
static void parts_by_family_model_stepping(void **state)
{
    (void)state;
    const struct catalog_part *p = find(0x8F, 8, 0);
    assert_non_null(p);
    assert_string_equal(p->name, "sapphirerapids_core");
    assert_string_equal(find(0x1A, 5, 0)->name, "NehalemEP_core");
    assert_string_equal(find(0x5E, 3, 0)->name, "skylake_core");
    /* Model 0x55 by stepping: Skylake-SP up to 4, Cascade Lake from 5. */
    assert_string_equal(find(0x55, 4, 0)->name, "skylakex_core");
    assert_string_equal(find(0x55, 7, 0)->name, "cascadelakex_core");
    /* Alder Lake: one row per core type (CPUID.1AH:EAX[31:24]). */
    assert_string_equal(find(0x97, 2, 0x40)->name, "alderlake_goldencove_core");
    assert_string_equal(find(0x97, 2, 0x20)->name, "alderlake_gracemont_core");
    /* Unknown model, another family, a stepping out of range: none, never a guess. */
    assert_null(find(0x01, 0, 0));
    assert_null(event_catalog_find(VENDOR_INTEL, 0x19, 0x11, 0, 0));
    assert_null(find(0x8F, 16, 0));
}

/* Every event may count somewhere; INST_RETIRED.ANY is IA32_FIXED_CTR0 in every file (the older files' 1-based
 * "Fixed counter 1" made 0-based); a general counter's event is found only on a counter the catalog lists. */
static void counters_from_the_catalog(void **state)
{
    (void)state;
    u32 fixed_any = 0;
    for (u32 i = 0; i < catalog_event_count; i++) {
        const struct catalog_event *e = &catalog_events[i];
        assert_true(e->gp_mask || e->fixed != CATALOG_NO_FIXED);
        if (!strcmp(e->ev.name, "INST_RETIRED.ANY")) {
            assert_int_equal(e->fixed, 0);
            fixed_any++;
        }
    }
    assert_true(fixed_any >= 30);
    /* Sapphire Rapids: the loads event on counters 0-3 only, branches on all 8. */
    const struct catalog_part *spr = find(0x8F, 8, 0);
    const struct catalog_event *ld = event_catalog_event(spr, EVC_LOADS, 3);
    assert_non_null(ld);
    assert_string_equal(ld->ev.name, "MEM_INST_RETIRED.ALL_LOADS");
    assert_int_equal(ld->ev.event, 0xD0);
    assert_int_equal(ld->ev.umask, 0x81);
    assert_null(event_catalog_event(spr, EVC_LOADS, 4));
    assert_non_null(event_catalog_event(spr, EVC_BRANCHES, 7));
    /* Nehalem's ALL_BRANCHES has umask 0x04 (0x00 on later cores): the data says so, not a rule. */
    const struct catalog_event *br = event_catalog_event(find(0x1A, 5, 0), EVC_BRANCHES, 0);
    assert_non_null(br);
    assert_int_equal(br->ev.umask, 0x04);
    /* Gracemont's conditional branches: umask 0x7e. */
    const struct catalog_event *jcc = event_catalog_event(find(0x97, 2, 0x20), EVC_COND, 0);
    assert_non_null(jcc);
    assert_int_equal(jcc->ev.umask, 0x7E);
}

static bool has(const char *text, const char *word)
{
    char low[512];
    size_t n = strlen(text);
    if (n >= sizeof(low))
        n = sizeof(low) - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)text[i]);
    low[n] = 0;
    return strstr(low, word) != NULL;
}

/* The class of each event against the vendor's BriefDescription: the words each class stands for. */
static void classes_match_the_descriptions(void **state)
{
    (void)state;
    u32 wrong = 0;
    for (u32 i = 0; i < catalog_event_count; i++) {
        const struct catalog_event *e = &catalog_events[i];
        const char *d = e->brief;
        bool ok;
        switch (e->cls) {
        case EVC_INSTRUCTIONS: ok = has(d, "instructions retired") || has(d, "retired instructions"); break;
        case EVC_BRANCHES:
            ok = has(d, "all branch") || has(d, "all (macro) branch") || has(d, "retired branch") ||
                 has(d, "number of branch instructions retired");
            break;
        case EVC_COND:
            ok = (has(d, "conditional") || has(d, "jcc")) && (!has(d, "taken") || has(d, "both taken and not taken"));
            break;
        case EVC_COND_TAKEN: ok = (has(d, "conditional") || has(d, "jcc")) && has(d, "taken") && !has(d, "not taken"); break;
        case EVC_COND_NTAKEN: ok = has(d, "not taken"); break;
        case EVC_NEAR_TAKEN: ok = has(d, "taken") && !has(d, "not taken") && !has(d, "conditional"); break;
        case EVC_TAKEN: ok = has(d, "taken") && !has(d, "not taken") && !has(d, "conditional"); break;
        case EVC_NEAR_CALL: ok = has(d, "call") && !has(d, "indirect call") && !has(d, "relative"); break;
        case EVC_NEAR_RETURN: ok = has(d, "return") || has(d, "near ret "); break;
        case EVC_FAR: ok = has(d, "far"); break;
        case EVC_INDIRECT: /* returns excluded, in so many words or by naming the two kinds it counts */
            ok = has(d, "indirect") && (has(d, "excluding returns") || (has(d, "jmp") && has(d, "call")));
            break;
        case EVC_INDIRECT_CALL: ok = has(d, "indirect") && has(d, "call"); break;
        case EVC_INDIRECT_JMP: ok = has(d, "indirect") && (has(d, "jmp") || has(d, "jump")); break;
        case EVC_REL_CALL: ok = has(d, "call") && (has(d, "relative") || has(d, "direct")); break;
        case EVC_REL_JMP: ok = (has(d, "jmp") || has(d, "jump")) && (has(d, "relative") || has(d, "direct")); break;
        case EVC_LOADS: case EVC_LOAD_UOPS: ok = has(d, "load"); break;
        case EVC_STORES: case EVC_STORE_UOPS: ok = has(d, "store"); break;
        default: ok = false; break;
        }
        if (!ok) {
            print_error("%s is mapped to '%s', which its description does not say: \"%s\"\n", e->ev.name,
                        evc_name(e->cls), d);
            wrong++;
        }
    }
    assert_int_equal(wrong, 0);
}

/* The classes of one instruction (evc_classes), from real encodings through the oracle's classifier: what the
 * events suite's oracle and the emulated PMU count for each catalog class. */
static u32 classes_of(const u8 *bytes, size_t n, bool taken)
{
    struct insn_class c;
    assert_true(insn_classify(bytes, n, &c));
    return evc_classes(&c, taken);
}
#define B(x) (1u << EVC_##x)
static void instruction_classes(void **state)
{
    (void)state;
    static const u8 add[] = {0x48, 0x83, 0xc0, 0x01}, load[] = {0x48, 0x8b, 0x07}, store[] = {0x48, 0x89, 0x07};
    static const u8 jz[] = {0x74, 0x10}, jmp[] = {0xeb, 0x10}, jmp_r[] = {0xff, 0xe1}, call[] = {0xe8, 0, 0, 0, 0};
    static const u8 call_r[] = {0x41, 0xff, 0xd0}, ret[] = {0xc3}, retf[] = {0x48, 0xcb};
    assert_int_equal(classes_of(add, sizeof(add), false), B(INSTRUCTIONS));
    assert_int_equal(classes_of(load, sizeof(load), false), B(INSTRUCTIONS) | B(LOADS) | B(LOAD_UOPS));
    assert_int_equal(classes_of(store, sizeof(store), false), B(INSTRUCTIONS) | B(STORES) | B(STORE_UOPS));
    u32 br = B(INSTRUCTIONS) | B(BRANCHES);
    assert_int_equal(classes_of(jz, sizeof(jz), true), br | B(COND) | B(COND_TAKEN) | B(TAKEN) | B(NEAR_TAKEN));
    assert_int_equal(classes_of(jz, sizeof(jz), false), br | B(COND) | B(COND_NTAKEN));
    assert_int_equal(classes_of(jmp, sizeof(jmp), true), br | B(TAKEN) | B(NEAR_TAKEN) | B(REL_JMP));
    assert_int_equal(classes_of(jmp_r, sizeof(jmp_r), true),
                     br | B(TAKEN) | B(NEAR_TAKEN) | B(INDIRECT_JMP) | B(INDIRECT));
    /* An unconditional transfer to the next instruction is still taken (ew_straight's JMP with n = 0 can be). */
    assert_int_equal(classes_of(jmp_r, sizeof(jmp_r), false),
                     br | B(TAKEN) | B(NEAR_TAKEN) | B(INDIRECT_JMP) | B(INDIRECT));
    u32 st = B(STORES) | B(STORE_UOPS), ld = B(LOADS) | B(LOAD_UOPS);
    assert_int_equal(classes_of(call, sizeof(call), true), br | st | B(TAKEN) | B(NEAR_TAKEN) | B(NEAR_CALL) | B(REL_CALL));
    assert_int_equal(classes_of(call_r, sizeof(call_r), true),
                     br | st | B(TAKEN) | B(NEAR_TAKEN) | B(NEAR_CALL) | B(INDIRECT_CALL) | B(INDIRECT));
    assert_int_equal(classes_of(ret, sizeof(ret), true), br | ld | B(TAKEN) | B(NEAR_TAKEN) | B(NEAR_RETURN));
    /* Far: a branch and taken (AMD's 0C4h counts it), never near. */
    assert_int_equal(classes_of(retf, sizeof(retf), true), br | ld | B(TAKEN) | B(FAR));
}
#undef B

/* Each part names its file and version and holds the classes every core since Sandy Bridge documents. */
static void parts_are_complete(void **state)
{
    (void)state;
    assert_true(catalog_part_count >= 40);
    for (u32 i = 0; i < catalog_part_count; i++) {
        const struct catalog_part *p = &catalog_parts[i];
        assert_true(p->first + p->count <= catalog_event_count);
        assert_true(p->count > 0 && p->total >= p->count);
        assert_true(strlen(p->file) > 0 && strlen(p->version) > 0);
        assert_non_null(event_catalog_event(p, EVC_BRANCHES, 0));
    }
    assert_non_null(strstr(event_catalog_source, "intel/perfmon"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parts_by_family_model_stepping),
        cmocka_unit_test(counters_from_the_catalog),
        cmocka_unit_test(classes_match_the_descriptions),
        cmocka_unit_test(instruction_classes),
        cmocka_unit_test(parts_are_complete),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
