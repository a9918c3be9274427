#ifndef JETSIM_CPREFETCH_H
#define JETSIM_CPREFETCH_H

#include <stdint.h>

/// Asks the CPU to start loading the cache line at `address` for a write soon, without waiting for it (Swift has no
/// prefetch of its own). A hint only: it never faults, whatever the address.
static inline __attribute__((always_inline)) void jetsim_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

/// `jetsim_prefetch` of an address computed as an integer: an element's place past an array's end is then no pointer
/// arithmetic out of bounds, only a hint that loads nothing useful.
static inline __attribute__((always_inline)) void jetsim_prefetch_address(uintptr_t address) {
    __builtin_prefetch((const void *)address, 1, 3);
}

#endif
