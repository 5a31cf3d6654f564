import Testing

@testable import NetStatusMonitor
@testable import NetStatusPathSource

/// `/proc/self/mountinfo` read for the mount points of a namespace folder
/// (Sources/NetStatusPathSource/MountInfo.swift).
@Suite("mount table: a folder's mount points")
struct MountInfoTests {
  static let table = """
    22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
    600 25 0:4 net:[4026532281] /run/netns/blue rw shared:210 - nsfs nsfs rw
    601 25 0:4 net:[4026532282] /run/netns/with\\040space rw shared:211 - nsfs nsfs rw
    602 25 0:4 net:[4026532283] /run/netns/back\\134slash rw shared:212 - nsfs nsfs rw
    606 25 0:4 net:[4026532285] /run/netns/x\\377 rw shared:216 - nsfs nsfs rw
    603 25 0:50 / /run/netns/sub/deeper rw shared:213 - tmpfs tmpfs rw
    604 25 0:4 net:[4026532284] /run/netnsx rw shared:214 - nsfs nsfs rw
    605 25 0:51 / /run/netns rw shared:215 - tmpfs tmpfs rw
    bad line
    """

  @Test("the names directly in the folder with something mounted on them, escapes undone, held as names")
  func mountedNames() {
    // As NetStatus holds names (SystemName): a backslash doubled, a byte that is not UTF-8 as \xHH.
    #expect(
      MountInfo.mountedNames(in: Array(Self.table.utf8), under: "/run/netns")
        == ["blue", "with space", #"back\\slash"#, #"x\xff"#])
    #expect(MountInfo.mountedNames(in: Array(Self.table.utf8), under: "/srv/netns").isEmpty)
    #expect(MountInfo.mountedNames(in: [UInt8](), under: "/run/netns").isEmpty)
  }

  @Test("an escape cut short, or not octal, is kept as it is")
  func escapes() {
    #expect(MountInfo.unescaped(Array("a\\04".utf8)) == Array("a\\04".utf8))
    #expect(MountInfo.unescaped(Array("a\\09x".utf8)) == Array("a\\09x".utf8))
    #expect(MountInfo.unescaped(Array("\\011\\012".utf8)) == [9, 10])
  }
}
