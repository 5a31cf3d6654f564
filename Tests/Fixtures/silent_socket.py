#!/usr/bin/env python3
"""A socket that accepts connections and never answers: a D-Bus system bus that hangs (netstatus waits for
NetworkManager's first answer up to its start-up budget, then goes on without it).

Run it with a path (`python3 silent_socket.py PATH`); it prints `ready` once listening, keeps every connection open
without reading, and stops by itself after --lifetime seconds (300 by default).
"""
import argparse
import os
import socket
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--lifetime", type=float, default=300)
    arguments = parser.parse_args()
    if os.path.exists(arguments.path):
        os.unlink(arguments.path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(arguments.path)
    listener.listen(128)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    held = []

    def accept():
        while True:
            connection, _ = listener.accept()
            held.append(connection)

    threading.Thread(target=accept, daemon=True).start()
    time.sleep(arguments.lifetime)


if __name__ == "__main__":
    main()
