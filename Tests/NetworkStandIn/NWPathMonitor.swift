import Dispatch
import Foundation

/// Stand-in for `Network.NWPathMonitor`: an observer that you use to monitor and react to network changes.
///
/// Deliberately not `Sendable`, so that code compiled against the stand-in does not rely on a conformance the real
/// class might lack.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public final class NWPathMonitor {
  /// The interface type given to `init(requiredInterfaceType:)`, if that is how the monitor was made (test hook).
  @_spi(TestHooks) public let requiredInterfaceType: NWInterface.InterfaceType?
  /// The interface types given to `init(prohibitedInterfaceTypes:)`, if that is how the monitor was made (test hook).
  @_spi(TestHooks) public let prohibitedInterfaceTypes: [NWInterface.InterfaceType]?

  private let state = State()

  /// Initializes a path monitor to observe all available interface types. Apple: `init()`.
  public init() {
    self.requiredInterfaceType = nil
    self.prohibitedInterfaceTypes = nil
  }

  /// Initializes a path monitor to observe a specific interface type.
  /// Apple: `init(requiredInterfaceType: NWInterface.InterfaceType)`.
  public init(requiredInterfaceType: NWInterface.InterfaceType) {
    self.requiredInterfaceType = requiredInterfaceType
    self.prohibitedInterfaceTypes = nil
  }

  /// Initializes a path monitor to observe interface types that are not explicitly prohibited (macOS 11, iOS 14).
  /// Apple: `init(prohibitedInterfaceTypes: [NWInterface.InterfaceType])`.
  @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
  public init(prohibitedInterfaceTypes: [NWInterface.InterfaceType]) {
    self.requiredInterfaceType = nil
    self.prohibitedInterfaceTypes = prohibitedInterfaceTypes
  }

  /// A handler that receives network path updates.
  /// Apple: `@preconcurrency final var pathUpdateHandler: (@Sendable (NWPath) -> Void)? { get set }`.
  public var pathUpdateHandler: (@Sendable (NWPath) -> Void)? {
    get { state.locked { $0.handler } }
    set {
      state.called("pathUpdateHandler")
      state.locked { $0.handler = newValue }
    }
  }

  /// The currently available network path observed by the path monitor.
  /// Apple: `final var currentPath: NWPath { get set }` (settable, as the SDK declares it; here the value set is
  /// what the property reads until the monitor's next path).
  public var currentPath: NWPath {
    get { state.locked { $0.path } }
    set { state.locked { $0.path = newValue } }
  }

  /// The queue on which path events are delivered. Apple: `final var queue: DispatchQueue? { get }`.
  public var queue: DispatchQueue? { state.locked { $0.queue } }

  /// Starts monitoring path changes, and sets a queue on which to deliver path events.
  /// Apple: `final func start(queue: DispatchQueue)`.
  ///
  /// As on Apple platforms, the first path arrives asynchronously, on `queue`. A cancelled monitor does not restart.
  public func start(queue: DispatchQueue) {
    state.called("start(queue:)")
    let first: NWPath? = state.locked { state in
      state.startCount += 1
      guard state.cancelCount == 0, state.queue == nil else { return nil }
      state.queue = queue
      state.handlerWasSetAtStart = state.handler != nil
      if let initial = state.pathOnStart { state.path = initial }
      return state.pathOnStart
    }
    if let first { state.dispatch(first) }
  }

  /// Stops monitoring path changes. Apple: `final func cancel()`.
  ///
  /// A path already dispatched to the queue may still be delivered after this returns.
  public func cancel() {
    state.called("cancel()")
    state.locked { $0.cancelCount += 1 }
  }

  // MARK: Test hooks

  /// The path that `start(queue:)` delivers first, standing for the system's current path (test hook).
  @_spi(TestHooks) public var pathOnStart: NWPath? {
    get { state.locked { $0.pathOnStart } }
    set { state.locked { $0.pathOnStart = newValue } }
  }

  /// Called with the API's name at each call of `start(queue:)`, `cancel()` and the `pathUpdateHandler` setter, on
  /// the calling thread, before the call does anything: lets a test check what the caller holds then (test hook).
  @_spi(TestHooks) public var onCall: (@Sendable (String) -> Void)? {
    get { state.locked { $0.onCall } }
    set { state.locked { $0.onCall = newValue } }
  }

  /// How many times `start(queue:)` was called (test hook).
  @_spi(TestHooks) public var startCount: Int { state.locked { $0.startCount } }
  /// How many times `cancel()` was called (test hook).
  @_spi(TestHooks) public var cancelCount: Int { state.locked { $0.cancelCount } }
  /// Whether `pathUpdateHandler` was set when the monitor started; `nil` if it never started (test hook).
  @_spi(TestHooks) public var handlerWasSetAtStart: Bool? { state.locked { $0.handlerWasSetAtStart } }

  /// Makes `path` current and delivers it on the monitor's queue, as the system does when the network changes.
  /// Returns `false`, delivering nothing, if the monitor is not running: never started, or cancelled (test hook).
  @discardableResult
  @_spi(TestHooks) public func emit(_ path: NWPath) -> Bool {
    let running = state.locked { state in
      state.path = path
      return state.queue != nil && state.cancelCount == 0
    }
    if running { state.dispatch(path) }
    return running
  }

  /// The monitor's mutable state, behind a lock. `@unchecked Sendable`: every field is only used under `lock`.
  private final class State: @unchecked Sendable {
    struct Fields {
      var handler: (@Sendable (NWPath) -> Void)?
      var queue: DispatchQueue?
      var path = NWPath(status: .unsatisfied)
      var pathOnStart: NWPath?
      var startCount = 0
      var cancelCount = 0
      var handlerWasSetAtStart: Bool?
      var onCall: (@Sendable (String) -> Void)?
    }

    private let lock = NSLock()
    private var fields = Fields()

    func locked<T>(_ body: (inout Fields) -> T) -> T {
      lock.lock()
      defer { lock.unlock() }
      return body(&fields)
    }

    /// Tells the test hook `onCall`, if set, that `name` was called.
    func called(_ name: String) {
      locked { $0.onCall }?(name)
    }

    /// Hands `path` to the handler on the queue; the handler is read when the queue runs the delivery.
    func dispatch(_ path: NWPath) {
      guard let queue = locked({ $0.queue }) else { return }
      queue.async {
        let handler = self.locked { $0.handler }
        handler?(path)
      }
    }
  }
}
