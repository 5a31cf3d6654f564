/// One network interface of a path.
///
/// ```swift
/// let eth0 = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)
/// ```
public struct NetworkInterface: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The interface's name, such as `eth0`, `wlan0` or `en0`.
  ///
  /// On Linux a name is bytes, not always UTF-8; it is held as it is when it is UTF-8 without a backslash, and
  /// otherwise with each byte that is not UTF-8 as `\xHH` and a backslash as `\\`, so that two interfaces never
  /// share a name here (`nx\xc3` is the interface whose name's bytes are `n`, `x`, 0xC3).
  public var name: String
  /// The interface's index in the system (`if_nametoindex`).
  public var index: Int
  /// The kind of link the interface uses.
  public var type: InterfaceType

  /// Creates an interface description.
  @inlinable public init(name: String, index: Int, type: InterfaceType) {
    self.name = name
    self.index = index
    self.type = type
  }

  /// `name (type)`, for example `eth0 (wiredEthernet)`; control characters in the name are escaped.
  public var description: String { "\(name.escapingControlCharacters()) (\(type))" }
}
