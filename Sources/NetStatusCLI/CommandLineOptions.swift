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
  /// `watch --settle SPAN`: a change is printed only once it has held this long (`nil`: at once).
  var settle: Duration?
  /// `--networkd-root DIR`: where systemd-networkd's state is read, instead of `/run/systemd/netif`.
  var networkdRoot: String?
  var help = false
  var version = false
  // wait
  var timeout: Duration? = .seconds(30)
  /// `--stable SPAN`: the wanted state must hold this long before `wait` succeeds (`nil`: at once).
  var stable: Duration?
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
  /// `--ignore PATTERN`: interfaces that never count (glob patterns, as `systemd-networkd-wait-online` takes them).
  var ignoredInterfaces: [String] = []
  var requireIPv4 = false
  var requireIPv6 = false
  var requireDNS = false
  /// `--vpn`: a path through a VPN or tunnel.
  var requireVPN = false
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
        // `netstatus help help`: help itself is the overview.
        if word == "help" { return options }
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
        probeInterval = try Self.probeInterval(try value(for: name, inline: inline), command: commandGiven)
        probeIntervalGiven = true
      case "--expect":
        expectation = try Self.expectation(try value(for: name, inline: inline), command: commandGiven)
      case "--internet": options.requireInternet = true
      case "--networkmanager": options.networkManagerConnectivity = true
      case "--settle", "--stable":
        let span = try Self.holdSpan(try value(for: name, inline: inline), option: name, command: commandGiven)
        if name == "--settle" { options.settle = span } else { options.stable = span }
      case "--timeout":
        options.timeout = try Self.timeout(try value(for: name, inline: inline))
      case "--interface-type":
        let type = try Self.interfaceType(try value(for: name, inline: inline))
        if !options.interfaceTypes.contains(type) { options.interfaceTypes.append(type) }
      case "--interface":
        let (interface, range) = try Self.interfaceState(try value(for: name, inline: inline))
        if let range { options.interfaceStates[interface] = range }
        if !options.interfaces.contains(interface) { options.interfaces.append(interface) }
      case "--operational-state":
        options.operationalState = try Self.operationalState(try value(for: name, inline: inline))
      case "--via", "--ignore":
        let interface = try Self.interfaceName(try value(for: name, inline: inline), option: name)
        if name == "--via" {
          if !options.viaInterfaces.contains(interface) { options.viaInterfaces.append(interface) }
        } else if !options.ignoredInterfaces.contains(interface) {
          options.ignoredInterfaces.append(interface)
        }
      case "--any": options.anyInterface = true
      case "--ipv4": options.requireIPv4 = true
      case "--ipv6": options.requireIPv6 = true
      case "--dns": options.requireDNS = true
      case "--vpn": options.requireVPN = true
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
    if options.allNamespaces, options.settle != nil {
      throw UsageError(message: "--settle watches one namespace: not with --all-netns", command: commandGiven)
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
    if options.operationalState != nil, !options.judgesLinks {
      throw UsageError(
        message: "--operational-state is systemd-networkd-wait-online's: it judges links (--interface NAME, or "
          + "every link networkd manages), not the path that --via, --interface-type, --dns, --vpn and --internet ask for",
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

  /// Whether `wait` asks for a path option: one that judges the default path, not links.
  var asksForPath: Bool {
    !viaInterfaces.isEmpty || !interfaceTypes.isEmpty || requireDNS || requireVPN || requireInternet
  }

  /// Whether `wait` judges links as systemd-networkd-wait-online does: with `--interface`, or with `--any`,
  /// `--operational-state` or `--ignore` and no path option (wait-online's options given alone, which it applies to
  /// every link networkd manages). With no option at all, or `-4` / `-6` alone, `wait` waits for a usable path, as
  /// nm-online does.
  var judgesLinks: Bool {
    !interfaces.isEmpty || (!asksForPath && (anyInterface || operationalState != nil || !ignoredInterfaces.isEmpty))
  }

  /// What `wait` waits for.
  var waitCondition: WaitCondition {
    let rule =
      judgesLinks
      ? WaitOnlineRule(
        interfaces: interfaces.map { WaitOnlineRule.Interface(name: $0, range: interfaceStates[$0]) },
        any: anyInterface, ignored: interfaces.isEmpty ? ignoredInterfaces : [], operationalState: operationalState,
        requireIPv4: requireIPv4, requireIPv6: requireIPv6)
      : nil
    return WaitCondition(
      interfaceTypes: Set(interfaceTypes), interfaces: viaInterfaces, anyInterface: anyInterface,
      ignoredInterfaces: asksForPath || rule == nil ? ignoredInterfaces : [], requireIPv4: requireIPv4,
      requireIPv6: requireIPv6, requireDNS: requireDNS, requireVPN: requireVPN, links: rule)
  }
}
