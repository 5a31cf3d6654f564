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

  /// The spellings of the options that take a value, separated by `|` (a `case` pattern): the word after one is
  /// its value, not a command.
  static var valueOptionPattern: String {
    CommandLineOptions.optionSpecs.filter { $0.value != nil }.flatMap { spec in
      [spec.long] + (spec.short.map { ["-\($0)"] } ?? [])
    }.joined(separator: "|")
  }

  /// Names are read as files (`/run/netns/*`, `/sys/class/net/*`), never through a command's output split by the
  /// shell, and never given to `compgen -W`, which expands `$(…)` and backticks in its words: a namespace named
  /// `$(touch pwned)` ran `touch pwned` when completed. Each candidate is quoted with `printf %q`.
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
        values += "    \(names)) _netstatus_names /sys/class/net; return ;;\n"
      } else if value == .namespace {
        values += "    \(names)) _netstatus_names /run/netns; return ;;\n"
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
      # The names of a folder (namespaces, interfaces) that start with what is typed, each quoted for the shell: read
      # as file names, never evaluated.
      _netstatus_names() {
        local path name quoted
        COMPREPLY=()
        for path in "$1"/*; do
          [ -e "$path" ] || [ -L "$path" ] || continue
          name=${path##*/}
          quoted=$(printf '%q' "$name")
          # What is typed may be the name as it is, or already quoted (`with\\ sp`).
          [[ $name == "$cur"* || $quoted == "$cur"* ]] && COMPREPLY+=("$quoted")
        done
      }
      _netstatus() {
        local cur prev command word opts skip
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        case $prev in
      \(values)  esac
        # The command is the first word that is neither an option nor an option's value (`-n blue watch`); `help`
        # is followed by a command.
        command=
        skip=
        for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
          if [ -n "$skip" ]; then skip=; continue; fi
          case $word in
            \(valueOptionPattern)) skip=1 ;;
            -*) ;;
            help) command=help ;;
            *) [ "$command" = help ] && command=helped || command=$word; break ;;
          esac
        done
        case $command in
          help) COMPREPLY=($(compgen -W "\(commands.joined(separator: " "))" -- "$cur")); return ;;
          helped) return ;;
          "") opts="\(firstWords.joined(separator: " ")) $(_netstatus_options show)" ;;
          *) opts=$(_netstatus_options "$command") ;;
        esac
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
      }
      _netstatus_options() {
        local opts
        case $1 in
      \(cases)  esac
        printf '%s' "$opts"
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
      # The namespaces of /run/netns, as file names (never a command's output split at spaces); compadd quotes them.
      _netstatus_namespaces() {
        local -a names
        names=(/run/netns/*(N:t))
        compadd -a names
      }
      _netstatus() {
        # The command is the first word that is neither an option nor an option's value (`-n blue watch`); it is
        # taken out of the words, so that the command's options are completed around it. `help` takes a command.
        local command= word skip= i at=0
        for (( i = 2; i < CURRENT; i++ )); do
          word=${words[i]}
          if [[ -n $skip ]]; then skip=; continue; fi
          case $word in
            (\(valueOptionPattern)) skip=1 ;;
            (-*) ;;
            (help) command=help ;;
            (*) if [[ $command == help ]]; then command=helped; else command=$word; at=$i; fi; break ;;
          esac
        done
        case $command in
          (help) compadd \(commands.joined(separator: " ")); return ;;
          (helped) return ;;
          ("") [[ ${words[CURRENT]} != -* ]] && compadd \(firstWords.joined(separator: " ")); command=show ;;
          (*) words[at]=(); (( CURRENT-- )) ;;
        esac
        case $command in
      \(cases)  esac
      }
      _netstatus "$@"

      """
  }

  static var fish: String {
    let valueOptions = CommandLineOptions.optionSpecs.filter { $0.value != nil }.flatMap { spec in
      ["'\(spec.long)'"] + (spec.short.map { ["'-\($0)'"] } ?? [])
    }.joined(separator: " ")
    var lines = [
      "# fish completion for netstatus (printed by `netstatus completions fish`)",
      "complete -c netstatus -f",
      "# The command: the first word that is neither an option nor an option's value (`-n blue watch`); after `help`,",
      "# `helped`; none yet, empty.",
      "function __netstatus_command",
      "    set -l tokens (commandline -opc)",
      "    set -e tokens[1]",
      "    set -l skip 0",
      "    set -l command",
      "    for token in $tokens",
      "        if test $skip = 1",
      "            set skip 0",
      "            continue",
      "        end",
      "        switch $token",
      "            case \(valueOptions)",
      "                set skip 1",
      "            case '-*'",
      "            case help",
      "                set command help",
      "            case '*'",
      "                if test \"$command\" = help",
      "                    set command helped",
      "                else",
      "                    set command $token",
      "                end",
      "                break",
      "        end",
      "    end",
      "    echo $command",
      "end",
      "function __netstatus_command_is",
      "    set -l command (__netstatus_command)",
      "    contains -- \"$command\" $argv",
      "end",
      "complete -c netstatus -n '__netstatus_command_is \"\"' -a '\(firstWords.joined(separator: " "))'",
      "complete -c netstatus -n '__netstatus_command_is help' -a '\(commands.joined(separator: " "))'",
      "complete -c netstatus -n '__netstatus_command_is completions' -a 'bash zsh fish'",
    ]
    for spec in CommandLineOptions.optionSpecs {
      // show is also the command when none is given.
      var commands = CommandLineOptions.Command.allCases.filter(spec.commands.contains).map(\.rawValue)
      if spec.commands.contains(.show) { commands.append("\"\"") }
      var line =
        "complete -c netstatus -n '__netstatus_command_is \(commands.joined(separator: " "))' "
        + "-l \(spec.long.dropFirst(2))"
      if let short = spec.short { line += " -s \(short)" }
      if let value = spec.value {
        // -r: a value follows; -x: and it is no file (a namespace may be a path, /proc/PID/ns/net).
        line += value == .namespace || value == .file ? " -r" : " -x"
        if value == .namespace {
          // The names as file names: fish adds each as one candidate, quoted, never evaluated.
          line += " -a '(path basename /run/netns/* 2>/dev/null)'"
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
