// zlib, for reading .gz inputs transparently (Debian: zlib1g-dev).
#include <zlib.h>
