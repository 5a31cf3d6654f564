// How a NetworkPath stores its values: three words, so that the copies a route change makes on its way to the
// subscribers are cheap (NetworkPath.swift, the stored properties).

extension NetworkPath {
  /// What a ``NetworkPath`` holds by reference: its interfaces, gateways and VPN, in one immutable box.
  ///
  /// A route change copies its path several times on its way from the evaluator to the subscribers (the session's
  /// last path, the monitor's current path, each subscriber's slot, the line `netstatus watch` writes), and
  /// destroys as many copies. With the arrays stored in the path, each copy retained, and each destruction released,
  /// every one of them; with this box, one reference. A box is shared by every copy of a path and never changes
  /// (its fields are `let`): a setter makes a new one.
  ///
  /// A path that has none of them (no interface, no gateway, no VPN: an offline path) and no ``cause`` has no box, so
  /// that making one allocates nothing: ``make(availableInterfaces:gateways:vpn:cause:)`` returns `nil` then, and
  /// only then. An unsatisfied path from the Linux source has a box for its cause alone; ``NetworkPath/==`` takes a
  /// box that holds no value (``holdsValues``) as no box.
  @usableFromInline final class Storage: Sendable, Hashable {
    @usableFromInline let availableInterfaces: [NetworkInterface]
    @usableFromInline let gateways: [String]
    @usableFromInline let vpn: VPN?
    /// ``NetworkPath/unsatisfiedCause``: not a value of the path (not part of equality or hashing).
    @usableFromInline let cause: UnsatisfiedCause?

    @usableFromInline init(
      availableInterfaces: [NetworkInterface], gateways: [String], vpn: VPN?, cause: UnsatisfiedCause? = nil
    ) {
      self.availableInterfaces = availableInterfaces
      self.gateways = gateways
      self.vpn = vpn
      self.cause = cause
    }

    /// The box of these values, or `nil` when there is nothing to hold.
    @inlinable static func make(
      availableInterfaces: [NetworkInterface], gateways: [String], vpn: VPN?, cause: UnsatisfiedCause? = nil
    ) -> Storage? {
      if availableInterfaces.isEmpty && gateways.isEmpty && vpn == nil && cause == nil { return nil }
      return Storage(availableInterfaces: availableInterfaces, gateways: gateways, vpn: vpn, cause: cause)
    }

    /// Whether the box holds one of the path's values, not only a cause.
    @inlinable var holdsValues: Bool { !availableInterfaces.isEmpty || !gateways.isEmpty || vpn != nil }

    /// Whether two paths' boxes hold the same values; `nil` holds none.
    @inlinable static func same(_ lhs: Storage?, _ rhs: Storage?) -> Bool {
      switch (lhs, rhs) {
      case (nil, nil): true
      case (let lhs?, let rhs?): lhs == rhs
      case (let box?, nil), (nil, let box?): !box.holdsValues
      }
    }

    /// The same box (copies of one path), or the same values.
    @usableFromInline static func == (lhs: Storage, rhs: Storage) -> Bool {
      lhs === rhs
        || (lhs.availableInterfaces == rhs.availableInterfaces && lhs.gateways == rhs.gateways && lhs.vpn == rhs.vpn)
    }

    @usableFromInline func hash(into hasher: inout Hasher) {
      hasher.combine(availableInterfaces)
      hasher.combine(gateways)
      hasher.combine(vpn)
    }
  }

  /// How ``NetworkPath/packed`` holds a path's plain values: ``NetworkPath/status``,
  /// ``NetworkPath/unsatisfiedReason`` and ``NetworkPath/expenseSource`` one byte each (their `code`: `0` is `nil`),
  /// then one bit per flag, with ``NetworkPath/linkQuality`` in two bits between them. One word: a path passed in registers would otherwise pack its eight one-byte properties
  /// into one, a shift and an or each, at every call.
  @usableFromInline enum Packing {
    /// The byte of ``NetworkPath/status``, as a shift.
    @inlinable static var status: UInt32 { 0 }
    /// The byte of ``NetworkPath/unsatisfiedReason``, as a shift.
    @inlinable static var unsatisfiedReason: UInt32 { 8 }
    /// The byte of ``NetworkPath/expenseSource``, as a shift.
    @inlinable static var expenseSource: UInt32 { 16 }
    /// The bit of ``NetworkPath/isExpensive``.
    @inlinable static var isExpensive: UInt32 { 1 << 24 }
    /// The bit of ``NetworkPath/isConstrained``.
    @inlinable static var isConstrained: UInt32 { 1 << 25 }
    /// The bit of ``NetworkPath/supportsIPv4``.
    @inlinable static var supportsIPv4: UInt32 { 1 << 26 }
    /// The bit of ``NetworkPath/supportsIPv6``.
    @inlinable static var supportsIPv6: UInt32 { 1 << 27 }
    /// The bit of ``NetworkPath/supportsDNS``.
    @inlinable static var supportsDNS: UInt32 { 1 << 28 }
    /// The two bits of ``NetworkPath/linkQuality``, as a shift.
    @inlinable static var linkQuality: UInt32 { 29 }
    /// The bit of ``NetworkPath/isUltraConstrained``.
    @inlinable static var isUltraConstrained: UInt32 { 1 << 31 }

    /// The byte of `packed` at `shift`.
    @inlinable static func byte(_ packed: UInt32, _ shift: UInt32) -> UInt32 { packed >> shift & 0xff }

    /// `code` in the byte at `shift`.
    @inlinable static func placing(_ code: UInt32, _ shift: UInt32) -> UInt32 { code << shift }

    /// `packed` with the byte at `shift` set to `code`.
    @inlinable static func setting(_ packed: UInt32, _ shift: UInt32, to code: UInt32) -> UInt32 {
      packed & ~(0xff << shift) | code << shift
    }

    /// The two bits of `packed` at `shift`.
    @inlinable static func twoBits(_ packed: UInt32, _ shift: UInt32) -> UInt32 { packed >> shift & 0b11 }

    /// `packed` with the two bits at `shift` set to `code`.
    @inlinable static func settingTwoBits(_ packed: UInt32, _ shift: UInt32, to code: UInt32) -> UInt32 {
      packed & ~(0b11 << shift) | code << shift
    }

    /// `packed` with the bits of `mask` set when `on`, cleared otherwise.
    @inlinable static func setting(_ packed: UInt32, _ mask: UInt32, _ on: Bool) -> UInt32 {
      on ? packed | mask : packed & ~mask
    }
  }
}

extension NetworkPath.Status {
  /// The status of a ``NetworkPath/Packing`` code.
  @inlinable init(code: UInt32) {
    switch code {
    case 0: self = .satisfied
    case 1: self = .unsatisfied
    default: self = .requiresConnection
    }
  }

  /// The status's ``NetworkPath/Packing`` code.
  @inlinable var code: UInt32 {
    switch self {
    case .satisfied: 0
    case .unsatisfied: 1
    case .requiresConnection: 2
    }
  }
}

extension NetworkPath.UnsatisfiedReason {
  /// The reason of a ``NetworkPath/Packing`` code, `nil` for `0`.
  @inlinable init?(code: UInt32) {
    switch code {
    case 1: self = .notAvailable
    case 2: self = .cellularDenied
    case 3: self = .wifiDenied
    case 4: self = .localNetworkDenied
    case 5: self = .vpnInactive
    default: return nil
    }
  }

  /// The ``NetworkPath/Packing`` code of `reason`, `0` for `nil`.
  @inlinable static func code(of reason: Self?) -> UInt32 {
    switch reason {
    case nil: 0
    case .notAvailable: 1
    case .cellularDenied: 2
    case .wifiDenied: 3
    case .localNetworkDenied: 4
    case .vpnInactive: 5
    }
  }
}

extension ExpenseSource {
  /// The source of a ``NetworkPath/Packing`` code (1 cellular, 2 metered, 3 metered guessed), `nil` for `0`.
  @inlinable init?(code: UInt32) {
    guard code >= 1 && code <= 3 else { return nil }
    self = code == 1 ? .cellular : code == 2 ? .metered : .meteredGuessed
  }

  /// The ``NetworkPath/Packing`` code of `source`, `0` for `nil`.
  @inlinable static func code(of source: Self?) -> UInt32 {
    guard let source else { return 0 }
    switch source {
    case .cellular: return 1
    case .metered: return 2
    case .meteredGuessed: return 3
    }
  }
}
