#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport

  /// The real systemd-networkd, started in a test's network namespace with mounts of its own: a tmpfs on
  /// /run/systemd (so that nothing of the host's /run is touched), the test's folder bind-mounted as
  /// /run/systemd/netif, only the test's `.network` and `.netdev` files (tmpfs over the system's folders), no system
  /// bus (a tmpfs over /run/dbus, and an environment without DBUS_SYSTEM_BUS_ADDRESS: it must not take networkd's bus
  /// name on the host's bus), and /sys read-only so that networkd does not wait for udev (it treats a read-only /sys
  /// as a container's, without udev).
  enum RealNetworkd {
    static let binary = "/lib/systemd/systemd-networkd"

    /// Starts networkd in `namespace` with the files of `config`, writing its state to `netif` (owned by
    /// systemd-network, the user networkd drops its privileges to). `ip netns exec`, `unshare` and `sh` all exec: the
    /// child's PID is networkd's, and killing it ends networkd.
    static func start(ip: String, namespace: String, netif: String, config: String) throws -> ChildProcess {
      let script = """
        set -e
        mount -t tmpfs -o mode=0755 tmpfs /run/systemd
        mkdir /run/systemd/network /run/systemd/netif
        for file in "$2"/*; do if [ -e "$file" ]; then cp "$file" /run/systemd/network/; fi; done
        for folder in /etc/systemd/network /usr/lib/systemd/network /lib/systemd/network /run/dbus; do
          if [ -d "$folder" ]; then mount -t tmpfs -o mode=0755 tmpfs "$folder"; fi
        done
        mount --bind "$1" /run/systemd/netif
        mount -o bind,remount,ro /sys
        exec "$3"
        """
      return try ChildProcess(
        executable: ip,
        [
          "netns", "exec", namespace, "unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh",
          netif, config, binary,
        ], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
    }
  }
#endif
