#if canImport(Network)
  import Network

  // On Linux this same file is compiled outside the NetStatus module, against a stand-in of Network, for the tests
  // (see Package.swift and Tests/NetworkStandIn).
  #if NETSTATUS_NETWORK_STAND_IN
    import NetStatusCore
  #endif

  /// Network's own `NWInterface`s of the latest path an ``NWPathMonitorSource`` sent, found by the name and index a
  /// ``NetworkInterface`` carries: what lets the Apple probe transport bind a connection to the path's interface itself
  /// (`NWParameters.requiredInterface`), which needs an `NWInterface`, while ``NetworkPath`` keeps no Network type.
  ///
  /// Each source has one, shared by its sessions (one after another) and the transports made for its monitor
  /// (``NWConnectionProbeTransport/init(following:)``). A session records each path's interfaces before it sends the
  /// path, so that a check the path starts finds them, and forgets them when it stops; an older session's stop does
  /// not forget a newer one's.
  ///
  /// Lifetime: only the latest path's interfaces are kept, so an interface that has gone is forgotten with the next
  /// path. One looked up just before it went is stale: Network then fails or holds the connection, which the probe
  /// reports as unreachable over that interface (``NWConnectionProbe/failure(_:host:family:)``).
  ///
  /// Threads: recorded on the session's queue, looked up from any thread. No Network call is made under the lock: the
  /// interfaces' names and indexes are read before it is taken, and the interfaces replaced are released after it is
  /// let go.
  package final class NWInterfaceDirectory: Sendable {
    /// One interface, with the index it was listed under.
    private struct Entry: Sendable {
      var index: Int
      var interface: NWInterface
    }

    private struct State {
      /// The session whose path the interfaces are from.
      var owner: ObjectIdentifier?
      /// The interfaces by name.
      var interfaces: [String: Entry] = [:]
    }

    private let state = Locked(State())

    init() {}

    /// Keeps `interfaces` (a path's `availableInterfaces`, most preferred first) in place of those kept, as the
    /// latest path of `owner`, a session.
    func record(_ interfaces: [NWInterface], from owner: ObjectIdentifier) {
      var entries: [String: Entry] = [:]
      for interface in interfaces where entries[interface.name] == nil {
        entries[interface.name] = Entry(index: interface.index, interface: interface)
      }
      let kept = entries
      let replaced = state.withLockedValue { state -> [String: Entry] in
        state.owner = owner
        defer { state.interfaces = kept }
        return state.interfaces
      }
      withExtendedLifetime(replaced) {}
    }

    /// Forgets the interfaces kept, if they are `owner`'s: its session stopped.
    func forget(from owner: ObjectIdentifier) {
      let replaced = state.withLockedValue { state -> [String: Entry] in
        guard state.owner == owner else { return [:] }
        state.owner = nil
        defer { state.interfaces = [:] }
        return state.interfaces
      }
      withExtendedLifetime(replaced) {}
    }

    /// The `NWInterface` of the latest path named `name` with index `index`, or `nil` when that path has none (another
    /// source's path, or an interface that has since gone or come back under another index).
    package func interface(named name: String, index: Int) -> NWInterface? {
      state.withLockedValue { state in
        guard let entry = state.interfaces[name], entry.index == index else { return nil }
        return entry.interface
      }
    }
  }
#endif
