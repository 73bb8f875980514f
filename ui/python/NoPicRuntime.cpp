// Only in a module built with SOFTGRASP_ENGINE_PIC=OFF (README.md §Build): the engine's non-PIC objects read
// glibc's __libc_single_threaded directly, which a shared object cannot; this copy (local to the module by its
// version script) answers "not single-threaded", so libstdc++'s reference counts always use atomics.
extern "C" {
char __libc_single_threaded = 0;  // NOLINT: glibc's name
}
