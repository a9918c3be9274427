// jemalloc's non-standard API (Debian: libjemalloc-dev, 5.3). Swift calls it only through these wrappers:
// Swift does not import function-like macros (MALLOCX_ARENA), and a build configured with a symbol prefix
// (je_mallocx, …) renames the functions with macros in jemalloc.h, which take effect here, in C — so the same
// Swift code links against a prefixed or an unprefixed build (Debian's has no prefix).
// No _GNU_SOURCE here: it makes debug builds fail with an fd_set module conflict.
#include <jemalloc/jemalloc.h>

/// Flags that place an allocation in arena `index` and bypass the thread cache, so every byte is
/// accounted to that arena at once.
static inline int jetsim_arena_flags(unsigned index) {
    return MALLOCX_ARENA(index) | MALLOCX_TCACHE_NONE;
}

static inline void *jetsim_mallocx(size_t size, int flags) { return mallocx(size, flags); }
static inline void jetsim_dallocx(void *pointer, int flags) { dallocx(pointer, flags); }
static inline int jetsim_mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen) {
    return mallctl(name, oldp, oldlenp, newp, newlen);
}
static inline int jetsim_mallctlnametomib(const char *name, size_t *mibp, size_t *miblenp) {
    return mallctlnametomib(name, mibp, miblenp);
}
static inline int jetsim_mallctlbymib(const size_t *mib, size_t miblen, void *oldp, size_t *oldlenp, void *newp, size_t newlen) {
    return mallctlbymib(mib, miblen, oldp, oldlenp, newp, newlen);
}
