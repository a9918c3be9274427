// jemalloc's non-standard API (Debian: libjemalloc-dev, 5.3, built without a symbol prefix).
// Swift does not import function-like macros, so the flags are wrapped here.
// No _GNU_SOURCE here: it makes debug builds fail with an fd_set module conflict.
#include <jemalloc/jemalloc.h>

/// Flags that place an allocation in arena `index` and bypass the thread cache, so every byte is
/// accounted to that arena at once.
static inline int jetsim_arena_flags(unsigned index) {
    return MALLOCX_ARENA(index) | MALLOCX_TCACHE_NONE;
}
