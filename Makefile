# pmuboot build. `make` builds the kernel image and host tools; see README.md for the rest.
# Portable sources (decoders, parsers, the PMU code) compile unchanged into the kernel and the host tests.

BUILD      := build
KERNEL_ELF := $(BUILD)/pmuboot.elf
ISO        := $(BUILD)/pmuboot.iso
VERSION    := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# V=1 shows full command lines.
Q := $(if $(V),,@)
CC      ?= gcc
HOSTCC  ?= gcc
NASM    ?= nasm
LD      ?= ld
OBJCOPY ?= objcopy

# Kernel: freestanding, no red zone (interrupts share the stack), no SSE/x87 (never saved on traps).
# -Wno-missing-field-initializers: check tables list {name, run, scope, expect_vector} positionally and leave
# the optional trailing fields of struct check_def (harness/framework.h) out.
KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-missing-field-initializers -Werror -ffreestanding -fno-builtin -nostdinc \
           -isystem $(shell $(CC) -print-file-name=include) -Ilib/libc/include -I. \
           -m64 -mcmodel=small -mno-red-zone -mgeneral-regs-only -fno-pic -fno-pie \
           -fno-stack-protector -fno-omit-frame-pointer -fno-delete-null-pointer-checks \
           -fno-asynchronous-unwind-tables -DPMUBOOT_KERNEL -DPMUBOOT_VERSION='"$(VERSION)"'
KLDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack -T linker.ld
# -w-unknown-warning: nasm 2.16.01 alignb expands to [warning push], which -w+all then flags.
NASMFLAGS := -f elf64 -w+all -w-unknown-warning -I./

# Host build of the portable sources, with sanitizers.
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. -fsanitize=address,undefined \
               -fno-sanitize-recover=all -fno-omit-frame-pointer
HOST_LDLIBS := -lcmocka

# Portable: lib/ (parsers, identification, decisions), pmu/ (the PMU), emul/ (the emulated PMU's kinds and its
# register model) by wildcard (their kernel/ subfolders are the machine glue, kernel-only); the command-line options
# of kernel/ and harness/ in their portable/ subfolders (the host tests parse every option); and each suite's
# verdict code, in its tests/NAME/portable/ beside the checks that use it, which the host tests hold against
# recorded cases. A file's folder says whether it may touch hardware.
PORTABLE_SRCS := $(wildcard lib/*.c kernel/portable/*.c pmu/*.c emul/*.c emul/model/*.c harness/portable/*.c \
                            tests/*/portable/*.c)
# lib/libc/ is the C library subset (<string.h>) portable code calls: layer 0 like the rest of lib/, compiled into the
# kernel only (which builds with -nostdinc and -Ilib/libc/include), since the host tests link the system's C library.
# tests/ holds kmain and the suite list, a folder per suite, and (not in the kernel) tests/host/ and tests/report/.
# A suite's own host tests (tests/NAME/host/) are one level down, out of the kernel's wildcard.
SUITE_DIRS := $(filter-out tests/host/ tests/report/,$(dir $(wildcard tests/*/)))
KERNEL_ONLY_SRCS := $(wildcard lib/libc/*.c kernel/*.c apic/*.c pmu/kernel/*.c emul/kernel/*.c harness/*.c tests/*.c) \
                    $(foreach d,$(SUITE_DIRS),$(wildcard $(d)*.c))
KERNEL_C_SRCS := $(sort $(PORTABLE_SRCS) $(filter-out $(PORTABLE_SRCS),$(KERNEL_ONLY_SRCS)))
KERNEL_ASM_SRCS := $(wildcard boot/*.asm kernel/*.asm) $(foreach d,$(SUITE_DIRS),$(wildcard $(d)*.asm))
KERNEL_OBJS := $(KERNEL_C_SRCS:%.c=$(BUILD)/k/%.o) $(KERNEL_ASM_SRCS:%.asm=$(BUILD)/k/%.o)

# Host tests: a suite's verdict code is tested beside it (tests/NAME/host/test_*.c), the shared code's (lib/, pmu/,
# emul/, several suites) in tests/host/. Every program lands in build/host/ by its name, so names stay unique.
HOST_TEST_DIRS := tests/host/ $(wildcard tests/*/host/)
HOST_TEST_SRCS := $(wildcard $(addsuffix test_*.c,$(HOST_TEST_DIRS)))
HOST_TESTS := $(addprefix $(BUILD)/host/,$(notdir $(HOST_TEST_SRCS:.c=)))
HOST_TEST_DUPS := $(sort $(foreach t,$(HOST_TESTS),$(if $(filter-out 1,$(words $(filter $(t),$(HOST_TESTS)))),$(notdir $(t)))))
$(if $(HOST_TEST_DUPS),$(error host tests of one name in two folders (build/host/ holds one): $(HOST_TEST_DUPS)))
HOST_LIB   := $(BUILD)/host/libportable.a
HOST_LIB_OBJS := $(PORTABLE_SRCS:%.c=$(BUILD)/host/obj/%.o) $(patsubst %.c,$(BUILD)/host/obj/%.o,$(wildcard tests/host/support/*.c))
TOOLS := $(patsubst tools/%.c,$(BUILD)/tools/%,$(wildcard tools/*.c))

.PHONY: all kernel iso check check-built check-host check-qemu bench lava clean
all: kernel $(TOOLS)
kernel: $(KERNEL_ELF)

$(BUILD)/k/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/k/%.o: %.asm
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) $< -o $@
# nasm 2.16.01 -MD leaves %include files out of the .d file (and -M cannot preprocess %rep over symbols):
# every assembly object depends on every include file instead.
$(KERNEL_ASM_SRCS:%.asm=$(BUILD)/k/%.o): $(wildcard boot/*.inc kernel/*.inc) $(foreach d,$(SUITE_DIRS),$(wildcard $(d)*.inc))

# Link as ELF64, then re-wrap as ELF32: QEMU's multiboot1 loader refuses ELF64 (hw/i386/multiboot.c load_multiboot).
# The boot image drops debug sections; build/pmuboot64.elf keeps them for gdb (docs/running.md, "Debugging").
$(BUILD)/pmuboot64.elf: $(KERNEL_OBJS) linker.ld $(BUILD)/kernel.objlist
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KERNEL_OBJS)

$(KERNEL_ELF): $(BUILD)/pmuboot64.elf
	@echo "  OBJCOPY $@"
	$(Q)$(OBJCOPY) -O elf32-i386 --strip-debug $< $@

iso: $(ISO)
$(ISO): $(KERNEL_ELF) tools/mkiso.sh
	tools/mkiso.sh $(KERNEL_ELF) $@ ""

$(BUILD)/host/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

# Rebuild the archive (and relink the kernel) when the list of objects changes, not only when one is newer:
# a source added later may have an object older than the archive.
$(BUILD)/%.objlist: FORCE
	@mkdir -p $(dir $@)
	@echo '$(OBJLIST_$*)' | cmp -s - $@ || echo '$(OBJLIST_$*)' > $@
OBJLIST_host := $(HOST_LIB_OBJS)
OBJLIST_kernel := $(KERNEL_OBJS)
.PHONY: FORCE

$(HOST_LIB): $(HOST_LIB_OBJS) $(BUILD)/host.objlist
	@rm -f $@
	@echo "  AR      $@"
	$(Q)ar rcs $@ $(HOST_LIB_OBJS)

# One pattern rule per host test folder: make takes the one whose source exists.
define host_test_rule
$$(BUILD)/host/%: $(1)%.c $$(HOST_LIB)
	@mkdir -p $$(dir $$@)
	$$(HOSTCC) $$(HOST_CFLAGS) -MMD -MP $$< $$(HOST_LIB) $$(HOST_LDLIBS) -o $$@
endef
$(foreach d,$(HOST_TEST_DIRS),$(eval $(call host_test_rule,$(d))))

# lib/qr.c is held against libqrencode (Debian libqrencode-dev), in its host test only.
$(BUILD)/host/test_qr: HOST_LDLIBS += -lqrencode
# lib/deflate.c's streams are read back with zlib (zlib1g-dev), in its host test only.
$(BUILD)/host/test_deflate: HOST_LDLIBS += -lz
$(BUILD)/host/test_result_code: HOST_LDLIBS += -lz

$(BUILD)/tools/%: tools/%.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOST_CFLAGS) -MMD -MP $< $(HOST_LIB) -o $@

# bench-pmi runs under valgrind (tools/benchmarks/pmi.sh): no sanitizers, -O2 as in the kernel.
$(BUILD)/tools/bench-pmi: tools/bench-pmi.c pmu/*.[ch] emul/*.[ch] lib/format.c lib/cpu_ident.c lib/uarch.c emul/model/*.[ch] lib/opt_choice.c lib/apic_timer_calc.c tests/host/support/pmi_harness.c tests/host/support/caps_fixture.c tests/host/support/*.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. $(filter %.c,$^) -o $@

check-host: $(HOST_TESTS) $(TOOLS)
check-qemu: $(KERNEL_ELF)

# All tests: host unit tests, then QEMU runs of the kernel; the last line is the summed verdict. The packages
# come first (tools/deps.sh: installed as root, else the apt-get line is printed), then the build.
check:
	tools/deps.sh
	$(MAKE) --no-print-directory check-built

check-built: $(HOST_TESTS) $(TOOLS) $(KERNEL_ELF)
	tools/check.sh

# LAVA's own dispatcher runs the QEMU job (tools/lava/qemu.yaml) and its results are held against pmuboot's: too heavy
# for `make check` (lava-dispatcher pulls about 120 packages), which validates the jobs and their monitors.
lava:
	tools/lava/run.sh

# Every benchmark of tools/bench, or those BENCH names (`make bench BENCH="boot pmi"`; `tools/bench --list`).
bench: $(KERNEL_ELF)
	tools/bench $(BENCH)

clean:
	rm -rf $(BUILD)

# A .d file whose source was moved or deleted names a prerequisite make has no rule for, and the target that
# still exists under its name (a host test moved beside its suite) could not be rebuilt: such a file is left out
# (its first prerequisite, the source, cannot be opened), and make rebuilds the target from its rule.
DEPS := $(shell find $(BUILD) -name '*.d' 2>/dev/null)
STALE_DEPS := $(if $(DEPS),$(shell awk 'FNR == 1 { sub(/^[^:]*:[ \t]*/, ""); split($$0, a, /[ \t\\]+/); \
    if (a[1] != "" && (getline x < a[1]) < 0) print FILENAME; close(a[1]) }' $(DEPS) 2>/dev/null))
-include $(filter-out $(STALE_DEPS),$(DEPS))
