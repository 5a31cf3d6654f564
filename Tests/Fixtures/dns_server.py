#!/usr/bin/env python3
"""A tiny DNS server (UDP) for NetStatus's resolver tests.

Run it inside a network namespace the test created (`ip netns exec NS python3 dns_server.py ...`). It prints
one line per event on standard output, flushed at once, so that a test can await them:
  ready                     listening (printed once, after bind())
  query NAME TYPE           a query arrived (TYPE is A, AAAA or a number)

It stops by itself after --lifetime seconds (60 by default).

Modes:
  answer   answer from the --record NAME=ADDRESS entries (A for IPv4, AAAA for IPv6 addresses): the
           addresses of a known name and type; no records (NOERROR) for another type of a known name;
           NXDOMAIN for an unknown name
  silent   read queries and never answer (a name server that is down, or a firewall that drops DNS)
  refuse   answer every query with REFUSED
"""
import argparse
import ipaddress
import socket
import struct
import sys
import time

TYPES = {1: "A", 28: "AAAA"}


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read_question(data):
    """Returns (name, qtype, end of question) or None."""
    labels = []
    offset = 12
    while True:
        if offset >= len(data):
            return None
        length = data[offset]
        offset += 1
        if length == 0:
            break
        if length > 63 or offset + length > len(data):
            return None
        labels.append(data[offset:offset + length].decode("ascii", "replace").lower())
        offset += length
    if offset + 4 > len(data):
        return None
    qtype, _ = struct.unpack("!HH", data[offset:offset + 4])
    return ".".join(labels), qtype, offset + 4


def reply(data, rcode, answers):
    ident, flags = struct.unpack("!HH", data[:4])
    question = read_question(data)
    end = question[2]
    head = struct.pack("!HHHHHH", ident, 0x8000 | (flags & 0x0100) | 0x0400 | 0x0080 | rcode, 1, len(answers), 0, 0)
    body = b""
    for qtype, rdata in answers:
        body += struct.pack("!HHHIH", 0xC00C, qtype, 1, 60, len(rdata)) + rdata
    return head + data[12:end] + body


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--port", type=int, default=53)
    parser.add_argument("--mode", choices=["answer", "silent", "refuse"], default="answer")
    parser.add_argument("--record", action="append", default=[])
    parser.add_argument("--lifetime", type=float, default=60)
    args = parser.parse_args()
    records = {}
    for entry in args.record:
        name, address = entry.split("=", 1)
        parsed = ipaddress.ip_address(address)
        records.setdefault(name.lower().rstrip("."), []).append((28 if parsed.version == 6 else 1, parsed.packed))
    family = socket.AF_INET6 if ":" in args.address else socket.AF_INET
    server = socket.socket(family, socket.SOCK_DGRAM)
    server.bind((args.address, args.port))
    stop = time.monotonic() + args.lifetime
    say("ready")
    while time.monotonic() < stop:
        server.settimeout(max(0.01, stop - time.monotonic()))
        try:
            data, client = server.recvfrom(4096)
        except socket.timeout:
            break
        question = read_question(data) if len(data) >= 12 else None
        if question is None:
            continue
        name, qtype, _ = question
        say("query %s %s" % (name, TYPES.get(qtype, str(qtype))))
        if args.mode == "silent":
            continue
        if args.mode == "refuse":
            server.sendto(reply(data, 5, []), client)
        elif name in records:
            server.sendto(reply(data, 0, [r for r in records[name] if r[0] == qtype]), client)
        else:
            server.sendto(reply(data, 3, []), client)


if __name__ == "__main__":
    main()
