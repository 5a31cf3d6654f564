/// The help and version texts of `netstatus`.
enum HelpText {
  static let version = "netstatus 0.1.0"

  static func text(for command: CommandLineOptions.Command?) -> String {
    switch command {
    case nil, .show?: return overview
    case .watch?: return watch
    case .wait?: return wait
    case .completions?: return completions
    }
  }

  static let common = """
    Options for every command:
      -j, --json          Print each path as one JSON object per line (the documented form).
      -n, --netns NAME|PATH
                          Watch a network namespace: a name from `ip netns list` or a path
                          such as /proc/PID/ns/net (DNS then comes from that process's
                          /etc/resolv.conf). watch ends, exit 2, when the namespace is deleted
                          or the process exits.
      --probe URL         Also check that the internet answers, by fetching this http:// URL
                          (plain HTTP only; https is refused) over the path's interface. Reports
                          full, portal (with its redirect), limited, none or unknown. Without
                          --probe, netstatus sends no traffic at all.
      --expect STATUS|TEXT
                          What the probe URL answers: a status from 100 to 599 (default 204),
                          or else the text its body starts with (a number outside 100-599 is
                          a usage error).
      --probe-interval SPAN
                          With --probe: check again this often while connectivity is full,
                          so that an upstream that dies is noticed (default: never; at
                          least 1s; a time span such as 30s or 5min).
      --networkmanager    Take the internet connectivity from NetworkManager (its own check,
                          read over D-Bus as it changes) instead: no traffic. A portal comes
                          without its address; unknown when NetworkManager cannot be reached.
                          --probe wins when both are given. Not with --netns or --all-netns.
      -h, --help          Show help.
      -V, --version       Show the version.
      --                  End of options.

    Options may come before the command too (netstatus -n NAME watch, as ip -n NAME monitor).
    Short options can be grouped (-jq); -nNAME and -t5s take their value attached.
    An option that takes one value may be given once. A mistyped option or command is
    answered with the closest valid one.
    """

  static let overview = """
    netstatus — is this machine online, over what, and at which cost?

    Usage:
      netstatus [show] [--json] [--netns NAME|PATH] [--probe URL [--expect STATUS|TEXT]] [--networkmanager]
      netstatus [show] --all [--netns NAME|PATH]
      netstatus [show] --all-netns [--json] [--netns-dir DIR]...
      netstatus watch [--json] [--netns NAME|PATH] [--textfile PATH] [--probe URL [--expect STATUS|TEXT]]
                      [--networkmanager] [--settle SPAN]
      netstatus watch --all-netns [--json] [--netns-dir DIR]... [--textfile PATH]
      netstatus wait [-t SPAN] [-i NAME[:MIN[:MAX]]]... [-o MIN[:MAX]]
                     [--stable SPAN] [--via NAME]... [--any] [--ignore PATTERN]...
                     [--interface-type TYPE]... [-4] [-6] [--dns] [--vpn] [--internet] [-q]
                     [-j] [-n NAME|PATH] [--probe URL [--expect STATUS|TEXT]] [--networkmanager]
      netstatus completions bash|zsh|fish
      netstatus help [COMMAND]      (or netstatus [COMMAND] --help)
      netstatus --version

    Commands:
      show    Print the current network path (the default).
      watch   Print the current path, then one line per change, until interrupted.
      wait    Wait until the path is satisfied, or interfaces are up as networkd's
              wait-online -i judges them (nm-online style exit codes).
      completions
              Print the shell completion script for bash, zsh or fish.
      help    Show this help, or a command's (netstatus help wait).

    \(common)

    show --all-netns lists every network namespace, as lsns -t net does: the named ones
    (/run/netns, /run/docker/netns, each --netns-dir DIR) and those only processes hold, each
    once, with the lowest PID in it and its path (JSON: "netns", "pid", "inode").

    Where NetworkManager runs (this machine's own namespace only), a path over a device it
    considers metered is expensive; `show --all` lists the sources in use, or why one is not.

    With --probe (or --networkmanager), JSON output adds "connectivity" after the path's keys, for example
      {"status":"satisfied",...,"gateways":["192.0.2.1"],"connectivity":{"state":"full"}}
      {...,"connectivity":{"state":"portal","redirect":"http://portal.example/login"}}

    On a terminal: ● online, ○ offline, ✓ yes, ✗ no, ▶ the interface in use, ? not checked
    yet; green means good, red bad, bold in use. No colour with NO_COLOR set or TERM=dumb;
    neither symbols nor colour when the output is not a terminal.

    Exit codes:
      0     success (watch: stopped by a signal, or its reader went away)
      1     wait timed out
      2     usage or system error, or standard output cannot be written (full disk,
            closed): one line on standard error
      130, 143, 131
            show or wait stopped by SIGINT, SIGTERM or SIGQUIT (128 + the signal)
    Every command stops within milliseconds of SIGINT, SIGTERM or SIGQUIT (Ctrl-\\),
    quietly, even while its reader has stopped reading.
    """

  static let watch = """
    netstatus watch — print the current path, then one line per change.

    Usage: netstatus watch [--json] [--netns NAME|PATH] [--textfile PATH] [--probe URL [--expect STATUS|TEXT]]
                           [--networkmanager] [--settle SPAN]
           netstatus watch --all-netns [--json] [--netns-dir DIR]... [--textfile PATH]

      --all-netns         Watch every named namespace (`ip netns list`, and Docker's
                          /run/docker/netns when /run/docker exists), following namespaces
                          as they are added and deleted (Linux). One bind-mounted in two
                          places is watched once. Each line names its namespace:
                          `NAME:` after the time, or "netns":"NAME" after the path's keys in
                          JSON. A deleted namespace ends with one line saying so:
                          `NAME: deleted`, or {"netns":"NAME","deleted":true,"time":"..."}.
                          When none can be entered (no CAP_SYS_ADMIN): one line, exit 2.
                          Not with --netns or --probe.
      --netns-dir DIR     With --all-netns: also the namespaces named in DIR, as a container
                          runtime keeps them (repeatable).
      --textfile PATH     Keep PATH in the Prometheus text format for node_exporter's textfile
                          collector, replaced whole (written aside, then renamed) on every
                          change: netstatus_path_satisfied, _family_supported{family},
                          _dns_supported, _expensive, _constrained, _interface_info{interface,
                          type}, _available_interfaces, netstatus_connectivity_state{state}
                          (with --probe), netstatus_path_changes_total and
                          netstatus_path_last_change_timestamp_seconds; all with netns="NAME"
                          under --netns, each namespace's under --all-netns (one file for
                          all); and netstatus_start_time_seconds{textfile} and
                          netstatus_textfile_timestamp_seconds{textfile}: the file is
                          rewritten at least every 60 s, so a stale one means netstatus died.
      --settle SPAN       Print a change only once it has held for SPAN: a link that drops
                          and comes back sooner (a flapping cable, a Wi-Fi roam) prints
                          nothing. The first path is printed at once; with --probe, the
                          connectivity is held the same way. 0 prints at once.

    With --probe, a line is also printed when the internet connectivity changes. The probe runs
    when the path changes, and again with backoff (1 s, doubling up to 300 s) until it gets the
    expected answer; while connectivity is full it checks again only with --probe-interval.

    Each line starts with the local time. With --json, each line is one JSON object (JSON Lines),
    flushed at once, ending with "time" (RFC 3339, UTC, microseconds) after the path's keys.
    Stops cleanly (exit 0) on SIGINT, SIGTERM or SIGQUIT, even while the
    reader has stopped reading, or when the reader goes away. Exit 2 if a line cannot be
    written (full disk, closed standard output), with one line on standard error.

    \(common)
    """

  static let wait = """
    netstatus wait — wait until the network path is satisfied (or, with -i, until interfaces are up
    in systemd-networkd's terms).

    Usage: netstatus wait [-t SPAN] [-i NAME[:MIN[:MAX]]]... [-o MIN[:MAX]]
                          [--stable SPAN] [--via NAME]... [--any] [--ignore PATTERN]...
                          [--interface-type TYPE]... [-4] [-6] [--dns] [--vpn] [--internet] [-q]
                          [-j] [-n NAME|PATH] [--probe URL [--expect STATUS|TEXT]]
                          [--networkmanager]

      -t, --timeout SPAN      Give up after this long (default 30s; 0 or infinity waits
                              forever). SPAN is a time span as systemd writes them: 500ms,
                              5s, 2min, 1h 30min, 1.5h, infinity; a plain number is seconds;
                              at most 365 days.
      --stable SPAN           Succeed only once everything asked for has held, without a
                              break, for SPAN; --timeout still ends the wait with exit 1.
      -i, --interface NAME[:MIN[:MAX]]
                              As systemd-networkd-wait-online -i, and decided as it decides:
                              wait until networkd has configured the interface (or leaves it
                              unmanaged) and its operational state is at least MIN and at
                              most MAX (default: -o's, else the RequiredForOnline= of its
                              .network file, else degraded: carrier and an address,
                              link-local is enough). Without networkd (not running, or not
                              managing this namespace), the kernel's operational state
                              alone. No default route is needed. Repeat: every one must (or
                              one of them, with --any). A name that does not exist yet is
                              waited for (said once on stderr); MIN missing accepts its
                              absence.
      -o, --operational-state MIN[:MAX]
                              The range for each link given without one. States: missing,
                              off, no-carrier, dormant, degraded-carrier, carrier, degraded,
                              enslaved (a bridge's or bond's port), routable.
      --via NAME              Require the default path to go through this interface: the
                              kernel routes off-link traffic through it, from a usable
                              address. Repeat: every one must (or one of them, with --any).
      --any                   One is enough: of --interface, of --via, or alone (as
                              networkd-wait-online --any) of the links networkd manages.
      --ignore PATTERN        Never count these interfaces (a glob, such as 'veth*';
                              repeatable): the path must go through another one, or alone
                              (as networkd-wait-online --ignore) the links networkd manages.
                              --any, -o and --ignore without a path option (--via,
                              --interface-type, --dns, --vpn, --internet) wait as
                              networkd-wait-online does: every link networkd manages and is
                              required for online configured, one of them online.
      --interface-type TYPE   Require an interface of this type (other, wifi, cellular,
                              wiredEthernet, loopback; or ethernet, wlan, mobile...).
                              Repeat to accept several.
      -4, --ipv4, -6, --ipv6  Require IPv4 or IPv6 connectivity; with networkd's options
                              (-i...), an address of that family on each link instead.
      --dns                   Require a configured DNS resolver.
      --vpn                   Require a path through a VPN or tunnel (tun/tap, WireGuard, IPsec,
                              GRE, IP-in-IP, PPP), whatever carries it, for every address
                              family the path carries; with -4 or -6, for that family.
      --internet              Also require full internet access, as checked by --probe URL
                              or reported by --networkmanager (one is needed: netstatus
                              sends no traffic unless given a URL). With -4 or -6: full
                              internet access over that family (each family is probed on
                              its own); without: over either.
      -q, --quiet             Print nothing on success.

    Waiting uses no CPU: it sleeps until the kernel reports a change.
    Exit codes: 0 online, 1 timed out, 2 usage or system error (or standard output cannot be
    written); 130, 143 or 131 when stopped by SIGINT, SIGTERM or SIGQUIT.

    \(common)
    """

  static let completions = """
    netstatus completions — print the shell completion script.

    Usage: netstatus completions bash|zsh|fish

    Install it where the shell looks, for example:
      netstatus completions bash > /usr/share/bash-completion/completions/netstatus
      netstatus completions zsh > /usr/share/zsh/vendor-completions/_netstatus
      netstatus completions fish > /usr/share/fish/vendor_completions.d/netstatus.fish
    (Scripts/install.sh and the Debian package install all three.)

      -h, --help          Show help.
    """
}
