"""The ``kanaloa serve`` command: it serves the app on the address asked, and says in one line when it cannot."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

from cli_helpers import run, user_error


def test_serve_answers_on_a_free_port_of_loopback_and_stops_on_a_signal():
    proc = subprocess.Popen([sys.executable, "-m", "kanaloa", "serve", "--port", "0"], stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = proc.stderr.readline()
        found = re.search(r"serving on (http://127\.0\.0\.1:(\d+)/)", line)
        assert found, line
        url = found.group(1)
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url + "api/boards", timeout=5) as answer:
                    assert "oro" in json.load(answer)["builtin"]
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        with urllib.request.urlopen(url, timeout=5) as page:
            assert b"kanaloa" in page.read()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_port_in_use_is_a_one_line_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        user_error(run("serve", "--port", str(port)), f"--port {port}", "cannot listen there")


def test_a_bad_host_or_port_is_a_one_line_error():
    user_error(run("serve", "--host", "no such host.invalid", "--port", "0"), "--host", "cannot listen there")
    user_error(run("serve", "--port", "70000"), "--port")
    user_error(run("serve", "--hint-iterations", "0"), "--hint-iterations")
