"""What one request may ask of the server's searches (docs/web.md "What a request may ask"): over a cap is a
400 naming the seat or the field and the cap, never a search quietly made smaller."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from kanaloa.interfaces.web.app import create_app
from kanaloa.interfaces.web.games import HintBudget
from kanaloa.interfaces.web.limits import (
    DEFAULT_MAX_ITERATIONS,
    MAX_BOT_SECONDS,
    MAX_DETS,
    MAX_TREES,
    MAX_WIDTH,
    RequestCaps,
    max_iterations_for,
)
from kanaloa.play.tournament import make_tournament, play_game
from kanaloa.position import Position

CAP = 300  # this test server's --max-iterations


@pytest.fixture(scope="module")
def client():
    app = create_app(HintBudget(iterations=50, caps=RequestCaps(iterations=CAP)))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def refused(response, *words: str) -> str:
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert "\n" not in message
    for word in words:
        assert word in message, message
    return message


PLAYERS = ["red", "green", "blue", "yellow"]


def deal(client, *bots: str):
    return client.post("/api/games", json={"seats": ["human", *bots], "seed": 4})


def test_a_hint_may_ask_up_to_the_cap_and_no_more(client):
    game = deal(client, "random", "random", "random").json()
    hint = client.post(f"/api/games/{game['id']}/hint", json={"iterations": CAP})
    assert hint.status_code == 200, hint.text
    assert hint.json()["iterations"] >= CAP
    message = refused(client.post(f"/api/games/{game['id']}/hint", json={"iterations": CAP + 1}))
    assert message == (f"iterations {CAP + 1}: must be a whole number from 1 to {CAP}, this server's cap "
                       f"(kanaloa serve --max-iterations)")
    # a null names the same bound
    refused(client.post(f"/api/games/{game['id']}/hint", json={"iterations": None}),
            f"iterations: must be a whole number from 1 to {CAP}, not null")


def test_a_bot_seat_at_its_caps_is_seated(client):
    for seats in [(f"ismcts:iterations={CAP}", f"hint:iterations={CAP}:trees={MAX_TREES}", "random"),
                  (f"pimc:time={MAX_BOT_SECONDS:g}:dets={MAX_DETS}", f"greedy:width={MAX_WIDTH}", "ismcts:time=0.5")]:
        answer = deal(client, *seats)
        assert answer.status_code == 201, answer.text


@pytest.mark.parametrize("spec, seat, words", [
    (f"ismcts:iterations={CAP + 1}", 1, f"asks {CAP + 1} iterations a move, over this server's cap of {CAP} "
                                        f"(kanaloa serve --max-iterations)"),
    (f"hint:iterations={10 ** 8}", 1, f"asks {10 ** 8} iterations a move, over this server's cap of {CAP}"),
    (f"pimc:iterations={CAP + 1}:dets=2", 1, f"over this server's cap of {CAP}"),
    ("ismcts", 1, f"searches by default 1000 iterations a move, over this server's cap of {CAP}"),
    ("openspiel-mcts:iterations=1000000", 1, None),  # needs the extra openspiel; over the cap either way
    ("ismcts:time=3600", 2, f"time 3600 is over this server's cap of {MAX_BOT_SECONDS:g} seconds a move"),
    (f"pimc:time={MAX_BOT_SECONDS + 0.5:g}", 2, f"time {MAX_BOT_SECONDS + 0.5:g} is over this server's cap"),
    (f"ismcts:iterations=100:trees={MAX_TREES + 1}", 3, f"trees {MAX_TREES + 1} is over this server's cap of "
                                                      f"{MAX_TREES}"),
    (f"pimc:iterations=100:dets={MAX_DETS + 1}", 3, f"dets {MAX_DETS + 1} is over this server's cap of {MAX_DETS}"),
    (f"greedy:width={MAX_WIDTH + 1}", 3, f"width {MAX_WIDTH + 1} is over this server's cap of {MAX_WIDTH}"),
])
def test_a_bot_seat_over_a_cap_is_refused_naming_the_seat_and_the_cap(client, spec, seat, words):
    seats = ["random", "random", "random"]
    seats[seat - 1] = spec
    answer = deal(client, *seats)
    if words is None:  # a bot of the optional extra: refused for its cap, or for the extra when it is missing
        message = refused(answer, f"bot spec '{spec}'")
        assert f"over this server's cap of {CAP}" in message or "needs the optional extra openspiel" in message
        return
    where = f"seat {seat + 1} ({PLAYERS[seat]})"  # counted from 1, the person's seat first
    message = refused(answer, f"{where}: bot spec '{spec}': ", words)
    assert message.startswith(where)


def test_an_uploaded_position_or_record_seats_its_bots_within_the_caps(client):
    position = Position.new(players=4, seed=3).to_json()
    refused(client.post("/api/games", json={"position": position, "seats": ["human", "random", "random",
                                                                            "ismcts:time=60"]}),
            "seat 4 (yellow): bot spec 'ismcts:time=60': time 60 is over this server's cap")
    text = play_game(make_tournament(["random", "random", "random"], 3, 5), 0).dumps() + "\n"
    refused(client.post("/api/games", json={"record": text, "seats": ["human", "random",
                                                                      f"ismcts:iterations={CAP * 10}"]}),
            f"seat 3 (blue): bot spec 'ismcts:iterations={CAP * 10}': asks {CAP * 10} iterations")


def test_the_default_cap_is_the_larger_of_its_default_and_the_hint_budget():
    assert max_iterations_for(4000, None) == DEFAULT_MAX_ITERATIONS
    assert max_iterations_for(DEFAULT_MAX_ITERATIONS * 3, None) == DEFAULT_MAX_ITERATIONS * 3
    assert max_iterations_for(4000, 4000) == 4000
    with pytest.raises(ValueError, match="--max-iterations 3999: below --hint-iterations 4000"):
        max_iterations_for(4000, 3999)


def test_a_server_with_the_default_caps_takes_a_hint_budget_in_its_own_range():
    with TestClient(create_app(HintBudget(iterations=50)), raise_server_exceptions=False) as c:
        game = deal(c, "random", "random", "random").json()
        refused(c.post(f"/api/games/{game['id']}/hint", json={"iterations": DEFAULT_MAX_ITERATIONS + 1}),
                f"from 1 to {DEFAULT_MAX_ITERATIONS}, this server's cap")
        refused(deal(c, "ismcts:time=11", "random", "random"), "seat 2 (green)",
                "time 11 is over this server's cap of 10")
