import Dispatch
import Foundation

/// Stand-in for `Network.NWConnection`: a bidirectional data connection between a local endpoint and a remote
/// endpoint. Apple: `final class NWConnection` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
///
/// A TCP client over real sockets on Linux (`StandInConnection.swift`): a thread of its own per started connection
/// resolves, connects and moves bytes with non-blocking sockets and `poll(2)`, woken through a pipe. As Apple
/// documents, every state update and every send and receive completion runs on the queue given to `start(queue:)`, in
/// order; a connection that cannot connect (refused, no route, a name without an address) goes to
/// `.waiting(error)`, where Apple's waits for a better path (the stand-in waits for `cancel()`); a connection that
/// fails once ready (a reset) goes to `.failed(error)`, and the pending receive gets the error; `cancel()` ends it
/// from any thread, pending completions get `ECANCELED`, and the last state is `.cancelled`.
///
/// The IP version of the parameters' default protocol stack (`NWProtocolIP.Options.version`) is honoured: a
/// connection resolves and connects to the host's addresses of that version only, and a host without one goes to
/// `.waiting(.dns(kDNSServiceErr_NoSuchRecord))`, as for a name without addresses.
///
/// The parameters' required interface (`NWParameters.requiredInterface`) is honoured: the socket is bound to it by name
/// (`SO_BINDTODEVICE`), and a connection whose interface is gone waits with `ENODEV`.
///
/// Not modelled: `requiredInterfaceType` and the other path constraints (recorded in ``NWParameters``, not applied:
/// Linux has no interface types), TLS, UDP, `minimumIncompleteLength` beyond one byte, the retries of a waiting
/// connection. Deliberately not `Sendable`, so that code compiled against the stand-in does not rely on a conformance
/// the real class might lack.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public final class NWConnection {
  /// Stand-in for `NWConnection.State`: states indicating whether a connection can be used to send and receive data.
  /// Apple: `enum State : Equatable, Sendable`.
  public enum State: Equatable, Sendable {
    /// The connection has been initialized but not started. Apple: `case setup`.
    case setup
    /// The connection is waiting for a network path change. Apple: `case waiting(NWError)`.
    case waiting(NWError)
    /// The connection in the process of being established. Apple: `case preparing`.
    case preparing
    /// The connection is established, and ready to send and receive data. Apple: `case ready`.
    case ready
    /// The connection has disconnected or encountered an error. Apple: `case failed(NWError)`.
    case failed(NWError)
    /// The connection has been canceled. Apple: `case cancelled`.
    case cancelled
  }

  /// Stand-in for `NWConnection.ContentContext`: a representation of a message to send or receive, containing
  /// protocol metadata and send properties. Apple: `final class ContentContext : @unchecked Sendable`.
  public final class ContentContext: @unchecked Sendable {
    /// A string that identifies the context. Apple: `final let identifier: String`.
    public let identifier: String
    /// A flag indicating if this context is the final context for the connection. Apple: `final let isFinal: Bool`.
    public let isFinal: Bool

    private init(identifier: String, isFinal: Bool) {
      self.identifier = identifier
      self.isFinal = isFinal
    }

    /// A context for sending data with default message properties. Apple:
    /// `static let defaultMessage: NWConnection.ContentContext`.
    public static let defaultMessage = ContentContext(identifier: "defaultMessage", isFinal: false)
    /// A context for sending data that marks the final message in a connection. Apple:
    /// `static let finalMessage: NWConnection.ContentContext`.
    public static let finalMessage = ContentContext(identifier: "finalMessage", isFinal: true)
    /// A context for sending data on a stream protocol, such as TCP. Apple:
    /// `static let defaultStream: NWConnection.ContentContext`.
    public static let defaultStream = ContentContext(identifier: "defaultStream", isFinal: false)
  }

  /// Stand-in for `NWConnection.SendCompletion`: a completion handler that indicates when the connection has finished
  /// processing sent content. Apple: `enum SendCompletion : Sendable`.
  public enum SendCompletion: Sendable {
    /// Provide a completion handler that's invoked when the sent data is processed by the stack. Apple:
    /// `@preconcurrency case contentProcessed(@Sendable (NWError?) -> Void)`.
    case contentProcessed(@Sendable (NWError?) -> Void)
    /// Mark the sent data as idempotent. Apple: `case idempotent`.
    case idempotent
  }

  /// The remote endpoint of the connection. Apple: `final let endpoint: NWEndpoint`.
  public let endpoint: NWEndpoint
  /// The parameters with which the connection was initialized. Apple: `final let parameters: NWParameters`.
  public let parameters: NWParameters

  private let engine: StandInConnection

  /// Initializes a new connection to a host and port. Apple:
  /// `convenience init(host: NWEndpoint.Host, port: NWEndpoint.Port, using: NWParameters)`.
  public convenience init(host: NWEndpoint.Host, port: NWEndpoint.Port, using parameters: NWParameters) {
    self.init(to: .hostPort(host: host, port: port), using: parameters)
  }

  /// Initializes a new connection to a remote endpoint. Apple: `init(to: NWEndpoint, using: NWParameters)`.
  public init(to endpoint: NWEndpoint, using parameters: NWParameters) {
    self.endpoint = endpoint
    self.parameters = parameters
    self.engine = StandInConnection(endpoint: endpoint)
  }

  /// The current state of the connection. Apple: `final var state: NWConnection.State { get }`.
  public var state: State { engine.state }

  /// A handler that receives connection state updates. Apple:
  /// `@preconcurrency final var stateUpdateHandler: (@Sendable (NWConnection.State) -> Void)? { get set }`.
  public var stateUpdateHandler: (@Sendable (State) -> Void)? {
    get { engine.stateUpdateHandler }
    set {
      engine.called("stateUpdateHandler")
      engine.stateUpdateHandler = newValue
    }
  }

  /// The queue on which connection events are delivered. Apple: `final var queue: DispatchQueue? { get }`.
  public var queue: DispatchQueue? { engine.queue }

  /// Starts the connection, which begins the process of establishing the connection, and sets a queue on which to
  /// deliver connection events. Apple: `final func start(queue: DispatchQueue)`.
  public func start(queue: DispatchQueue) {
    engine.called("start(queue:)")
    engine.start(
      queue: queue, version: parameters.requiredIPVersion, interface: parameters.requiredInterface?.name)
  }

  /// Cancels the connection, and gracefully disconnects any established network protocols. Apple:
  /// `final func cancel()`.
  public func cancel() {
    engine.called("cancel()")
    engine.cancel()
  }

  /// Cancels the connection, without waiting for protocols to disconnect. Apple: `final func forceCancel()`.
  public func forceCancel() {
    engine.called("forceCancel()")
    engine.cancel()
  }

  /// Sends data on the connection. Apple: `final func send(content: Data?, contentContext: NWConnection.ContentContext
  /// = .defaultMessage, isComplete: Bool = true, completion: NWConnection.SendCompletion)`.
  public func send(
    content: Data?, contentContext: ContentContext = .defaultMessage, isComplete: Bool = true,
    completion: SendCompletion
  ) {
    engine.called("send(content:contentContext:isComplete:completion:)")
    let done: (@Sendable (NWError?) -> Void)?
    switch completion {
    case .contentProcessed(let handler): done = handler
    case .idempotent: done = nil
    }
    engine.send(content.map { Array($0) } ?? [], completion: done)
  }

  /// Schedules a single receive completion handler, with a range indicating how many bytes the handler can receive at
  /// one time. Apple: `@preconcurrency final func receive(minimumIncompleteLength: Int, maximumLength: Int,
  /// completion: @escaping @Sendable (Data?, NWConnection.ContentContext?, Bool, NWError?) -> Void)`.
  public func receive(
    minimumIncompleteLength: Int, maximumLength: Int,
    completion: @escaping @Sendable (Data?, ContentContext?, Bool, NWError?) -> Void
  ) {
    engine.called("receive(minimumIncompleteLength:maximumLength:completion:)")
    engine.receive(maximumLength: max(1, maximumLength), completion: completion)
  }

  /// Runs on the connection's own thread before it creates its socket (test hook): a test enters a network namespace
  /// of its own there (`setns(2)` moves only the calling thread), so that the socket is made, and routed, inside it.
  /// When it throws, the connection fails (`.failed(.posix(.EPERM))`). Set it before `start(queue:)`.
  @_spi(TestHooks) public var onSocketThread: (@Sendable () throws -> Void)? {
    get { engine.onSocketThread }
    set { engine.onSocketThread = newValue }
  }

  /// Resolves a host name in place of `getaddrinfo(3)` (test hook): the addresses `NWConnection` finds for it, before
  /// it keeps those of the parameters' IP version. A test names hosts there as a network namespace's own hosts file
  /// does, which the process's resolver does not read. Set it before `start(queue:)`.
  @_spi(TestHooks) public var resolveName: (@Sendable (String) -> [NWEndpoint.Host])? {
    get { engine.resolveName }
    set { engine.resolveName = newValue }
  }

  /// Called with the API's name at each call of `start(queue:)`, `cancel()`, `forceCancel()`, `send`, `receive` and
  /// the `stateUpdateHandler` setter, on the calling thread, before the call does anything: lets a test check what the
  /// caller holds then (test hook, as `NWPathMonitor`'s).
  @_spi(TestHooks) public var onCall: (@Sendable (String) -> Void)? {
    get { engine.onCall }
    set { engine.onCall = newValue }
  }

  /// How many times `cancel()` or `forceCancel()` was called (test hook).
  @_spi(TestHooks) public var cancelCount: Int { engine.cancelCount }

  /// Whether the connection's thread has ended and closed its socket (test hook).
  @_spi(TestHooks) public var hasEnded: Bool { engine.hasEnded }
}
