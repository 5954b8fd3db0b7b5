#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal, sends it SIGINT (Ctrl-C) once its output contains --when (or
after --after seconds, whichever comes first), and reports what a terminal would have shown, for the `bufprobe check` Ctrl-C test. Standard library only.

Prints the exit code on the first line ("EXIT <n>"), then everything the command wrote to the terminal
(escape codes included), unchanged.
"""
import argparse
import os
import pty
import select
import signal
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--after", type=float, required=True)
    parser.add_argument("--when", default=None, help="send SIGINT as soon as the output contains this text")
    parser.add_argument("--limit", type=float, default=10, help="SIGKILL after this many seconds")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(args.command[0], args.command)
    output = b""
    started = time.monotonic()
    interrupted = False
    while True:
        now = time.monotonic() - started
        seen = args.when is not None and args.when.encode() in output
        if not interrupted and (now >= args.after or seen):
            os.kill(pid, signal.SIGINT)
            interrupted = True
        if now >= args.limit:
            os.kill(pid, signal.SIGKILL)
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            output += data
    _, status = os.waitpid(pid, 0)
    sys.stdout.write("EXIT %d\n" % os.waitstatus_to_exitcode(status))
    sys.stdout.flush()
    sys.stdout.buffer.write(output)


if __name__ == "__main__":
    main()
