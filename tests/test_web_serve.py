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


def test_serve_answers_on_a_free_port_of_loopback_and_stops_on_a_signal(tmp_path):
    # its games go to the user's data folder by default: here, a folder of the test's own
    proc = subprocess.Popen([sys.executable, "-m", "kanaloa", "serve", "--port", "0"], stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(tmp_path)})
    try:
        line = proc.stderr.readline()
        found = re.search(r"serving on (http://127\.0\.0\.1:(\d+)/)", line)
        assert found, line
        assert proc.stderr.readline().strip() == f"kanaloa: games are kept in {tmp_path / 'kanaloa' / 'games.sqlite3'}"
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
    assert (tmp_path / "kanaloa" / "games.sqlite3").is_file()


def test_serve_with_the_database_in_memory_says_its_games_end_with_it():
    proc = subprocess.Popen([sys.executable, "-m", "kanaloa", "serve", "--port", "0", "--db", ":memory:"],
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert "serving on" in proc.stderr.readline()
        assert "kept in memory only (--db :memory:)" in proc.stderr.readline()
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
