/// Where the NetworkManager integration stands: the state machine of ``NetworkManagerWatch`` (Linux), pure.
///
/// `stopped` → (first subscriber) `unavailable` (no libsystemd, no system bus, or no answer within the start-up
/// budget: ``noAnswer(within:busAnswered:waitingFor:)``) or, once connected, `absent` (NetworkManager not on the
/// bus) or `running`; `absent` and `running` follow NetworkManager's name on the bus
/// and its signals; a lost connection is `unavailable` until the last subscriber leaves (`stopped`), and the next
/// first subscriber connects again.
package enum NetworkManagerStatus: Sendable, Hashable {
  /// No subscriber: nothing is connected.
  case stopped
  /// The integration cannot work now, for this reason.
  case unavailable(String)
  /// Connected to the system bus, but NetworkManager is not on it.
  case absent
  /// NetworkManager answers: its view.
  case running(NetworkManagerView)

  /// The view to apply, when NetworkManager answers.
  package var view: NetworkManagerView? {
    if case .running(let view) = self { return view }
    return nil
  }

  /// The status after a read of NetworkManager's properties failed with a D-Bus error named `errorName` (empty
  /// when there was none) and `errno` `code`: absent when no service owns the name, else unavailable
  /// (``BusService/failureReason(of:errorName:description:)``).
  static func afterFailedRead(errorName: String, code: Int32, description: String) -> NetworkManagerStatus {
    BusService.failureReason(of: "NetworkManager", errorName: errorName, description: description)
      .map(NetworkManagerStatus.unavailable) ?? .absent
  }

  /// The status when NetworkManager's first answer did not come within `budget`: `busAnswered` is whether the bus
  /// answered anything (else the bus itself hangs), `waitingFor` what was still unanswered.
  static func noAnswer(within budget: Duration, busAnswered: Bool, waitingFor: String) -> NetworkManagerStatus {
    .unavailable(
      BusService.noAnswerReason(
        of: "NetworkManager", within: budget, busAnswered: busAnswered, waitingFor: waitingFor))
  }

  /// The diagnostic entry: NetworkManager adds metered devices (to ``NetworkPath/isExpensive``), the Wi-Fi signal
  /// (to ``NetworkPath/linkQuality``) and, to a ``ConnectivityMonitor`` that asks for it, connectivity.
  package var diagnostic: SourceDiagnostic {
    BusService.diagnostic("NetworkManager", provides: "metered devices, connectivity, Wi-Fi signal", busState)
  }

  /// Where NetworkManager stands, as its diagnostic says it.
  var busState: BusService.State {
    switch self {
    case .stopped: .stopped
    case .unavailable(let reason): .unavailable(reason)
    case .absent: .absent
    case .running(let view): .running(problems: view.problems)
    }
  }
}
