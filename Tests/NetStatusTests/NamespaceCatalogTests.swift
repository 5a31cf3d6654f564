import Testing

@testable import NetStatusCLI

/// `watch --all-netns` across folders: one watch per namespace identity, under its first name.
@Suite("Namespace catalog")
struct NamespaceCatalogTests {
  typealias Catalog = NamespaceCatalog<Int>
  typealias Holder = Catalog.Holder

  let folders = ["/run/netns", "/run/docker/netns", "/run/other"]

  @Test func aNamespaceNamedTwiceIsWatchedOnceUnderItsFirstFoldersName() {
    var catalog = Catalog(folders: folders)
    #expect(
      catalog.appeared(Holder(folder: 1, name: "abc"), identity: 7) == [
        .start(.init(folder: 1, name: "abc"), label: "abc")
      ])
    // The same namespace in a later folder: nothing.
    #expect(catalog.appeared(Holder(folder: 2, name: "alias"), identity: 7) == [])
    // In an earlier folder: the watch moves there.
    #expect(
      catalog.appeared(Holder(folder: 0, name: "blue"), identity: 7) == [
        .stop(.init(folder: 1, name: "abc"), label: "abc"), .start(.init(folder: 0, name: "blue"), label: "blue"),
      ])
    #expect(catalog.watchedLabels == ["blue": Holder(folder: 0, name: "blue")])
    // The watched name goes while others remain: the next one in order takes over.
    #expect(
      catalog.disappeared(Holder(folder: 0, name: "blue")) == [
        .stop(.init(folder: 0, name: "blue"), label: "blue"), .start(.init(folder: 1, name: "abc"), label: "abc"),
      ])
    #expect(catalog.disappeared(Holder(folder: 2, name: "alias")) == [])
    #expect(catalog.disappeared(Holder(folder: 1, name: "abc")) == [.stop(.init(folder: 1, name: "abc"), label: "abc")])
    #expect(catalog.watchedLabels.isEmpty)
    #expect(catalog.disappeared(Holder(folder: 1, name: "abc")) == [])
  }

  @Test func aNameThatComesToNameAnotherNamespaceIsStoppedAndStartedAgain() {
    var catalog = Catalog(folders: folders)
    let holder = Holder(folder: 0, name: "x")
    _ = catalog.appeared(holder, identity: 1)
    #expect(catalog.appeared(holder, identity: 1) == [])
    #expect(catalog.appeared(holder, identity: 2) == [.stop(holder, label: "x"), .start(holder, label: "x")])
  }

  /// Two namespaces with one name in two folders: the second is labelled by its path, so no two series collide.
  @Test func aNameTakenByAnotherNamespaceIsLabelledByItsPath() {
    var catalog = Catalog(folders: folders)
    _ = catalog.appeared(Holder(folder: 0, name: "web"), identity: 1)
    #expect(
      catalog.appeared(Holder(folder: 1, name: "web"), identity: 2) == [
        .start(.init(folder: 1, name: "web"), label: "/run/docker/netns/web")
      ])
    #expect(catalog.path(of: Holder(folder: 2, name: "n")) == "/run/other/n")
  }

  @Test func foldersAreTheNamedOnesDockersWhenPresentThenEachGivenOnce() throws {
    let options = try CommandLineOptions.parse([
      "watch", "--all-netns", "--netns-dir", "/run/other/", "--netns-dir=/run/netns", "--netns-dir", "/run/other",
    ])
    #expect(
      AllNamespacesWatch.folders(options, dockerPresent: true) == ["/run/netns", "/run/docker/netns", "/run/other"])
    #expect(AllNamespacesWatch.folders(options, dockerPresent: false) == ["/run/netns", "/run/other"])
    #expect(AllNamespacesWatch.parent(of: "/run/docker/netns") == "/run/docker")
    #expect(AllNamespacesWatch.parent(of: "/netns/") == "/")
    #expect(throws: CommandLineOptions.UsageError.self) {
      try CommandLineOptions.parse(["watch", "--netns-dir", "/x"])
    }
    #expect(throws: CommandLineOptions.UsageError.self) {
      try CommandLineOptions.parse(["watch", "--all-netns", "--netns-dir", "relative"])
    }
  }
}

/// `show --all-netns`'s list, merged without I/O.
@Suite("Namespace listing")
struct NamespaceListingTests {
  let a = NamespaceInode(device: 4, inode: 100)
  let b = NamespaceInode(device: 4, inode: 200)
  let host = NamespaceInode(device: 4, inode: 1)

  @Test func namedFirstOnceEachThenTheProcessesOnesByPIDWithTheirLowestPID() {
    let entries = NamespaceListing.entries(
      named: [
        ("web", "/run/netns/web", "web", a), ("ctr", "/run/docker/netns/ctr", "/run/docker/netns/ctr", b),
        ("alias", "/run/x/alias", "/run/x/alias", a),
      ],
      processes: [(900, b), (40, host), (7, host), (300, NamespaceInode(device: 4, inode: 300)), (12, a)])
    #expect(
      entries == [
        .init(label: "ctr", target: "/run/docker/netns/ctr", pid: 900, identity: b),
        .init(label: "web", target: "web", pid: 12, identity: a),
        .init(label: nil, target: "/proc/7/ns/net", pid: 7, identity: host),
        .init(label: nil, target: "/proc/300/ns/net", pid: 300, identity: NamespaceInode(device: 4, inode: 300)),
      ])
  }

  @Test func aNameTakenByAnotherNamespaceIsLabelledByItsPath() {
    let entries = NamespaceListing.entries(
      named: [("web", "/run/netns/web", "web", a), ("web", "/run/docker/netns/web", "/run/docker/netns/web", b)],
      processes: [])
    #expect(entries.map(\.label) == ["/run/docker/netns/web", "web"])
    #expect(entries.map(\.pid) == [nil, nil])
  }

  @Test func theJSONLineCarriesTheNamePIDAndInodeAfterThePathsKeys() {
    let line = NamespaceListing.line(
      .init(label: "web", target: "web", pid: 12, identity: a), .test(.wiredEthernet), json: true,
      formatter: PathFormatter(style: .plain))
    #expect(line.hasSuffix(#","netns":"web","pid":12,"inode":100}"#), "\(line)")
    let unnamed = NamespaceListing.line(
      .init(label: nil, target: "/proc/7/ns/net", pid: 7, identity: host), .test(.wiredEthernet), json: true,
      formatter: PathFormatter(style: .plain))
    #expect(unnamed.hasSuffix(#","pid":7,"inode":1}"#) && !unnamed.contains("netns"), "\(unnamed)")
  }
}
