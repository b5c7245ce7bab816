"""The docs hold together: every relative link in README.md and docs/*.md
resolves to a file of the repository (and its anchor to a heading there),
no doc, module or test names a Markdown file the repository does not have,
every rule id the program or the docs mention (R7, R14.2, ...) is defined on
one of the rule pages (docs/rules.md and docs/rules-*.md), docs/commands.md
and docs/records.md list the JSON keys the command prints, the site builds
with MkDocs in strict mode (offline: a broken link or anchor, a page left out
of the navigation or an API entry that cannot be found fails it), and the
README stays a short entry with its links into the site.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import run, user_error

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
# The rule pages: Kanaloa's (R1-R13) and one a rule set (R14 the gods, R15 two players, R16 Kahuna, R20 ...).
RULE_PAGES = [RULES, *sorted((ROOT / "docs").glob("rules-*.md"))]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Where the program prints or cites rule ids: messages, docstrings, comments.
SOURCES = [*sorted((ROOT / "src" / "kanaloa").rglob("*.py")), ROOT / "kanaloa_core.pyx"]

RULE_ID = re.compile(r"\bR(\d+)(?:\.(\d+))?\b")
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.M)
MD_NAME = re.compile(r"[\w./-]*\w\.md\b")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # http:, https:, mailto:, ...


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def without_code(text: str) -> str:
    """``text`` with fenced code blocks and code spans blanked (links in code are not links)."""
    text = FENCE.sub("", text)
    return CODE_SPAN.sub("", text)


def slug(heading: str) -> str:
    """The anchor a Markdown heading gets (the common GitHub scheme)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for _, title in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(title)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(path: Path) -> list[str]:
    text = without_code(path.read_text(encoding="utf-8"))
    return INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text)


def inside_repo(path: Path) -> bool:
    return path.resolve().is_relative_to(ROOT)


@pytest.mark.parametrize("doc", DOCS, ids=rel)
def test_every_relative_link_resolves_to_a_file_and_heading(doc):
    broken = []
    for target in links(doc):
        if not target or EXTERNAL.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = (doc.parent / file_part) if file_part else doc
        if not dest.exists() or not inside_repo(dest):
            broken.append(f"{target}: no such file in the repository")
        elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
            broken.append(f"{target}: no heading with the anchor #{anchor} in {rel(dest)}")
    assert not broken, f"{rel(doc)}: " + "; ".join(broken)


@pytest.mark.parametrize("doc", DOCS, ids=rel)
def test_every_markdown_file_a_doc_names_is_in_the_repository(doc):
    """A name like `RULES.md`, linked or only quoted, must be a file next to the doc or at the top."""
    text = FENCE.sub("", doc.read_text(encoding="utf-8"))
    missing = sorted({
        name for name in MD_NAME.findall(text)
        if not EXTERNAL.match(name)
        and not any((base / name).is_file() and inside_repo(base / name) for base in (doc.parent, ROOT))
    })
    assert not missing, f"{rel(doc)} names files that are not in the repository: {', '.join(missing)}"


CODE = [*SOURCES, ROOT / "kanaloa_core.pyi", *sorted((ROOT / "tests").glob("*.py")),
        *sorted((ROOT / "bench").glob("*.py"))]


@pytest.mark.parametrize("path", [p for p in CODE if p.name != "test_docs.py"], ids=rel)  # this file names some
def test_every_markdown_file_the_code_names_is_in_the_repository(path):
    """Modules and tests cite docs by their path from the top of the repository (docs/engine.md, README.md)."""
    missing = sorted({name for name in MD_NAME.findall(path.read_text(encoding="utf-8"))
                      if not ((ROOT / name).is_file() and inside_repo(ROOT / name))})
    assert not missing, f"{rel(path)} names files that are not in the repository: {', '.join(missing)}"


def test_ci_runs_the_readmes_test_command_verbatim():
    """The Quick start's test command is a line of .ci/run, and it checks with ruff and mypy first."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [block.strip() for block in re.findall(r"^```sh\n(.*?)^```", quick_start, re.M | re.S)]
    test_command = [c for c in commands if "pytest" in c]
    assert len(test_command) == 1, commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command[0] in ci
    assert test_command[0].split(" && ")[1:] == ["ruff check .", "mypy", "python -m pytest"]


def defined_rule_ids() -> tuple[set[str], set[str]]:
    """(ids defined by a heading of a rule page, ids reserved there as '- **R14** ...')."""
    text = "\n".join(FENCE.sub("", page.read_text(encoding="utf-8")) for page in RULE_PAGES)
    headed = {m.group(1) for m in re.finditer(r"^#{2,6}\s+(R\d+(?:\.\d+)?)\b", text, re.M)}
    reserved = {m.group(1) for m in re.finditer(r"^\s*[-*]\s+\*\*(R\d+(?:\.\d+)?)\*\*", text, re.M)}
    return headed, reserved


def mentioned_rule_ids() -> dict[str, list[str]]:
    """Every rule id mentioned in the sources and docs, with where (file:line)."""
    where: dict[str, list[str]] = {}
    for path in SOURCES + DOCS:
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in RULE_ID.finditer(line):
                where.setdefault(m.group(0), []).append(f"{rel(path)}:{lineno}")
    return where


def test_rules_md_defines_r1_to_r13_each_once():
    text = "\n".join(FENCE.sub("", page.read_text(encoding="utf-8")) for page in RULE_PAGES)
    heads = re.findall(r"^#{2,6}\s+(R\d+)\b", text, re.M)
    assert len(heads) == len(set(heads)), f"a rule id has two headings: {heads}"
    numbers = sorted(int(h[1:]) for h in heads)
    assert numbers[:13] == list(range(1, 14))
    assert numbers == list(range(1, len(numbers) + 1)), "rule ids are numbered without gaps"


def test_every_rule_id_mentioned_is_defined_in_rules_md():
    headed, reserved = defined_rule_ids()
    assert not headed & reserved, f"ids both defined and reserved: {sorted(headed & reserved)}"
    undefined = {rid: where for rid, where in mentioned_rule_ids().items() if rid not in headed | reserved}
    assert not undefined, "rule ids not defined on the rule pages: " + "; ".join(
        f"{rid} ({', '.join(where[:3])}{', ...' if len(where) > 3 else ''})" for rid, where in sorted(undefined.items())
    )


def test_the_checks_see_links_anchors_and_ids():
    """The helpers find what they must: a guard against a test that passes by finding nothing."""
    assert slug("R7 Relative majority") == "r7-relative-majority"
    assert slug("Viewer positions and `records`") == "viewer-positions-and-records"
    assert {"r7-relative-majority", "decisions"} <= anchors(RULES)
    assert "rules.md" in links(ROOT / "docs" / "engine.md")
    assert "docs/rules.md" in links(ROOT / "README.md")
    assert without_code("see `[x](nowhere.md)` and [y](rules.md)") == "see  and [y](rules.md)"
    assert {"R4", "R7", "R10", "R13"} <= set(mentioned_rule_ids())


def test_each_rule_set_has_its_rule_page_and_every_rule_page_is_reached_from_rules_md():
    """docs/rules.md grows into pages: each rule set's ids are reserved on its own page, and on no other,
    and rules.md links every page."""
    reserved_on = {page.name: set(re.findall(r"^\s*[-*]\s+\*\*(R\d+(?:\.\d+)?)\*\*",
                                             FENCE.sub("", page.read_text(encoding="utf-8")), re.M))
                   for page in RULE_PAGES}
    for page, rule in [("rules-gods.md", "R14"), ("rules-two-players.md", "R15"), ("rules-kahuna.md", "R16"),
                       ("rules-cannonball.md", "R20")]:
        assert rule in reserved_on[page], page
        assert page in links(RULES), page
    everywhere = [rid for ids in reserved_on.values() for rid in ids]
    assert len(everywhere) == len(set(everywhere)), "a rule id is reserved on two pages"


# -- the site ------------------------------------------------------------------------------------------------

MKDOCS = ROOT / "mkdocs.yml"


def nav_pages() -> list[str]:
    """The pages mkdocs.yml's navigation lists, in order (``- Title: page.md`` lines)."""
    return re.findall(r"^\s*-\s[^:\n]+:\s*(\S+\.md)\s*$", MKDOCS.read_text(encoding="utf-8"), re.M)


def test_the_navigation_lists_every_page_once_and_only_pages_that_exist():
    pages = nav_pages()
    assert len(pages) == len(set(pages)), pages
    assert sorted(pages) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    for page in ("index.md", "getting-started.md", "table.md", "simulations.md", "balance.md",
                 "benchmarks.md", "positions.md", "notation.md", "records.md", "web.md", "openspiel.md",
                 "pettingzoo.md", "api.md", "architecture.md", "strength.md", "rules.md"):
        assert page in pages, page


def test_the_api_page_documents_the_main_entry_points():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    entries = re.findall(r"^::: (\S+)", text, re.M)
    for name in ("kanaloa.rules.registry.load_game", "kanaloa.position.api.Position", "kanaloa.play.hint.hint",
                 "kanaloa.play.analysis", "kanaloa.play.records.GameRecord", "kanaloa.play.simulate.run_tournament",
                 "kanaloa.pettingzoo.batch.GameBatch"):
        assert name in entries, name


def test_the_site_builds_in_strict_mode(tmp_path):
    """mkdocs build --strict, as CI runs it: offline, from the repository's top; any warning fails it, and the
    pages it makes load nothing from elsewhere."""
    pytest.importorskip("mkdocs", reason="the site needs the docs extra (pip install '.[docs]'), which test has")
    pytest.importorskip("mkdocstrings")
    site = tmp_path / "site"
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=ROOT,
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    for page in nav_pages():
        assert (site / page.replace(".md", ".html")).is_file(), page
    remote = re.compile(r'<(?:script|link|img)\b[^>]*\b(?:src|href)="(?:https?:)?//', re.I)
    for page in site.rglob("*.html"):
        assert not remote.search(page.read_text(encoding="utf-8")), f"{page.name} loads something from elsewhere"
    api = (site / "api.html").read_text(encoding="utf-8")
    assert 'id="kanaloa.position.api.Position"' in api and 'id="kanaloa.play.hint.hint"' in api


def test_a_broken_link_fails_the_site(tmp_path):
    """The strict build is no formality: a page linking to a heading that is not there stops it."""
    pytest.importorskip("mkdocs", reason="the site needs the docs extra (pip install '.[docs]'), which test has")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the rules](rules.md#r99-no-such-rule).\n", encoding="utf-8")
    (docs / "rules.md").write_text("# Rules\n\n## R1 The board\n", encoding="utf-8")
    config = MKDOCS.read_text(encoding="utf-8").split("\nplugins:", 1)[0].split("\nnav:", 1)[0]
    config = config.replace("  - docs_hooks.py", f"  - {ROOT / 'docs_hooks.py'}")
    (tmp_path / "mkdocs.yml").write_text(config + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode != 0
    assert "r99-no-such-rule" in done.stdout + done.stderr


def test_the_readme_is_a_short_entry_into_the_site():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 12 * 1024
    headings = re.findall(r"^## (.+)$", readme, re.M)
    for heading in ("Quick start", "Hints", "Simulations", "Seat advantage", "Benchmarks", "Documentation"):
        assert heading in headings, heading
    assert "docs/example-midgame.svg" in links(ROOT / "README.md")
    linked = {target.partition("#")[0] for target in links(ROOT / "README.md")}
    for page in ("docs/getting-started.md", "docs/table.md", "docs/simulations.md", "docs/benchmarks.md",
                 "docs/positions.md", "docs/notation.md", "docs/records.md", "docs/api.md", "docs/architecture.md"):
        assert page in linked, page


def test_github_slugs_and_the_sites_anchors_agree():
    """The site's hook gives headings the anchors the link checks above compute."""
    sys.path.insert(0, str(ROOT))
    try:
        from docs_hooks import github_slug
    finally:
        sys.path.remove(str(ROOT))
    for heading in ("hint --json", "R7 Relative majority", "OpenSpiel's bots in simulate", "A player's summary"):
        assert github_slug(heading) == slug(heading)


# -- docs/commands.md: the JSON the command prints ------------------------------------------------

COMMANDS = ROOT / "docs" / "commands.md"
TABLE_KEY = re.compile(r"^\|\s*`([^`]+)`\s*\|", re.M)


def documented_keys(heading: str, page: str = "docs/commands.md") -> list[str]:
    """The keys of the first table under ``heading`` in ``page`` (a path from the top; docs/commands.md by default)."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = re.search(rf"^#+ {re.escape(heading)}\s*$", text, re.M)
    assert found, f"{page} has no heading {heading!r}"
    section = text[found.end():]
    following = re.search(r"^#", section, re.M)
    section = section[: following.start()] if following else section
    return TABLE_KEY.findall(section)


def test_commands_md_lists_the_keys_of_hint_json():
    example = ROOT / "src" / "kanaloa" / "examples" / "midgame.json"
    result = run("hint", str(example), "--iterations", "200", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == documented_keys("hint --json")
    assert list(doc["candidates"][0]) == documented_keys("A candidate")
    assert list(doc["gains"]) == ["red"]  # red is to move in the example
    gain = doc["gains"]["red"]
    assert list(gain) == documented_keys("Gains of a color")
    assert list(gain["now"]) == list(gain["after"]) == documented_keys("A standing")


def test_commands_md_lists_the_keys_of_simulate_json_and_of_the_records(tmp_path):
    out = tmp_path / "games.jsonl"
    result = run("simulate", "--bots", "random,greedy,random", "--games", "3", "--seed", "1", "--json",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == documented_keys("simulate --json")
    assert list(doc["bots"][0]) == documented_keys("A bot")
    assert list(doc["bots"][0]["by_seat"][0]) == documented_keys("A seat of a bot")
    record = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert list(record) == documented_keys("Game records", "docs/records.md")
    assert documented_keys("moves --json") == []  # a list, no keys


def test_commands_md_lists_the_keys_of_steadiness_json():
    result = run("steadiness", "--positions", "1", "--seeds", "2", "--iterations", "300", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == documented_keys("steadiness --json")
    assert list(doc["positions"][0]) == documented_keys("A position")


def test_commands_md_lists_the_keys_of_board_json():
    result = run("board", "oro", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == documented_keys("board --json")
    assert list(doc["islands"][0]) == documented_keys("An island")


def test_commands_md_lists_the_hooks_of_the_pictures():
    """Every documented attribute is in a picture that has them all: a pending removal, a public card, a hint."""
    from kanaloa.interfaces.svg import position_svg
    from kanaloa.play.hint import Hint
    from kanaloa.position import Position
    from kanaloa.rules.engine import load_engine
    from test_rules_r1_r13 import table

    pos = table(load_engine("core"), to_move="green",
                bridges={"ALOA-BAFI": "blue", "BAFI-COCO": "green", "BAFI-GUMO": "yellow", "BAFI-ORO": "red"},
                hands={"green": ["RASI", "ORO"]})
    pos.play("RASI-BAFI/RASI")  # BAFI is full, green leads it: a removal is pending (R7)
    doc = pos.to_json()
    doc["hands"]["green"]["public"] = ["ORO"]
    plan = ["remove BAFI-ORO", "BAFI-ORO/ORO"]
    picture = position_svg(Position.from_json(doc), hint=Hint(move=plan[0], plan=plan, candidates=[], iterations=0,
                                                              seconds=0.0))
    documented = documented_keys("Hooks in the pictures")
    assert documented
    assert set(re.findall(r' (data-[a-z-]+)="', picture)) == set(documented)


def test_commands_md_lists_the_keys_of_analyse_json(tmp_path):
    from kanaloa import load_game
    from kanaloa.position import deal_position

    start = deal_position(load_game("kahuna"), 3)
    moves = start.move_strings()[:1]
    position = tmp_path / "p.json"
    position.write_text(start.dumps())
    result = run("analyse", str(position), *moves, "--iterations", "50", "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == documented_keys("analyse --json")
    assert list(doc["moves"][0]) == documented_keys("A graded move")
    assert list(doc["summary"][0]) == documented_keys("A player's summary")


# -- examples: what a page shows is what its command prints ----------------------------------------------------

CODE_BLOCK = re.compile(r"^```(sh|console|text)\n(.*?)^```", re.M | re.S)
# what depends on the machine: the time a search or a run took and the rate it made
MACHINE = [(re.compile(r"\b\d+(?:\.\d+)? s\b"), "T s"), (re.compile(r"\b\d+(?:\.\d+)? games/s\b"), "R games/s")]


def steady(text: str) -> list[str]:
    """The lines of ``text`` with the figures that depend on the machine blanked."""
    lines = []
    for line in text.rstrip("\n").splitlines():
        for pattern, blank in MACHINE:
            line = pattern.sub(blank, line)
        lines.append(line.rstrip())
    return lines


def kanaloa(line: str):
    """Run one command line of a page (``kanaloa ARGS [> FILE]``) in the current directory; its result."""
    import shlex

    words = shlex.split(line)
    assert words[0] == "kanaloa", line
    out = None
    if ">" in words:
        at = words.index(">")
        words, out = words[:at], words[at + 1]
    result = run(*words[1:])
    if out is not None:
        assert result.exit_code == 0, (line, result.output)
        Path(out).write_text(result.stdout, encoding="utf-8")
    return result


def check_console(body: str) -> None:
    """Each ``$ kanaloa ...`` line of a console block prints exactly the lines below it (all but the times)."""
    for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
        command, _, shown = chunk.partition("\n")
        result = kanaloa(command)
        if "> " in command:
            assert not shown.strip(), command
            continue
        assert steady(result.output) == steady(shown), command


def test_the_table_walk_through_runs_as_written(tmp_path, monkeypatch):
    """docs/table.md from the deal to the hints and the other rule sets: every command as written, in order, each
    one that writes a file or stands alone succeeding, and each shown output the real one."""
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / "table.md").read_text(encoding="utf-8")
    last = None
    checked = ran = 0
    for lang, body in CODE_BLOCK.findall(text):
        if lang == "sh":
            for line in body.replace("\\\n", " ").splitlines():
                if line.strip():
                    last = kanaloa(line)
                    assert last.exit_code == 0, (line, last.output)
                    ran += 1
        elif lang == "text":  # the end of what the block's last command printed
            assert last is not None
            shown = body.rstrip("\n").splitlines()
            assert steady(last.output)[-len(shown):] == steady(body)
            checked += 1
        else:
            check_console(body)
            checked += 1
    assert checked == 8 and ran == 13
    for name in ("s5.json", "three.json", "two.json", "gods.json", "kahuna.json"):
        assert Path(name).exists(), name
    legal = int(re.search(r"lists red's (\d+) legal moves", text).group(1))
    assert len(run("moves", "s3.json").stdout.splitlines()) == legal
    # the hand of step 1 is red's view of a real deal of those cards
    from kanaloa.position import Position

    hand = re.search(r"^kanaloa new --viewer red --hand (\S+) > table\.json$", text, re.M).group(1).split(",")
    seen = Position.from_json(Path("table.json").read_text(encoding="utf-8"))
    assert seen.to_json()["hands"]["red"]["cards"] == hand and seen.viewer == "red"
    deck = int(re.search(r"the deck as a count\s+\((\d+)\)", text).group(1))
    assert seen.to_json()["deck"] == {"count": deck} and seen.to_json()["round"] == 0
    # the wrong count of tokens the page quotes is the real refusal
    said = re.search(r"\(`(--tokens: [^`]*)`\)", text).group(1).replace("\n", " ")
    laid = re.search(r"--tokens (\S+) > gods\.json", text).group(1).replace("ALOA=KANE", "ALOA=KU")
    assert user_error(run("new", "--gods", "--viewer", "red", "--hand", "BAFI,HILO,ORO,RASI", "--tokens", laid)) == (
        f"error: {said}")


@pytest.mark.parametrize("page", ["README.md", "docs/simulations.md"])
def test_the_simulate_example_is_what_the_command_prints(page):
    blocks = [body for lang, body in CODE_BLOCK.findall((ROOT / page).read_text(encoding="utf-8"))
              if lang == "console" and body.startswith("$ kanaloa simulate")]
    assert len(blocks) == 1, page
    check_console(blocks[0])


@pytest.mark.parametrize("page", ["README.md", "docs/benchmarks.md"])
def test_the_benchmark_example_shows_the_signature_of_the_rules(page):
    """The speeds of a bench run are the machine's; its signature is the rules' and must be today's."""
    from kanaloa.tools import benchmark

    text = (ROOT / page).read_text(encoding="utf-8")
    assert "$ kanaloa bench --quick" in text
    assert f"signature: {benchmark.signature()} moves in 32 seeded games" in text


def test_the_first_game_of_getting_started_runs(tmp_path, monkeypatch):
    """Every command of "A first game" runs as written, in order (the hint with a small budget)."""
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    section = text.split("## A first game", 1)[1]
    body = CODE_BLOCK.search(section).group(2)
    ran = 0
    for line in body.splitlines():
        command = line.partition("#")[0].strip()
        if command.startswith("kanaloa hint"):
            command += " --iterations 200 --workers 1"
        result = kanaloa(command)
        assert result.exit_code == 0, (command, result.output)
        ran += 1
    assert ran == 6 and Path("next.svg").exists()
