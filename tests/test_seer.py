"""The bot ``seer``: the ``ismcts`` search on the true state, an upper bound for measurement only.

- Its every determinisation is the true state, whatever the game (Kanaloa with 2, 3 and 4 players, both
  presets, the gods, Kahuna, Cannonball Colony): the other hands, the deck in its real order, the chance
  stream, so a rollout from it plays the very future the game holds; an ``ismcts`` determinisation of the
  same state differs (the test can fail).
- It is ``ismcts`` with ``ismcts``'s defaults and keys, checked as ``ismcts``'s are; where nothing is hidden or
  drawn (Cannonball Colony) it plays exactly the moves ``ismcts`` plays.
- It beats random bots in every one of a few quick games (fixed seeds: a fact about these games, not an
  estimate).
- Only a measurement seats it: ``parse_bot_spec`` refuses it by default with one line, the web app refuses it
  as a seat and does not offer it, and a chain of checks over the source shows that nothing behind a hint, the
  web app or the viewer can reach the module that hands out the true state; a fresh process that runs hints,
  web games with bots and the viewer never loads it.
"""

from __future__ import annotations

import ast
import io
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kanaloa import load_game
from kanaloa.errors import OptionError
from kanaloa.play.bots import BOTS, MEASUREMENT_BOTS, ISMCTSBot, SeerBot, bot_specs_help, parse_bot_spec
from kanaloa.play.records import read_records, replay
from kanaloa.play.settings import ISMCTS_SETTINGS, POLICY_NAMES
from kanaloa.play.tournament import deal, make_tournament, play_game, play_seated_game
from kanaloa.rules.registry import game_types
from test_layers import MODULES, imports_of

ROOT = Path(__file__).resolve().parent.parent
SEER_MODULE = "kanaloa.play.seer"

# Every rule set the seer must see through: (game, parameters).
RULE_SETS = {
    "kanaloa-4": ("kanaloa", {"players": 4}),
    "kanaloa-4-tabletop": ("kanaloa", {"players": 4, "preset": "tabletop"}),
    "kanaloa-3": ("kanaloa", {"players": 3}),
    "kanaloa-2": ("kanaloa", {"players": 2}),
    "gods-4": ("kanaloa", {"players": 4, "gods": True}),
    "gods-2": ("kanaloa", {"players": 2, "gods": True}),
    "kahuna": ("kahuna", {}),
    "cannonball-3": ("cannonball", {"players": 3}),
}
HIDING = [name for name in RULE_SETS if not name.startswith("cannonball")]


def engine_state(search_state):
    """The engine state behind a game's protocol state (the Kanaloa family's ``core``, Cannonball's ``state``)."""
    return getattr(search_state, "core", None) or search_state.state


def started(spec: str, ruleset, seed: int = 1):
    bot = parse_bot_spec(spec, measurement=True)
    bot.check(ruleset)
    bot.start(ruleset, seed)
    return bot


def midgame(name: str, moves: int = 40, seed: int = 5):
    """A game of ``RULE_SETS[name]`` dealt as a simulation deals it, ``moves`` random moves in: (rule set, its
    full engine state)."""
    game, params = RULE_SETS[name]
    rs = load_game(game, **params)
    state = deal(rs, seed).state
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_over
    return rs, state


# -- what the seer sees ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_determinisation_of_the_seer_is_the_true_state(name):
    rs, state = midgame(name)
    truth = state.to_data()
    me = state.to_move
    world = started("seer", rs).game.wrap(state)
    for seed in (1, 2, 3):
        sample = world.resample(me, seed)
        assert engine_state(sample.inner).to_data() == truth  # hands, deck order, discards, chance stream
        assert engine_state(sample.inner) is not state  # a copy: the search plays on it, not on the game
    # a rollout from the seer's sample plays the game's own future: the same cards, reshuffles and chances as a
    # rollout from the true state with the same seed
    plain = started("ismcts", rs).game
    sample = world.resample(me, 9)
    sample.rollout(77)
    truth_rollout = plain.wrap(state.copy())
    truth_rollout.rollout(77)
    assert engine_state(sample.inner).to_data() == engine_state(truth_rollout).to_data()
    assert state.to_data() == truth  # the game itself is untouched
    if name in HIDING:  # ismcts deals what its seat cannot see anew: its samples are not the truth
        guesses = [engine_state(plain.wrap(state).resample(me, s)).to_data() for s in (1, 2, 3)]
        assert all(g != truth for g in guesses)


def test_the_seer_sees_the_real_deck_after_a_reshuffle():
    """After a reshuffle (R9) the deck is the discards in the order the chance stream shuffled them: the
    seer's sample holds that order, and the cards it will turn up are the ones the game turns up."""
    rs, state = midgame("kanaloa-4", moves=0)
    rng = random.Random(11)
    while not state.to_data().pile:  # the first reshuffle
        state.apply(rng.choice(state.legal_actions()))
    truth = state.to_data()
    sample = started("seer", rs).game.wrap(state).resample(state.to_move, 4)
    assert sample.inner.core.to_data().deck == truth.deck and len(truth.deck) > 1
    ours, real = sample.inner.core, state.copy()
    while not real.is_over:  # the same moves on both: every draw and reshuffle to the end is the same
        move = rng.choice(real.legal_actions())
        ours.apply(move)
        real.apply(move)
        assert ours.to_data() == real.to_data()


@pytest.mark.parametrize("name", HIDING)
def test_the_seer_tells_every_move_of_the_others_apart(name):
    """A face-down discard (R4), a steal or a gift (R14.6, R14.7) of another player is one hidden key to
    ``ismcts``; to the seer it is the move it is, as the player making it sees it."""
    rs, state = midgame(name, moves=0)
    observer = state.to_move
    world = started("seer", rs).game.wrap(state).resample(observer, 1)
    rng = random.Random(3)
    hidden = 0  # the positions where ismcts would see fewer moves than there are
    while not world.is_terminal():
        mover = world.current_player()
        legal = world.legal_actions()
        seen = world.public_actions(observer)
        assert seen == world.inner.public_actions(mover) and sorted(seen) == sorted(legal)
        assert world.priors(observer) == world.inner.priors(mover)
        if mover != observer:
            hidden += len(world.inner.public_actions(observer)) < len(legal)
        move = rng.choice(legal)
        assert world.apply_public(move, observer, rng) == move
    assert hidden > 0


def test_the_seer_plays_exactly_as_ismcts_where_nothing_is_hidden_or_drawn():
    """Cannonball Colony hides nothing and draws nothing after the deal (R20): the seer's game is ismcts's,
    move for move; in Kanaloa the same seat's seer plays another game."""
    for game, params, budget in (("cannonball", {"players": 2}, 20), ("kanaloa", {"players": 4}, 40)):
        rs = load_game(game, **params)
        seeds = list(range(10, 10 + rs.players))
        others = [f"ismcts:iterations={budget}"] * (rs.players - 1)
        seen, _ = play_seated_game(rs, 3, [f"seer:iterations={budget}", *others], seeds)
        plain, _ = play_seated_game(rs, 3, [f"ismcts:iterations={budget}", *others], seeds)
        assert (seen == plain) is (game == "cannonball"), game


# -- how strong it is ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "params", "lineup", "games"), [
    ("kanaloa", {}, ["seer:iterations=50", "random", "random", "random"], 8),
    ("kanaloa", {}, ["seer:iterations=50", "random"], 4),
    ("kanaloa", {"gods": True}, ["seer:iterations=50", "random", "random", "random"], 4),
    ("kahuna", {}, ["seer:iterations=50", "random"], 4),
])
def test_the_seer_wins_every_game_of_a_few_against_random_bots(game, params, lineup, games):
    """Fixed seeds: these games, played again, are won again; every seat rotation is played."""
    t = make_tournament(lineup, games, 1, game=game, **params)
    for g in range(games):
        record = play_game(t, g)
        assert record.won(t.seating(g).index(lineup[0])), f"game {g}"


# -- the bot and its keys ----------------------------------------------------------------------------------


def test_the_seer_has_ismcts_settings_as_its_defaults():
    seer, plain = parse_bot_spec("seer", measurement=True), parse_bot_spec("ismcts")
    assert isinstance(seer, SeerBot) and isinstance(seer, ISMCTSBot)
    fields = ("iterations", "seconds", "c", "margin", "expand", "prior", "reuse", "root_c", "halving", "trees",
              "turn_only", "search_options")
    assert {f: getattr(seer, f) for f in fields} == {f: getattr(plain, f) for f in fields}
    s = ISMCTS_SETTINGS
    assert (seer.c, seer.margin, seer.expand, seer.prior, seer.reuse, seer.root_c) == (
        s.c, s.margin, s.expand_after, s.prior, s.reuse, s.root_c)
    assert seer.search_options == {"policy": POLICY_NAMES[s.policy], "reshuffle": s.reshuffle, "cut": s.cut,
                                   "one_order": s.one_order}
    tuned = parse_bot_spec("seer:time=0.5:c=0.4:root_c=1:cut=40:one_order=1:trees=2:reuse=1", measurement=True)
    assert (tuned.seconds, tuned.iterations, tuned.c, tuned.root_c, tuned.trees, tuned.reuse) == (
        0.5, None, 0.4, 1.0, 2, True)
    assert tuned.search_options["cut"] == 40 and tuned.search_options["one_order"] is True
    assert MEASUREMENT_BOTS["seer"][1] == BOTS["ismcts"][1]  # the same keys


@pytest.mark.parametrize("rest", [":iterations=0", ":bogus=1", ":c=-1", ":time=1:iterations=5", ":margin=2",
                                  ":halving=1:trees=2", ":policy=wild", ":iterations=x", ":time=0",
                                  ":iterations=5:iterations=6", ":reuse", ":trees=0", ":time=nan"])
def test_the_seers_keys_are_checked_as_ismcts_keys_are(rest):
    with pytest.raises(OptionError) as plain:
        parse_bot_spec("ismcts" + rest)
    with pytest.raises(OptionError) as seer:
        parse_bot_spec("seer" + rest, measurement=True)
    assert str(seer.value) == str(plain.value).replace("ismcts", "seer")
    assert "\n" not in str(seer.value)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_a_measurement_seats_the_seer_in_every_rule_set(name):
    game, params = RULE_SETS[name]
    players = params.get("players", 2)
    t = make_tournament(["seer:iterations=5", *["random"] * (players - 1)], players, 2, game=game,
                        **{k: v for k, v in params.items() if k != "players"})
    record = play_game(t, 1)
    assert record.lineup[1] == "seer:iterations=5"
    again = next(read_records(io.BytesIO((record.dumps() + "\n").encode()), "records"))  # a record of it reads
    assert again.lineup == record.lineup
    replay(again)  # and replays (the record's moves, not the bots, are played again)


# -- only for measurement ---------------------------------------------------------------------------------------

REFUSAL = ("sees what its seat cannot (every hand, the order of the deck), so it is for measurement only "
           "(kanaloa simulate, ladder and sprt) and cannot play or advise here")


@pytest.mark.parametrize("spec", ["seer", "seer:iterations=50", " SEER:time=1"])
def test_a_spec_naming_the_seer_is_refused_unless_for_a_measurement(spec):
    with pytest.raises(OptionError) as refused:
        parse_bot_spec(spec)
    assert str(refused.value) == f"bot spec '{spec}': seer {REFUSAL}"
    assert isinstance(parse_bot_spec(spec, measurement=True), SeerBot)
    assert isinstance(parse_bot_spec(spec, playing=False), SeerBot)  # a record's lineup: nothing plays it
    with pytest.raises(OptionError, match="unknown bot 'seers'; expected one of random, greedy"):
        parse_bot_spec("seers")
    assert "seer" not in BOTS


def test_simulate_help_lists_the_seer_as_for_measurement_only():
    from click.testing import CliRunner

    from kanaloa.interfaces.cli import cli

    shown = " ".join(CliRunner().invoke(cli, ["simulate", "--help"]).output.split())
    assert " ".join(bot_specs_help(measurement=True).split()) in shown
    measured = bot_specs_help(measurement=True)
    assert bot_specs_help() in measured and "seer" not in bot_specs_help()
    tail = " ".join(measured[len(bot_specs_help()):].split())
    assert tail.startswith("For measurement only") and "seer ismcts with its defaults, searching the true state" \
        in tail and "keys: seed, iterations, time, c," in tail


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from kanaloa.interfaces.web.app import create_app
    from kanaloa.interfaces.web.games import HintBudget

    with TestClient(create_app(HintBudget(iterations=50)), raise_server_exceptions=False) as c:
        yield c


def test_the_web_app_refuses_the_seer_as_a_seat_and_does_not_offer_it(client):
    for body in ({"seats": ["human", "seer", "random", "random"], "seed": 7},
                 {"seats": ["human", "seer:iterations=10"], "ruleset": "kahuna", "seed": 7},
                 {"seats": ["human", "seer"], "ruleset": "cannonball", "players": 2, "seed": 7}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, r.text
        message = r.json()["error"]
        assert "\n" not in message and message.endswith(f"seer {REFUSAL}") and "bot spec 'seer" in message
    assert "seer" not in client.get("/api/boards").json()["bots"]
    for entry in client.get("/api/games").json()["games"]:
        assert not any(spec.startswith("seer") for spec in entry["web"]["bots"])
    # a simulation's record that seated the seer still starts a game, with other seats
    t = make_tournament(["seer:iterations=5", "random", "random", "random"], 4, 2)
    record = play_game(t, 0).dumps()
    r = client.post("/api/games", json={"record": record, "seats": ["human", "random", "random", "random"]})
    assert r.status_code == 201, r.text
    r = client.post("/api/games", json={"record": record, "seats": ["human", "seer", "random", "random"]})
    assert r.status_code == 400 and r.json()["error"].endswith(REFUSAL)


# The modules behind everything that plays for a person or advises one: hints (each game's hint face), the web
# app, the viewer, tactics and steadiness.
ADVISING = ("kanaloa.play.hint", "kanaloa.play.family_hint", "kanaloa.cannonball.hint", "kanaloa.interfaces.web.app",
            "kanaloa.interfaces.web.games", "kanaloa.interfaces.web.server", "kanaloa.position.viewer",
            "kanaloa.tools.tactics", "kanaloa.tools.steadiness")
# The modules that measure bots against bots, and so may ask for the bots for measurement only.
MEASURING = {"kanaloa.play.tournament"}


def _sources():
    for module, path in MODULES.items():
        yield module, path, path.read_text(encoding="utf-8")


def _enclosing(tree: ast.AST, line: int) -> str:
    """The dotted name of the innermost class or function of ``tree`` around ``line`` ("" at module level)."""
    best = ""

    def visit(node: ast.AST, prefix: str) -> None:
        nonlocal best
        for child in ast.iter_child_nodes(node):
            name = prefix
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                if not child.lineno <= line <= (child.end_lineno or child.lineno):
                    continue
                name = f"{prefix}.{child.name}" if prefix else child.name
                best = name
            visit(child, name)

    visit(tree, "")
    return best


def test_only_the_seers_own_bot_imports_the_seers_sight():
    """The module that hands out the true state is imported once in the package: in ``SeerBot.start``."""
    found = []
    for module, path, source in _sources():
        for imp in imports_of(source, module, path.name == "__init__.py", set(MODULES)):
            if imp.target == SEER_MODULE:
                found.append((module, _enclosing(ast.parse(source), imp.line)))
    assert found == [("kanaloa.play.bots", "SeerBot.start")]


def test_only_a_measurement_asks_for_the_bots_for_measurement_only():
    """``parse_bot_spec(..., measurement=...)`` with anything but ``False``, ``SeerBot`` and
    ``MEASUREMENT_BOTS`` appear in the measuring modules only (and in ``bots`` itself, which defines them)."""
    askers = set()
    for module, _, source in _sources():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == \
                    "parse_bot_spec":
                for kw in node.keywords:
                    if kw.arg == "measurement" and not (isinstance(kw.value, ast.Constant) and kw.value.value is False):
                        askers.add(module)
                if len(node.args) > 2:
                    askers.add(module)  # ``measurement`` given by position
            if isinstance(node, ast.Name | ast.Attribute | ast.alias):
                name = node.id if isinstance(node, ast.Name) else (node.attr if isinstance(node, ast.Attribute)
                                                                   else node.name)
                if name in ("SeerBot", "MEASUREMENT_BOTS", "SeeingGame", "SeerState") and module not in (
                        "kanaloa.play.bots", SEER_MODULE):
                    askers.add(module)
    assert askers == MEASURING


def _import_graph() -> dict[str, set[str]]:
    """Every module's imports of the package, at any depth (the lazy ones too), and the registry's faces as
    imports of the registry (it loads them by name)."""
    graph = {m: {i.target for i in imports_of(src, m, p.name == "__init__.py", set(MODULES)) if i.target in MODULES}
             for m, p, src in _sources()}
    for g in game_types():
        graph["kanaloa.rules.registry"] |= {path.partition(":")[0] for path in g.faces.values()}
    return graph


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for target in graph.get(stack.pop(), ()):
            parts = target.split(".")
            for k in range(2, len(parts) + 1):  # importing a.b.c runs a.b's __init__ too
                name = ".".join(parts[:k])
                if name in graph and name not in seen:
                    seen.add(name)
                    stack.append(name)
    return seen


def test_nothing_that_advises_reaches_a_measurement():
    """With the two tests above: the seer's sight is reached only through a started ``SeerBot``, which only a
    measuring module asks for, and no module behind the hints, the web app or the viewer imports a measuring
    module, directly or through others, lazily or through the registry's faces."""
    graph = _import_graph()
    assert "kanaloa.play.tournament" in _reached(graph, "kanaloa.play.simulate")  # the walk sees imports
    assert "kanaloa.play.bots" in _reached(graph, "kanaloa.interfaces.web.app")  # the web app seats bots
    for start in ADVISING:
        assert start in MODULES, start
        reached = _reached(graph, start)
        assert not reached & MEASURING, f"{start} reaches {sorted(reached & MEASURING)}"


def test_a_process_that_hints_and_plays_the_web_app_never_loads_the_seers_sight(tmp_path):
    """Hints on the command line for Kanaloa, the gods, Kahuna and Cannonball Colony, a web game against every
    bot it offers with a hint, the viewer, tactics and steadiness imported: the seer's module is never loaded.
    Starting a seer loads it (the check can fail)."""
    code = textwrap.dedent(f"""
        import json, sys
        from click.testing import CliRunner
        from starlette.testclient import TestClient
        import kanaloa.position.viewer, kanaloa.tools.tactics, kanaloa.tools.steadiness
        from kanaloa.interfaces.cli import cli
        from kanaloa.interfaces.web.app import create_app
        from kanaloa.interfaces.web.games import HintBudget

        runner = CliRunner()
        for args in (["--seed", "3"], ["--seed", "3", "--gods"], ["--game", "kahuna", "--seed", "3"],
                     ["--game", "cannonball", "--players", "2", "--seed", "3"]):
            dealt = runner.invoke(cli, ["new", *args])
            assert dealt.exit_code == 0, dealt.output
            path = {str(tmp_path)!r} + "/position.json"
            open(path, "w").write(dealt.stdout)
            hinted = runner.invoke(cli, ["hint", path, "--iterations", "30", "--json"])
            assert hinted.exit_code == 0, hinted.output
        with TestClient(create_app(HintBudget(iterations=30))) as client:
            for entry in client.get("/api/games").json()["games"]:
                bots = [b for b in entry["web"]["bots"] if b != "human"]
                players = len(entry["default"]["seats"])
                extra = {{"players": players}} if any(p["name"] == "players" for p in entry["parameters"]) else {{}}
                for first in range(0, len(bots), players - 1):  # every bot the page offers, in some game
                    seats = ["human", *(bots[first:first + players - 1] + ["random"] * players)[:players - 1]]
                    r = client.post("/api/games", json={{"ruleset": entry["name"], "seats": seats, "seed": 1,
                                                        **extra}})
                    assert r.status_code == 201, r.text
                    view = r.json()
                    for _ in range(2 * players):
                        if view["bot_to_move"]:
                            view = client.post(f"/api/games/{{view['id']}}/bot").json()
                        elif view["moves"]:
                            assert client.post(f"/api/games/{{view['id']}}/hint", json={{}}).status_code == 200
                            view = client.post(f"/api/games/{{view['id']}}/move",
                                               json={{"move": view["moves"][0]}}).json()
        print("loaded" if {SEER_MODULE!r} in sys.modules else "clean")
        from kanaloa import load_game
        from kanaloa.play.bots import parse_bot_spec
        parse_bot_spec("seer", measurement=True).start(load_game("kanaloa"), 1)
        print("loaded" if {SEER_MODULE!r} in sys.modules else "clean")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["clean", "loaded"]
