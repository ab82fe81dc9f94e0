/* Arrays with one element per logical CPU, sized at boot for the CPUs that exist.
 *
 * A static array of MAX_CPUS elements would cost every machine the largest machine's memory (8192 CPUs of
 * this kernel's per-CPU state is some 90 MB, and under UEFI the image must fit the memory map). Instead each
 * per-CPU array is a pointer: until percpu_arrays_grow() it points at one static element, the boot CPU's, so
 * the boot CPU may use it from the first instruction; percpu_arrays_grow(n) gives every registered array n
 * elements from early_alloc(), element 0 copied. Code indexes it as before: name[cpu] (and name[cpu][k] for an
 * array of arrays). Indexes up to percpu_capacity() - 1 are valid. */
#pragma once
#include "lib/types.h"

struct percpu_array {
    void **base; /* the pointer to regrow */
    u32 elem_size, align;
    const char *name;
};

/* Register the pointer p (which points at the boot CPU's element) with percpu_arrays_grow. */
#define PER_CPU_REGISTER(p, tag)                                                                                   \
    static const struct percpu_array percpu_array_##tag                                                            \
        __attribute__((section(".percpu_arrays"), used, aligned(8))) = {(void **)&(p), sizeof(*(p)),              \
                                                                        __alignof__(*(p)), #p}

/* A file-local per-CPU array: PER_CPU_ARRAY(u64, noise) for `u64 noise[cpus]`,
 * PER_CPU_ARRAY(u32[2], hits) for `u32 hits[cpus][2]`. */
#define PER_CPU_ARRAY(type, name)                                                                                  \
    static __typeof__(type) name##_boot_[1];                                                                       \
    static __typeof__(type) *name = name##_boot_;                                                                  \
    PER_CPU_REGISTER(name, name)

/* The same, visible to other files (declare it there as `extern type *name;`). */
#define PER_CPU_ARRAY_GLOBAL(type, name)                                                                           \
    static __typeof__(type) name##_boot_[1];                                                                       \
    __typeof__(type) *name = name##_boot_;                                                                         \
    PER_CPU_REGISTER(name, name)

/* Zero every element of a per-CPU array. */
#define PER_CPU_CLEAR(name) memset((void *)(name), 0, sizeof(*(name)) * percpu_capacity())

/* Give every per-CPU array count elements (count >= 1), the boot CPU's kept. On the boot CPU, before any AP
 * starts. Returns the capacity reached: count, or 1 when memory ran out (then nothing moved and the reason,
 * with the bytes asked for, is in why). */
u32 percpu_arrays_grow(u32 count, char *why, u32 why_len);
u32 percpu_capacity(void);
/* Bytes one CPU costs across all per-CPU arrays (the report prints it). */
u64 percpu_bytes_per_cpu(void);
