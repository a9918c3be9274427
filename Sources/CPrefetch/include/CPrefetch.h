#ifndef JETSIM_CPREFETCH_H
#define JETSIM_CPREFETCH_H

/// Asks the CPU to start loading the cache line at `address` for a write soon, without waiting for it (Swift has no
/// prefetch of its own). A hint only: it never faults, whatever the address.
static inline __attribute__((always_inline)) void jetsim_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
