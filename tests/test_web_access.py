"""``kanaloa serve`` on an address other machines can reach asks every request for its access token
(docs/web.md "At the table, from a phone"); on loopback it asks nothing, as before."""

from __future__ import annotations

import http.client
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time

import pytest
import segno
from starlette.testclient import TestClient

from browser_helpers import wait_for
from cli_helpers import run, user_error
from kanaloa.interfaces.qr import BORDER, qr_lines
from kanaloa.interfaces.web import app as web_app
from kanaloa.interfaces.web.access import MISSING
from kanaloa.interfaces.web.app import create_app
from kanaloa.interfaces.web.games import HintBudget

TOKEN = "a-token-of-this-test_0123456789"


class Server:
    """A ``kanaloa serve`` process; ``first_line`` is its start-up line, ``output()`` all it printed once stopped."""

    def __init__(self, *args: str, token_variable: str | None = None) -> None:
        env = {key: value for key, value in os.environ.items() if key != "KANALOA_SERVE_TOKEN"}
        if token_variable is not None:
            env["KANALOA_SERVE_TOKEN"] = token_variable
        self.proc = subprocess.Popen([sys.executable, "-m", "kanaloa", "serve", "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**env, "PYTHONUNBUFFERED": "1"})
        self.first_line = self.proc.stderr.readline()
        found = re.search(r"serving on http://(\S+?):(\d+)/(\S*)", self.first_line)
        assert found, self.first_line
        self.url = found.group(0).removeprefix("serving on ")
        self.port = int(found.group(2))
        self.query = found.group(3)
        deadline = time.monotonic() + 20
        while True:  # until it answers, whatever it answers
            try:
                self.request("GET", "/api/boards")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)

    def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                body: bytes | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One request to the server on loopback, redirects not followed: (status, headers, body)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            answer = connection.getresponse()
            return answer.status, answer.headers, answer.read()
        finally:
            connection.close()

    def raw(self, data: bytes) -> bytes:
        """What the server answers ``data`` sent as it is."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as conn:
            conn.sendall(data)
            return conn.recv(65536)

    def output(self) -> str:
        """Everything the process printed (standard error from its first line on, then standard output)."""
        self.proc.terminate()
        out, err = self.proc.communicate(timeout=20)
        return self.first_line + err + out

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.communicate(timeout=20)


def refused_401(answer: tuple[int, http.client.HTTPMessage, bytes], *words: str) -> str:
    status, headers, body = answer
    assert status == 401, (status, body)
    assert headers["content-type"] == "application/json"
    message = json.loads(body)["error"]
    assert "\n" not in message
    for word in words:
        assert word in message, message
    return message


@pytest.fixture(scope="module")
def network_server():
    server = Server("--host", "0.0.0.0", "--qr")
    yield server
    server.stop()


def test_a_network_bind_prints_its_address_with_a_new_random_token(network_server):
    assert network_server.query.startswith("?token=")
    token = network_server.query.removeprefix("?token=")
    assert len(token) >= 16 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert "0.0.0.0" not in network_server.url  # an address a phone can use, not the wildcard


def test_without_the_token_every_path_and_method_is_refused_with_one_line(network_server):
    for method, path in [("GET", "/"), ("GET", "/api/games"), ("GET", "/static/style.css"), ("GET", "/no/such"),
                         ("POST", "/api/games")]:
        message = refused_401(network_server.request(method, path, body=b"{}" if method == "POST" else None))
        assert message == MISSING
        assert "?token=" in message and "kanaloa serve printed" in message


def test_the_token_in_the_address_sets_a_cookie_and_takes_itself_out_of_the_address(network_server):
    token = network_server.query.removeprefix("?token=")
    status, headers, body = network_server.request("GET", f"/?token={token}")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert b'<meta http-equiv="refresh" content="0; url=/">' in body and token.encode() not in body
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"kanaloa-token-{network_server.port}={token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert headers["cache-control"] == "no-store"
    # the rest of the query stays
    body = network_server.request("GET", f"/static/style.css?v=2&token={token}")[2]
    assert b'content="0; url=/static/style.css?v=2"' in body
    # then the cookie alone lets the page, its static files and the API through
    kept = {"Cookie": cookie.split(";")[0]}
    status, _, page = network_server.request("GET", "/", kept)
    assert status == 200 and b"kanaloa" in page
    assert network_server.request("GET", "/static/style.css", kept)[0] == 200
    assert network_server.request("GET", "/api/games", kept)[0] == 200


def test_a_script_passes_with_a_bearer_header_and_a_post_with_the_token_in_its_query(network_server):
    token = network_server.query.removeprefix("?token=")
    status, _, body = network_server.request("GET", "/api/boards", {"Authorization": f"Bearer {token}"})
    assert status == 200 and "oro" in json.loads(body)["builtin"]
    seats = json.dumps({"seats": ["human", "random", "random", "random"], "seed": 3}).encode()
    status, _, body = network_server.request("POST", f"/api/games?token={token}", body=seats)
    assert status == 201, body


def test_a_wrong_token_is_refused_wherever_it_is(network_server):
    token = network_server.query.removeprefix("?token=")
    wrong = token[:-1] + ("x" if token[-1] != "x" else "y")
    refused_401(network_server.request("GET", f"/?token={wrong}"), "in the address is not this server's")
    refused_401(network_server.request("GET", "/?token="), "in the address is not this server's")
    refused_401(network_server.request("GET", "/api/games", {"Authorization": f"Bearer {wrong}"}),
                "Authorization header is not this server's")
    refused_401(network_server.request("GET", "/", {"Cookie": f"kanaloa-token-{network_server.port}={wrong}"}),
                "this browser kept is not this server's")
    # a right one elsewhere does not hide a wrong one in the address
    refused_401(network_server.request("GET", f"/?token={wrong}", {"Authorization": f"Bearer {token}"}),
                "in the address")
    # the right token in the address replaces a cookie of an earlier one
    stale = {"Cookie": f"kanaloa-token-{network_server.port}={wrong}"}
    status, headers, _ = network_server.request("GET", f"/?token={token}", stale)
    assert status == 200 and headers["set-cookie"].startswith(f"kanaloa-token-{network_server.port}={token};")
    # another server's cookie (another port) is not this one's
    refused_401(network_server.request("GET", "/", {"Cookie": f"kanaloa-token-1={token}"}), "asks for its access")


def test_the_qr_code_printed_holds_the_address_with_its_token(network_server):
    lines = network_server.output().splitlines()
    drawing = [line for line in lines if line and set(line) <= set("\u2588\u2580\u2584 ")]
    assert drawing, lines
    # the drawing read back into modules (ink is light), two rows a line
    rows = []
    for line in drawing:
        rows.append([ch in " \u2584" for ch in line])  # the upper module is dark: no ink above
        rows.append([ch in " \u2580" for ch in line])
    code = segno.make_qr(network_server.url, error="m")
    size = len(code.matrix)
    read = [row[BORDER:BORDER + size] for row in rows[BORDER:BORDER + size]]
    assert read == [[bool(m) for m in row] for row in code.matrix]
    assert not any(any(row) for row in rows[:BORDER] + rows[BORDER + size:])  # the quiet zone is light


def test_the_token_is_printed_on_the_start_up_lines_alone():
    server = Server("--host", "0.0.0.0", "--token", TOKEN, "--hint-iterations", "10")
    try:
        assert server.query == f"?token={TOKEN}"  # the token asked for, not a new one
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        assert server.request("GET", f"/api/games/{TOKEN}?x={TOKEN}", bearer)[0] == 404
        assert server.request("GET", f"/no/such/{TOKEN}", bearer)[0] == 404
        assert server.request("POST", f"/api/games?token={TOKEN}", body=b'{"seats": [')[0] == 400
        assert server.request("POST", "/api/games", bearer, body=TOKEN.encode())[0] == 400
        assert server.request("GET", f"/?token={TOKEN}x")[0] == 401
        assert server.request("GET", "/", {"Authorization": f"Bearer {TOKEN}x"})[0] == 401
        assert server.request("GET", f"/api/boards?token={TOKEN}")[0] == 200
        # a request the HTTP layer cannot read at all is refused by the server, and its target not logged
        broken = f"GET /?token={TOKEN} HTTP/1.1\r\nno header line\r\n\r\n".encode()
        assert server.raw(broken).startswith(b"HTTP/1.1 400")
    finally:
        output = server.output()
    with_token = [line for line in output.splitlines() if TOKEN in line]
    assert with_token and all(line.startswith("kanaloa: serving on http://") for line in with_token), output
    assert len(with_token) == len([line for line in output.splitlines() if "serving on" in line])


def test_the_error_log_of_the_app_names_the_path_never_the_query(monkeypatch, caplog):
    def broken(board):
        raise RuntimeError("a fault of the program")

    monkeypatch.setattr(web_app, "board_to_dict", broken)
    app = create_app(HintBudget(iterations=10), token=TOKEN)
    with TestClient(app, raise_server_exceptions=False) as client, caplog.at_level(logging.ERROR, logger="kanaloa.web"):
        answer = client.get(f"/api/boards/oro?secret={TOKEN}", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 500
    assert "/api/boards/oro" in caplog.text and TOKEN not in caplog.text


def test_loopback_asks_for_no_token_and_the_server_holds_requests_to_its_iteration_cap():
    server = Server("--hint-iterations", "10", "--max-iterations", "4321")
    try:
        assert server.query == "" and "token" not in server.first_line
        status, _, body = server.request("GET", "/api/games")
        assert status == 200 and json.loads(body)
        assert server.request("GET", "/")[0] == 200
        seats = json.dumps({"seats": ["human", "random", "random", "random"], "seed": 3}).encode()
        status, _, body = server.request("POST", "/api/games", body=seats)
        assert status == 201, body
        status, _, body = server.request("POST", f"/api/games/{json.loads(body)['id']}/hint",
                                         body=b'{"iterations": 4322}')
        assert status == 400 and "from 1 to 4321, this server's cap" in json.loads(body)["error"]
    finally:
        output = server.output()
    assert "token" not in output.lower().replace("--token", "")


def test_a_token_given_on_loopback_is_asked_for_there_too():
    server = Server(token_variable=TOKEN)  # given in the environment, out of the process list
    try:
        assert server.query == f"?token={TOKEN}"
        refused_401(server.request("GET", "/api/games"))
        assert server.request("GET", "/api/games", {"Authorization": f"Bearer {TOKEN}"})[0] == 200
    finally:
        server.stop()


def test_the_drawing_in_colour_is_the_same_code_set_white_on_black():
    plain = qr_lines("http://192.0.2.7:8765/?token=" + TOKEN)
    coloured = qr_lines("http://192.0.2.7:8765/?token=" + TOKEN, color=True)
    assert [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in coloured] == plain
    assert all(line.startswith("\x1b[97;40m") and line.endswith("\x1b[0m") for line in coloured)


@pytest.mark.parametrize("token, words", [
    ("short", ("--token: must be at least 16 characters long, not 5",)),
    ("sixteen chars ok!", ("--token: must hold only letters, digits, '-' and '_'",)),
])
def test_a_token_that_cannot_be_is_a_one_line_error_that_does_not_repeat_it(token, words):
    line = user_error(run("serve", "--host", "0.0.0.0", "--port", "0", "--token", token), *words)
    assert token not in line


def test_the_iteration_cap_is_never_below_the_hint_budget():
    user_error(run("serve", "--port", "0", "--hint-iterations", "5000", "--max-iterations", "4999"),
               "--max-iterations 4999: below --hint-iterations 5000")
    user_error(run("serve", "--port", "0", "--max-iterations", "0"), "--max-iterations")


def test_a_websocket_without_the_token_is_closed_before_it_opens():
    from starlette.websockets import WebSocketDisconnect

    with TestClient(create_app(HintBudget(iterations=10), token=TOKEN)) as client:
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/"):
            pass
        assert closed.value.code == 1008


def test_a_phone_that_follows_the_address_from_another_sites_page_gets_in_and_keeps_its_way_in():
    """A link to the address in a message or a scanner's page is a visit another site starts, on whose redirect
    a browser would not send the SameSite=Strict cookie: the page the token is answered with goes on itself."""
    from selenium.webdriver.common.by import By

    from browser_helpers import chromium, missing

    if missing() and not os.environ.get("CI"):
        pytest.skip(missing())
    server = Server("--token", TOKEN)
    driver = chromium()
    try:
        origin = f"http://127.0.0.1:{server.port}"
        driver.get(f'data:text/html,<a id="go" href="{origin}/?token={TOKEN}">the table</a>')
        driver.find_element(By.ID, "go").click()

        def the_app(d):
            return d.current_url == f"{origin}/" and "Play" in d.find_element(By.TAG_NAME, "body").text

        wait_for(driver, the_app)
        driver.back()  # the address with the token is no longer in the tab's history
        wait_for(driver, lambda d: d.current_url.startswith("data:"))
        driver.get(f"{origin}/")  # a later visit, the address alone: the cookie lets it in
        wait_for(driver, the_app)
    finally:
        driver.quit()
        server.stop()
