/// Every link of a network namespace with its state and addresses, and the resolver's name servers, read once:
/// what `netstatus show --all` prints and what `netstatus wait --interface` checks names against. Read on Linux
/// (`LinkInventory.read(networkNamespace:sysfsRoot:)`, in LinkInventory+Linux.swift); a plain value everywhere.
package struct LinkInventory: Sendable, Equatable {
  /// One link.
  package struct Link: Sendable, Equatable {
    /// `ifi_index`.
    package var index: Int32
    package var name: String
    /// How NetStatus classifies it (the same as in a path).
    package var type: InterfaceType
    /// The kernel's link kind (`veth`, `bridge`, `wireguard`…), if it has one.
    package var kind: String?
    /// Administratively up (`IFF_UP`).
    package var isUp: Bool
    /// Has carrier (`IFF_LOWER_UP`).
    package var hasCarrier: Bool
    /// The speed the link negotiated, in Mb/s (sysfs `speed`), when the driver reports one and sysfs shows this
    /// link: what a path over it rates its ``NetworkPath/linkQuality`` from, when it is wired Ethernet.
    package var speed: Int? = nil
    /// Waits for an external event before it can pass traffic (`IFF_DORMANT`, or the operational state
    /// `IF_OPER_DORMANT`): an 802.1X port not yet authenticated, for example.
    package var isDormant: Bool = false
    /// The index of the link this one is a port of (`IFLA_MASTER`: a bridge or a bond), if any: networkd calls a
    /// port with carrier `enslaved`.
    package var master: Int32? = nil
    /// The addresses: IPv4 first, then IPv6, each in textual order.
    package var addresses: [Address]
    /// What systemd-networkd says of the link, where its state is read (`nil` otherwise, or when it has no file for
    /// the link).
    package var networkd: NetworkdLinkState? = nil
  }

  /// One address of a link.
  package struct Address: Sendable, Equatable {
    /// `192.0.2.10/24`, `fe80::1/64`.
    package var text: String
    /// What limits it: `tentative` (duplicate address detection running), `dadfailed`, `site`, `link` or `host`
    /// (scope). Empty for an address that can carry traffic beyond the link.
    package var flags: [String]
  }

  package var links: [Link]
  /// The name servers of the resolver configuration, in order.
  package var nameservers: [String]

  /// The link named `name`, if there is one.
  package func link(named name: String) -> Link? { links.first { $0.name == name } }

  package init(links: [Link], nameservers: [String]) {
    self.links = links
    self.nameservers = nameservers
  }
}
