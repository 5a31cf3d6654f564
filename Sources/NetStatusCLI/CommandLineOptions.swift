import NetStatusCore

/// What `netstatus` was asked to do, parsed from its arguments. Pure: no I/O.
struct CommandLineOptions: Equatable {
  enum Command: String, Equatable, CaseIterable {
    case show, watch, wait
    /// `netstatus completions SHELL`: print the shell completion script.
    case completions
  }

  var command: Command = .show
  var json = false
  var networkNamespace: String?
  /// `watch --all-netns`: every named namespace, as they appear and disappear.
  var allNamespaces = false
  /// `show --all`: every link and the DNS servers too.
  var showAll = false
  /// `watch --textfile PATH`: the file to keep in the Prometheus text format.
  var textfile: String?
  var help = false
  var version = false
  // wait
  var timeout: Duration? = .seconds(30)
  var interfaceTypes: [InterfaceType] = []
  /// `--interface NAME`: interfaces that must carry a usable path (all of them, or one with `--any`).
  var interfaces: [String] = []
  var anyInterface = false
  /// `--ignore NAME`: interfaces that never count.
  var ignoredInterfaces: [String] = []
  var requireIPv4 = false
  var requireIPv6 = false
  var requireDNS = false
  var quiet = false
  // connectivity (every command)
  /// The probe to run, when `--probe URL` was given: no traffic leaves the machine without it.
  var probe: ConnectivityProbe?
  /// `--networkmanager`: take connectivity from NetworkManager (no traffic); `--probe` wins when both are given.
  var networkManagerConnectivity = false
  /// `wait --internet`: wait for full connectivity too.
  var requireInternet = false
  /// `completions SHELL`: the shell to print the completion script for.
  var completionShell: Completions.Shell?

  /// A usage error: one line that names the problem, and the help to read.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var command: Command?
    var description: String {
      let help = command.map { "netstatus \($0.rawValue) --help" } ?? "netstatus --help"
      return "\(message) (see '\(help)')"
    }
  }

  /// Parses the arguments after the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
    var options = CommandLineOptions()
    var rest = arguments[...]
    var commandGiven: Command?
    if let first = rest.first, !first.hasPrefix("-") {
      guard let command = Command(rawValue: first) else {
        throw UsageError(
          message: "unknown command '\(first)'; commands are show, watch, wait and completions", command: nil)
      }
      options.command = command
      commandGiven = command
      rest = rest.dropFirst()
    }
    func value(for option: String, inline: String?) throws(UsageError) -> String {
      if let inline { return inline }
      guard let next = rest.first, !next.hasPrefix("--") else {
        throw UsageError(message: "option \(option) needs a value", command: commandGiven)
      }
      rest = rest.dropFirst()
      return next
    }
    var probeURL: String?
    var expectation: ConnectivityProbe.Expectation?
    var probeInterval: Duration?
    var probeIntervalGiven = false
    var given: [String] = []  // single-value options seen (an array: see OptionSpec.commands)
    var optionsEnded = false
    while let argument = rest.first {
      rest = rest.dropFirst()
      if optionsEnded {
        throw UsageError(message: "unexpected argument '\(argument)'", command: commandGiven)
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument.count > 1, argument.hasPrefix("-"), !argument.hasPrefix("--") {
        rest = try Self.expandShortOptions(argument, command: commandGiven)[...] + rest
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      if options.command == .completions, !argument.hasPrefix("-"), options.completionShell == nil {
        guard let shell = Completions.Shell(rawValue: argument) else {
          throw UsageError(
            message: "completions for '\(argument)'? The shells are bash, zsh and fish", command: .completions)
        }
        options.completionShell = shell
        continue
      }
      guard name.hasPrefix("-") else {
        throw UsageError(message: "unexpected argument '\(argument)'", command: commandGiven)
      }
      guard let spec = Self.spec(named: name, for: options.command) else {
        let scope = commandGiven.map { "for '\($0.rawValue)'" } ?? "for 'netstatus'"
        throw UsageError(message: "unknown option '\(name)' \(scope)", command: commandGiven)
      }
      if spec.value == nil, inline != nil {
        throw UsageError(message: "option \(name) takes no value", command: commandGiven)
      }
      if spec.value != nil, !spec.repeatable {
        guard !given.contains(name) else {
          throw UsageError(message: "option \(name) is given twice; give it once", command: commandGiven)
        }
        given.append(name)
      }
      switch name {
      case "--help": options.help = true
      case "--version": options.version = true
      case "--json": options.json = true
      case "--netns":
        let namespace = try value(for: name, inline: inline)
        guard !namespace.isEmpty else {
          throw UsageError(message: "--netns needs a namespace name or path", command: commandGiven)
        }
        options.networkNamespace = namespace
      case "--all-netns": options.allNamespaces = true
      case "--all": options.showAll = true
      case "--textfile":
        let file = try value(for: name, inline: inline)
        guard !file.isEmpty, file.last != "/" else {
          throw UsageError(message: "--textfile takes the path of a file to write, not '\(file)'", command: .watch)
        }
        options.textfile = file
      case "--probe":
        probeURL = try value(for: name, inline: inline)
      case "--probe-interval":
        let text = try value(for: name, inline: inline)
        switch TimeSpan.parse(text) {
        case .infinity?: probeInterval = nil
        case .finite(let span)? where span >= .seconds(1): probeInterval = span
        default:
          throw UsageError(
            message:
              "--probe-interval takes \(TimeSpan.syntax), at least 1s (infinity: never again while full); not '\(text)'",
            command: commandGiven)
        }
        probeIntervalGiven = true
      case "--expect":
        expectation = try Self.expectation(try value(for: name, inline: inline), command: commandGiven)
      case "--internet": options.requireInternet = true
      case "--networkmanager": options.networkManagerConnectivity = true
      case "--timeout":
        let text = try value(for: name, inline: inline)
        switch TimeSpan.parse(text) {
        case .infinity?, .finite(.zero)?: options.timeout = nil
        case .finite(let span)?: options.timeout = span
        case nil:
          throw UsageError(
            message: "--timeout takes \(TimeSpan.syntax), at most 365 days; 0 or infinity waits forever; not '\(text)'",
            command: .wait)
        }
      case "--interface-type":
        let text = try value(for: name, inline: inline)
        guard let type = InterfaceType(rawValue: text) else {
          let known = InterfaceType.allCases.map(\.rawValue).joined(separator: ", ")
          throw UsageError(message: "unknown interface type '\(text)'; use one of \(known)", command: .wait)
        }
        if !options.interfaceTypes.contains(type) { options.interfaceTypes.append(type) }
      case "--interface", "--ignore":
        let interface = try value(for: name, inline: inline)
        guard Self.isInterfaceName(interface) else {
          throw UsageError(
            message: "\(name) takes an interface name (1 to 15 characters, no '/', ':' or spaces), not '\(interface)'",
            command: .wait)
        }
        if name == "--interface" {
          if !options.interfaces.contains(interface) { options.interfaces.append(interface) }
        } else if !options.ignoredInterfaces.contains(interface) {
          options.ignoredInterfaces.append(interface)
        }
      case "--any": options.anyInterface = true
      case "--ipv4": options.requireIPv4 = true
      case "--ipv6": options.requireIPv6 = true
      case "--dns": options.requireDNS = true
      case "--quiet": options.quiet = true
      default:
        preconditionFailure("\(name) is in the option table but not parsed")
      }
    }
    if options.command == .completions, options.completionShell == nil, !options.help, !options.version {
      throw UsageError(message: "completions needs a shell: bash, zsh or fish", command: .completions)
    }
    if options.allNamespaces, options.networkNamespace != nil {
      throw UsageError(message: "--all-netns and --netns exclude each other", command: .watch)
    }
    if options.allNamespaces, options.textfile != nil {
      throw UsageError(
        message: "--textfile is for one namespace: watch it with --netns NAME --textfile PATH", command: .watch)
    }
    if options.allNamespaces, probeURL != nil {
      throw UsageError(
        message: "--all-netns does not probe: watch one namespace with --netns NAME --probe URL", command: .watch)
    }
    if let probeURL {
      do throws(ConnectivityProbeError) {
        options.probe = try ConnectivityProbe(
          url: probeURL, expecting: expectation ?? .status(204), recheckInterval: probeInterval)
      } catch {
        throw UsageError(message: "--probe: \(error.description)", command: commandGiven)
      }
    } else if probeIntervalGiven {
      throw UsageError(
        message: "--probe-interval needs --probe URL: it says how often to check that URL", command: commandGiven)
    } else if expectation != nil {
      throw UsageError(
        message: "--expect needs --probe URL: it says what the probe URL should answer", command: commandGiven)
    }
    if options.anyInterface, options.interfaces.isEmpty {
      throw UsageError(message: "--any needs --interface NAME: it says one of them is enough", command: .wait)
    }
    if let both = options.interfaces.first(where: options.ignoredInterfaces.contains) {
      throw UsageError(message: "\(both) is both required (--interface) and ignored (--ignore)", command: .wait)
    }
    if options.networkManagerConnectivity, options.networkNamespace != nil || options.allNamespaces {
      throw UsageError(
        message: "--networkmanager is for this machine's own namespace (the one NetworkManager manages): not with "
          + (options.allNamespaces ? "--all-netns" : "--netns"),
        command: commandGiven)
    }
    if options.requireInternet, options.probe == nil, !options.networkManagerConnectivity {
      throw UsageError(
        message: "wait --internet needs --probe URL or --networkmanager: netstatus sends no traffic unless you give "
          + "it a URL to probe",
        command: .wait)
    }
    return options
  }

  /// `-jq` → `--json --quiet`; `-n NAME` and `-nNAME` → `--netns` and its value (`-t` likewise).
  static func expandShortOptions(_ argument: String, command: Command?) throws(UsageError) -> [String] {
    var expanded: [String] = []
    var letters = argument.dropFirst()
    while let letter = letters.first {
      letters = letters.dropFirst()
      guard let spec = spec(short: letter) else {
        let scope = command.map { "for '\($0.rawValue)'" } ?? "for 'netstatus'"
        throw UsageError(message: "unknown option '-\(letter)' \(scope)", command: command)
      }
      if spec.value != nil {
        // The rest of the cluster is the value; without a rest, the next argument is (as for the long form).
        expanded.append(letters.isEmpty ? spec.long : spec.long + "=" + letters)
        return expanded
      }
      expanded.append(spec.long)
    }
    return expanded
  }

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

  /// Whether `name` can name a Linux interface: 1 to 15 bytes (IFNAMSIZ - 1), none of them '/', ':' or white
  /// space (the kernel's `dev_valid_name`), and not "." or "..".
  static func isInterfaceName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard (1...15).contains(bytes.count), name != ".", name != ".." else { return false }
    return !bytes.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") || $0 <= 32 || $0 == 127 }
  }

  /// What `wait` waits for.
  var waitCondition: WaitCondition {
    WaitCondition(
      interfaceTypes: Set(interfaceTypes), interfaces: interfaces, anyInterface: anyInterface,
      ignoredInterfaces: Set(ignoredInterfaces), requireIPv4: requireIPv4, requireIPv6: requireIPv6,
      requireDNS: requireDNS)
  }
}

/// The condition `netstatus wait` waits for. Pure.
struct WaitCondition: Equatable {
  var interfaceTypes: Set<InterfaceType> = []
  /// Interfaces that must each carry a usable path (one of them with ``anyInterface``).
  var interfaces: [String] = []
  var anyInterface = false
  /// Interfaces that never count.
  var ignoredInterfaces: Set<String> = []
  var requireIPv4 = false
  var requireIPv6 = false
  var requireDNS = false

  /// Whether `path` meets the condition: satisfied; through an interface that is not ignored (the path's
  /// available interfaces are the ones the kernel routes off-link traffic through, with a usable address); of one
  /// of the interface types if any are given; through every named interface (or one of them, with
  /// ``anyInterface``); with the address families and DNS asked for.
  func isMet(by path: NetworkPath) -> Bool {
    guard path.isConnected else { return false }
    let counted = path.availableInterfaces.filter { !ignoredInterfaces.contains($0.name) }
    guard !counted.isEmpty else { return false }
    if !interfaceTypes.isEmpty, !counted.contains(where: { interfaceTypes.contains($0.type) }) {
      return false
    }
    if !interfaces.isEmpty {
      let names = Set(counted.map(\.name))
      let carrying = interfaces.filter(names.contains)
      if anyInterface ? carrying.isEmpty : carrying.count != interfaces.count { return false }
    }
    if requireIPv4, !path.supportsIPv4 { return false }
    if requireIPv6, !path.supportsIPv6 { return false }
    if requireDNS, !path.supportsDNS { return false }
    return true
  }

  /// `a satisfied path over wifi or cellular with IPv4 and DNS`.
  var description: String {
    var text = "a satisfied path"
    if !interfaces.isEmpty {
      text += " through " + interfaces.joined(separator: anyInterface ? " or " : " and ")
    }
    if !ignoredInterfaces.isEmpty {
      text += " (ignoring " + ignoredInterfaces.sorted().joined(separator: ", ") + ")"
    }
    if !interfaceTypes.isEmpty {
      text +=
        " over " + InterfaceType.allCases.filter(interfaceTypes.contains).map(\.rawValue).joined(separator: " or ")
    }
    var needs: [String] = []
    if requireIPv4 { needs.append("IPv4") }
    if requireIPv6 { needs.append("IPv6") }
    if requireDNS { needs.append("DNS") }
    if !needs.isEmpty {
      text += " with " + needs.joined(separator: " and ")
    }
    return text
  }
}
