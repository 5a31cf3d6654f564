#if !os(Linux)
  import Dispatch
  import NetStatusCore

  #if canImport(Darwin)
    import Darwin
  #endif

  /// How the stop signals reach a ``StopSignal`` where there is no signalfd: libdispatch's signal sources, each
  /// handled on a private queue. A signal that arrives while a command finishes on its own is seen if its handler
  /// has run by then (on Linux, StopSignalDelivery+Linux.swift sees every one).
  final class StopSignalDelivery: Sendable {
    private let signals: [Int32]
    /// Written once in `startWatching`, before any handler runs; the sources only need to stay alive.
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []
    /// The signal a source received, for `take` to read under its lock.
    private let received = Locked<[Int32]>([])

    init?(signals: [Int32]) {
      self.signals = signals
    }

    /// Makes the sources; each signal is handed to `take`. Returns whether they exist.
    func startWatching(_ take: @escaping @Sendable () -> Bool) -> Bool {
      let queue = DispatchQueue(label: "netstatus.signals")
      for number in signals {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        // Holds `self`: a delivery lives as long as the process's stop.
        source.setEventHandler { [self] in
          received.withLockedValue { $0.append(number) }
          _ = take()
        }
        source.resume()
        sources.append(source)
      }
      return true
    }

    /// Takes one signal a source received, if any. Called only under the stop's lock.
    func readPending() -> Int32? {
      received.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() }
    }
  }
#endif
