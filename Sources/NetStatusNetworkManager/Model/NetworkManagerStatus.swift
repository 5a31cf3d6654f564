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

  /// The D-Bus error names that mean "no such service on the bus".
  static let absentErrorNames: Set<String> = [
    "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
  ]

  /// The D-Bus error of a call the bus's policy refuses.
  static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"

  /// The view to apply, when NetworkManager answers.
  package var view: NetworkManagerView? {
    if case .running(let view) = self { return view }
    return nil
  }

  /// The status after a read of NetworkManager's properties failed with a D-Bus error named `errorName` (empty
  /// when there was none) and `errno` `code`: absent when no service owns the name, else unavailable.
  static func afterFailedRead(errorName: String, code: Int32, description: String) -> NetworkManagerStatus {
    if absentErrorNames.contains(errorName) { return .absent }
    return .unavailable(
      "NetworkManager did not answer: " + (errorName.isEmpty ? description : "\(errorName) (\(description))"))
  }

  /// The status when NetworkManager's first answer did not come within `budget`: `busAnswered` is whether the bus
  /// answered anything (else the bus itself hangs), `waitingFor` what was still unanswered.
  static func noAnswer(within budget: Duration, busAnswered: Bool, waitingFor: String) -> NetworkManagerStatus {
    let milliseconds = budget.components.seconds * 1000 + budget.components.attoseconds / 1_000_000_000_000_000
    let cause = busAnswered ? waitingFor : "the system bus did not answer"
    return .unavailable(
      "NetworkManager did not answer within \(milliseconds) ms (\(cause)); its answer is applied when it comes")
  }

  /// The diagnostic entry: NetworkManager adds metered devices (to ``NetworkPath/isExpensive``) and, to a
  /// ``ConnectivityMonitor`` that asks for it, connectivity.
  package var diagnostic: SourceDiagnostic {
    let status: SourceDiagnostic.Status
    var note: String?
    switch self {
    case .stopped: status = .unavailable(reason: "not started (the monitor is stopped)")
    case .unavailable(let reason): status = .unavailable(reason: reason)
    case .absent: status = .unavailable(reason: "NetworkManager is not running (not on the system bus)")
    case .running(let view):
      status = .active
      note = view.problems.isEmpty ? nil : view.problems.joined(separator: "; ")
    }
    return SourceDiagnostic(
      name: "NetworkManager", provides: "metered devices, connectivity, Wi-Fi signal", status: status, note: note)
  }
}
