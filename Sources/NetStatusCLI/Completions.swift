import NetStatusCore

/// The shell completion scripts `netstatus completions SHELL` prints, made from the parser's own option table
/// (``CommandLineOptions/optionSpecs``), so that they offer exactly what the parser accepts. Pure.
///
/// ```sh
/// netstatus completions bash > /usr/share/bash-completion/completions/netstatus
/// netstatus completions zsh > /usr/share/zsh/vendor-completions/_netstatus
/// netstatus completions fish > /usr/share/fish/vendor_completions.d/netstatus.fish
/// ```
enum Completions {
  /// A shell that gets a completion script.
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  /// The commands, in the order the help lists them.
  static let commands = CommandLineOptions.Command.allCases.map(\.rawValue)
  /// What the first word may be: a command, or `help` (`netstatus help [COMMAND]`).
  static let firstWords = commands + ["help"]

  /// What a value completes to, as words, or `nil` for free text. Namespaces are read when completing.
  static func words(for value: OptionSpec.Value) -> [String]? {
    switch value {
    case .interfaceType: return InterfaceType.allCases.map(\.rawValue)
    case .timeSpan: return ["500ms", "5s", "30s", "2min", "1h", "infinity"]
    case .expectation: return ["204", "200"]
    case .operationalState: return OperationalState.allCases.map(\.description)
    case .namespace, .url, .interfaceName, .file: return nil
    }
  }

  /// The script for `shell`, without its last newline (printed as a line).
  static func script(for shell: Shell) -> String {
    var text: String
    switch shell {
    case .bash: text = bash
    case .zsh: text = zsh
    case .fish: text = fish
    }
    while text.last == "\n" { text.removeLast() }
    return text
  }

  /// The options a command accepts, long and short spellings.
  static func spellings(for command: CommandLineOptions.Command) -> [String] {
    CommandLineOptions.optionSpecs.filter { $0.commands.contains(command) }.flatMap { spec in
      [spec.long] + (spec.short.map { ["-\($0)"] } ?? [])
    }
  }

  static var bash: String {
    var cases = ""
    for command in CommandLineOptions.Command.allCases {
      let words = spellings(for: command).joined(separator: " ")
      let extra = command == .completions ? " " + Shell.allCases.map(\.rawValue).joined(separator: " ") : ""
      cases += "    \(command.rawValue)) opts=\"\(words)\(extra)\" ;;\n"
    }
    var values = ""
    for spec in CommandLineOptions.optionSpecs {
      guard let value = spec.value else { continue }
      let names = ([spec.long] + (spec.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
      if value == .interfaceName {
        values +=
          "    \(names)) COMPREPLY=($(compgen -W \"$(ls /sys/class/net 2>/dev/null)\" -- \"$cur\")); return ;;\n"
      } else if value == .namespace {
        values +=
          "    \(names)) COMPREPLY=($(compgen -W \"$(ip netns list 2>/dev/null | cut -d' ' -f1)\" -- \"$cur\")); return ;;\n"
      } else if let words = words(for: value) {
        values += "    \(names)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
      } else if value == .file {
        values += "    \(names)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
      } else {
        values += "    \(names)) return ;;\n"
      }
    }
    return """
      # bash completion for netstatus (printed by `netstatus completions bash`)
      _netstatus() {
        local cur prev command word opts
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        case $prev in
      \(values)  esac
        command=show
        for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
          case $word in
            \(commands.joined(separator: "|"))) command=$word; break ;;
            -*) ;;
            *) break ;;
          esac
        done
        case $command in
      \(cases)  esac
        if [ "$COMP_CWORD" -eq 1 ]; then opts="\(firstWords.joined(separator: " ")) $opts"; fi
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
      }
      complete -F _netstatus netstatus

      """
  }

  static var zsh: String {
    func specs(for command: CommandLineOptions.Command) -> String {
      CommandLineOptions.optionSpecs.filter { $0.commands.contains(command) }.map { spec -> String in
        let summary = spec.summary.replacingAll("'", with: "'\\''").replacingAll(":", with: "\\:")
          .replacingAll("[", with: "\\[").replacingAll("]", with: "\\]")
        var action = ""
        if let value = spec.value {
          switch value {
          case .namespace: action = ":namespace:_netstatus_namespaces"
          case .interfaceName: action = ":interface:_net_interfaces"
          case .file: action = ":file:_files"
          case .url: action = ":URL:_urls"
          default: action = ":value:(\(words(for: value)!.joined(separator: " ")))"
          }
        }
        let repeated = spec.repeatable ? "*" : ""
        if let short = spec.short {
          return "      '\(repeated)(-\(short) \(spec.long))'{-\(short),\(spec.long)}'[\(summary)]\(action)'"
        }
        return "      '\(repeated)\(spec.long)[\(summary)]\(action)'"
      }.joined(separator: " \\\n")
    }
    var cases = ""
    for command in CommandLineOptions.Command.allCases {
      let shells = command == .completions ? " \\\n      ':shell:(bash zsh fish)'" : ""
      cases += "    \(command.rawValue))\n      _arguments \\\n\(specs(for: command))\(shells)\n      ;;\n"
    }
    return """
      #compdef netstatus
      # zsh completion for netstatus (printed by `netstatus completions zsh`)
      _netstatus_namespaces() {
        local -a names
        names=(${(f)"$(ip netns list 2>/dev/null | cut -d' ' -f1)"})
        compadd -a names
      }
      _netstatus() {
        local command=show
        if (( CURRENT > 2 )) && [[ ${words[2]} == (\(commands.joined(separator: "|"))) ]]; then
          command=${words[2]}
          shift words
          (( CURRENT-- ))
        elif (( CURRENT == 2 )) && [[ ${words[2]} != -* ]]; then
          compadd \(firstWords.joined(separator: " "))
          return
        fi
        case $command in
      \(cases)  esac
      }
      _netstatus "$@"

      """
  }

  static var fish: String {
    var lines = [
      "# fish completion for netstatus (printed by `netstatus completions fish`)",
      "complete -c netstatus -f",
      "complete -c netstatus -n '__fish_use_subcommand' -a '\(firstWords.joined(separator: " "))'",
      "complete -c netstatus -n '__fish_seen_subcommand_from completions' -a 'bash zsh fish'",
    ]
    for spec in CommandLineOptions.optionSpecs {
      let commandsOfSpec = CommandLineOptions.Command.allCases.filter(spec.commands.contains)
      // show is also the command when none is given.
      var conditions = commandsOfSpec.map { "__fish_seen_subcommand_from \($0.rawValue)" }
      if spec.commands.contains(.show) { conditions.append("__fish_use_subcommand") }
      let condition = conditions.joined(separator: "; or ")
      var line = "complete -c netstatus -n '\(condition)' -l \(spec.long.dropFirst(2))"
      if let short = spec.short { line += " -s \(short)" }
      if let value = spec.value {
        // -r: a value follows; -x: and it is no file (a namespace may be a path, /proc/PID/ns/net).
        line += value == .namespace || value == .file ? " -r" : " -x"
        if value == .namespace {
          line += " -a '(ip netns list 2>/dev/null | string split -f1 \" \")'"
        } else if value == .interfaceName {
          line += " -a '(__fish_print_interfaces)'"
        } else if let words = words(for: value) {
          line += " -a '\(words.joined(separator: " "))'"
        }
      }
      line += " -d '\(spec.summary.replacingAll("'", with: "\\'"))'"
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension String {
  /// Every `target` replaced by `replacement` (without Foundation).
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}
