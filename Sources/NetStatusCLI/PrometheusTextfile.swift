import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `netstatus watch --textfile PATH`: the path (and the connectivity, when probing) in the Prometheus text
/// exposition format, for node_exporter's textfile collector. The file is replaced whole on every change: written
/// beside it first, then renamed over it, so a scrape never reads half a file.
///
/// The metrics (every one also carries `netns="NAME"` when `--netns` is given):
///
/// | metric | type | labels | value |
/// |---|---|---|---|
/// | `netstatus_path_satisfied` | gauge | | 1 when the path is satisfied, else 0 |
/// | `netstatus_path_family_supported` | gauge | `family` (`ipv4`, `ipv6`) | 1 when the path carries the family |
/// | `netstatus_path_dns_supported` | gauge | | 1 when a DNS resolver is configured |
/// | `netstatus_path_expensive` | gauge | | 1 when the path is expensive (cellular) |
/// | `netstatus_path_constrained` | gauge | | 1 in Low Data Mode (Apple platforms) |
/// | `netstatus_path_interface_info` | gauge | `interface`, `type` | 1 for the interface in use; absent when none |
/// | `netstatus_path_available_interfaces` | gauge | | how many interfaces could carry the path |
/// | `netstatus_connectivity_state` | gauge | `state` (`unknown`, `none`, `limited`, `portal`, `full`) | 1 for the current state, 0 for the others; only with `--probe` |
/// | `netstatus_path_changes_total` | counter | | path changes seen since netstatus started (the first path is not one) |
/// | `netstatus_path_last_change_timestamp_seconds` | gauge | | when the path last changed (or was first known), Unix time |
enum PrometheusTextfile {
  /// What the file shows.
  struct Snapshot: Equatable {
    var path: NetworkPath
    /// The connectivity state, when probing.
    var connectivity: ConnectivityState?
    var changes: Int
    /// Unix time of the last change, seconds (with a fraction).
    var lastChange: Double
  }

  /// The file's text. Pure.
  static func render(_ snapshot: Snapshot, netns: String?) -> String {
    var text = ""
    func labels(_ pairs: [(String, String)]) -> String {
      let all = (netns.map { [("netns", $0)] } ?? []) + pairs
      guard !all.isEmpty else { return "" }
      return "{" + all.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",") + "}"
    }
    func metric(_ name: String, _ type: String, _ help: String, _ samples: [([(String, String)], String)]) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
      for (pairs, value) in samples { text += "\(name)\(labels(pairs)) \(value)\n" }
    }
    func flag(_ value: Bool) -> String { value ? "1" : "0" }
    let path = snapshot.path
    metric(
      "netstatus_path_satisfied", "gauge", "Whether the network path is satisfied (1) or not (0).",
      [([], flag(path.isConnected))])
    metric(
      "netstatus_path_family_supported", "gauge", "Whether the path carries the address family.",
      [([("family", "ipv4")], flag(path.supportsIPv4)), ([("family", "ipv6")], flag(path.supportsIPv6))])
    metric(
      "netstatus_path_dns_supported", "gauge", "Whether a DNS resolver is configured.", [([], flag(path.supportsDNS))])
    metric(
      "netstatus_path_expensive", "gauge", "Whether the path is expensive (cellular).", [([], flag(path.isExpensive))])
    metric(
      "netstatus_path_constrained", "gauge", "Whether the path is in Low Data Mode.", [([], flag(path.isConstrained))])
    let inUse = path.isConnected ? path.availableInterfaces.first : nil
    metric(
      "netstatus_path_interface_info", "gauge", "The interface the path uses, and its type.",
      inUse.map { [([("interface", $0.name), ("type", $0.type.rawValue)], "1")] } ?? [])
    metric(
      "netstatus_path_available_interfaces", "gauge", "How many interfaces could carry the path.",
      [([], "\(path.availableInterfaces.count)")])
    if let state = snapshot.connectivity {
      let states: [ConnectivityState] = [.unknown, .none, .limited, .portal(redirect: nil), .full]
      metric(
        "netstatus_connectivity_state", "gauge", "Whether the internet answers the probe, one state at a time.",
        states.map { candidate in
          ([("state", candidate.name)], flag(candidate.name == state.name))
        })
    }
    metric(
      "netstatus_path_changes_total", "counter", "Path changes seen since netstatus started.",
      [([], "\(snapshot.changes)")])
    metric(
      "netstatus_path_last_change_timestamp_seconds", "gauge", "When the path last changed, in Unix time.",
      [([], format(snapshot.lastChange))])
    return text
  }

  /// A label value escaped as the exposition format requires: backslash, double quote and line feed.
  static func escape(_ value: String) -> String {
    var escaped = ""
    for character in value {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// `1764540000.123456`: seconds with microseconds.
  static func format(_ seconds: Double) -> String {
    let micros = Int64((seconds * 1_000_000).rounded())
    let fraction = String(micros % 1_000_000)
    return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
  }

  /// The current Unix time, seconds.
  static func now() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Replaces the file at `path` with `text`: written to a new temporary file beside it, then renamed over it.
  ///
  /// Anyone who may write to the folder may plant a file there, so the temporary file is created, never opened:
  /// `O_CREAT | O_EXCL` (an existing name fails with `EEXIST` and another name is tried, so a planted symbolic link
  /// is never followed and a planted FIFO never opened), `O_NOFOLLOW`, `O_NONBLOCK`, under an unpredictable name
  /// (``temporaryName(for:)``), and checked to be a regular file before anything is written. Nothing but the new
  /// file is written, and on failure only that file is removed.
  ///
  /// - Parameter temporaryName: The temporary file's name for `path`, asked again when a name is taken (tests plant
  ///   files under the names it gives).
  /// - Returns: `nil`, or what failed (a system call and its errno) for the error line.
  static func replace(
    _ path: String, with text: String, temporaryName: (String) -> String = PrometheusTextfile.temporaryName(for:)
  ) -> String? {
    var temporary = temporaryName(path)
    var fd: Int32 = -1
    for attempt in 1...temporaryAttempts {
      fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
      guard fd < 0, errno == EEXIST, attempt < temporaryAttempts else { break }
      temporary = temporaryName(path)
    }
    guard fd >= 0 else { return "cannot create \(temporary): \(SystemErrno.describe(errno))" }
    var created = stat()
    guard fstat(fd, &created) == 0, UInt32(created.st_mode) & 0o170000 == 0o100000 else {
      // Not reached with O_EXCL on a local file system; checked all the same before writing anything.
      let reason = SystemErrno.describe(errno)
      close(fd)
      return "cannot write \(temporary): not a regular file we created (\(reason))"
    }
    var failure: String?
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty, failure == nil {
      let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        failure = "cannot write \(temporary): \(SystemErrno.describe(errno))"
      } else {
        bytes = bytes.dropFirst(written)
      }
    }
    if close(fd) != 0, failure == nil { failure = "cannot write \(temporary): \(SystemErrno.describe(errno))" }
    if failure == nil, rename(temporary, path) != 0 {
      failure = "cannot rename \(temporary) to \(path): \(SystemErrno.describe(errno))"
    }
    if failure != nil {
      // Removed only while the name is still the file created above (another may have been renamed over it).
      var now = stat()
      if lstat(temporary, &now) == 0, now.st_dev == created.st_dev, now.st_ino == created.st_ino { unlink(temporary) }
    }
    return failure
  }

  /// How many names ``replace(_:with:temporaryName:)`` tries before it gives up (each taken name is a planted file,
  /// or an unlikely collision).
  static let temporaryAttempts = 8

  /// `PATH.tmp-` and 16 random hexadecimal digits (64 bits from the system's generator, `getrandom(2)` on Linux):
  /// a name no other user can guess ahead of time. node_exporter's textfile collector reads only `*.prom` files, so
  /// it never reads it.
  static func temporaryName(for path: String) -> String {
    let random = String(UInt64.random(in: .min ... .max), radix: 16)
    return "\(path).tmp-" + String(repeating: "0", count: 16 - random.count) + random
  }
}

/// Keeps a `--textfile` up to date as paths and connectivity states arrive, from any thread, in order: the
/// snapshot is decided under the lock, and the file written under a second lock, which writes whatever is newest
/// by then (an older snapshot is never renamed over a newer one).
final class TextfileExporter: Sendable {
  private struct State {
    var snapshot: PrometheusTextfile.Snapshot?
    var version = 0
  }

  let path: String
  private let netns: String?
  private let state = Locked(State())
  /// The version of the snapshot the file holds.
  private let written = Locked(0)

  init(path: String, netns: String?) {
    self.path = path
    self.netns = netns
  }

  /// Records `path` (and `connectivity`, when probing) and rewrites the file if either changed.
  ///
  /// - Returns: `nil`, or what failed.
  func update(path: NetworkPath, connectivity: ConnectivityState?) -> String? {
    let changed = state.withLockedValue { state -> Bool in
      guard var snapshot = state.snapshot else {
        state.snapshot = .init(path: path, connectivity: connectivity, changes: 0, lastChange: PrometheusTextfile.now())
        state.version += 1
        return true
      }
      guard snapshot.path != path || snapshot.connectivity != connectivity else { return false }
      if snapshot.path != path {
        snapshot.changes += 1
        snapshot.lastChange = PrometheusTextfile.now()
        snapshot.path = path
      }
      snapshot.connectivity = connectivity
      state.snapshot = snapshot
      state.version += 1
      return true
    }
    guard changed else { return nil }
    return written.withLockedValue { writtenVersion -> String? in
      let (snapshot, version) = state.withLockedValue { ($0.snapshot, $0.version) }
      guard let snapshot, version > writtenVersion else { return nil }
      if let failure = PrometheusTextfile.replace(self.path, with: PrometheusTextfile.render(snapshot, netns: netns)) {
        return failure
      }
      writtenVersion = version
      return nil
    }
  }
}
