#!/usr/bin/env python3
"""A tiny HTTP server for NetStatus's connectivity-probe tests.

Run it inside a network namespace the test created (`ip netns exec NS python3 probe_http_server.py ...`).
It prints one line per event on standard output, flushed at once, so that a test can await them:
  ready                     listening (printed once, after listen())
  request GET /path         a request arrived (its request line)
  closed                    the client closed the connection (hang mode only)

Modes:
  204       answer 204 No Content (the expected reply)
  redirect  answer 302 Found with Location: --location (a captive portal)
  body      answer 200 OK with the body --body
  hang      read the request and never answer; report when the client closes
  garbage   answer bytes that are not HTTP
"""
import argparse
import socket
import sys
import threading


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
            while conn.recv(4096):
                pass
            say("closed")
    except OSError:
        if args.mode == "hang":
            say("closed")
    finally:
        conn.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--port", type=int, default=80)
    parser.add_argument("--mode", choices=["204", "redirect", "body", "hang", "garbage"], required=True)
    parser.add_argument("--location", default="http://198.51.100.1/login")
    parser.add_argument("--body", default="NetworkManager is online\n")
    args = parser.parse_args()
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
