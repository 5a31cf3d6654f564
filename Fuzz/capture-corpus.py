#!/usr/bin/env python3
"""Captures real rtnetlink datagrams into Fuzz/corpus/: dump replies and notifications, from a throwaway
network namespace (nsbench-fuzz-PID, deleted on exit). Needs root and iproute2. Each datagram is one file,
named after its content's SHA-1, as libFuzzer names corpus entries.

    sudo Fuzz/capture-corpus.py
"""
import hashlib, os, select, socket, struct, subprocess, sys

NS = f"nsbench-fuzz-{os.getpid()}"
PEER = NS + "p"
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
GROUPS = 0x1 | 0x10 | 0x100 | 0x40 | 0x400  # link, ipv4 addr, ipv6 addr, ipv4 route, ipv6 route


def ip(*args, ns=None):
    subprocess.run(["ip", *(["-n", ns] if ns else []), *args], check=True)


def save(datagram):
    os.makedirs(CORPUS, exist_ok=True)
    with open(os.path.join(CORPUS, hashlib.sha1(datagram).hexdigest()), "wb") as f:
        f.write(datagram)


def drain(sock):
    count = 0
    while True:
        try:
            save(sock.recv(1 << 20, socket.MSG_DONTWAIT))
            count += 1
        except BlockingIOError:
            return count


def dump(sock, kind, family):
    header = struct.pack("=LHHLL", 16 + 16, kind, 0x301, 1, 0)  # NLM_F_REQUEST | NLM_F_DUMP
    sock.send(header + struct.pack("=BxHiII", family, 0, 0, 0, 0))


def main():
    subprocess.run(["ip", "netns", "add", NS], check=True)
    try:
        subprocess.run(["ip", "netns", "add", PEER], check=True)
        subprocess.run(["ip", "netns", "exec", NS, sys.executable, __file__, "--inside", PEER], check=True)
    finally:
        subprocess.run(["ip", "netns", "delete", NS])
        subprocess.run(["ip", "netns", "delete", PEER])


def capture(peer):
    """Runs inside the namespace (ip netns exec): makes changes and saves what netlink says."""
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    sock.bind((0, GROUPS))
    steps = [
        ("link", "set", "lo", "up"),
        ("link", "add", "veth0", "type", "veth", "peer", "name", "veth1", "netns", peer),
        ("link", "set", "veth0", "up"),
        ("addr", "add", "192.0.2.10/24", "dev", "veth0"),
        ("addr", "add", "2001:db8::10/64", "dev", "veth0", "nodad"),
        ("route", "add", "default", "via", "192.0.2.1", "dev", "veth0", "metric", "100"),
        ("route", "add", "198.51.100.0/24", "nexthop", "via", "192.0.2.2", "dev", "veth0",
         "nexthop", "via", "192.0.2.3", "dev", "veth0"),
        ("-6", "route", "add", "default", "via", "2001:db8::1", "dev", "veth0", "metric", "1024"),
        ("route", "add", "unreachable", "203.0.113.0/24"),
        ("route", "add", "default", "via", "192.0.2.254", "dev", "veth0", "table", "51820"),
        ("link", "add", "br0", "type", "bridge"),
        ("link", "set", "veth0", "master", "br0"),
        ("link", "set", "veth0", "nomaster"),
        ("link", "add", "mv0", "link", "veth0", "type", "macvlan", "mode", "bridge"),
        ("link", "set", "mv0", "up"),
        ("route", "replace", "default", "via", "192.0.2.1", "dev", "veth0", "metric", "100"),
        ("route", "del", "default", "via", "192.0.2.1", "dev", "veth0", "metric", "100"),
        ("addr", "del", "2001:db8::10/64", "dev", "veth0"),
        ("link", "set", "veth0", "down"),
        ("link", "del", "mv0"),
    ]
    for step in steps:
        ip(*step)
    ip("link", "set", "veth1", "down", ns=peer)
    notifications = drain(sock)
    replies = 0
    for kind, family in [(18, 0), (22, 0), (26, 2), (26, 10)]:  # RTM_GETLINK, GETADDR, GETROUTE v4/v6
        dump(sock, kind, family)  # one at a time: a socket runs one dump at once
        while select.select([sock], [], [], 0.5)[0]:
            replies += drain(sock)
    print(f"captured {notifications} notification and {replies} dump datagrams into {CORPUS}")


if __name__ == "__main__":
    sys.exit(capture(sys.argv[2]) if sys.argv[1:2] == ["--inside"] else main())
