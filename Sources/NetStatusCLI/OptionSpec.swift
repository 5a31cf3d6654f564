/// One option of `netstatus`: its spellings, what it takes, and which commands accept it. The table
/// (``CommandLineOptions/optionSpecs``) is what the parser accepts and what the shell completions offer, so the
/// two cannot drift apart. Pure.
struct OptionSpec: Equatable {
  /// What an option's value is, for completion.
  enum Value: Equatable {
    /// A network namespace name (completed from `ip netns list`) or path.
    case namespace
    /// An `http://` URL.
    case url
    /// A status from 100 to 599 or the text a body starts with.
    case expectation
    /// A time span (`5s`, `2min`, `infinity`).
    case timeSpan
    /// An interface type.
    case interfaceType
    /// An interface's name (completed from /sys/class/net).
    case interfaceName
    /// A file to write.
    case file
    /// networkd's operational states, `MIN[:MAX]`.
    case operationalState
  }

  /// `--json`.
  var long: String
  /// `j` for `-j`, if it has a short form.
  var short: Character?
  /// What it takes, or `nil` for a flag.
  var value: Value?
  /// Whether it may be given more than once (flags may always be repeated).
  var repeatable = false
  /// The commands that accept it. An array, not a `Set`: a set's first use seeds the hasher, and `netstatus` starts
  /// faster without (a handful of elements is searched as fast).
  var commands: [CommandLineOptions.Command]
  /// One line for completion menus and the manual page's table of options.
  var summary: String
  /// What the synopsis calls the value (`NAME[:MIN[:MAX]]`), when not the value's usual name
  /// (``Value/placeholder``).
  var placeholder: String? = nil

  /// What the synopsis and the table of options call the value: ``placeholder``, or the value's usual name.
  var valuePlaceholder: String? { placeholder ?? value?.placeholder }
}

extension OptionSpec.Value {
  /// The value's usual name in the synopsis and the table of options: `NAME|PATH`, `SPAN`…
  var placeholder: String {
    switch self {
    case .namespace: "NAME|PATH"
    case .url: "URL"
    case .expectation: "STATUS|TEXT"
    case .timeSpan: "SPAN"
    case .interfaceType: "TYPE"
    case .interfaceName: "NAME"
    case .file: "PATH"
    case .operationalState: "MIN[:MAX]"
    }
  }
}

extension CommandLineOptions {
  /// The commands that show a path.
  private static let pathCommands: [Command] = [.show, .watch, .wait]

  /// Every option, in the order the help lists them.
  static let optionSpecs: [OptionSpec] = [
    OptionSpec(long: "--json", short: "j", commands: pathCommands, summary: "one JSON object per line"),
    OptionSpec(
      long: "--netns", short: "n", value: .namespace, commands: pathCommands,
      summary: "watch a network namespace (name or path)"),
    OptionSpec(
      long: "--all", commands: [.show],
      summary: "also every link (index, type, state, addresses) and the DNS servers"),
    OptionSpec(
      long: "--all-netns", commands: [.show, .watch],
      summary: "every namespace: watch the named ones as they come and go; show all, with a PID"),
    OptionSpec(
      long: "--netns-dir", value: .file, repeatable: true, commands: [.show, .watch],
      summary: "with --all-netns: also the namespaces named in this folder (repeatable)", placeholder: "DIR"),
    OptionSpec(
      long: "--networkd-root", value: .file, commands: pathCommands,
      summary: "read systemd-networkd's state from this folder, not /run/systemd/netif", placeholder: "DIR"),
    OptionSpec(
      long: "--textfile", value: .file, commands: [.watch],
      summary: "keep this file in Prometheus text format (node_exporter's textfile collector)"),
    OptionSpec(
      long: "--probe", value: .url, commands: pathCommands, summary: "check the internet answers this http:// URL"),
    OptionSpec(
      long: "--expect", value: .expectation, commands: pathCommands,
      summary: "what the probe URL answers: a status or body text"),
    OptionSpec(
      long: "--probe-interval", value: .timeSpan, commands: pathCommands,
      summary: "with --probe: check again this often while full (default: never)"),
    OptionSpec(
      long: "--networkmanager", commands: pathCommands,
      summary: "take internet connectivity from NetworkManager, sending nothing (--probe wins)"),
    OptionSpec(
      long: "--settle", value: .timeSpan, commands: [.watch],
      summary: "print a change only once it has held this long (a shorter blip is never printed)"),
    OptionSpec(
      long: "--timeout", short: "t", value: .timeSpan, commands: [.wait],
      summary: "give up after this long (500ms, 5s, 2min, infinity)"),
    OptionSpec(
      long: "--interface-type", value: .interfaceType, repeatable: true, commands: [.wait],
      summary: "require an interface of this type"),
    OptionSpec(
      long: "--interface", short: "i", value: .interfaceName, repeatable: true, commands: [.wait],
      summary: "wait for this interface's operational state, as networkd-wait-online -i NAME[:MIN[:MAX]] (repeatable)",
      placeholder: "NAME[:MIN[:MAX]]"),
    OptionSpec(
      long: "--operational-state", short: "o", value: .operationalState, commands: [.wait],
      summary: "the state range for each link given without one, MIN[:MAX] (as networkd-wait-online -o)"),
    OptionSpec(
      long: "--via", value: .interfaceName, repeatable: true, commands: [.wait],
      summary: "require the default path to go through this interface (repeatable)"),
    OptionSpec(
      long: "--any", commands: [.wait],
      summary: "one interface is enough (of --interface, --via, or the links networkd manages)"),
    OptionSpec(
      long: "--ignore", value: .interfaceName, repeatable: true, commands: [.wait],
      summary: "never count this interface; a glob pattern such as 'veth*' (repeatable)", placeholder: "PATTERN"),
    OptionSpec(
      long: "--ipv4", short: "4", commands: [.wait], summary: "require IPv4 (with --internet: IPv4 internet access)"),
    OptionSpec(
      long: "--ipv6", short: "6", commands: [.wait], summary: "require IPv6 (with --internet: IPv6 internet access)"),
    OptionSpec(long: "--dns", commands: [.wait], summary: "require a configured DNS resolver"),
    OptionSpec(long: "--vpn", commands: [.wait], summary: "require a path through a VPN or tunnel"),
    OptionSpec(
      long: "--internet", commands: [.wait],
      summary: "require full internet access (with --probe or --networkmanager; -4/-6: per family)"),
    OptionSpec(
      long: "--stable", value: .timeSpan, commands: [.wait],
      summary: "succeed only once the wanted state has held this long"),
    OptionSpec(long: "--quiet", short: "q", commands: [.wait], summary: "print nothing on success"),
    OptionSpec(long: "--help", short: "h", commands: Command.allCases, summary: "show help"),
    OptionSpec(long: "--version", short: "V", commands: Command.allCases, summary: "show the version"),
  ]

  /// The option spelled `name` (`--json`), if `command` accepts it.
  static func spec(named name: String, for command: Command) -> OptionSpec? {
    optionSpecs.first { $0.long == name && $0.commands.contains(command) }
  }

  /// The option spelled `name`, whatever the command.
  static func spec(named name: String) -> OptionSpec? {
    optionSpecs.first { $0.long == name }
  }

  /// The option whose short form is `letter`, whatever the command.
  static func spec(short letter: Character) -> OptionSpec? {
    optionSpecs.first { $0.short == letter }
  }
}
