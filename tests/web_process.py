"""A real ``kanaloa serve`` process for the tests that kill it and load it, and the two runs they make.

``Server`` starts ``python -m kanaloa serve --port 0 --db PATH`` and reads
its address from its start-up line; ``kill()`` sends SIGKILL.  ``kill_run``
follows Play games and tables over HTTP while the server is killed at
random moments, started again on the same database each time, and checks
that every move acknowledged before a kill is there after it;
``load_run`` plays several games at once (bots, a person's moves, hints,
tables told a whole game) and measures every request.  The tests run them
small; run this file for larger runs, e.g.::

    python tests/web_process.py kill --kills 40 --seed 1
    python tests/web_process.py load --games 8 --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from saved_helpers import next_play_step, told_game  # noqa: E402

START_SECONDS = 60  # a server's start, at most


class Server:
    """A ``kanaloa serve`` process on ``db`` (module docstring)."""

    def __init__(self, db: Path, *extra: str) -> None:
        self.db = db
        self.extra = extra
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.output: list[str] = []

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "kanaloa", "serve", "--port", "0", "--db", str(self.db),
                                      "--hint-iterations", "100", *self.extra],
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
        assert self.proc.stderr is not None
        deadline = time.monotonic() + START_SECONDS
        while True:
            line = self.proc.stderr.readline()
            assert line, f"the server ended before it served: {''.join(self.output)}"
            self.output.append(line)
            found = re.search(r"serving on (http://\S+?)/? ", line)
            if found:
                self.url = found.group(1).rstrip("/")
                break
            assert time.monotonic() < deadline, "the server did not start"
        threading.Thread(target=self._drain, daemon=True).start()
        while True:  # the socket listens already; wait until the app answers
            try:
                self.get("/api/boards")
                return self
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.05)

    def _drain(self) -> None:
        proc = self.proc
        assert proc is not None and proc.stderr is not None
        for line in proc.stderr:
            self.output.append(line)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def rss_kib(self) -> int:
        """The server's resident memory now, in KiB (Linux)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def request(self, method: str, path: str, body: dict[str, Any] | None = None,
                timeout: float = 120) -> tuple[int, dict[str, Any]]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"content-type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    def get(self, path: str) -> dict[str, Any]:
        status, body = self.request("GET", path)
        assert status == 200, (status, body)
        return body

    def post(self, path: str, body: dict[str, Any], want: int = 200) -> dict[str, Any]:
        status, answer = self.request("POST", path, body)
        assert status == want, (status, answer)
        return answer


# -- killed at random moments -----------------------------------------------------------------------------------


@dataclass
class KillReport:
    kills: int = 0
    acknowledged: int = 0  # moves answered 200 before some kill
    lost: int = 0  # acknowledged moves missing after a restart (must stay 0)
    in_flight_kept: int = 0  # a move under way at the kill that the database kept (it was committed, unanswered)
    games: int = 0
    finished: int = 0


def told_moves(history: list[dict[str, Any]]) -> list[Any]:
    """The moves of a view's history, each as it stays whatever happens after it: a table's record, and a
    game's seat and words (a game shows its notation as the person writes it down until the game is over,
    and in full after, so a move under way at a kill that ends the game changes the notation of the rest)."""
    return [(h["seat"], h["words"]) if "seat" in h else h["move"] for h in history]


def kill_run(db: Path, kills: int, seed: int) -> KillReport:
    """Follow games while the server is killed ``kills`` times at random moments (module docstring)."""
    rng = random.Random(seed)
    report = KillReport()
    server = Server(db).start()
    followed: list[dict[str, Any]] = []  # each: kind, id, acknowledged moves, and a table's records to tell

    def new_game() -> None:
        if rng.random() < 0.5:
            view = server.post("/api/games", {"seats": ["greedy", "random", "human", "greedy"],
                                              "seed": rng.randrange(1 << 32)}, 201)
            followed.append({"kind": "games", "id": view["id"], "ack": [], "rng": random.Random(rng.random())})
        else:
            hand, told = told_game(rng.randrange(1 << 32), viewer="blue")
            view = server.post("/api/tables", {"viewer": "blue", "hand": hand}, 201)
            followed.append({"kind": "tables", "id": view["id"], "ack": [], "told": told})
        report.games += 1

    new_game()
    try:
        for _ in range(kills):
            game = followed[-1]
            killer = threading.Timer(rng.uniform(0.05, 1.5), server.kill)
            killer.start()
            path = f"/api/{game['kind']}/{game['id']}"
            try:
                view = server.get(path)
                while True:
                    if game["kind"] == "games":
                        step = next_play_step(view, game["rng"])
                        if step is None:
                            break
                        status, view = server.request("POST", f"{path}/{step[0]}", step[1])
                    else:
                        told = game["told"][len(game["ack"]):]
                        if not told:
                            break
                        status, view = server.request("POST", f"{path}/move", {"move": told[0],
                                                                             "version": view["version"]})
                    assert status == 200, (status, view)
                    game["ack"] = told_moves(view["history"])
            except (OSError, urllib.error.URLError):
                pass  # killed in the middle of a request
            killer.join()
            if server.proc is not None and server.proc.poll() is None:
                server.kill()  # the game ended before the kill: kill it now
            report.kills += 1
            server = Server(db).start()
            for each in followed:  # every acknowledged move of every game is there
                history = told_moves(server.get(f"/api/{each['kind']}/{each['id']}")["history"])
                ack = each["ack"]
                kept = history[:len(ack)]
                report.lost += sum(1 for a, b in zip(ack, kept, strict=False) if a != b) + len(ack) - len(kept)
                assert len(history) <= len(ack) + 1, "more moves than were made"
                report.in_flight_kept += len(history) - len(ack)
                each["ack"] = history
            view = server.get(f"/api/{game['kind']}/{game['id']}")
            if view["outcome"]:
                report.finished += 1
                new_game()
        report.acknowledged = sum(len(g["ack"]) for g in followed)
    finally:
        server.stop()
    return report


# -- many games at once -----------------------------------------------------------------------------------------


@dataclass
class LoadReport:
    games: int = 0
    requests: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    slowest: dict[str, float] = field(default_factory=dict)
    rss_kib: list[int] = field(default_factory=list)  # the server's memory after each round
    errors: list[str] = field(default_factory=list)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "requests": self.requests, "statuses": self.statuses,
                "latency_ms": {f"p{p}": round(1000 * self.percentile(p), 1) for p in (50, 90, 99, 100)},
                "slowest_ms": {k: round(1000 * v, 1) for k, v in sorted(self.slowest.items())},
                "rss_mib": [round(r / 1024, 1) for r in self.rss_kib], "errors": self.errors[:5]}


def load_run(db: Path, games: int, rounds: int, seed: int, moves: int = 40, hint: int = 200) -> LoadReport:
    """``rounds`` rounds of ``games`` games played at once over HTTP, each up to ``moves`` moves with a hint of
    ``hint`` iterations now and then (module docstring); the server's memory is read after each round."""
    rng = random.Random(seed)
    report = LoadReport()
    lock = threading.Lock()
    server = Server(db).start()

    def timed(kind: str, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        began = time.perf_counter()
        try:
            status, answer = server.request(method, path, body, timeout=300)
        except OSError as exc:
            status, answer = 0, {"error": f"no answer: {exc}"}
        took = time.perf_counter() - began
        with lock:
            report.requests += 1
            report.statuses[status] = report.statuses.get(status, 0) + 1
            report.latencies.append(took)
            report.slowest[kind] = max(report.slowest.get(kind, 0.0), took)
            if status >= 500 or status == 0:
                report.errors.append(f"{method} {path}: {status} {answer}")
        return status, answer

    def play(number: int, own: random.Random) -> None:
        if number % 2 == 0:
            status, view = timed("new", "POST", "/api/games", {"seats": ["human", "greedy", "ismcts:iterations=200",
                                                                         "random"], "seed": own.randrange(1 << 32)})
            if status != 201:
                return
            path = f"/api/games/{view['id']}"
            for _ in range(moves):
                step = next_play_step(view, own)
                if step is None:
                    break
                if step[0] == "move" and own.random() < 0.2:
                    timed("hint", "POST", f"{path}/hint", {"iterations": hint})
                status, answer = timed(step[0], "POST", f"{path}/{step[0]}", step[1])
                if status != 200:
                    return
                view = answer
        else:
            hand, told = told_game(own.randrange(1 << 32), viewer="red")
            status, view = timed("new", "POST", "/api/tables", {"viewer": "red", "hand": hand})
            if status != 201:
                return
            path = f"/api/tables/{view['id']}"
            for move in told[:moves]:
                if view["to_move"] == "red" and view["moves"] and own.random() < 0.3:
                    timed("hint", "POST", f"{path}/hint", {"iterations": hint})
                status, answer = timed("move", "POST", f"{path}/move", {"move": move, "version": view["version"]})
                if status != 200:
                    return
                view = answer
            timed("saved", "GET", "/api/saved")

    try:
        for _ in range(rounds):
            threads = [threading.Thread(target=play, args=(n, random.Random(rng.random()))) for n in range(games)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            report.games += games
            report.rss_kib.append(server.rss_kib())
    finally:
        server.stop()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="run", required=True)
    kill = sub.add_parser("kill", help="kill the server at random moments of followed games")
    kill.add_argument("--kills", type=int, default=20)
    kill.add_argument("--seed", type=int, default=1)
    load = sub.add_parser("load", help="play several games at once and measure every request")
    load.add_argument("--games", type=int, default=8)
    load.add_argument("--rounds", type=int, default=3)
    load.add_argument("--moves", type=int, default=60)
    load.add_argument("--seed", type=int, default=1)
    load.add_argument("--hint", type=int, default=2000, help="iterations of each hint asked")
    for each in (kill, load):
        each.add_argument("--db", type=Path, default=None, help="database file (a new temporary one by default)")
    args = parser.parse_args()
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="kanaloa-web-"))
    db = args.db or folder / "games.sqlite3"
    began = time.perf_counter()
    if args.run == "kill":
        result: Any = kill_run(db, args.kills, args.seed).__dict__
    else:
        result = load_run(db, args.games, args.rounds, args.seed, args.moves, args.hint).to_json()
    result["seconds"] = round(time.perf_counter() - began, 1)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
