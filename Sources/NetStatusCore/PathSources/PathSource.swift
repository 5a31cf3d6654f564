/// Something that produces ``NetworkPath`` values: the kernel on Linux, `NWPathMonitor` on Apple
/// platforms, or a script in tests and previews.
///
/// ``NetworkMonitor`` calls ``start(filter:sink:)`` each time it starts monitoring and stops the returned
/// session when it stops, so a source must be restartable.
///
/// The scripted source of tests and previews, `ScriptedPathSource`, is in the NetStatusTesting library:
///
/// ```swift
/// import NetStatusTesting
///
/// let monitor = NetworkMonitor(source: ScriptedPathSource([.connected(via: .wifi)]))
/// ```
public protocol PathSource: Sendable {
  /// Starts producing paths.
  ///
  /// The source sends each path to `sink`, from one thread at a time and in order, and may send the first
  /// one before returning. When it can no longer observe the network, it calls ``PathSink/fail(_:)``.
  ///
  /// - Parameters:
  ///   - filter: The interface types the monitor may use. Sources that can apply it natively do; the
  ///     monitor applies ``InterfaceFilter/apply(to:)`` to every path of any other source (on Apple platforms the
  ///     default source has `NWPathMonitor` apply it, and its paths are passed on as the system judged them).
  ///   - sink: Where to send paths.
  /// - Returns: The running session. The monitor stops it exactly once.
  /// - Throws: ``NetworkMonitorError`` when the source cannot start.
  func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession
}

/// A path source of this package that tells more than ``PathSource`` asks: the network namespace it watches, the
/// sources behind it, and the portals networks advertised. ``NetworkMonitor`` and ``ConnectivityMonitor`` ask for it
/// with `as?` (``PathSource/inspectable``); any other source watches the process's own namespace and is one source.
package protocol InspectablePathSource: PathSource {
  /// The network namespace whose paths the source reports: the path of its namespace file (such as
  /// `/run/netns/lab` or `/proc/1234/ns/net`), or `nil` for the process's own namespace.
  ///
  /// A ``ConnectivityMonitor`` makes its checks from inside this namespace (on Linux), so that the probe
  /// travels the path the source reports.
  var networkNamespacePath: String? { get }

  /// The sources behind this one and whether each is in use: what ``NetworkMonitor/sourceDiagnostics`` lists.
  var sourceDiagnostics: [SourceDiagnostic] { get }

  /// The captive-portal API URL the network advertised (RFC 8910) on the interface with this index, as the
  /// system's network manager recorded it, or `nil`. When its probe finds a portal, a ``ConnectivityMonitor``
  /// reports this URL as the portal's address.
  func advertisedCaptivePortal(interfaceIndex: Int) -> String?

  /// The source of the monitor this one follows (a settled monitor's), whose paths it passes on, or `nil`. The Apple
  /// probe transport asks it for the system's own interfaces of those paths (NWConnectionProbeTransport.swift).
  var followedSource: (any PathSource)? { get }
}

extension InspectablePathSource {
  /// `nil`: the process's own network namespace.
  package var networkNamespacePath: String? { nil }

  /// One entry, active, named after the source's type.
  package var sourceDiagnostics: [SourceDiagnostic] {
    [SourceDiagnostic(name: "\(type(of: self))", provides: "paths", status: .active)]
  }

  /// `nil`: the source knows of no advertised portal.
  package func advertisedCaptivePortal(interfaceIndex: Int) -> String? { nil }

  /// `nil`: the source follows no other monitor.
  package var followedSource: (any PathSource)? { nil }
}

extension PathSource {
  /// This source as an ``InspectablePathSource``, or `nil` for a source that tells nothing more.
  package var inspectable: (any InspectablePathSource)? { self as? any InspectablePathSource }

  /// The network namespace the source watches (``InspectablePathSource/networkNamespacePath``); `nil`, the
  /// process's own, for a source that does not say.
  package var watchedNamespacePath: String? { inspectable?.networkNamespacePath }

  /// The sources behind this one (``InspectablePathSource/sourceDiagnostics``); for a source that does not say, one
  /// entry, active, named after the source's type.
  package var diagnostics: [SourceDiagnostic] {
    inspectable?.sourceDiagnostics
      ?? [SourceDiagnostic(name: "\(type(of: self))", provides: "paths", status: .active)]
  }
}

/// A source whose paths are already filtered and judged by the system (`NWPathMonitor`): given the monitor's
/// interface filter, it has the system apply it, and ``NetworkMonitor`` passes its paths on unchanged, never deriving
/// status or cost again from interface types.
package protocol SystemFilteredPathSource: PathSource {}

/// A running ``PathSource``.
public protocol PathSourceSession: Sendable {
  /// Stops the session and releases what it holds (threads, file descriptors, tasks).
  ///
  /// When `stop()` returns, the session begins no more sends to its sink. A send already under way on another
  /// thread may still end after it (``NetworkMonitor`` ignores it); a session must not hold a lock of its own
  /// while it sends, because the sink may call `stop()` from inside the send.
  func stop()
}

/// Where a ``PathSource`` sends what it observes.
public struct PathSink: Sendable {
  private let deliver: @Sendable (Event) -> Void

  /// What a source reports.
  public enum Event: Sendable {
    /// A new path.
    case path(NetworkPath)
    /// The source can no longer observe the network. The monitor reports the path as unsatisfied.
    case failure(NetworkMonitorError)
  }

  /// Creates a sink that hands each event to `deliver`.
  public init(_ deliver: @escaping @Sendable (Event) -> Void) {
    self.deliver = deliver
  }

  /// Sends a path.
  public func send(_ path: NetworkPath) {
    deliver(.path(path))
  }

  /// Reports that the source failed.
  public func fail(_ error: NetworkMonitorError) {
    deliver(.failure(error))
  }
}
