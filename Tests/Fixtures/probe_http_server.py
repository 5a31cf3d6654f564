#!/usr/bin/env python3
"""A tiny HTTP server for NetStatus's connectivity-probe tests.

Run it inside a network namespace the test created (`ip netns exec NS python3 probe_http_server.py ...`).
It prints one line per event on standard output, flushed at once, so that a test can await them:
  ready                     listening (printed once, after listen())
  request GET /path         a request arrived (its request line)
  closed                    the client closed the connection (hang and flood modes)
  flooded N                 a flood ended after N bytes because its time ran out (flood modes)

It stops by itself: after --lifetime seconds (60 by default) it exits, whatever is going on, and a flood
stops after --flood-seconds (20 by default) even if the client never closes.

Modes:
  204              answer 204 No Content (the expected reply)
  redirect         answer 302 Found with Location: --location (a captive portal)
  body             answer 200 OK with the body --body
  hang             read the request and never answer; report when the client closes
  garbage          answer bytes that are not HTTP
  flood-continue   answer "HTTP/1.1 100 Continue" heads, one after another, without end
  flood-header     answer a status line, then one header line that never ends
  flood-chunked    answer 200 with a chunked body whose chunks (of --chunk-size bytes) never end
  flood-trailer    answer 200 with an empty chunked body, then trailer lines without end
  drip             answer 200 with a chunked body, one one-byte chunk every 20 ms, without end
  flood-trickle    answer a status line, then one header line that never ends, one byte per TCP segment
"""
import argparse
import os
import socket
import sys
import threading
import time


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            return None
        data += chunk
    return data.split(b"\r\n", 1)[0].decode("latin-1")


def flood(conn, args, head, piece):
    """Sends head, then piece again and again until the client closes or --flood-seconds pass."""
    stop = time.monotonic() + args.flood_seconds
    block = piece * max(1, 65536 // len(piece))
    sent = 0
    try:
        conn.sendall(head)
        sent += len(head)
        while time.monotonic() < stop:
            conn.sendall(block)
            sent += len(block)
    except OSError:
        say("closed")
        return
    say("flooded %d" % sent)


def drip(conn, args):
    """Sends a chunked 200 head, then a one-byte chunk every 20 ms until the client closes or --flood-seconds pass."""
    stop = time.monotonic() + args.flood_seconds
    sent = 0
    try:
        conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        while time.monotonic() < stop:
            conn.sendall(b"1\r\nx\r\n")
            sent += 6
            time.sleep(0.02)  # the pace of the drip (this is the server's behaviour, not a synchronisation)
    except OSError:
        say("closed")
        return
    say("flooded %d" % sent)


def trickle(conn, args):
    """Sends a status line, then an endless header line one byte per segment (TCP_NODELAY), as fast as it can."""
    stop = time.monotonic() + args.flood_seconds
    sent = 0
    try:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.sendall(b"HTTP/1.1 200 OK\r\nX-Flood: ")
        while time.monotonic() < stop:
            conn.send(b"a")
            sent += 1
    except OSError:
        say("closed")
        return
    say("flooded %d" % sent)


def answer(conn, args):
    try:
        line = read_request(conn)
        if line is None:
            return
        say("request " + " ".join(line.split(" ")[:2]))
        if args.mode == "204":
            conn.sendall(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        elif args.mode == "redirect":
            body = b"<html>please log in</html>"
            conn.sendall(
                b"HTTP/1.1 302 Found\r\nLocation: " + args.location.encode() + b"\r\nContent-Type: text/html\r\n"
                + b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
        elif args.mode == "body":
            body = args.body.encode()
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + str(len(body)).encode()
                + b"\r\nConnection: close\r\n\r\n" + body)
        elif args.mode == "garbage":
            conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")
        elif args.mode == "hang":
            conn.settimeout(args.lifetime)
            while conn.recv(4096):
                pass
            say("closed")
        elif args.mode == "flood-continue":
            flood(conn, args, b"", b"HTTP/1.1 100 Continue\r\n\r\n")
        elif args.mode == "flood-header":
            flood(conn, args, b"HTTP/1.1 200 OK\r\nX-Flood: ", b"a")
        elif args.mode == "flood-chunked":
            data = b"x" * args.chunk_size
            flood(
                conn, args, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                b"%x\r\n" % len(data) + data + b"\r\n")
        elif args.mode == "flood-trickle":
            trickle(conn, args)
        elif args.mode == "drip":
            drip(conn, args)
        elif args.mode == "flood-trailer":
            flood(conn, args, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n", b"X-Trailer: y\r\n")
    except OSError:
        if args.mode == "hang":
            say("closed")
    finally:
        conn.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--port", type=int, default=80)
    parser.add_argument(
        "--mode", required=True,
        choices=[
            "204", "redirect", "body", "hang", "garbage", "flood-continue", "flood-header", "flood-chunked",
            "flood-trailer", "drip", "flood-trickle"])
    parser.add_argument("--location", default="http://198.51.100.1/login")
    parser.add_argument("--body", default="NetworkManager is online\n")
    parser.add_argument("--chunk-size", type=int, default=1)
    parser.add_argument("--flood-seconds", type=float, default=20)
    parser.add_argument("--lifetime", type=float, default=60)
    args = parser.parse_args()
    # The whole server ends after --lifetime seconds, even with connections still open.
    timer = threading.Timer(args.lifetime, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    family = socket.AF_INET6 if ":" in args.address else socket.AF_INET
    server = socket.socket(family, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((args.address, args.port))
    server.listen(16)
    say("ready")
    while True:
        conn, _ = server.accept()
        threading.Thread(target=answer, args=(conn, args), daemon=True).start()


if __name__ == "__main__":
    main()
