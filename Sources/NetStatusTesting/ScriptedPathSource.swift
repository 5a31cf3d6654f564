// The NetStatusTesting module: test doubles, kept out of the library (as swift-nio keeps NIOEmbedded apart) so that
// only the targets that use them, tests and previews, link them. Imported beside `NetStatus` or `NetStatusCore`.
//
// CocoaPods compiles this file into the one module NetStatus with the library's sources (NetStatus.podspec): there
// is nothing to import. `Locked` and the path source's types are NetStatusCore's (`package` and `public`).
#if canImport(NetStatusCore)
  import NetStatusCore
#endif

/// A path source you drive yourself: simulate offline, Wi-Fi and cellular transitions in tests and
/// SwiftUI previews.
///
/// Drive it step by step with ``send(_:)`` or ``advance()``, or let it replay a script on its own with an
/// interval. The current path is delivered as soon as a monitor starts, so the monitor knows its path
/// when `NetworkMonitor.startMonitoring()` returns, as on Linux.
///
/// It is in the NetStatusTesting library, kept apart from NetStatus so that only what uses it links it: link the
/// `NetStatusTesting` product and `import NetStatusTesting` where you use it (a test target, a preview).
///
/// ```swift
/// let script = ScriptedPathSource([.connected(via: .wifi), .offline, .connected(via: .cellular)])
/// let monitor = NetworkMonitor(source: script)
/// monitor.startMonitoring()   // currentPath: Wi-Fi
/// script.advance()            // offline
/// script.advance()            // cellular, expensive
/// ```
///
/// For a preview that changes by itself:
///
/// ```swift
/// NetworkMonitor(source: ScriptedPathSource([.connected(via: .wifi), .offline], interval: .seconds(2), repeats: true))
/// ```
public final class ScriptedPathSource: PathSource {
  private struct State {
    var script: [NetworkPath]
    var position = 0
    var current: NetworkPath?
    var sinks: [UInt64: PathSink] = [:]
    var nextID: UInt64 = 0
    var startCount = 0
    var startError: NetworkMonitorError?
  }

  private let state: Locked<State>
  private let interval: Duration?
  private let repeats: Bool

  /// Creates a source whose current path is `initialPath` (or not known, if `nil`), driven by
  /// ``send(_:)``.
  public init(_ initialPath: NetworkPath? = nil) {
    self.state = Locked(State(script: initialPath.map { [$0] } ?? [], current: initialPath))
    self.interval = nil
    self.repeats = false
  }

  /// Creates a source that replays `paths`.
  ///
  /// The first path is current from the start. Without an `interval`, ``advance()`` moves to the next
  /// one; with an interval, each running session moves on by itself, from its own task, cancelled on stop.
  ///
  /// - Parameters:
  ///   - paths: The script.
  ///   - interval: The time between two paths when the script plays by itself, or `nil`.
  ///   - repeats: Whether a script that plays by itself starts over after its last path.
  public init(_ paths: [NetworkPath], interval: Duration? = nil, repeats: Bool = false) {
    self.state = Locked(State(script: paths, current: paths.first))
    self.interval = interval
    self.repeats = repeats
  }

  /// The current path, or `nil` while it is not known.
  public var currentPath: NetworkPath? { state.withLockedValue { $0.current } }

  /// The number of monitors currently running on this source. For this package's tests.
  package var activeSessionCount: Int { state.withLockedValue { $0.sinks.count } }

  /// How many times a monitor has started this source. For this package's tests.
  package var startCount: Int { state.withLockedValue { $0.startCount } }

  /// An error to throw from the next starts, to simulate a source that cannot start; `nil` to start.
  public var startError: NetworkMonitorError? {
    get { state.withLockedValue { $0.startError } }
    set { state.withLockedValue { $0.startError = newValue } }
  }

  /// Makes `path` current and sends it to every running monitor.
  public func send(_ path: NetworkPath) {
    let sinks = state.withLockedValue { state in
      state.current = path
      return Array(state.sinks.values)
    }
    for sink in sinks { sink.send(path) }
  }

  /// Moves to the next path of the script and sends it. Returns `false`, sending nothing, when the
  /// script has no next path (it wraps around if it `repeats`).
  @discardableResult
  public func advance() -> Bool {
    let next: NetworkPath? = state.withLockedValue { state in
      var position = state.position + 1
      if position >= state.script.count {
        guard repeats, !state.script.isEmpty else { return nil }
        position = 0
      }
      state.position = position
      return state.script[position]
    }
    guard let next else { return false }
    send(next)
    return true
  }

  /// Reports a failure to every running monitor, as a real source does when it loses the network
  /// (for example, a deleted namespace). The monitors stop.
  public func fail(_ error: NetworkMonitorError) {
    let sinks = state.withLockedValue { Array($0.sinks.values) }
    for sink in sinks { sink.fail(error) }
  }

  /// Registers the monitor's sink and sends it the current path, if known, before returning.
  public func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
    let (id, current) = try state.withLockedValue { state throws(NetworkMonitorError) in
      if let error = state.startError { throw error }
      state.startCount += 1
      state.nextID += 1
      state.sinks[state.nextID] = sink
      return (state.nextID, state.current)
    }
    if let current { sink.send(current) }
    var player: Task<Void, Never>?
    if let interval {
      player = Task { [weak self] in
        while !Task.isCancelled {
          do { try await Task.sleep(for: interval) } catch { return }
          guard let self, self.advance() else { return }
        }
      }
    }
    return Session(source: self, id: id, player: player)
  }

  private func remove(_ id: UInt64) {
    _ = state.withLockedValue { $0.sinks.removeValue(forKey: id) }
  }

  private struct Session: PathSourceSession {
    let source: ScriptedPathSource
    let id: UInt64
    let player: Task<Void, Never>?

    func stop() {
      player?.cancel()
      source.remove(id)
    }
  }
}
