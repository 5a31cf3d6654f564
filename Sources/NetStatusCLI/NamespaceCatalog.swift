/// Which namespaces `watch --all-netns` watches, and under which name, when several folders name them
/// (`/run/netns`, Docker's `/run/docker/netns`, each `--netns-dir`). Pure: the folders' changes go in, and out come
/// the monitors to start and stop.
///
/// A namespace is known by its identity (its nsfs inode), so one bind-mounted in two places is watched once:
/// under the name it has in the first folder (the folders' order, then the names' order). When that name goes
/// while another still names the namespace, the watch moves to the other name. A namespace is labelled by its
/// name in its folder; when another watched namespace already has that label, by its path instead, so that no two
/// series of the textfile share labels.
struct NamespaceCatalog<Identity: Hashable> {
  /// A name in a folder: `folder` is the folder's position in the list, which orders the holders.
  struct Holder: Hashable, Comparable {
    var folder: Int
    var name: String

    static func < (left: Holder, right: Holder) -> Bool {
      (left.folder, left.name) < (right.folder, right.name)
    }
  }

  /// What to do: start a monitor of `holder`'s namespace labelled `label`, or stop the one labelled `label`.
  enum Action: Equatable {
    case start(Holder, label: String)
    case stop(Holder, label: String)
  }

  /// The folders, in order.
  let folders: [String]
  /// Every holder seen, and the namespace it names.
  private var identities: [Holder: Identity] = [:]
  /// The watched holder of each namespace, and its label.
  private var watched: [Identity: (holder: Holder, label: String)] = [:]

  init(folders: [String]) {
    self.folders = folders
  }

  /// The path of a holder's file.
  func path(of holder: Holder) -> String { folders[holder.folder] + "/" + holder.name }

  /// `holder` names the namespace `identity` now.
  mutating func appeared(_ holder: Holder, identity: Identity) -> [Action] {
    var actions: [Action] = []
    if let before = identities[holder] {
      guard before != identity else { return [] }
      actions += disappeared(holder)
    }
    identities[holder] = identity
    if let current = watched[identity] {
      guard holder < current.holder else { return actions }
      actions.append(.stop(current.holder, label: current.label))
      watched[identity] = nil
    }
    return actions + start(holder, identity)
  }

  /// `holder` names no namespace any more.
  mutating func disappeared(_ holder: Holder) -> [Action] {
    guard let identity = identities.removeValue(forKey: holder) else { return [] }
    guard let current = watched[identity], current.holder == holder else { return [] }
    watched[identity] = nil
    var actions: [Action] = [.stop(holder, label: current.label)]
    if let next = identities.filter({ $0.value == identity }).keys.min() {
      actions += start(next, identity)
    }
    return actions
  }

  /// The labels watched now, and their holders (for tests and `show`).
  var watchedLabels: [String: Holder] {
    Dictionary(uniqueKeysWithValues: watched.values.map { ($0.label, $0.holder) })
  }

  private mutating func start(_ holder: Holder, _ identity: Identity) -> [Action] {
    let taken = Set(watched.values.map(\.label))
    let label = taken.contains(holder.name) ? path(of: holder) : holder.name
    watched[identity] = (holder, label)
    return [.start(holder, label: label)]
  }
}

/// A namespace's identity as ``NamespaceCatalog`` keys it: its nsfs device and inode.
struct NamespaceInode: Hashable {
  var device: UInt64
  var inode: UInt64
}
