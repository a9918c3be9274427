// `fallocate` is a GNU extension of <fcntl.h>: declared only with _GNU_SOURCE, before any header.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include "CFileSpace.h"

int jetsim_reserve_file_space(int fd, long long offset, long long length) {
#if defined(__linux__)
    return fallocate(fd, 0, (off_t)offset, (off_t)length);
#else
    (void)fd;
    (void)offset;
    (void)length;
    errno = ENOSYS;
    return -1;
#endif
}
