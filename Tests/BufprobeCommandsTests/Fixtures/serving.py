"""The one way the test servers run: on 127.0.0.1 (or --host), port printed as `PORT n`, until the parent
closes stdin.

fault_server.py, hostile_server.py and escape_server.py each define a Handler with a `root` and call
`serve(Handler)`; Python puts a script's own folder on sys.path, so they import this file directly.
"""
import argparse
import http.server
import os
import sys
import threading


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Clients hanging up mid-answer is what these tests do on purpose; no tracebacks on stderr.
        pass


def serve(handler):
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    handler.root = os.path.abspath(args.root)
    run(handler, args.host, args.port)


def run(handler, host="127.0.0.1", port=0):
    """Serves `handler` on host:port (0: a free one), prints `PORT n`, and returns never: the process ends
    when the parent closes stdin (llhls_origin.py, which takes other arguments, calls this directly)."""
    server = QuietServer((host, port), handler)
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # The parent closes our stdin (or exits) to stop us.
    try:
        sys.stdin.read()
    except KeyboardInterrupt:
        pass
    os._exit(0)
