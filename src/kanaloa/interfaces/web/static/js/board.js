// The picture and the panels of a position that every mode shows: the status line, the scores, the board,
// hints and the moves so far.  What they say of the rules (rule ids, the tokens, what a turn may be) comes
// from the view's rule set (`view.rules`, Ruleset.to_json()).

import { api } from "./api.js";
import { $, $$, el } from "./dom.js";
import { body, linkOf, otherPlayer } from "./moves.js";

// The rule id the view's rule set gives an event ("winner", "no bridges", "over_limit"...).
export const ruleOf = (view, event) => view.rules.rules[event];

// How a game ended, in one sentence: the winner and why, or that nobody won.
export function outcomeText(view) {
  const { winner, reason, ranking } = view.outcome;
  if (reason === "no bridges") {
    const rule = ruleOf(view, "no bridges");
    return winner ? `${winner} wins: ${ranking.find((c) => c !== winner)} has no bridge left on the board (${rule})`
      : `No winner: neither player has a bridge left on the board (${rule})`;
  }
  if (!winner) {
    return `No winner: a tie that the final scoring and the bridges on the board do not break (${ruleOf(view, "winner")})`;
  }
  return `${winner} wins on ${reason}`;
}

export function drawStatus(target, view, extra = "") {
  const pos = view.position;
  let text;
  if (view.outcome) text = `Game over: ${outcomeText(view)}`;
  else if (view.waiting) text = `Waiting: ${view.waiting}`;
  else {
    const round = pos.round === 0 ? "setup" : pos.round === "final" ? "final round" : `round ${pos.round}`;
    text = `${round}; ${view.to_move} to move`;
    if (pos.turn && pos.turn.remove_on && pos.turn.remove_on.length) text += ` (removal on ${pos.turn.remove_on.join(", ")})`;
    if (pos.turn && pos.turn.ku_target) text += ` (KU: steal a card from ${pos.turn.ku_target})`;
    if (pos.turn && pos.turn.pele_gifts && pos.turn.pele_gifts.length) text += ` (PELE: give a card back to ${pos.turn.pele_gifts.join(", then ")})`;
    if (pos.turn && pos.turn.lono_draw) text += " (LONO: take a face-up card or draw, the turn goes on)";
    if (pos.turn && pos.turn.over_limit) text += ` (over the hand limit: build or discard, ${ruleOf(view, "over_limit")})`;
    if (view.rules.may_skip_draw && pos.turn) {
      if (pos.round === "final") text += " (a last turn without a draw)";
      else if (pos.turn.discarded) text += " (discarded: discard more or draw)";
      else if (pos.turn.skipped_draw) text += ` (${otherPlayer(pos, view.to_move)} skipped its draw, so this turn must draw)`;
    }
  }
  target.textContent = text + extra;
}

export function drawScores(target, view) {
  target.replaceChildren();
  const held = {};
  for (const owner of Object.values(view.controllers)) if (owner) held[owner] = (held[owner] || 0) + 1;
  const hands = view.position.hands;
  for (const [color, points] of Object.entries(view.scores)) {
    const hand = hands[color];
    const size = hand ? (hand.cards ? hand.cards.length : hand.count) : null;
    const cards = size === null ? "" : `, ${size} card${size === 1 ? "" : "s"}`;
    const left = view.bridges_left ? `, ${view.bridges_left[color]} bridges left` : "";
    const owned = godsOwned(view, color);
    const tokens = owned === null ? "" : `, tokens: ${owned.length ? owned.join(" ") : "none"}`;
    target.append(el("span", { class: "score", "data-color": color, "data-tokens": owned === null ? null : owned.join(" ") },
      el("span", { class: `swatch ${color}` }),
      `${color} ${points} pts, ${held[color] || 0} island${held[color] === 1 ? "" : "s"}${cards}${left}${tokens}`));
  }
}

// The god tokens a player owns in a game with tokens, or null in a game without them (and for a player's
// second color when each plays two: the tokens are the player's, listed with its first color).
function godsOwned(view, color) {
  const gods = view.position.gods;
  if (!gods || !view.rules.tokens.length || !gods.owned || !(color in gods.owned)) return null;
  return gods.owned[color];
}

export function drawBoard(target, view) {
  target.innerHTML = view.svg;
}

export function deckCount(pos) {
  return Array.isArray(pos.deck) ? pos.deck.length : pos.deck.count;
}

export function cardButton(name, attrs, onclick) {
  return el("button", { type: "button", class: "card", ...attrs, onclick }, name);
}

function drawHint(box, hint, boardTarget) {
  box.hidden = false;
  box.replaceChildren();
  const rows = hint.candidates.map((c) => el("tr", {},
    el("td", { text: c.move + (c.proven ? " (wins for certain)" : c.about_equal ? " ~" : "") }),
    el("td", { text: `${(100 * c.win).toFixed(1)}%` }),
    el("td", { text: `${(100 * c.interval[0]).toFixed(0)}-${(100 * c.interval[1]).toFixed(0)}%` }),
    el("td", { text: String(c.visits) })));
  box.append(
    el("p", {}, el("strong", { text: "Hint: " }), el("span", { class: "hint-move", text: hint.move })),
    el("p", { text: `Plan: ${hint.plan.join(", then ")}` }),
    el("table", {}, el("tr", {}, el("th", { text: "move" }), el("th", { text: "win" }), el("th", { text: "95%" }),
      el("th", { text: "visits" })), ...rows),
    el("p", { class: "prompt", text: `${hint.iterations} iterations, ${hint.seconds} s` }));
  for (const g of $$("g.link.hinted", boardTarget)) g.classList.remove("hinted");
  for (const step of hint.plan) {
    const link = linkOf(step) || (/^remove ([A-Z0-9-]+)/.exec(body(step)) || [])[1];
    const g = link && boardTarget.querySelector(`g.link[data-link="${link}"]`);
    if (g) g.classList.add("hinted");
  }
}

// Ask for a hint in mode `mode` ("play" or "table"): the answer's picture, with the plan drawn, replaces the
// board, and the hint box lists the plan and the candidates.
export async function askHint(mode, path, view, show) {
  const button = $(`#${mode}-hint`);
  const prompt = $(`#${mode}-prompt`);
  button.disabled = true;
  prompt.textContent = "Thinking about a hint...";
  try {
    const hint = await api("POST", path, {});
    show({ ...view, svg: hint.svg });
    drawHint($(`#${mode}-hint-box`), hint, $(`#${mode}-board`));
    prompt.textContent = "";
  } catch (err) {
    $(`#${mode}-error`).textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

export function drawHistory(target, items, current = null) {
  target.replaceChildren(...items.map((item, i) =>
    el("li", { class: i === current ? "current" : "" }, `${i + 1}. ` + (item.seat ? `${item.seat}: ${item.move}` : item.move))));
  const shown = current === null ? null : target.children[current];
  target.scrollTop = shown ? shown.offsetTop - target.offsetTop - target.clientHeight / 2 : target.scrollHeight;
}
