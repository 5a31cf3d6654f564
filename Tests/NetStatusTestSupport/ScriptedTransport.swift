import Foundation
import NetStatusCore

/// A transport the test answers by hand: each exchange waits until the test answers it or it is cancelled.
package final class ScriptedTransport: ProbeTransport {
  package struct Request: Sendable {
    package var interface: String?
  }

  private struct State {
    var waiting: [(id: UUID, continuation: CheckedContinuation<ProbeExchange, Never>)] = []
    var cancelledEarly: Set<UUID> = []
  }

  private let state = Locked(State())
  /// Every request, in order.
  package let requests = Recorder<Request>()
  /// One entry per cancelled exchange.
  package let cancellations = Recorder<Void>()

  package init() {}

  package static let cancelled = ProbeExchange(result: .failed(.cancelled), duration: .zero)

  package func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?) async -> ProbeExchange {
    let id = UUID()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let early = state.withLockedValue { state -> Bool in
          if state.cancelledEarly.remove(id) != nil { return true }
          state.waiting.append((id, continuation))
          return false
        }
        requests.append(Request(interface: interface?.name))
        if early {
          continuation.resume(returning: Self.cancelled)
          cancellations.append(())
        }
      }
    } onCancel: {
      let waiting = state.withLockedValue { state -> CheckedContinuation<ProbeExchange, Never>? in
        guard let index = state.waiting.firstIndex(where: { $0.id == id }) else {
          state.cancelledEarly.insert(id)
          return nil
        }
        return state.waiting.remove(at: index).continuation
      }
      if let waiting {
        waiting.resume(returning: Self.cancelled)
        cancellations.append(())
      }
    }
  }

  /// Answers the oldest waiting exchange.
  package func answer(_ result: ProbeExchange.Result) {
    let continuation = state.withLockedValue { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst().continuation }
    continuation?.resume(returning: ProbeExchange(result: result, boundInterface: "wlan0", duration: .milliseconds(3)))
  }

  package var waitingCount: Int { state.withLockedValue { $0.waiting.count } }
}

extension ProbeExchange {
  package init(result: Result, boundInterface: String? = nil, duration: Duration) {
    self.init(result: result, boundInterface: boundInterface, bindingProblem: nil, duration: duration)
  }
}
