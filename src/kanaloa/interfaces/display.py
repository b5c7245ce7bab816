"""A terminal picture of a position: the islands, the bridges, the cards and the turn, as tables.

The board itself, with its links, is drawn by ``kanaloa svg``
(``kanaloa.interfaces.svg``); a terminal has no room for a readable one.

It draws a ``Position``: the cards from its public JSON form
(``Position.to_json()``), so it shows exactly what the position knows (a
viewer position shows the viewer's own hand and only the public part of the
others), and bridges per island, control (R2) and each player's pair (R15.5)
as the position answers them (``Position.counts_on``, ``controller_of``,
``pairs``).  What differs from one rule set to another it asks the
position's rule set (``Position.ruleset``): its title, whether it has a
pass, the rules it cites, the bridges each color has.

With two players (R15) each player has two colors: the island table and the
bridges have a column or a line per color, the hands one line per player,
and the scores show each color's points and each player's pair (R15.5).

Where the bridges are counted (the tabletop preset's 20 a color, R13;
Kahuna's 25, R16.1) each color's line says how many are left in stock.  A
game of Kahuna (R16) shows its 3 face-up cards, round 3 and whether the
player to move's opponent skipped its last draw (R16.5).

A game of Might of the Gods (R14) shows the token on each island (a column
of the island table), the tokens each player owns, what a token use has
left pending in the turn, and what each player knows of a hand beyond its
public part (R14.10): every observer's in a full position, the viewer's in
a viewer position."""

from __future__ import annotations

from typing import TypedDict

from ..position import Position
from ..rules.ruleset import Ruleset

ANSI = {"red": "31", "green": "32", "blue": "34", "yellow": "33", "white": "1;37", "black": "90"}


def _paint(text: str, color: str | None, use_color: bool) -> str:
    if not use_color or color not in ANSI:
        return text
    return f"\x1b[{ANSI[color]}m{text}\x1b[0m"


class IslandRow(TypedDict):
    """One line of the island table."""

    island: str
    size: int
    counts: dict[str, int]  # bridges per color
    free: int  # links without a bridge
    controller: str | None  # the color with an absolute majority (R2)


def island_table(pos: Position) -> list[IslandRow]:
    """Per island: its size, bridges per color, free links and controller (R2), as ``pos`` answers them."""
    rows: list[IslandRow] = []
    board = pos.board
    for i, name in enumerate(board.islands):
        size = board.size(i)
        counts = pos.counts_on(name)
        rows.append({"island": name, "size": size, "counts": counts, "free": size - sum(counts.values()),
                     "controller": pos.controller_of(name)})
    return rows


def stock_note(rules: Ruleset, built: int) -> str:
    """What a color with ``built`` bridges on the board has left in stock, where the bridges are counted:
    `` (17 of 20 left in stock, R13)``; empty where they are unlimited (the yucata preset, R13)."""
    bridges = rules.bridges_per_color
    if bridges is None:
        return ""
    return f" ({bridges - built} of {bridges} left in stock, {rules.rule_of('stock')})"


def rule_of_reason(rules: Ruleset, reason: str | None) -> str:
    """The rule that ends a game for ``reason`` and decides who wins."""
    return rules.rule_of(reason) if reason in rules.reasons else rules.rule_of("winner")


def _title(pos: Position, rules: Ruleset) -> str:
    """``Kanaloa on oro (tabletop, Might of the Gods)``, ``Kahuna on kahuna``: the game and its rule options."""
    title = f"{rules.title} on {pos.board.name}"
    if rules.rules_document() is not None:
        title += f" ({rules.preset}" + (", Might of the Gods" if rules.gods else "") + ")"
    return title


def _pending_tokens(turn: dict) -> str:
    """What a god token's use has left pending in the turn (R14.6-R14.9), as the status line says it."""
    parts = []
    if turn.get("ku_target"):
        parts.append(f"KU showed {turn['ku_target']}'s hand: a card of it is to be taken, 'steal CARD' (R14.6)")
    if turn.get("pele_gifts"):
        parts.append(f"PELE's gifts are owed to {', '.join(turn['pele_gifts'])}, in that order: 'give "
                     f"{turn['pele_gifts'][0]} CARD' (R14.7)")
    if turn.get("lono_draw"):
        parts.append("LONO's extra card is to be taken: 'take CARD' or 'draw' (R14.8)")
    if turn.get("over_limit"):
        parts.append("a token left the hand above 4: it may be discarded down to 4 (R14.9)")
    return "".join(f"; {p}" for p in parts)


def render_position(pos: Position, use_color: bool = False) -> str:
    """The whole picture of ``pos`` as one string (no trailing newline)."""
    doc = pos.to_json()
    rules = pos.ruleset
    colors = list(pos.colors)  # by color index
    players = list(pos.players)
    two = pos.pairs is not None
    columns = [c for p in players for c in pos.colors_of(p)]  # player by player, first color first
    rnd = doc["round"]
    out: list[str] = []
    viewer = doc.get("viewer")
    gods = doc.get("gods")
    out.append(_title(pos, rules) + (f", seen by {viewer}" if viewer else ", full position"))
    if two:
        out.append("Two players (R15): " + "; ".join(
            f"{_paint(p, p, use_color)} plays {' and '.join(_paint(c, c, use_color) for c in pos.colors_of(p))}"
            for p in players))
    turn = doc.get("turn", {})
    if rnd == "over":
        result = doc.get("result", {})
        winner = result.get("winner")
        reason = result.get("reason")
        if not winner:  # R16.7: only a game that may end without a winner does
            wins = f"nobody wins ({reason}, {rule_of_reason(rules, reason)})"
        elif reason == "no bridges":
            wins = f"{winner} wins: the other player has no bridge left on the board ({rule_of_reason(rules, reason)})"
        elif rules.may_end_without_winner:  # the tie-breaks matter to who won: say them
            wins = f"{winner} wins after the final scoring ({rules.how_the_winner_is_decided()})"
        else:
            wins = f"{winner} wins on {reason}"
        out.append(f"Game over: {wins}; ranking {', '.join(result.get('ranking', []))}")
    elif pos.waiting is not None:
        when = (f"at the end of the setup ({rules.rule_of('deal')})" if rnd == 0 else
                f"after the reshuffle ({rules.rule_of('reshuffle')})")
        out.append(f"Waiting: the cards turned face-up {when} are not recorded yet; play 'faceup CARD ...'")
    else:
        label = {0: "setup", 1: "round 1", 2: "round 2", 3: "round 3", "final": "final round"}[rnd]
        status = f"{doc['to_move']} to move, {label}"
        if rnd in (1, 2, 3, "final"):
            status += f"; cards played this turn: {turn.get('played', 0)}"
            if turn.get("color"):
                status += f"; building with {turn['color']} (R15.3)"
            if turn.get("discarded"):
                status += "; discarded (draw phase)"
            if turn.get("remove_on"):
                status += f"; must remove a bridge on {', '.join(turn['remove_on'])} (R7)"
            if turn.get("skipped_draw"):
                other = next(p for p in players if p != doc["to_move"])
                status += f"; {other} skipped its last draw, so {doc['to_move']} may not skip this one (R16.5)"
            status += _pending_tokens(turn)
        out.append(status)
    if rnd == "final":
        fr = doc.get("final_round", {})
        line = f"Final turns taken: {', '.join(fr.get('done', [])) or 'none'}"
        if rules.has_pass:
            line += f"; passed: {', '.join(fr.get('passed', [])) or 'none'}"
        out.append(line)
    if rnd == 0 and "setup" in doc:
        chosen = doc["setup"].get("chosen", [])
        known = doc["setup"].get("cards", {})
        named = [f"{c} ({known[c]})" if c in known else c for c in chosen]
        out.append(f"Setup: chosen so far: {', '.join(named) or 'none'}")
    rows = island_table(pos)
    tokens = gods.get("on_islands", {}) if gods else {}
    out.append("")
    head = f"  {'island':<8}{'links':>5}  " + "".join(f"{c:>7}" for c in columns) + f"{'free':>6}  controller"
    out.append(head + ("  god (R14)" if gods else ""))
    for row in rows:
        counts = "".join(f"{(row['counts'][c] or '.'):>7}" for c in columns)
        ctrl = _paint(row["controller"], row["controller"], use_color) if row["controller"] else "-"
        line = f"  {row['island']:<8}{row['size']:>5}  {counts}{row['free']:>6}  {ctrl}"
        if gods:
            line += " " * (12 - len(row["controller"] or "-")) + tokens.get(row["island"], "-")
        out.append(line)
    if gods:
        out.append("")
        out.append("God tokens owned (R14.2; used in round 2, R14.4)")
        for p in players:
            owned = gods.get("owned", {}).get(p, [])
            out.append(f"  {_paint(f'{p:<7}', p, use_color)} {' '.join(owned) or '-'}")
    out.append("")
    out.append("Bridges")
    by_color: dict[str, list[str]] = {c: [] for c in colors}
    for name, color in doc.get("bridges", {}).items():
        by_color[color].append(name)
    for c in columns:
        stock = stock_note(rules, len(by_color[c]))
        out.append(f"  {_paint(f'{c:<7}', c, use_color)} {len(by_color[c]):>2}{stock}  {' '.join(by_color[c]) or '-'}")
    out.append("")
    out.append("Hands")
    for c in players:
        hand = doc["hands"][c]
        known = hand.get("known", {})  # R14.10: what an observer knows beyond the public part
        public = hand.get("public", [])
        if "cards" in hand:
            text = " ".join(hand["cards"]) or "(empty)"
            n = len(hand["cards"])
            if public:
                text += f"   (known to all: {' '.join(public)})"
            if known:
                text += "   (" + "; ".join(f"{o} knows {' '.join(cards) or 'none'}" for o, cards in known.items()) + ")"
        else:
            n = hand["count"]
            base = known.get(viewer, public)
            unseen = n - len(base)
            shown = base + ([f"+ {unseen} unseen"] if base and unseen else [f"{unseen} unseen"] if unseen else [])
            text = " ".join(shown) or "(empty)"
            if viewer in known and public:
                text += f"   (known to all: {' '.join(public)})"
        out.append(f"  {_paint(f'{c:<7}', c, use_color)} [{n}] {text}")
    deck = doc.get("deck", {})
    deck_n = len(deck) if isinstance(deck, list) else deck.get("count", 0)
    discard = doc.get("discard", {})
    out.append("")
    out.append(f"Face up   {' '.join(doc.get('face_up', [])) or '-'}")
    own = [f"{c}'s: {' '.join(cards)}" for c, cards in discard.get("hidden_by", {}).items() if cards]
    out.append(
        f"Deck      {deck_n} cards; discard pile {len(discard.get('open', []))} open"
        f" + {discard.get('hidden', 0)} face-down" + (f" ({'; '.join(own)})" if own else "")
    )
    scores = doc.get("scores", {})
    out.append("Scores    " + "  ".join(f"{c} {scores.get(c, 0)}" for c in columns))
    if pos.pairs is not None:
        shown = [f"{p} ({low}, {high})" for p, (low, high) in pos.pairs.items()]
        out.append("Pairs     " + "  ".join(shown) + "   (R15.5: the weaker color's points first; the greater "
                   "pair wins)")
    return "\n".join(out)
