/// The parts of the manual page (`man/netstatus.1`) that list options, its synopsis and its summary table of options,
/// made from the parser's own option table (``CommandLineOptions/optionSpecs``), as the completions are: an option
/// added to the table appears in both. `Tests/NetStatusTests/OptionDocumentationTests.swift` holds the page to this
/// text (and rewrites it with `NETSTATUS_WRITE_DOCS=1`). Pure.
enum OptionDocumentation {
  /// The commands whose synopsis lists options (`completions` takes a shell, and only `--help`).
  static let synopsisCommands: [CommandLineOptions.Command] = [.show, .watch, .wait]

  /// The options every command takes, which the synopsis gives a form of their own.
  static let general = ["--help", "--version"]

  /// The marker lines around the generated part of a file.
  static func markers(_ name: String, roff: Bool) -> (begin: String, end: String) {
    let note = "generated from the option table (OptionSpec.swift); edit it there"
    return roff
      ? (".\\\" BEGIN \(name): \(note)", ".\\\" END \(name)")
      : ("<!-- BEGIN \(name): \(note) -->", "<!-- END \(name) -->")
  }

  /// roff text: `-` as `\-` (a minus, not a hyphen), a backslash as `\e` (roff's printable backslash).
  static func roff(_ text: String) -> String {
    text.replacingCharacters(["\\": "\\e", "-": "\\-"])
  }

  /// The manual page's synopsis: every option of every command, in the table's order.
  static var manualSynopsis: String {
    var lines: [String] = []
    for command in synopsisCommands {
      lines.append(".SY netstatus")
      lines.append(command == .show ? ".RB [ show ]" : ".B \(command.rawValue)")
      for spec in CommandLineOptions.optionSpecs where spec.commands.contains(command) && !general.contains(spec.long) {
        let names = (spec.short.map { ["\\-\($0)"] } ?? []) + [roff(spec.long)]
        let repeated = spec.repeatable ? "...\\&" : ""
        if let placeholder = spec.valuePlaceholder {
          lines.append(".RB [ " + names.joined(separator: " | "))
          lines.append(".IR \"\(roff(placeholder))\" ]\(repeated)")
        } else {
          lines.append(".RB [ " + names.joined(separator: " | ") + " ]\(repeated)")
        }
      }
      lines.append(".YS")
    }
    lines += [
      ".SY netstatus", ".B completions", ".BR bash | zsh | fish", ".YS",
      ".SY netstatus", ".B help", ".RI [ COMMAND ]", ".YS",
      ".SY netstatus", ".RI [ COMMAND ]", ".BR \\-h | \\-\\-help", ".YS",
      ".SY netstatus", ".BR \\-V | \\-\\-version", ".YS",
    ]
    return lines.joined(separator: "\n")
  }

  /// The column separator of ``manualTable`` (tbl's `tab(@)`), which no option's text may contain.
  static let tableSeparator: Character = "@"

  /// The manual page's summary of options, a tbl table (the page's first line, `'\" t`, asks `man` for tbl): each
  /// option, the commands that take it, and its summary. Text blocks are left-aligned and not hyphenated, so that
  /// names and placeholders stay whole.
  static var manualTable: String {
    var lines = [
      ".TS", "tab(\(tableSeparator));", "lw(24n) l lx.", "Option\(tableSeparator)Commands\(tableSeparator)What it does",
      "_",
    ]
    for spec in CommandLineOptions.optionSpecs {
      var names = (spec.short.map { ["\\-\($0)"] } ?? []) + [roff(spec.long)]
      if let placeholder = spec.valuePlaceholder {
        names[names.count - 1] += " \\fI\(roff(placeholder))\\fR"
      }
      let commands =
        spec.commands == CommandLineOptions.Command.allCases
        ? "every command"
        : CommandLineOptions.Command.allCases.filter(spec.commands.contains).map(\.rawValue).joined(separator: ", ")
      let repeated = spec.repeatable && !spec.summary.contains("repeatable") ? " (repeatable)" : ""
      lines += [
        "T{", ".ad l", ".nh", names.joined(separator: ", "), "T}\(tableSeparator)\(commands)\(tableSeparator)T{",
        ".ad l", ".nh",
        roff(spec.summary) + repeated, "T}",
      ]
    }
    lines.append(".TE")
    return lines.joined(separator: "\n")
  }

  /// `text` with the part between the markers named `name` replaced by `generated`, or `nil` when the markers are
  /// not there (once each, in order).
  static func replacing(_ name: String, in text: String, with generated: String, roff: Bool) -> String? {
    let (begin, end) = markers(name, roff: roff)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let first = lines.firstIndex(of: begin), let last = lines.firstIndex(of: end), first < last else {
      return nil
    }
    lines.replaceSubrange((first + 1)..<last, with: [generated])
    return lines.joined(separator: "\n")
  }
}
