import NetStatusCore
import NetStatusNetlink

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `netstatus watch --textfile PATH`: the path (and the connectivity, when probing) in the Prometheus text
/// exposition format, for node_exporter's textfile collector. The file is replaced whole on every change: written
/// beside it first, then renamed over it, so a scrape never reads half a file. It is also rewritten at least every
/// ``refreshInterval`` with a new ``FileStamp/written``, so that a file netstatus no longer keeps (it died, or
/// hangs) shows as stale.
///
/// The metrics (every one also carries `netns="NAME"` when `--netns` is given; with `--all-netns` the path's
/// metrics carry each namespace's name, one file for them all):
///
/// | metric | type | labels | value |
/// |---|---|---|---|
/// | `netstatus_path_satisfied` | gauge | | 1 when the path is satisfied, else 0 |
/// | `netstatus_path_family_supported` | gauge | `family` (`ipv4`, `ipv6`) | 1 when the path carries the family |
/// | `netstatus_path_dns_supported` | gauge | | 1 when a DNS resolver is configured |
/// | `netstatus_path_expensive` | gauge | | 1 when the path is expensive (cellular) |
/// | `netstatus_path_constrained` | gauge | | 1 in Low Data Mode (Apple platforms) |
/// | `netstatus_path_ultra_constrained` | gauge | | 1 when the path uses an ultra-constrained interface (Apple platforms, 26) |
/// | `netstatus_path_link_quality` | gauge | | the link quality of the interface in use: 0 unknown (or no path), 1 minimal, 2 moderate, 3 good |
/// | `netstatus_path_interface_info` | gauge | `interface`, `type` | 1 for the interface in use; absent when none |
/// | `netstatus_path_available_interfaces` | gauge | | how many interfaces could carry the path |
/// | `netstatus_path_vpn` | gauge | `interface`, `underlying_type` (when 1; the type empty when unknown) | 1 when the satisfied path goes through a VPN or tunnel, else 0 without labels |
/// | `netstatus_path_vpn_bypassed` | gauge | `family` (`ipv4`, `ipv6`) | 1 when the satisfied path goes through a VPN or tunnel and the family's traffic goes around it (a leak), else 0 |
/// | `netstatus_connectivity_state` | gauge | `state` (`unknown`, `none`, `limited`, `portal`, `full`) | 1 for the current state, 0 for the others; only with `--probe` |
/// | `netstatus_connectivity_family_state` | gauge | `family` (`ipv4`, `ipv6`), `state` | as `netstatus_connectivity_state`, for each family the path carries, checked on its own; only with `--probe` |
/// | `netstatus_path_changes_total` | counter | | path changes seen since netstatus started (the first path is not one) |
/// | `netstatus_path_last_change_timestamp_seconds` | gauge | | when the path last changed (or was first known), Unix time |
/// | `netstatus_start_time_seconds` | gauge | `textfile` (the file's name) | when netstatus started, Unix time |
/// | `netstatus_textfile_timestamp_seconds` | gauge | `textfile` (the file's name) | when netstatus wrote the file, Unix time |
///
/// The last two carry the file's name so that files of several netstatus processes, read from one folder, never
/// give node_exporter two series with the same labels.
enum PrometheusTextfile {
  /// What the file shows of one namespace's path.
  struct Snapshot: Equatable {
    var path: NetworkPath
    /// The connectivity state, when probing.
    var connectivity: ConnectivityState?
    /// Each address family's connectivity state, when probing (`nil` for a family the path does not carry).
    var families = FamilyConnectivity()
    var changes: Int
    /// Unix time of the last change, seconds (with a fraction).
    var lastChange: Double
  }

  /// What the file says of itself and of the process that writes it.
  struct FileStamp: Equatable {
    /// The file's name, without its folder: the `textfile` label.
    var name: String
    /// When netstatus started, Unix time.
    var started: Double
    /// When this text was written, Unix time.
    var written: Double
  }

  /// How often the file is rewritten while nothing changes: the rules' `NetstatusTextfileStale` alert
  /// (Packaging/prometheus/netstatus.rules.yml) fires when it is five times older.
  static let refreshInterval: Duration = .seconds(60)

  /// `netstatus_path_link_quality`'s value: ordered, so that a rule can say "below moderate" (`< 2`).
  static func linkQualityValue(_ quality: NetworkPath.LinkQuality) -> String {
    switch quality {
    case .unknown: "0"
    case .minimal: "1"
    case .moderate: "2"
    case .good: "3"
    }
  }

  /// The file's text for one path, labelled `netns="NAME"` when `netns` is given. Pure.
  static func render(_ snapshot: Snapshot, netns: String?, stamp: FileStamp) -> String {
    render([(netns, snapshot)], stamp: stamp, stampNetns: netns)
  }

  /// The file's text for several paths, each labelled `netns="NAME"` when its name is given, in the order given;
  /// the stamp's metrics carry `stampNetns` too when given. Pure.
  static func render(_ entries: [(netns: String?, snapshot: Snapshot)], stamp: FileStamp, stampNetns: String?)
    -> String
  {
    var text = ""
    func labels(_ netns: String?, _ pairs: [(String, String)]) -> String {
      let all = (netns.map { [("netns", $0)] } ?? []) + pairs
      guard !all.isEmpty else { return "" }
      return "{" + all.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",") + "}"
    }
    // Every sample of a metric follows its HELP and TYPE, as the format requires.
    func metric(
      _ name: String, _ type: String, _ help: String, _ samples: (Snapshot) -> [([(String, String)], String)]
    ) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
      for (netns, snapshot) in entries {
        for (pairs, value) in samples(snapshot) { text += "\(name)\(labels(netns, pairs)) \(value)\n" }
      }
    }
    func flag(_ value: Bool) -> String { value ? "1" : "0" }
    metric("netstatus_path_satisfied", "gauge", "Whether the network path is satisfied (1) or not (0).") {
      [([], flag($0.path.isConnected))]
    }
    metric("netstatus_path_family_supported", "gauge", "Whether the path carries the address family.") {
      [([("family", "ipv4")], flag($0.path.supportsIPv4)), ([("family", "ipv6")], flag($0.path.supportsIPv6))]
    }
    metric("netstatus_path_dns_supported", "gauge", "Whether a DNS resolver is configured.") {
      [([], flag($0.path.supportsDNS))]
    }
    metric("netstatus_path_expensive", "gauge", "Whether the path is expensive (cellular).") {
      [([], flag($0.path.isExpensive))]
    }
    metric("netstatus_path_constrained", "gauge", "Whether the path is in Low Data Mode.") {
      [([], flag($0.path.isConstrained))]
    }
    metric(
      "netstatus_path_ultra_constrained", "gauge",
      "Whether the path uses an interface the system considers ultra-constrained (satellite)."
    ) {
      [([], flag($0.path.isUltraConstrained))]
    }
    metric(
      "netstatus_path_link_quality", "gauge",
      "The link quality of the interface in use: 0 unknown, 1 minimal, 2 moderate, 3 good."
    ) {
      [([], $0.path.isConnected ? Self.linkQualityValue($0.path.linkQuality) : "0")]
    }
    metric("netstatus_path_interface_info", "gauge", "The interface the path uses, and its type.") {
      let inUse = $0.path.isConnected ? $0.path.availableInterfaces.first : nil
      return inUse.map { [([("interface", $0.name), ("type", $0.type.rawValue)], "1")] } ?? []
    }
    metric("netstatus_path_available_interfaces", "gauge", "How many interfaces could carry the path.") {
      [([], "\($0.path.availableInterfaces.count)")]
    }
    metric("netstatus_path_vpn", "gauge", "Whether the path goes through a VPN or tunnel, and over what type.") {
      guard $0.path.isConnected, let vpn = $0.path.vpn else { return [([], "0")] }
      return [
        ([("interface", vpn.interface.name), ("underlying_type", vpn.underlyingInterfaceType?.rawValue ?? "")], "1")
      ]
    }
    metric(
      "netstatus_path_vpn_bypassed", "gauge",
      "Whether the path goes through a VPN and the address family goes around it."
    ) {
      let vpn = $0.path.isConnected ? $0.path.vpn : nil
      return [
        ([("family", "ipv4")], flag(vpn?.isBypassedByIPv4 ?? false)),
        ([("family", "ipv6")], flag(vpn?.isBypassedByIPv6 ?? false)),
      ]
    }
    if entries.contains(where: { $0.snapshot.connectivity != nil }) {
      let states: [ConnectivityState] = [.unknown, .noPath, .limited, .portal(redirect: nil), .full]
      metric(
        "netstatus_connectivity_state", "gauge", "Whether the internet answers the probe, one state at a time."
      ) { snapshot in
        guard let state = snapshot.connectivity else { return [] }
        return states.map { candidate in ([("state", candidate.name)], flag(candidate.name == state.name)) }
      }
      metric(
        "netstatus_connectivity_family_state", "gauge",
        "Whether the internet answers the probe over the address family, one state at a time."
      ) { snapshot in
        guard snapshot.connectivity != nil else { return [] }
        return [("ipv4", snapshot.families.ipv4), ("ipv6", snapshot.families.ipv6)].flatMap { family, state in
          guard let state else { return [([(String, String)], String)]() }
          return states.map { ([("family", family), ("state", $0.name)], flag($0.name == state.name)) }
        }
      }
    }
    metric("netstatus_path_changes_total", "counter", "Path changes seen since netstatus started.") {
      [([], "\($0.changes)")]
    }
    metric("netstatus_path_last_change_timestamp_seconds", "gauge", "When the path last changed, in Unix time.") {
      [([], format($0.lastChange))]
    }
    let stampLabels = labels(stampNetns, [("textfile", stamp.name)])
    text += "# HELP netstatus_start_time_seconds When netstatus started, in Unix time.\n"
    text += "# TYPE netstatus_start_time_seconds gauge\n"
    text += "netstatus_start_time_seconds\(stampLabels) \(format(stamp.started))\n"
    text += "# HELP netstatus_textfile_timestamp_seconds When netstatus wrote this file, in Unix time.\n"
    text += "# TYPE netstatus_textfile_timestamp_seconds gauge\n"
    text += "netstatus_textfile_timestamp_seconds\(stampLabels) \(format(stamp.written))\n"
    return text
  }

  /// A label value escaped as the exposition format requires: backslash, double quote and line feed.
  static func escape(_ value: String) -> String {
    value.replacingCharacters(["\\": "\\\\", "\"": "\\\"", "\n": "\\n"])
  }

  /// `1764540000.123456`: seconds with microseconds.
  static func format(_ seconds: Double) -> String {
    let micros = Int64((seconds * 1_000_000).rounded())
    let fraction = String(micros % 1_000_000)
    return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
  }

  /// A path's last component, the `textfile` label: `netstatus.prom` for
  /// `/var/lib/prometheus/node-exporter/netstatus.prom`.
  static func fileName(of path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
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
      fd = SystemName.withCString(temporary) {
        open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
      }
      guard fd < 0, errno == EEXIST, attempt < temporaryAttempts else { break }
      temporary = temporaryName(path)
    }
    guard fd >= 0 else {
      let reason = errno
      // The folder's problem, in the user's terms, rather than the temporary name they never chose.
      return TextfileFolder.problem(for: path) ?? "cannot create \(temporary): \(Errno.describe(reason))"
    }
    var created = stat()
    guard fstat(fd, &created) == 0, UInt32(created.st_mode) & 0o170000 == 0o100000 else {
      // Not reached with O_EXCL on a local file system; checked all the same before writing anything.
      let reason = Errno.describe(errno)
      close(fd)
      return "cannot write \(temporary): not a regular file we created (\(reason))"
    }
    var failure: String?
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty, failure == nil {
      let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        failure = "cannot write \(temporary): \(Errno.describe(errno))"
      } else {
        bytes = bytes.dropFirst(written)
      }
    }
    if close(fd) != 0, failure == nil { failure = "cannot write \(temporary): \(Errno.describe(errno))" }
    if failure == nil,
      SystemName.withCString(temporary, { from in SystemName.withCString(path) { rename(from, $0) } }) != 0
    {
      failure = "cannot rename \(temporary) to \(path): \(Errno.describe(errno))"
    }
    if failure != nil {
      // Removed only while the name is still the file created above (another may have been renamed over it).
      var now = stat()
      if SystemName.withCString(temporary, { lstat($0, &now) }) == 0, now.st_dev == created.st_dev,
        now.st_ino == created.st_ino
      {
        _ = SystemName.withCString(temporary) { unlink($0) }
      }
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
