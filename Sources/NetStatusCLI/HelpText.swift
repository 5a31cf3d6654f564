/// The help and version texts of `netstatus`.
enum HelpText {
  static let version = "netstatus 0.1.0"

  static func text(for command: CommandLineOptions.Command?) -> String {
    switch command {
    case nil, .show?: return overview
    case .watch?: return watch
    case .wait?: return wait
    }
  }

  static let common = """
    Options for every command:
      --json              Print each path as one JSON object per line (the documented form).
      --netns NAME|PATH   Watch a network namespace: a name from `ip netns list` or a path
                          such as /proc/PID/ns/net.
      -h, --help          Show help.
    """

  static let overview = """
    netstatus — is this machine online, over what, and at which cost?

    Usage:
      netstatus [show] [--json] [--netns NAME|PATH]
      netstatus watch [--json] [--netns NAME|PATH]
      netstatus wait [--timeout SECONDS] [--interface-type TYPE]... [--ipv4] [--ipv6] [--dns]
                     [--quiet] [--json] [--netns NAME|PATH]
      netstatus --version

    Commands:
      show    Print the current network path (the default).
      watch   Print the current path, then one line per change, until interrupted.
      wait    Wait until the path is satisfied (nm-online style exit codes).

    \(common)

    Exit codes: 0 success, 1 wait timed out, 2 usage or system error.
    """

  static let watch = """
    netstatus watch — print the current path, then one line per change.

    Usage: netstatus watch [--json] [--netns NAME|PATH]

    Each line starts with the local time. With --json, each line is one JSON object (JSON Lines),
    flushed at once. Stops cleanly on SIGINT, SIGTERM, or when standard output is closed.

    \(common)
    """

  static let wait = """
    netstatus wait — wait until the network path is satisfied.

    Usage: netstatus wait [--timeout SECONDS] [--interface-type TYPE]... [--ipv4] [--ipv6] [--dns]
                          [--quiet] [--json] [--netns NAME|PATH]

      --timeout SECONDS       Give up after this long (default 30; 0 waits forever).
      --interface-type TYPE   Require an interface of this type (other, wifi, cellular,
                              wiredEthernet, loopback). Repeat to accept several.
      --ipv4, --ipv6          Require IPv4 or IPv6 connectivity.
      --dns                   Require a configured DNS resolver.
      -q, --quiet             Print nothing on success.

    Waiting uses no CPU: it sleeps until the kernel reports a change.
    Exit codes: 0 online, 1 timed out, 2 usage or system error.

    \(common)
    """
}
