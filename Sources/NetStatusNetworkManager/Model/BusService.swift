/// What the statuses of the services followed on ``NetworkManagerWatch``'s connection (``NetworkManagerStatus``,
/// ``ModemManagerStatus``, ``IwdStatus``) say alike: why a service is unavailable, and their diagnostic entries.
/// Pure.
enum BusService {
  /// Where a service stands, as its diagnostic entry says it.
  enum State {
    case stopped
    case unavailable(String)
    case absent
    /// Answering; `problems` are what it gave of another type than its API's.
    case running(problems: [String])
  }

  /// The D-Bus error names that mean "no such service on the bus".
  static let absentErrorNames: Set<String> = [
    "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
  ]

  /// The D-Bus error of a call the bus's policy refuses.
  static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"

  /// Why `service` is unavailable after a call to it failed with the D-Bus error named `errorName` (empty when
  /// there was none); `nil` when the error says no service owns the name (the service is absent).
  static func failureReason(of service: String, errorName: String, description: String) -> String? {
    if absentErrorNames.contains(errorName) { return nil }
    if errorName == accessDenied {
      return "the system bus's policy does not let this process call \(service) (\(errorName): \(description))"
    }
    return "\(service) did not answer: " + (errorName.isEmpty ? description : "\(errorName) (\(description))")
  }

  /// Why `service` is unavailable when its first answer did not come within `budget`: `busAnswered` is whether the
  /// bus answered anything (else the bus itself hangs), `waitingFor` what the service left unanswered.
  static func noAnswerReason(of service: String, within budget: Duration, busAnswered: Bool, waitingFor: String)
    -> String
  {
    let milliseconds = budget.components.seconds * 1000 + budget.components.attoseconds / 1_000_000_000_000_000
    let cause = busAnswered ? waitingFor : "the system bus did not answer"
    return "\(service) did not answer within \(milliseconds) ms (\(cause)); its answer is applied when it comes"
  }

  /// The diagnostic entry of `service`, which provides `provides`, in `state`.
  static func diagnostic(_ service: String, provides: String, _ state: State) -> SourceDiagnostic {
    switch state {
    case .stopped:
      SourceDiagnostic(
        name: service, provides: provides, status: .unavailable(reason: "not started (the monitor is stopped)"))
    case .unavailable(let reason):
      SourceDiagnostic(name: service, provides: provides, status: .unavailable(reason: reason))
    case .absent:
      SourceDiagnostic(
        name: service, provides: provides,
        status: .unavailable(reason: "\(service) is not running (not on the system bus)"))
    case .running(let problems):
      SourceDiagnostic(
        name: service, provides: provides, status: .active,
        note: problems.isEmpty ? nil : problems.joined(separator: "; "))
    }
  }
}
