"""The docs hold together: every relative link in README.md and docs/*.md
resolves to a file of the repository (and its anchor to a heading there),
no doc, module or test names a Markdown file the repository does not have,
every rule id the program or the docs mention (R7, R14.2, ...) is defined in
docs/rules.md, and docs/commands.md lists the JSON keys the command prints.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_helpers import run

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
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
    """(ids defined by a heading of docs/rules.md, ids reserved there as '- **R14** ...')."""
    text = FENCE.sub("", RULES.read_text(encoding="utf-8"))
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
    text = FENCE.sub("", RULES.read_text(encoding="utf-8"))
    heads = re.findall(r"^#{2,6}\s+(R\d+)\b", text, re.M)
    assert len(heads) == len(set(heads)), f"a rule id has two headings: {heads}"
    numbers = sorted(int(h[1:]) for h in heads)
    assert numbers[:13] == list(range(1, 14))
    assert numbers == list(range(1, len(numbers) + 1)), "rule ids are numbered without gaps"


def test_every_rule_id_mentioned_is_defined_in_rules_md():
    headed, reserved = defined_rule_ids()
    assert not headed & reserved, f"ids both defined and reserved: {sorted(headed & reserved)}"
    undefined = {rid: where for rid, where in mentioned_rule_ids().items() if rid not in headed | reserved}
    assert not undefined, "rule ids not defined in docs/rules.md: " + "; ".join(
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


# -- docs/commands.md: the JSON the command prints ------------------------------------------------

COMMANDS = ROOT / "docs" / "commands.md"
TABLE_KEY = re.compile(r"^\|\s*`([^`]+)`\s*\|", re.M)


def documented_keys(heading: str) -> list[str]:
    """The keys of the first table under ``heading`` in docs/commands.md, in order."""
    text = COMMANDS.read_text(encoding="utf-8")
    found = re.search(rf"^#+ {re.escape(heading)}\s*$", text, re.M)
    assert found, f"docs/commands.md has no heading {heading!r}"
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
    assert list(record) == documented_keys("Game records")
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
