/// Where the iwd integration stands: iwd followed on ``NetworkManagerWatch``'s connection (Linux), pure.
///
/// As ``ModemManagerStatus``: `stopped` without subscribers; `unavailable` without libsystemd or a system bus, without
/// an answer within the start-up budget, or after an answer NetStatus cannot use; `absent` when iwd is not on the bus
/// (one call at the start, then only its name is followed); `running` with its stations.
package enum IwdStatus: Sendable, Hashable {
  /// No subscriber: nothing is connected.
  case stopped
  /// The integration cannot work now, for this reason.
  case unavailable(String)
  /// Connected to the system bus, but iwd is not on it.
  case absent
  /// iwd answers: its stations and their signal levels.
  case running(IwdView)

  /// The view to apply, when iwd answers.
  package var view: IwdView? {
    if case .running(let view) = self { return view }
    return nil
  }

  /// The status after iwd's `GetManagedObjects` failed with a D-Bus error named `errorName` (empty when there was
  /// none): absent when no service owns the name, else unavailable; refused by the bus's policy (iwd's lets only
  /// root and the groups it names call it), unavailable with that said.
  static func afterFailedListing(errorName: String, description: String) -> IwdStatus {
    if NetworkManagerStatus.absentErrorNames.contains(errorName) { return .absent }
    if errorName == NetworkManagerStatus.accessDenied {
      return .unavailable("the system bus's policy does not let this process call iwd (\(errorName): \(description))")
    }
    return .unavailable("iwd did not answer: " + (errorName.isEmpty ? description : "\(errorName) (\(description))"))
  }

  /// The status when iwd's first answer did not come within `budget`: `busAnswered` is whether the bus answered
  /// anything (else the bus itself hangs).
  static func noAnswer(within budget: Duration, busAnswered: Bool) -> IwdStatus {
    let milliseconds = budget.components.seconds * 1000 + budget.components.attoseconds / 1_000_000_000_000_000
    let cause = busAnswered ? "listing its stations" : "the system bus did not answer"
    return .unavailable("iwd did not answer within \(milliseconds) ms (\(cause)); its answer is applied when it comes")
  }

  /// The status that goes with NetworkManager's `status` when the connection itself fails: the same reason; `nil`
  /// for a status of NetworkManager's own.
  static func sharing(_ status: NetworkManagerStatus) -> IwdStatus? {
    switch status {
    case .stopped: .stopped
    case .unavailable(let reason): .unavailable(reason)
    case .absent, .running: nil
    }
  }

  /// The diagnostic entry: iwd's signal level agent rates a Wi-Fi path NetworkManager does not.
  package var diagnostic: SourceDiagnostic {
    let status: SourceDiagnostic.Status
    var note: String?
    switch self {
    case .stopped: status = .unavailable(reason: "not started (the monitor is stopped)")
    case .unavailable(let reason): status = .unavailable(reason: reason)
    case .absent: status = .unavailable(reason: "iwd is not running (not on the system bus)")
    case .running(let view):
      status = .active
      note = view.problems.isEmpty ? nil : view.problems.joined(separator: "; ")
    }
    return SourceDiagnostic(name: "iwd", provides: "Wi-Fi signal", status: status, note: note)
  }
}
