import Testing

@testable import NetStatusPathModel

/// How a `NetworkPath` stores its values (`Sources/NetStatusPathModel/NetworkPath+Storage.swift`): the plain values
/// packed in one word, the arrays and the VPN in one shared box that setters replace. Seen through the public API
/// only: each property reads back what was set, alone; copies are independent; equality and hashing do not depend on
/// how a path was made.
@Suite("NetworkPath storage")
struct NetworkPathStorageTests {
  static let eth0 = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)
  static let tun0 = NetworkInterface(name: "tun0", index: 5, type: .other)
  static let reasons: [NetworkPath.UnsatisfiedReason?] = [nil] + NetworkPath.UnsatisfiedReason.allCases
  static let sources: [ExpenseSource?] = [nil] + ExpenseSource.allCases

  /// The plain values of a path, compared as a whole (made with the memberwise initializer, or read from a path: the
  /// extension at the end).
  struct Plain: Equatable, CustomStringConvertible {
    var status: NetworkPath.Status
    var unsatisfiedReason: NetworkPath.UnsatisfiedReason?
    var expenseSource: ExpenseSource?
    var flags: [Bool]

    var description: String {
      "\(status) \(String(describing: unsatisfiedReason)) \(String(describing: expenseSource)) \(flags)"
    }
  }

  @Test("every combination of the plain values reads back as set, and setting one leaves the others and the arrays")
  func plainValuesReadBackAlone() {
    let statuses = NetworkPath.Status.allCases
    for status in statuses {
      for reason in Self.reasons {
        for source in Self.sources {
          for bits in 0..<32 {
            let flags = (0..<5).map { bits & (1 << $0) != 0 }
            var path = NetworkPath(
              status: .requiresConnection, availableInterfaces: [Self.eth0], gateways: ["192.0.2.1"])
            path.status = status
            path.unsatisfiedReason = reason
            path.expenseSource = source
            path.isExpensive = flags[0]
            path.isConstrained = flags[1]
            path.supportsIPv4 = flags[2]
            path.supportsIPv6 = flags[3]
            path.supportsDNS = flags[4]
            let expected = Plain(status: status, unsatisfiedReason: reason, expenseSource: source, flags: flags)
            #expect(Plain(path) == expected)
            #expect(path.availableInterfaces == [Self.eth0] && path.gateways == ["192.0.2.1"] && path.vpn == nil)
            // Each value changed alone: the others keep theirs.
            for other in statuses where other != status {
              var changed = path
              changed.status = other
              var expectedChange = expected
              expectedChange.status = other
              #expect(Plain(changed) == expectedChange)
            }
            for flag in 0..<5 {
              var changed = path
              switch flag {
              case 0: changed.isExpensive.toggle()
              case 1: changed.isConstrained.toggle()
              case 2: changed.supportsIPv4.toggle()
              case 3: changed.supportsIPv6.toggle()
              default: changed.supportsDNS.toggle()
              }
              var expectedChange = expected
              expectedChange.flags[flag].toggle()
              #expect(Plain(changed) == expectedChange)
              #expect(changed != path)
            }
          }
        }
      }
    }
  }

  @Test("link quality and ultra-constrained read back as set, beside every other value, and each is a change")
  func linkQualityAndUltraConstrainedReadBack() {
    for quality in NetworkPath.LinkQuality.allCases {
      for ultra in [false, true] {
        for allOn in [false, true] {
          var path = NetworkPath(
            status: allOn ? .satisfied : .unsatisfied, unsatisfiedReason: allOn ? nil : .vpnInactive,
            availableInterfaces: [Self.eth0], isExpensive: allOn, isConstrained: allOn, supportsIPv4: allOn,
            supportsIPv6: allOn, supportsDNS: allOn, gateways: ["192.0.2.1"])
          let before = Plain(path)
          path.linkQuality = quality
          path.isUltraConstrained = ultra
          #expect(path.linkQuality == quality && path.isUltraConstrained == ultra)
          #expect(Plain(path) == before, "the other values keep theirs")
          let made = NetworkPath(
            status: path.status, unsatisfiedReason: path.unsatisfiedReason, availableInterfaces: [Self.eth0],
            isExpensive: allOn, isConstrained: allOn, supportsIPv4: allOn, supportsIPv6: allOn, supportsDNS: allOn,
            gateways: ["192.0.2.1"], linkQuality: quality, isUltraConstrained: ultra)
          #expect(made == path && made.hashValue == path.hashValue)
          for other in NetworkPath.LinkQuality.allCases where other != quality {
            var changed = path
            changed.linkQuality = other
            #expect(changed != path && changed.isUltraConstrained == ultra)
          }
          var toggled = path
          toggled.isUltraConstrained.toggle()
          #expect(toggled != path && toggled.linkQuality == quality)
        }
      }
    }
  }

  @Test("the initializer's rules: a satisfied path has no reason; an expensive cellular one says cellular")
  func initializerKeepsItsRules() {
    let cellular = NetworkInterface(name: "wwan0", index: 3, type: .cellular)
    for status in NetworkPath.Status.allCases {
      for reason in Self.reasons {
        let path = NetworkPath(
          status: status, unsatisfiedReason: reason, availableInterfaces: [cellular], isExpensive: true,
          isConstrained: true, supportsIPv4: true, supportsIPv6: false, supportsDNS: true)
        #expect(path.status == status)
        #expect(path.unsatisfiedReason == (status == .satisfied ? nil : reason))
        #expect(path.expenseSource == .cellular)
        #expect(path.isExpensive && path.isConstrained && path.supportsIPv4 && !path.supportsIPv6 && path.supportsDNS)
      }
    }
    #expect(NetworkPath(status: .satisfied, availableInterfaces: [Self.eth0], isExpensive: true).expenseSource == nil)
  }

  @Test("a copy changed does not change the original: interfaces, gateways, VPN, plain values")
  func copiesAreIndependent() {
    let vpn = NetworkPath.VPN(interface: Self.tun0, underlyingInterfaceType: .wiredEthernet)
    let original = NetworkPath(
      status: .satisfied, availableInterfaces: [Self.tun0, Self.eth0], supportsIPv4: true, gateways: ["192.0.2.1"],
      vpn: vpn)
    var copy = original
    copy.availableInterfaces.removeFirst()
    copy.gateways.append("2001:db8::1")
    copy.vpn = nil
    copy.supportsIPv6 = true
    #expect(original.availableInterfaces == [Self.tun0, Self.eth0])
    #expect(original.gateways == ["192.0.2.1"])
    #expect(original.vpn == vpn)
    #expect(!original.supportsIPv6)
    #expect(copy.availableInterfaces == [Self.eth0])
    #expect(copy.gateways == ["192.0.2.1", "2001:db8::1"])
    #expect(copy.vpn == nil)
    #expect(copy != original)
  }

  @Test("equality and hashing follow the values, not how the path was made or changed")
  func equalityFollowsTheValues() {
    let vpn = NetworkPath.VPN(interface: Self.tun0, underlyingInterfaceType: nil)
    let made = NetworkPath(
      status: .satisfied, availableInterfaces: [Self.tun0], supportsDNS: true, gateways: ["192.0.2.1"], vpn: vpn)
    // The same values, made another way: from an empty path, one setter at a time.
    var built = NetworkPath(status: .satisfied, supportsDNS: true)
    built.vpn = vpn
    built.gateways = ["192.0.2.1"]
    built.availableInterfaces = [Self.tun0]
    #expect(built == made)
    #expect(built.hashValue == made.hashValue)
    #expect(Set([built, made]).count == 1)
    // Emptied one setter at a time, it equals a path made empty.
    var emptied = made
    emptied.availableInterfaces = []
    #expect(emptied != made)
    emptied.gateways = []
    emptied.vpn = nil
    let empty = NetworkPath(status: .satisfied, supportsDNS: true)
    #expect(emptied == empty)
    #expect(emptied.hashValue == empty.hashValue)
    // Each of the three alone makes a difference.
    for change in 0..<3 {
      var other = made
      switch change {
      case 0: other.availableInterfaces = [Self.eth0]
      case 1: other.gateways = ["192.0.2.2"]
      default: other.vpn = NetworkPath.VPN(interface: Self.tun0, underlyingInterfaceType: .wifi)
      }
      #expect(other != made)
    }
    // A VPN removed and set again; none set on a path without one.
    var unchanged = made
    unchanged.vpn = nil
    unchanged.vpn = vpn
    #expect(unchanged == made)
    var withoutVPN = NetworkPath(status: .satisfied, availableInterfaces: [Self.eth0])
    withoutVPN.vpn = nil
    #expect(withoutVPN == NetworkPath(status: .satisfied, availableInterfaces: [Self.eth0]))
    #expect(withoutVPN.availableInterfaces == [Self.eth0])
  }
}

// In an extension, so that `Plain` keeps its memberwise initializer.
extension NetworkPathStorageTests.Plain {
  init(_ path: NetworkPath) {
    self.init(
      status: path.status, unsatisfiedReason: path.unsatisfiedReason, expenseSource: path.expenseSource,
      flags: [path.isExpensive, path.isConstrained, path.supportsIPv4, path.supportsIPv6, path.supportsDNS])
  }
}
