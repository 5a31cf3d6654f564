import Dispatch
import NetStatusCore

/// Keeps a `--textfile` up to date as paths and connectivity states arrive, from any thread, without making that
/// thread wait for the file: ``update(path:connectivity:families:)`` only records the values (under a lock, a few
/// dictionary operations) and wakes the file's writer thread, which renders and replaces the file when
/// ``TextfileSchedule`` says, with the values as they are then. Writing 1,000 namespaces' metrics takes milliseconds;
/// on the rtnetlink thread, once per namespace's change, it held every other namespace's lines back.
///
/// One path (`watch --textfile`, labelled with `--netns`'s name if given), or one per namespace (`watch --all-netns
/// --textfile`): ``update(namespace:path:connectivity:)`` and ``remove(namespace:)``, so that a deleted namespace's
/// series leave the file.
///
/// The file's `netstatus_textfile_timestamp_seconds` is when it was written, and its values are those known then:
/// a change reaches the file within ``TextfileSchedule/minimumGap`` (plus the time to write it), and the file is
/// rewritten at least every ``PrometheusTextfile/refreshInterval``; what standard output does has no part in it.
final class TextfileExporter: Sendable {
  private struct State {
    /// Each path's snapshot, by its `netns` label (`nil`: none).
    var snapshots: [String?: PrometheusTextfile.Snapshot] = [:]
    /// Bumped with every change of the snapshots.
    var version = 0
    /// The version the file holds.
    var writtenVersion = -1
    /// Whether the writer thread has a wake-up coming (one is enough, however many changes come meanwhile).
    var woken = false
    /// Whether the writer thread runs; without one, changes are written by the thread that makes them.
    var threaded = false
    var stopped = false
  }

  let path: String
  /// `--netns`'s name, which labels everything; `nil` with `--all-netns` and for this machine's own namespace.
  private let netns: String?
  /// When netstatus started (this exporter was made), Unix time.
  private let started: Double
  private let schedule: TextfileSchedule
  private let state = Locked(State())
  /// Held while the file is written: one write at a time, the newest values each time. It counts the writes: a lock
  /// around an empty value would share its address with the next property, and ThreadSanitizer would take that
  /// property's reads for races (Tests/NetStatusTests/LockDisciplineTests.swift).
  private let writing = Locked(0)
  private let wake = DispatchSemaphore(value: 0)

  /// - Parameters:
  ///   - path: The file to keep.
  ///   - netns: `--netns`'s name, which labels every metric; `nil` otherwise.
  init(path: String, netns: String?, schedule: TextfileSchedule = TextfileSchedule()) {
    self.path = path
    self.netns = netns
    self.schedule = schedule
    self.started = PrometheusTextfile.now()
  }

  /// Records `path` (and `connectivity` with each family's state, when probing).
  func update(path: NetworkPath, connectivity: ConnectivityState?, families: FamilyConnectivity = FamilyConnectivity())
  {
    update(label: netns, path: path, connectivity: connectivity, families: families)
  }

  /// Records the path of namespace `namespace` (`--all-netns`).
  func update(namespace: String, path: NetworkPath, connectivity: ConnectivityState?) {
    update(label: namespace, path: path, connectivity: connectivity, families: FamilyConnectivity())
  }

  /// Forgets namespace `namespace` (deleted, or no longer watched): its series leave the file.
  func remove(namespace: String) {
    changed { $0.snapshots.removeValue(forKey: namespace) != nil }
  }

  /// Writes the file now if its values changed since it was last written (the first call always writes), on the
  /// calling thread: the file's first text, before the watch starts.
  ///
  /// - Returns: `nil`, or what failed.
  func flush() -> String? {
    write(force: false)
  }

  /// Rewrites the file now as it is, with a new write time.
  ///
  /// - Returns: `nil`, or what failed.
  func refresh() -> String? {
    write(force: true)
  }

  /// Starts the writer thread, which keeps the file until ``stop()``; a failed write is handed to `onFailure`, and
  /// ends the thread. Until then, and without a thread (none could be made), each change is written by the thread
  /// that makes it.
  func start(onFailure: @escaping @Sendable (String) -> Void) {
    let threaded = DetachedThread.start { [self] in
      if let failure = runWriter() { onFailure(failure) }
    }
    state.withLockedValue { $0.threaded = threaded }
    guard !threaded else { return }
    onFailureWithoutThread.withLockedValue { $0 = onFailure }
  }

  /// Ends the writer thread (the file stays as last written).
  func stop() {
    state.withLockedValue { $0.stopped = true }
    wake.signal()
  }

  /// What reports a failed write when there is no writer thread.
  private let onFailureWithoutThread = Locked<(@Sendable (String) -> Void)?>(nil)

  private func update(
    label: String?, path: NetworkPath, connectivity: ConnectivityState?, families: FamilyConnectivity
  ) {
    changed { state in
      guard var snapshot = state.snapshots[label] else {
        state.snapshots[label] = .init(
          path: path, connectivity: connectivity, families: families, changes: 0, lastChange: PrometheusTextfile.now())
        return true
      }
      guard snapshot.path != path || snapshot.connectivity != connectivity || snapshot.families != families else {
        return false
      }
      if snapshot.path != path {
        snapshot.changes += 1
        snapshot.lastChange = PrometheusTextfile.now()
        snapshot.path = path
      }
      snapshot.connectivity = connectivity
      snapshot.families = families
      state.snapshots[label] = snapshot
      return true
    }
  }

  /// Applies `change` to the state; when it changed something, wakes the writer (or, without one, writes).
  private func changed(_ change: (inout State) -> Bool) {
    enum Next { case nothing, wake, write }
    let next = state.withLockedValue { state -> Next in
      guard change(&state) else { return .nothing }
      state.version += 1
      guard state.threaded else { return .write }
      if state.woken { return .nothing }
      state.woken = true
      return .wake
    }
    switch next {
    case .nothing: break
    case .wake: wake.signal()
    case .write:
      if let failure = write(force: false), let report = onFailureWithoutThread.withLockedValue({ $0 }) {
        report(failure)
      }
    }
  }

  /// The writer thread's loop: writes when ``schedule`` says, sleeps otherwise, until ``stop()`` or a failure.
  private func runWriter() -> String? {
    var lastWrite: ContinuousClock.Instant?
    while true {
      let (changed, stopped) = state.withLockedValue { state in
        state.woken = false
        return (state.version != state.writtenVersion, state.stopped)
      }
      if stopped { return nil }
      let now = ContinuousClock.now
      switch schedule.step(changed: changed, lastWrite: lastWrite, now: now) {
      case .write:
        if let failure = write(force: true) { return failure }
        lastWrite = now
      case .wait(let until):
        let (seconds, attoseconds) = (until - now).components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        _ = wake.wait(timeout: .now() + .nanoseconds(max(nanoseconds, 0)))
      }
    }
  }

  /// Writes the newest snapshots, unless the file already holds them (and `force` is not set).
  private func write(force: Bool) -> String? {
    writing.withLockedValue { writes -> String? in
      let (snapshots, version, writtenVersion) = state.withLockedValue { ($0.snapshots, $0.version, $0.writtenVersion) }
      guard force || version != writtenVersion else { return nil }
      let entries = snapshots.sorted { ($0.key ?? "") < ($1.key ?? "") }.map { (netns: $0.key, snapshot: $0.value) }
      let stamp = PrometheusTextfile.FileStamp(
        name: PrometheusTextfile.fileName(of: self.path), started: started, written: PrometheusTextfile.now())
      let text = PrometheusTextfile.render(entries, stamp: stamp, stampNetns: netns)
      if let failure = PrometheusTextfile.replace(self.path, with: text) { return failure }
      state.withLockedValue { $0.writtenVersion = max($0.writtenVersion, version) }
      writes += 1
      return nil
    }
  }
}

extension TextfileExporter {
  /// Starts the writer thread, whose failed write stops netstatus with its message.
  func start(stoppingOnFailure stop: StopSignal) {
    start { stop.fire(.failure, message: $0) }
  }

  /// Blocks the calling thread until `stop`, then ends the writer thread.
  func keepBlocking(until stop: StopSignal) -> NetStatusCommand.ExitCode {
    defer { self.stop() }
    return stop.waitBlocking()
  }

  /// Waits for `stop`, then ends the writer thread.
  func keep(until stop: StopSignal) async -> NetStatusCommand.ExitCode {
    defer { self.stop() }
    return await stop.wait()
  }
}
