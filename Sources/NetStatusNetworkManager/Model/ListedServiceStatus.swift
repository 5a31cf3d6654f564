/// What a service listed with its ObjectManager on ``NetworkManagerWatch``'s connection says, for its
/// ``ListedServiceStatus``: its name, what it adds to a path, and what it answers with.
package protocol ListedServiceView: Sendable, Hashable {
  /// The service's name in messages and diagnostics (`ModemManager`, `iwd`).
  static var serviceName: String { get }
  /// What it adds to a path, for its diagnostic entry (`cellular signal`).
  static var provides: String { get }
  /// What its `GetManagedObjects` lists, for the reason a start gives when it did not answer (`its modems`).
  static var listed: String { get }
  /// What it gave of another type than its API's, and what NetStatus does without it.
  var problems: [String] { get }
}

/// Where the integration of a service listed with its ObjectManager stands: ModemManager (``ModemManagerStatus``) or
/// iwd (``IwdStatus``), followed on ``NetworkManagerWatch``'s connection (Linux). Pure.
///
/// As ``NetworkManagerStatus``: `stopped` without subscribers; `unavailable` without libsystemd or a system bus,
/// without an answer within the start-up budget, or after an answer NetStatus cannot use; `absent` when the service
/// is not on the bus (quiet: one call at the start, then only its name is followed); `running` with its view.
package enum ListedServiceStatus<View: ListedServiceView>: Sendable, Hashable {
  /// No subscriber: nothing is connected.
  case stopped
  /// The integration cannot work now, for this reason.
  case unavailable(String)
  /// Connected to the system bus, but the service is not on it.
  case absent
  /// The service answers: its view.
  case running(View)

  /// The view to apply, when the service answers.
  package var view: View? {
    if case .running(let view) = self { return view }
    return nil
  }

  /// The status after the service's `GetManagedObjects` failed with a D-Bus error named `errorName` (empty when
  /// there was none): absent when no service owns the name, else unavailable
  /// (``BusService/failureReason(of:errorName:description:)``: a refusal by the bus's policy says so).
  static func afterFailedListing(errorName: String, description: String) -> Self {
    BusService.failureReason(of: View.serviceName, errorName: errorName, description: description)
      .map(Self.unavailable) ?? .absent
  }

  /// The status when the service's first answer did not come within `budget`: `busAnswered` is whether the bus
  /// answered anything (else the bus itself hangs).
  static func noAnswer(within budget: Duration, busAnswered: Bool) -> Self {
    .unavailable(
      BusService.noAnswerReason(
        of: View.serviceName, within: budget, busAnswered: busAnswered, waitingFor: "listing \(View.listed)"))
  }

  /// The status that goes with NetworkManager's `status` when the connection itself fails (no libsystemd, no bus,
  /// the connection lost): the same reason; `nil` for a status of NetworkManager's own.
  static func sharing(_ status: NetworkManagerStatus) -> Self? {
    switch status {
    case .stopped: .stopped
    case .unavailable(let reason): .unavailable(reason)
    case .absent, .running: nil
    }
  }

  /// The diagnostic entry: what the service adds to a path, and where it stands.
  package var diagnostic: SourceDiagnostic {
    let state: BusService.State
    switch self {
    case .stopped: state = .stopped
    case .unavailable(let reason): state = .unavailable(reason)
    case .absent: state = .absent
    case .running(let view): state = .running(problems: view.problems)
    }
    return BusService.diagnostic(View.serviceName, provides: View.provides, state)
  }
}

/// Where the ModemManager integration stands: its modems, and their signal rating cellular paths.
package typealias ModemManagerStatus = ListedServiceStatus<ModemManagerView>

/// Where the iwd integration stands: its stations, and the levels its signal level agent hears.
package typealias IwdStatus = ListedServiceStatus<IwdView>

extension ModemManagerView: ListedServiceView {
  package static let serviceName = "ModemManager"
  package static let provides = "cellular signal"
  package static let listed = "its modems"
}

extension IwdView: ListedServiceView {
  package static let serviceName = "iwd"
  package static let provides = "Wi-Fi signal"
  package static let listed = "its stations"
}
