#ifndef NETLINK_FUZZER_SUPPORT_H
#define NETLINK_FUZZER_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (LLVM 12+). A weak reference: it resolves only in a build with -sanitize=fuzzer, which links
// libFuzzer; in an ordinary build it is null and the fuzzer replays its file arguments instead.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size))
    __attribute__((weak));

/// Whether libFuzzer is linked into this executable.
static inline int netlink_fuzzer_has_libfuzzer(void) { return LLVMFuzzerRunDriver != 0; }

/// Runs libFuzzer's driver with the command line; call only when netlink_fuzzer_has_libfuzzer().
static inline int netlink_fuzzer_run_driver(int *argc, char ***argv,
                                            int (*callback)(const uint8_t *data, size_t size)) {
  return LLVMFuzzerRunDriver(argc, argv, callback);
}

#endif
