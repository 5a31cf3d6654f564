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
  /// `watch --all-netns`: every named namespace, as they appear and disappear; `show --all-netns`: every
  /// namespace, named or held by processes.
  var allNamespaces = false
  /// `--netns-dir DIR` (repeatable, with `--all-netns`): more folders whose files name namespaces, as
  /// `/run/netns` does for `ip netns`.
  var namespaceFolders: [String] = []
  /// `show --all`: every link and the DNS servers too.
  var showAll = false
  /// `watch --textfile PATH`: the file to keep in the Prometheus text format.
  var textfile: String?
  /// `--networkd-root DIR`: where systemd-networkd's state is read, instead of `/run/systemd/netif`.
  var networkdRoot: String?
  var help = false
  var version = false
  // wait
  var timeout: Duration? = .seconds(30)
  var interfaceTypes: [InterfaceType] = []
  /// `--interface NAME[:MIN[:MAX]]`: interfaces whose operational state must reach a range (all of them, or one with
  /// `--any`), as `systemd-networkd-wait-online --interface` means it.
  var interfaces: [String] = []
  /// The ranges given with `--interface NAME:MIN[:MAX]`, by name.
  var interfaceStates: [String: OperationalState.Range] = [:]
  /// `--operational-state MIN[:MAX]`: the range for interfaces given without one.
  var operationalState: OperationalState.Range?
  /// `--via NAME`: interfaces the default path must go through (all of them, or one with `--any`).
  var viaInterfaces: [String] = []
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

  /// Where the command is among `arguments`: the first argument that is neither an option nor an option's value
  /// (options may come before it, as `ip -n NS monitor` takes them). `nil` when there is none. Options are
  /// recognised by their spelling whatever the command; an unknown one is left for the parser to report.
  static func commandPosition(in arguments: [String]) -> Int? {
    var position = arguments.startIndex
    while position < arguments.endIndex {
      let argument = arguments[position]
      if argument == "--" { return nil }
      if argument.hasPrefix("--") {
        if !argument.contains("="), spec(named: argument)?.value != nil { position += 1 }
      } else if argument.count > 1, argument.hasPrefix("-") {
        // A cluster: the first letter that takes a value takes the rest, or else the next argument.
        var letters = argument.dropFirst()
        while let letter = letters.first {
          letters = letters.dropFirst()
          if spec(short: letter)?.value != nil {
            if letters.isEmpty { position += 1 }
            break
          }
        }
      } else {
        return position
      }
      position += 1
    }
    return nil
  }

  /// Parses the arguments after the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
    var options = CommandLineOptions()
    var arguments = arguments
    var commandGiven: Command?
    if let position = commandPosition(in: arguments) {
      var word = arguments.remove(at: position)
      if word == "help" {
        // `netstatus help [COMMAND]`, as git and systemctl take it.
        options.help = true
        guard let next = commandPosition(in: arguments) else { return options }
        word = arguments.remove(at: next)
      }
      guard let command = Command(rawValue: word) else {
        // `--netnz blue watch`: the unknown option, not its value, is the mistake to report.
        for argument in arguments[..<min(position, arguments.count)] where argument.hasPrefix("--") {
          let name = String(argument.prefix { $0 != "=" })
          if name != "--", spec(named: name) == nil {
            throw UsageError(message: unknownOption(name, command: nil), command: nil)
          }
        }
        let known = Completions.firstWords
        throw UsageError(
          message: "unknown command '\(word)'"
            + (Suggestion.closest(to: word, among: known).map { "; did you mean '\($0)'?" }
              ?? "; commands are show, watch, wait, completions and help"),
          command: nil)
      }
      options.command = command
      commandGiven = command
    }
    var rest = arguments[...]
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
        throw UsageError(message: Self.unknownOption(name, command: commandGiven), command: commandGiven)
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
      case "--netns-dir":
        let folder = try value(for: name, inline: inline)
        guard folder.hasPrefix("/") else {
          throw UsageError(
            message: "--netns-dir takes a folder's absolute path, not '\(folder)'", command: commandGiven)
        }
        options.namespaceFolders.append(folder)
      case "--all": options.showAll = true
      case "--textfile":
        let file = try value(for: name, inline: inline)
        guard !file.isEmpty, file.last != "/" else {
          throw UsageError(message: "--textfile takes the path of a file to write, not '\(file)'", command: .watch)
        }
        options.textfile = file
      case "--networkd-root":
        let folder = try value(for: name, inline: inline)
        guard folder.hasPrefix("/") else {
          throw UsageError(
            message: "--networkd-root takes a folder's absolute path, not '\(folder)'", command: commandGiven)
        }
        options.networkdRoot = folder
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
      case "--interface":
        let text = try value(for: name, inline: inline)
        // networkd's form: NAME[:MIN[:MAX]] (an interface name has no ':').
        let colon = text.firstIndex(of: ":")
        let interface = String(text[..<(colon ?? text.endIndex)])
        guard Self.isInterfaceName(interface) else {
          throw UsageError(
            message: "--interface takes an interface name (1 to 15 characters, no '/', ':' or spaces) and "
              + "optionally :MIN[:MAX] operational states, not '\(text)'",
            command: .wait)
        }
        if let colon {
          guard let range = OperationalState.Range(parsing: text[text.index(after: colon)...]) else {
            throw UsageError(
              message: "--interface \(text): after the name come MIN[:MAX], networkd's operational states ("
                + OperationalState.Range.names + "), the minimum not above the maximum",
              command: .wait)
          }
          options.interfaceStates[interface] = range
        }
        if !options.interfaces.contains(interface) { options.interfaces.append(interface) }
      case "--operational-state":
        let text = try value(for: name, inline: inline)
        guard let range = OperationalState.Range(parsing: text[...]) else {
          throw UsageError(
            message: "--operational-state takes MIN[:MAX], networkd's operational states ("
              + OperationalState.Range.names + "), the minimum not above the maximum; not '\(text)'",
            command: .wait)
        }
        options.operationalState = range
      case "--via", "--ignore":
        let interface = try value(for: name, inline: inline)
        guard Self.isInterfaceName(interface) else {
          throw UsageError(
            message: "\(name) takes an interface name (1 to 15 characters, no '/', ':' or spaces), not '\(interface)'",
            command: .wait)
        }
        if name == "--via" {
          if !options.viaInterfaces.contains(interface) { options.viaInterfaces.append(interface) }
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
    if !options.namespaceFolders.isEmpty, !options.allNamespaces {
      throw UsageError(message: "--netns-dir adds folders to --all-netns: give --all-netns too", command: commandGiven)
    }
    if options.allNamespaces, options.networkNamespace != nil {
      throw UsageError(message: "--all-netns and --netns exclude each other", command: commandGiven)
    }
    if options.allNamespaces, options.showAll {
      throw UsageError(message: "--all-netns and --all exclude each other", command: .show)
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
    if options.anyInterface, options.interfaces.isEmpty, options.viaInterfaces.isEmpty {
      throw UsageError(
        message: "--any needs --interface NAME or --via NAME: it says one of them is enough", command: .wait)
    }
    if options.operationalState != nil, options.interfaces.isEmpty {
      throw UsageError(
        message: "--operational-state needs --interface NAME: it says which state that interface must reach",
        command: .wait)
    }
    if let both = options.viaInterfaces.first(where: options.ignoredInterfaces.contains) {
      throw UsageError(message: "\(both) is both required (--via) and ignored (--ignore)", command: .wait)
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
        throw UsageError(message: unknownOption("-\(letter)", command: command), command: command)
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

  /// The message for an option `command` does not take: which command takes it, or the closest it does take.
  static func unknownOption(_ name: String, command: Command?) -> String {
    let scope = command.map { "for '\($0.rawValue)'" } ?? "for 'netstatus'"
    let accepted = optionSpecs.filter { $0.commands.contains(command ?? .show) }
    if let other = optionSpecs.first(where: { $0.long == name || $0.short.map { "-\($0)" } == name }) {
      let takers = Command.allCases.filter(other.commands.contains).map { "'\($0.rawValue)'" }
      return "unknown option '\(name)' \(scope); it is an option of " + takers.joined(separator: " and ")
    }
    guard name.hasPrefix("--"),
      let closest = Suggestion.closest(to: name, among: accepted.map(\.long))
    else { return "unknown option '\(name)' \(scope)" }
    return "unknown option '\(name)' \(scope); did you mean '\(closest)'?"
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
      interfaceTypes: Set(interfaceTypes), interfaces: viaInterfaces, anyInterface: anyInterface,
      ignoredInterfaces: Set(ignoredInterfaces), requireIPv4: requireIPv4, requireIPv6: requireIPv6,
      requireDNS: requireDNS,
      linkStates: interfaces.map {
        WaitCondition.LinkState(name: $0, range: interfaceStates[$0] ?? operationalState ?? .online)
      })
  }
}

/// The condition `netstatus wait` waits for. Pure.
struct WaitCondition: Equatable {
  /// An interface whose operational state must be in a range (`--interface NAME[:MIN[:MAX]]`).
  struct LinkState: Equatable {
    var name: String
    var range: OperationalState.Range
  }

  var interfaceTypes: Set<InterfaceType> = []
  /// Interfaces that must each carry the default path (`--via`; one of them with ``anyInterface``).
  var interfaces: [String] = []
  var anyInterface = false
  /// Interfaces that never count.
  var ignoredInterfaces: Set<String> = []
  var requireIPv4 = false
  var requireIPv6 = false
  var requireDNS = false
  /// Interfaces whose operational state must each be in its range (one of them with ``anyInterface``).
  var linkStates: [LinkState] = []

  /// Whether a satisfied path is needed: always, unless only operational states are asked for (as
  /// `systemd-networkd-wait-online -i` asks for nothing else).
  var needsPath: Bool {
    linkStates.isEmpty || !interfaceTypes.isEmpty || !interfaces.isEmpty || requireIPv4 || requireIPv6 || requireDNS
  }

  /// Whether the path (when one is needed) and the links meet the condition.
  func isMet(by path: NetworkPath?, links: [LinkInventory.Link]) -> Bool {
    if needsPath {
      guard let path, isMet(by: path) else { return false }
    }
    return areMet(by: links)
  }

  /// Whether each interface of ``linkStates`` is in its range (one of them, with ``anyInterface``).
  func areMet(by links: [LinkInventory.Link]) -> Bool {
    guard !linkStates.isEmpty else { return true }
    let met = linkStates.filter { wanted in
      wanted.range.contains(OperationalState(of: links.first { $0.name == wanted.name }))
    }
    return anyInterface ? !met.isEmpty : met.count == linkStates.count
  }

  /// `v0 routable, w9 no-carrier`: each interface of ``linkStates`` and its state now.
  func linkStatesNow(_ links: [LinkInventory.Link]) -> String {
    linkStates.map { "\($0.name) \(OperationalState(of: links.first(where: { [name = $0.name] in $0.name == name })))" }
      .joined(separator: ", ")
  }

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

  /// `a satisfied path over wifi or cellular with IPv4 and DNS`; `eth1 degraded or better (networkd's operational
  /// state)`.
  var description: String {
    var parts: [String] = []
    if !linkStates.isEmpty {
      let ranges = linkStates.map { wanted in
        wanted.name + " "
          + (wanted.range.maximum == .routable
            ? (wanted.range.minimum == .routable ? "routable" : "\(wanted.range.minimum) or better")
            : "between \(wanted.range.minimum) and \(wanted.range.maximum)")
      }
      parts.append(ranges.joined(separator: anyInterface ? " or " : " and ") + " (networkd's operational state)")
    }
    if needsPath { parts.append(pathDescription) }
    return parts.joined(separator: " and ")
  }

  /// The path's part of ``description``.
  private var pathDescription: String {
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
