// The header is the module (CPrefetch.h); SwiftPM wants a source file in a C target.
