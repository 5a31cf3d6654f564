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

  /// The status after iwd's `GetManagedObjects` failed with a D-Bus error named `errorName` (empty when
  /// there was none): absent when no service owns the name, else unavailable
  /// (``BusService/failureReason(of:errorName:description:)``: a refusal by the bus's policy says so).
  static func afterFailedListing(errorName: String, description: String) -> IwdStatus {
    BusService.failureReason(of: "iwd", errorName: errorName, description: description)
      .map(IwdStatus.unavailable) ?? .absent
  }

  /// The status when iwd's first answer did not come within `budget`: `busAnswered` is whether the bus
  /// answered anything (else the bus itself hangs).
  static func noAnswer(within budget: Duration, busAnswered: Bool) -> IwdStatus {
    .unavailable(
      BusService.noAnswerReason(
        of: "iwd", within: budget, busAnswered: busAnswered, waitingFor: "listing its stations"))
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
    let state: BusService.State
    switch self {
    case .stopped: state = .stopped
    case .unavailable(let reason): state = .unavailable(reason)
    case .absent: state = .absent
    case .running(let view): state = .running(problems: view.problems)
    }
    return BusService.diagnostic("iwd", provides: "Wi-Fi signal", state)
  }
}
