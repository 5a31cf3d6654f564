import NetStatusCore

// The values options take: each read and checked on its own, its usage error naming what the option takes.
extension CommandLineOptions {
  /// `--expect`: a three-digit number from 100 to 599 is a status; any other number is a usage error; anything
  /// else is the text the body starts with.
  static func expectation(_ text: String, command: Command?) throws(UsageError) -> ConnectivityProbe.Expectation {
    guard !text.isEmpty else {
      throw UsageError(message: "--expect takes a status (100-599) or the text the body starts with", command: command)
    }
    if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
      guard text.count == 3, let status = Int(text), (100...599).contains(status) else {
        throw UsageError(
          message:
            "--expect \(text): a status is a number from 100 to 599 (a body that is only digits cannot be told from it)",
          command: command)
      }
      return .status(status)
    }
    return .body(text)
  }

  /// `--probe-interval`: at least a second, or `infinity` (`nil`: never again while the state is full).
  static func probeInterval(_ text: String, command: Command?) throws(UsageError) -> Duration? {
    switch TimeSpan.parse(text) {
    case .infinity?: return nil
    case .finite(let span)? where span >= .seconds(1): return span
    default:
      throw UsageError(
        message:
          "--probe-interval takes \(TimeSpan.syntax), at least 1s (infinity: never again while full); not '\(text)'",
        command: command)
    }
  }

  /// `--timeout`: `nil` (wait forever) for 0 or `infinity`.
  static func timeout(_ text: String) throws(UsageError) -> Duration? {
    switch TimeSpan.parse(text) {
    case .infinity?, .finite(.zero)?: return nil
    case .finite(let span)?: return span
    case nil:
      throw UsageError(
        message: "--timeout takes \(TimeSpan.syntax), at most 365 days; 0 or infinity waits forever; not '\(text)'",
        command: .wait)
    }
  }

  /// `watch --settle` and `wait --stable`: how long a change must hold; `nil` (at once) for 0.
  static func holdSpan(_ text: String, option: String, command: Command?) throws(UsageError) -> Duration? {
    switch TimeSpan.parse(text) {
    case .finite(.zero)?: return nil
    case .finite(let span)?: return span
    case .infinity?, nil:
      throw UsageError(
        message: "\(option) takes \(TimeSpan.syntax), at most 365 days (0: at once); not '\(text)'", command: command)
    }
  }

  /// `--interface-type`: one of ``InterfaceType``'s names, or a usual word for one (``interfaceTypeWords``), in any
  /// case.
  static func interfaceType(_ text: String) throws(UsageError) -> InterfaceType {
    let word = text.lowercased()
    if let type = InterfaceType.allCases.first(where: { $0.rawValue.lowercased() == word }) { return type }
    if let type = interfaceTypeWords[word] { return type }
    let known = InterfaceType.allCases.map(\.rawValue).joined(separator: ", ")
    let candidates = InterfaceType.allCases.map { $0.rawValue.lowercased() } + interfaceTypeWords.keys.sorted()
    var message = "unknown interface type '\(text)'"
    if let close = Suggestion.closest(to: word, among: candidates) {
      let type = InterfaceType.allCases.first { $0.rawValue.lowercased() == close } ?? interfaceTypeWords[close]
      message += "; did you mean '\(type?.rawValue ?? close)'?"
    }
    throw UsageError(message: message + " Use one of \(known)", command: .wait)
  }

  /// The usual words for the interface types that `--interface-type` also accepts.
  static let interfaceTypeWords: [String: InterfaceType] = [
    "ethernet": .wiredEthernet, "wired": .wiredEthernet, "eth": .wiredEthernet, "lan": .wiredEthernet,
    "wired-ethernet": .wiredEthernet,
    "wlan": .wifi, "wi-fi": .wifi, "wireless": .wifi,
    "mobile": .cellular, "cell": .cellular, "wwan": .cellular,
    "lo": .loopback,
  ]

  /// `--interface NAME[:MIN[:MAX]]`, networkd's form (an interface name has no ':'): the name, and the range when
  /// one is given.
  static func interfaceState(_ text: String) throws(UsageError) -> (name: String, range: OperationalState.Range?) {
    let colon = text.firstIndex(of: ":")
    let interface = String(text[..<(colon ?? text.endIndex)])
    guard isInterfaceName(interface) else {
      throw UsageError(
        message: "--interface takes an interface name (1 to 15 characters, no '/', ':' or spaces) and "
          + "optionally :MIN[:MAX] operational states, not '\(text)'",
        command: .wait)
    }
    guard let colon else { return (interface, nil) }
    guard let range = OperationalState.Range(parsing: text[text.index(after: colon)...]) else {
      throw UsageError(
        message: "--interface \(text): after the name come MIN[:MAX], networkd's operational states ("
          + OperationalState.Range.names + "), the minimum not above the maximum",
        command: .wait)
    }
    return (interface, range)
  }

  /// `--operational-state MIN[:MAX]`.
  static func operationalState(_ text: String) throws(UsageError) -> OperationalState.Range {
    guard let range = OperationalState.Range(parsing: text[...]) else {
      throw UsageError(
        message: "--operational-state takes MIN[:MAX], networkd's operational states ("
          + OperationalState.Range.names + "), the minimum not above the maximum; not '\(text)'",
        command: .wait)
    }
    return range
  }

  /// The interface name `--via` or `--ignore` (`option`) takes.
  static func interfaceName(_ text: String, option: String) throws(UsageError) -> String {
    guard isInterfaceName(text) else {
      throw UsageError(
        message: "\(option) takes an interface name (1 to 15 characters, no '/', ':' or spaces), not '\(text)'",
        command: .wait)
    }
    return text
  }

  /// Whether `name` can name a Linux interface: 1 to 15 bytes (IFNAMSIZ - 1), none of them '/', ':' or white
  /// space (the kernel's `dev_valid_name`), and not "." or "..".
  static func isInterfaceName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard (1...15).contains(bytes.count), name != ".", name != ".." else { return false }
    return !bytes.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") || $0 <= 32 || $0 == 127 }
  }
}
