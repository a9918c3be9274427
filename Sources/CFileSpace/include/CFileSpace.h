#ifndef JETSIM_CFILESPACE_H
#define JETSIM_CFILESPACE_H

/// Reserves `length` bytes of the file `fd` from `offset` on its file system, the file growing to cover them: Linux's
/// `fallocate` (mode 0), which Swift's Glibc module does not export. 0, or -1 with `errno` set: `EOPNOTSUPP` where the
/// file system cannot, `ENOSYS` on systems without the call. Never emulated by writing zeros, as `posix_fallocate` is.
int jetsim_reserve_file_space(int fd, long long offset, long long length);

#endif
