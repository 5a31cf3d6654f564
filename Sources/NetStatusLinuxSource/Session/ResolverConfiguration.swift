#if canImport(NetStatusNetlink)
  import NetStatusNetlink
#endif

/// The DNS resolvers the system is configured with, read from `resolv.conf`.
///
/// DNS is not in rtnetlink. When `resolv.conf` points at systemd-resolved's local stub (127.0.0.53, or its
/// proxy 127.0.0.54), the upstream servers resolved uses are read from its own list,
/// `/run/systemd/resolve/resolv.conf`. If that list cannot be read, the stub itself counts as a resolver.
package struct ResolverConfiguration: Sendable, Hashable {
  /// Where systemd-resolved writes the upstream servers it uses.
  static let systemdResolvedUpstreamPath = "/run/systemd/resolve/resolv.conf"
  /// systemd-resolved's local stub addresses.
  static let systemdResolvedStubs: Set<String> = ["127.0.0.53", "127.0.0.54"]

  /// The resolvers, in the file's order (upstream servers in place of the stub).
  var nameservers: [String]

  /// Whether any resolver is configured.
  var supportsDNS: Bool { !nameservers.isEmpty }

  /// Creates a configuration listing these resolvers.
  init(nameservers: [String]) {
    self.nameservers = nameservers
  }

  /// The `nameserver` entries of resolv.conf text, in order. Comments (`#`, `;`) and entries that are not IP
  /// addresses are skipped, as the C library skips them.
  package static func nameservers(in text: String) -> [String] {
    var result: [String] = []
    for line in text.split(whereSeparator: \.isNewline) {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard words.count >= 2, words[0] == "nameserver" else { continue }
      let address = String(words[1])
      guard IPAddressBytes(text: address) != nil else { continue }
      result.append(address)
    }
    return result
  }

  /// Reads the configuration at `path`, following systemd-resolved's stub to `upstreamPath`.
  ///
  /// A missing or unreadable file means no resolver.
  static func load(path: String, upstreamPath: String = systemdResolvedUpstreamPath) -> ResolverConfiguration {
    guard let text = LocalFile.readText(path) else { return ResolverConfiguration(nameservers: []) }
    let listed = nameservers(in: text)
    guard listed.contains(where: systemdResolvedStubs.contains) else {
      return ResolverConfiguration(nameservers: listed)
    }
    guard let upstreamText = LocalFile.readText(upstreamPath) else {
      // resolved is in use but its upstream list is not readable here: trust the stub.
      return ResolverConfiguration(nameservers: listed)
    }
    var result: [String] = []
    for server in listed {
      if systemdResolvedStubs.contains(server) {
        result += nameservers(in: upstreamText).filter { !systemdResolvedStubs.contains($0) }
      } else {
        result.append(server)
      }
    }
    var seen = Set<String>()
    return ResolverConfiguration(nameservers: result.filter { seen.insert($0).inserted })
  }

  /// What to watch so that every change to the configuration is seen: each folder, and the names in it.
  ///
  /// resolv.conf is usually replaced (written elsewhere and renamed over) or is a symbolic link into
  /// `/run`, so the folders are watched, not the files: the file's own, its link's destination's (one link
  /// deep per hop, up to 8 hops), and resolved's upstream list's.
  static func watchTargets(path: String, upstreamPath: String = systemdResolvedUpstreamPath) -> [(
    directory: String, names: Set<String>
  )] {
    var files = [path]
    var current = path
    for _ in 0..<8 {
      guard let destination = LocalFile.symbolicLinkDestination(current) else { break }
      files.append(destination)
      current = destination
    }
    files.append(upstreamPath)
    var order: [String] = []
    var names: [String: Set<String>] = [:]
    for file in files {
      let directory = LocalFile.directory(of: file)
      if names[directory] == nil { order.append(directory) }
      names[directory, default: []].insert(LocalFile.lastComponent(of: file))
    }
    return order.map { ($0, names[$0] ?? []) }
  }
}
