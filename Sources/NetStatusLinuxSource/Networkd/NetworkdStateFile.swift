/// The syntax of systemd-networkd's state files (`/run/systemd/netif/state` and `/run/systemd/netif/links/IFINDEX`):
/// environment-file lines `KEY=VALUE`, as systemd itself reads them back (`parse_env_file`). Pure, never traps.
///
/// networkd writes one `KEY=value` per line after a comment line (`# This is private data. Do not parse.`),
/// values unquoted except `NETWORK_FILE_DROPINS="…"` and `NETDEV_FILE_DROPINS="…"`. The reader accepts the whole
/// syntax systemd's reader accepts, so that a value some version quotes still reads right:
/// - Lines starting with `#` or `;` (after blanks) are comments; blank lines are skipped.
/// - A key is letters, digits and `_`, blanks around it ignored; a line with another key, or without `=`, is
///   skipped.
/// - A value's leading blanks are skipped; unquoted, its trailing blanks are dropped and `\` takes the next
///   character literally; inside `"…"`, `\` escapes only `"`, `\`, `` ` `` and `$` (otherwise it stays); inside
///   `'…'` nothing is special. A `\` before a line break joins the next line. An unterminated quote runs to the
///   end of the file (a truncated file gives a truncated value, not an error).
/// - A key given twice keeps its last value.
enum NetworkdStateFile {
  /// The keys and values of `text`; only those of `keys` when given, so that the result stays small whatever the
  /// file holds.
  static func parse(_ text: String, keys: Set<String>? = nil) -> [String: String] {
    var result: [String: String] = [:]
    var scalars = Array(text.unicodeScalars)[...]
    while !scalars.isEmpty {
      skipBlanks(&scalars)
      guard let first = scalars.first else { break }
      if first == "\n" || first == "\r" {
        scalars = scalars.dropFirst()
        continue
      }
      if first == "#" || first == ";" {
        skipLine(&scalars)
        continue
      }
      var key = ""
      while let next = scalars.first, isKeyCharacter(next) {
        key.unicodeScalars.append(next)
        scalars = scalars.dropFirst()
      }
      skipBlanks(&scalars)
      guard !key.isEmpty, scalars.first == "=" else {
        skipLine(&scalars)
        continue
      }
      scalars = scalars.dropFirst()
      let value = value(&scalars)
      if keys?.contains(key) ?? true { result[key] = value }
    }
    return result
  }

  /// Reads a value up to the end of its line (quoted line breaks and `\` line breaks included).
  private static func value(_ scalars: inout ArraySlice<Unicode.Scalar>) -> String {
    skipBlanks(&scalars)
    var value: [Unicode.Scalar] = []
    // How long the value is without the unquoted blanks at its end, which are dropped.
    var keptCount = 0
    while let next = scalars.first {
      scalars = scalars.dropFirst()
      switch next {
      case "\n", "\r":
        return text(value.prefix(keptCount))
      case "\\":
        guard let escaped = scalars.first else { break }
        scalars = scalars.dropFirst()
        if escaped != "\n" { value.append(escaped) }
        keptCount = value.count
      case "\"":
        while let quoted = scalars.first {
          scalars = scalars.dropFirst()
          if quoted == "\"" { break }
          if quoted == "\\", let escaped = scalars.first {
            scalars = scalars.dropFirst()
            switch escaped {
            case "\"", "\\", "`", "$": value.append(escaped)
            case "\n": break
            default:
              value.append("\\")
              value.append(escaped)
            }
          } else {
            value.append(quoted)
          }
        }
        keptCount = value.count
      case "'":
        while let quoted = scalars.first {
          scalars = scalars.dropFirst()
          if quoted == "'" { break }
          value.append(quoted)
        }
        keptCount = value.count
      default:
        value.append(next)
        if next != " " && next != "\t" { keptCount = value.count }
      }
    }
    return text(value.prefix(keptCount))
  }

  private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars)
    return text
  }

  private static func isKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "A"..."Z", "a"..."z", "0"..."9", "_": true
    default: false
    }
  }

  private static func skipBlanks(_ scalars: inout ArraySlice<Unicode.Scalar>) {
    while let next = scalars.first, next == " " || next == "\t" { scalars = scalars.dropFirst() }
  }

  private static func skipLine(_ scalars: inout ArraySlice<Unicode.Scalar>) {
    while let next = scalars.first {
      scalars = scalars.dropFirst()
      if next == "\n" { return }
    }
  }
}
