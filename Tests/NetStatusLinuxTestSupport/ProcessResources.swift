import Foundation

/// What the test process is built with.
package enum ProcessResources {
  /// Whether a sanitizer runtime (TSan or ASan) is linked into this process (and so into `netstatus-soak`, built
  /// the same way).
  package static let underSanitizer = linked("__tsan_init") || underAddressSanitizer

  /// Whether AddressSanitizer's runtime (with LeakSanitizer, which scans the heap at exit) is linked in.
  package static let underAddressSanitizer = linked("__asan_init")

  /// Whether the process defines `symbol` (the sanitizers' runtimes are linked into the executable).
  private static func linked(_ symbol: String) -> Bool {
    let handle = dlopen(nil, RTLD_NOW)
    defer { if let handle { dlclose(handle) } }
    return dlsym(handle, symbol) != nil
  }
}
