/* The CPUID instruction as a cpuid_source. */
#pragma once
#include "kernel/cpuid_source.h"

extern const struct cpuid_source cpuid_hw;
