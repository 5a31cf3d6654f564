#if canImport(NetStatusNetlink)
  import NetStatusNetlink
#endif

/// What a ``NetlinkPathSource`` has done, across all its sessions: its diagnostics
/// (``NetlinkPathSource/statistics``).
///
/// No loss is silent: every overflow, interrupted dump, undecodable datagram and resulting re-dump is
/// counted here.
package struct NetlinkSourceStatistics: Sendable, Hashable {
  /// Sessions started successfully.
  package internal(set) var sessionsStarted = 0
  /// Complete dumps of links and addresses (the initial one of each session included).
  package internal(set) var dumps = 0
  /// Route lookups asked of the kernel (RTM_GETROUTE requests, repeats included).
  package internal(set) var lookups = 0
  /// Re-evaluations after the initial path: one per drained burst of notifications that may matter.
  package internal(set) var evaluations = 0
  /// Re-dumps after a loss (overflow, interrupted dump, undecodable or truncated datagram), retries included.
  package internal(set) var resyncs = 0
  /// Times the socket reported ENOBUFS: the kernel dropped notifications.
  package internal(set) var overflows = 0
  /// Dumps the kernel flagged NLM_F_DUMP_INTR.
  package internal(set) var interruptedDumps = 0
  /// Datagrams that could not be decoded.
  package internal(set) var decodeErrors = 0
  /// Datagrams dropped because they did not come from the kernel (sender port not 0).
  package internal(set) var foreignDatagrams = 0
  /// Paths sent to the sink (the first one of each session included).
  package internal(set) var pathsSent = 0
  /// Times the resolver configuration was read again after a change in its folders.
  package internal(set) var resolverReloads = 0
  /// Times an evaluation found the kernel's answers missing (a lookup's, or a dump's next part) and went back to the
  /// event loop to wait for them, with a deadline, rather than wait on its thread.
  package internal(set) var kernelWaits = 0
  /// Why the last re-dump happened.
  package internal(set) var lastResyncReason: String?
  /// What the last session to follow a Wi-Fi link knows of nl80211's family (NetlinkSessionWorker+Wireless.swift):
  /// `nil` until one does.
  package internal(set) var wirelessFamily: WirelessSignalTracker.Family?
  /// Requests sent over generic netlink for Wi-Fi links: the family's, and station dumps.
  package internal(set) var wirelessRequests = 0
}

/// What a source shares with its sessions' threads: statistics and, for tests, the last mirrored links and
/// addresses.
final class NetlinkSourceRecord: Sendable {
  struct State: Sendable {
    var statistics = NetlinkSourceStatistics()
    var recordsKernelState = false
    var kernelState: KernelState?
    /// The port ID (`nl_pid`) of the netlink socket the latest session opened last, for tests that send to it.
    var portID: UInt32?
    /// The port ID of the latest session's lookup socket, for tests that send forged answers to it.
    var lookupPortID: UInt32?
  }

  private let state: Locked<State>

  init(recordsKernelState: Bool) {
    state = Locked(State(recordsKernelState: recordsKernelState))
  }

  /// Runs `body` with the state locked.
  func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
    state.withLockedValue { body(&$0) }
  }
}
