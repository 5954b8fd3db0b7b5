#!/usr/bin/env python3
"""Slow and idle clients against a running `bufprobe serve`: opens N connections from 127.0.0.2 to
127.0.0.(1 + SOURCES) (loopback addresses standing in for other hosts), half of them sending a request head
one byte every 5 s and half sending nothing, then polls /metrics, /-/healthy and /probe (no target: 400)
from 127.0.0.1 and counts the answers that arrived within 1 s.

    Benchmarks/slow-clients.py PORT [N=500] [SECONDS=30] [SOURCES=10]

Prints one line per endpoint: polls, answered within 1 s, slowest answer; and how many of the N
connections the server had closed at the end.
"""
import socket
import sys
import time

port = int(sys.argv[1])
count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 30
sources = int(sys.argv[4]) if len(sys.argv) > 4 else 10
head = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n\r\n"

conns = []
for i in range(count):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((f"127.0.0.{2 + i % sources}", 0))
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    conns.append(s)
trickling = conns[::2]


def poll(path):
    began = time.monotonic()
    try:
        c = socket.create_connection(("127.0.0.1", port), timeout=1)
        c.settimeout(max(0.001, 1 - (time.monotonic() - began)))
        c.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while True:
            left = 1 - (time.monotonic() - began)
            if left <= 0:
                return None
            c.settimeout(left)
            chunk = c.recv(65536)
            if not chunk:
                break
            data += chunk
        c.close()
        return time.monotonic() - began if data.startswith(b"HTTP/1.1 ") else None
    except OSError:
        return None


results = {"/metrics": [], "/-/healthy": [], "/probe": []}
start = time.monotonic()
sent = 0
next_byte = start
while time.monotonic() - start < seconds:
    now = time.monotonic()
    if now >= next_byte and sent < len(head):
        for s in trickling:
            try:
                s.send(head[sent:sent + 1], socket.MSG_NOSIGNAL)
            except OSError:
                pass
        sent += 1
        next_byte = now + 5
    for path in results:
        results[path].append(poll(path))
    time.sleep(0.5)

closed = 0
for s in conns:
    try:
        s.setblocking(False)
        if s.recv(1) == b"":
            closed += 1
    except BlockingIOError:
        pass
    except OSError:
        closed += 1
    s.close()
for path, times in results.items():
    answered = [t for t in times if t is not None]
    slowest = f"{max(answered) * 1000:.0f} ms" if answered else "-"
    print(f"{path}: {len(answered)} of {len(times)} polls answered within 1 s (slowest {slowest})")
print(f"{count} connections from {sources} addresses ({len(trickling)} sending a byte every 5 s, the rest nothing): {closed} closed by the server after {seconds:.0f} s")
