import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The library's errors in the CLI's words: what failed as the library says it, and what to do as a `netstatus`
/// user does it (run netstatus again, not "start the monitor again"), with a permission hint that names what is
/// actually missing. Pure but for ``text(_:)``, which reads the process's credentials.
enum CommandMessages {
  /// What the process may do, for the permission hint.
  struct Credentials: Equatable {
    /// The effective user is root.
    var isRoot: Bool
    /// CAP_SYS_ADMIN is in the effective set (`setns(2)` needs it).
    var hasSysAdmin: Bool
  }

  /// Any error's line: a ``NetworkMonitorError`` in the CLI's words, anything else as it describes itself.
  static func describe(_ error: any Error) -> String {
    (error as? NetworkMonitorError).map { text($0) } ?? "\(error)"
  }

  /// `error`'s line for this process.
  static func text(_ error: NetworkMonitorError) -> String {
    text(error, credentials: currentCredentials())
  }

  /// `error`'s line: the library's statement of what failed, then the CLI's advice.
  static func text(_ error: NetworkMonitorError, credentials: Credentials) -> String {
    let full = error.description
    let library = error.recoverySuggestion
    let what = full.hasSuffix(" " + library) ? String(full.dropLast(library.count + 1)) : full
    return what + " " + advice(error, credentials: credentials)
  }

  /// What to do, in the CLI's words.
  static func advice(_ error: NetworkMonitorError, credentials: Credentials) -> String {
    switch error {
    case .namespaceDeleted(let path) where !path.hasPrefix("/proc/"):
      return "Run netstatus again once the namespace exists (watch --all-netns follows namespaces as they come)."
    case .namespaceNotEnterable(_, let errno) where errno == .notPermitted || errno == .permissionDenied:
      return permissionHint(credentials)
    case .systemCall(_, let errno) where errno == .notPermitted || errno == .permissionDenied:
      return permissionHint(credentials)
    case .timedOut:
      return "The kernel did not answer in time: run netstatus again."
    case .sourceFailed:
      return "Run netstatus again; if it fails the same way, `netstatus show --all` says what it can read."
    case .unsupportedPlatform:
      return "netstatus cannot do that on this platform."
    default:
      return error.recoverySuggestion
    }
  }

  /// What is missing when entering a namespace is refused.
  static func permissionHint(_ credentials: Credentials) -> String {
    switch (credentials.isRoot, credentials.hasSysAdmin) {
    case (_, true):
      return "The process has CAP_SYS_ADMIN, so something else refuses: a security module (seccomp, AppArmor, "
        + "SELinux), a sandbox that hides the namespace files (/proc/1/ns/net), or a user namespace that does not own "
        + "the network namespace."
    case (true, false):
      return "Entering a namespace needs CAP_SYS_ADMIN, which this root process lacks: a container or sandbox drops "
        + "it (a systemd unit's CapabilityBoundingSet=, docker without --cap-add SYS_ADMIN)."
    case (false, false):
      return "Entering a namespace needs CAP_SYS_ADMIN: run netstatus as root, or grant it that capability."
    }
  }

  /// The process's credentials: its effective user, and CAP_SYS_ADMIN from `/proc/self/status` (`CapEff`).
  static func currentCredentials() -> Credentials {
    Credentials(isRoot: geteuid() == 0, hasSysAdmin: effectiveCapabilities().map { $0 & (1 << 21) != 0 } ?? false)
  }

  /// `CapEff` of `/proc/self/status`, if it can be read.
  static func effectiveCapabilities() -> UInt64? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard text.hasPrefix("CapEff:") else { continue }
      return UInt64(text.dropFirst(7).trimmingWhitespace(), radix: 16)
    }
    return nil
  }
}

extension Substring {
  /// Without leading and trailing spaces, tabs and newlines.
  fileprivate func trimmingWhitespace() -> Substring {
    var text = self
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" || last == "\n" { text = text.dropLast() }
    return text
  }
}
