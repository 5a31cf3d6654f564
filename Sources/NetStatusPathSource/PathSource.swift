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
  ///   - filter: The interface types the monitor may use. A source that applies it natively says so
  ///     (``appliesInterfaceFilter``); the monitor applies ``InterfaceFilter/apply(to:)`` to every path of any other
  ///     source.
  ///   - sink: Where to send paths.
  /// - Returns: The running session. The monitor stops it exactly once.
  /// - Throws: ``NetworkMonitorError`` when the source cannot start.
  func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession

  /// Whether the source applies the monitor's interface filter itself and judges its paths' status and cost, as
  /// `NWPathMonitor` does: the monitor then passes its paths on unchanged, never deriving status or cost again from
  /// interface types. By default `false`: the monitor applies the filter.
  var appliesInterfaceFilter: Bool { get }

  /// The network namespace whose paths the source reports: the path of its namespace file (such as
  /// `/run/netns/lab` or `/proc/1234/ns/net`), or `nil` (the default) for the process's own namespace.
  ///
  /// A ``ConnectivityMonitor`` makes its checks from inside this namespace (on Linux), so that the probe travels
  /// the path the source reports.
  var networkNamespacePath: String? { get }

  /// The sources behind this one and whether each is in use: what ``NetworkMonitor/sourceDiagnostics`` lists. By
  /// default one entry, active, named after the source's type.
  var sourceDiagnostics: [SourceDiagnostic] { get }

  /// The captive-portal API URL the network advertised (RFC 8910) on the interface with this index, as the
  /// system's network manager recorded it, or `nil` (the default). When its probe finds a portal, a
  /// ``ConnectivityMonitor`` reports this URL as the portal's address.
  func advertisedCaptivePortal(interfaceIndex: Int) -> String?

  /// The source whose paths this one passes on (a source wrapping another, such as a settled monitor's), or `nil`
  /// (the default). On Apple platforms a ``ConnectivityMonitor`` asks it, down the chain, for the system's own
  /// interfaces of those paths, to bind its probe to them.
  var followedSource: (any PathSource)? { get }
}

extension PathSource {
  /// `false`: the monitor applies the interface filter to the source's paths.
  public var appliesInterfaceFilter: Bool { false }

  /// `nil`: the process's own network namespace.
  public var networkNamespacePath: String? { nil }

  /// One entry, active, named after the source's type.
  public var sourceDiagnostics: [SourceDiagnostic] {
    [SourceDiagnostic(name: "\(type(of: self))", provides: "paths", status: .active)]
  }

  /// `nil`: the source knows of no advertised portal.
  public func advertisedCaptivePortal(interfaceIndex: Int) -> String? { nil }

  /// `nil`: the source passes on no other source's paths.
  public var followedSource: (any PathSource)? { nil }
}

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
