// The card games' part of the page (the Kanaloa family's module, its web face's `module`; docs/web.md "A game's
// module"): a build is a link clicked on the board, then the cards of the hand that pay for it; the face-up row,
// the deck and the hand are buttons; the god tokens are buttons of their own.  Its status line, scores and
// summary read the view's rule set (`view.rules`, Ruleset.to_json()) for every rule id they cite.  The Table
// mode (table.js), a mode of games with hidden hands, draws its cards with the helpers exported here too.

import { $$, el } from "./dom.js";
import { body, builder, linkOf, otherPlayer, paymentsOn, sameCards, within } from "./moves.js";

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

export function status(view) {
  const pos = view.position;
  if (view.outcome) return `Game over: ${outcomeText(view)}`;
  if (view.waiting) return `Waiting: ${view.waiting}`;
  const round = pos.round === 0 ? "setup" : pos.round === "final" ? "final round" : `round ${pos.round}`;
  let text = `${round}; ${view.to_move} to move`;
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
  return text;
}

export function scores(view) {
  const held = {};
  for (const owner of Object.values(view.controllers)) if (owner) held[owner] = (held[owner] || 0) + 1;
  const hands = view.position.hands;
  return Object.entries(view.scores).map(([color, points]) => {
    const hand = hands[color];
    const size = hand ? (hand.cards ? hand.cards.length : hand.count) : null;
    const cards = size === null ? "" : `, ${size} card${size === 1 ? "" : "s"}`;
    const left = view.bridges_left ? `, ${view.bridges_left[color]} bridges left` : "";
    const owned = godsOwned(view, color);
    const tokens = owned === null ? "" : `, tokens: ${owned.length ? owned.join(" ") : "none"}`;
    return el("span", { class: "score", "data-color": color, "data-tokens": owned === null ? null : owned.join(" ") },
      el("span", { class: `swatch ${color}` }),
      `${color} ${points} pts, ${held[color] || 0} island${held[color] === 1 ? "" : "s"}${cards}${left}${tokens}`);
  });
}

// The game-over summary: who won and why, then the ranking with the points.
export function summary(view) {
  return { title: outcomeText(view),
    lines: view.outcome.ranking.map((c) => ({ player: c, text: `${c}: ${view.scores[c]} points` })) };
}

// The god tokens a player owns in a game with tokens, or null in a game without them (and for a player's
// second color when each plays two: the tokens are the player's, listed with its first color).
function godsOwned(view, color) {
  const gods = view.position.gods;
  if (!gods || !view.rules.tokens.length || !gods.owned || !(color in gods.owned)) return null;
  return gods.owned[color];
}

export function deckCount(pos) {
  return Array.isArray(pos.deck) ? pos.deck.length : pos.deck.count;
}

export function cardButton(name, attrs, onclick) {
  return el("button", { type: "button", class: "card", ...attrs, onclick }, name);
}

// A hint's plan on the links of the picture.
export function markHint(hint, board) {
  for (const g of $$("g.link.hinted", board)) g.classList.remove("hinted");
  for (const step of hint.plan) {
    const link = linkOf(step) || (/^remove ([A-Z0-9-]+)/.exec(body(step)) || [])[1];
    const g = link && board.querySelector(`g.link[data-link="${link}"]`);
    if (g) g.classList.add("hinted");
  }
}

// A move of an analysis on the picture of the position before it (docs/web.md "Analysis"): the link it builds on
// or removes from, the face-up card it takes, the deck it draws from, or the card of the mover's hand it discards
// or reveals, marked "played" (the engine's plan is drawn by the server, dashed and numbered).
export function markPlayed(move, board, view) {
  const text = body(move);
  const mark = (selector) => {
    const g = board.querySelector(selector);
    if (g) g.classList.add("played");
  };
  const link = linkOf(move);
  if (link) mark(`g.link[data-link="${link}"]`);
  const take = /^take ([A-Z0-9]+)/.exec(text);
  if (take) mark(`g.face-up[data-card="${take[1]}"]`);
  if (/^draw\b/.test(text)) mark("g.deck");
  const own = /^(?:discard|reveal) ([A-Z0-9]+)$/.exec(text);
  if (own) mark(`g.hand[data-player="${view.to_move}"] [data-hand-card="${own[1]}"]`);
}

// -- Play: a move made by clicking ----------------------------------------------------------------------------

// The move being put together: the link chosen for a build, the cards chosen to pay for it, a discard begun.
const choice = { link: null, cards: [], discarding: false };
let shown = null; // { view, ui } of the last showPlay

export function reset() {
  choice.link = null;
  choice.cards = [];
  choice.discarding = false;
}

// The panel of the cards: the face-up row, the deck and the hand of the person whose eyes the page sees through.
function cardsPanel(ui) {
  if (ui.panel.querySelector("#play-faceup")) return;
  ui.panel.replaceChildren(el("div", { class: "cards-area" },
    el("h3", { text: "Face-up" }), el("div", { class: "row", id: "play-faceup" }),
    el("button", { type: "button", id: "play-deck", class: "deck", onclick: clickDeck }, "Deck"),
    el("h3", { id: "play-hand-title", text: "Hand" }), el("div", { class: "row", id: "play-hand" })));
}

export function showPlay(view, ui) {
  shown = { view, ui };
  cardsPanel(ui);
  const pos = view.position;
  const moves = view.moves;
  const panel = ui.panel;
  // the picture's links: mark those with a legal move
  const playable = new Set(moves.map(linkOf).filter(Boolean));
  for (const g of $$("g.link", ui.board)) {
    g.classList.toggle("playable", playable.has(g.dataset.link));
    g.classList.toggle("selected", g.dataset.link === choice.link);
    g.addEventListener("click", () => clickLink(g.dataset.link));
  }
  for (const g of $$("[data-card]", ui.board)) g.addEventListener("click", () => clickFaceUp(g.dataset.card));
  for (const g of $$(`g.hand[data-player="${view.perspective}"] [data-hand-card]`, ui.board)) {
    g.addEventListener("click", () => clickHand(g.dataset.handCard));
  }
  for (const g of $$("g.deck", ui.board)) g.addEventListener("click", clickDeck);
  // face-up row and deck
  panel.querySelector("#play-faceup").replaceChildren(...pos.face_up.map((c) =>
    cardButton(c, { "data-card": c, class: moves.some((m) => body(m) === `take ${c}`) ? "card playable" : "card" },
      () => clickFaceUp(c))));
  const deck = panel.querySelector("#play-deck");
  deck.textContent = `Draw from the deck (${deckCount(pos)} left)`;
  deck.disabled = !moves.some((m) => body(m) === "draw");
  // the hand of the person whose eyes we see through
  const who = view.perspective;
  const hand = who && pos.hands[who] && pos.hands[who].cards ? pos.hands[who].cards : [];
  panel.querySelector("#play-hand-title").textContent = who ? `${who}'s hand` : "Hand";
  panel.querySelector("#play-hand").replaceChildren(...hand.map((c, i) =>
    cardButton(c, { "data-hand-card": c, "data-index": i, class: choice.cards.includes(c) ? "card selected" : "card" },
      () => clickHand(c))));
  // the moves that are buttons: discard, end, pass
  const actions = [];
  if (moves.some((m) => body(m).startsWith("discard "))) {
    actions.push(el("button", { type: "button", id: "play-discard", class: choice.discarding ? "selected" : "",
      onclick: () => { const on = !choice.discarding; reset(); choice.discarding = on;
        ui.prompt(on ? "Click the card to discard face-down" : ""); ui.redraw(); } },
      "Discard face-down"));
  }
  const end = moves.find((x) => body(x) === "end");
  if (view.rules.may_skip_draw && moves.length && pos.round !== "final") {
    // a turn that may end without a draw: offered on every turn of the deck's rounds, enabled only when legal
    const why = end ? "End the turn without taking a card"
      : pos.turn && pos.turn.discarded ? "After a discard you must draw"
        : pos.turn && pos.turn.skipped_draw ? `${otherPlayer(pos, pos.to_move)} skipped its last draw, so you must draw`
          : "You cannot skip the draw now";
    actions.push(el("button", { type: "button", id: "play-end", disabled: !end, title: why,
      onclick: () => end && ui.send(end) }, "End turn without drawing"));
  } else if (end) {
    actions.push(el("button", { type: "button", id: "play-end", onclick: () => ui.send(end) }, "End turn"));
  }
  const pass = moves.find((x) => body(x) === "pass");
  if (pass) actions.push(el("button", { type: "button", id: "play-pass", onclick: () => ui.send(pass) }, "Pass"));
  actions.push(...godActions(view, ui));
  ui.actions.replaceChildren(...actions);
}

// The god token moves the server lists now, as buttons: the joker as a payment once a link is chosen, KU's
// player, the card to steal from the hand KU shows, PELE, the card given to each receiver, LONO.
function godActions(view, ui) {
  const moves = view.moves;
  const out = [];
  const token = (word, move, label, extra = {}) => el("button", { type: "button", class: "token",
    "data-token": word.toUpperCase(), "data-move": move, onclick: () => ui.send(move), ...extra }, label);
  const joker = view.rules.joker;
  if (joker && choice.link && paymentsOn(moves, choice.link).some((b) => b.cards.includes(joker))) {
    out.push(el("button", { type: "button", class: "token", id: "play-kanaloa", "data-token": joker,
      onclick: () => clickHand(joker) }, `${joker} (pay with the token)`));
  }
  for (const m of moves) {
    const b = body(m);
    const ku = /^ku ([a-z]+)$/.exec(b);
    if (ku) out.push(token("ku", m, `KU: steal from ${ku[1]}`, { "data-target": ku[1] }));
  }
  const steals = moves.filter((m) => body(m).startsWith("steal "));
  if (steals.length) {
    const victim = view.position.turn && view.position.turn.ku_target;
    out.push(el("span", { class: "prompt", text: `${victim}'s hand: steal` }),
      ...steals.map((m) => cardButton(body(m).slice(6), { class: "card playable", "data-steal": body(m).slice(6),
        "data-move": m }, () => ui.send(m))));
  }
  const pele = moves.find((m) => body(m) === "pele");
  if (pele) out.push(token("pele", pele, "PELE: take a card at random from each other player, then give one back"));
  const gifts = moves.filter((m) => body(m).startsWith("give "));
  if (gifts.length) {
    const to = body(gifts[0]).split(" ")[1];
    out.push(el("span", { class: "prompt", text: `give ${to}` }),
      ...gifts.map((m) => cardButton(body(m).split(" ")[2], { class: "card playable", "data-give": body(m).split(" ")[2],
        "data-move": m }, () => ui.send(m))));
  }
  const lono = moves.find((m) => body(m) === "lono");
  if (lono) out.push(token("lono", lono, "LONO: take an extra card"));
  return out;
}

function clickLink(link) {
  if (!shown || shown.ui.busy()) return;
  const { view, ui } = shown;
  const moves = view.moves;
  const removal = moves.find((m) => body(m) === `remove ${link}`);
  if (removal) return ui.send(removal);
  const builds = paymentsOn(moves, link);
  if (!builds.length) {
    ui.prompt(moves.length ? `No legal move on ${link}` : "");
    return;
  }
  reset();
  choice.link = link;
  const payments = [...new Set(builds.map((b) => b.cards.join("+")))];
  const what = builds[0].removal ? `remove ${view.position.bridges[link]}'s bridge on ${link}` : link;
  ui.prompt(`${what}: now click the card${payments.some((p) => p.includes("+")) ? "s" : ""} to pay (${payments.join(" or ")})`);
  ui.redraw();
}

function clickHand(card) {
  if (!shown || shown.ui.busy()) return;
  const { view, ui } = shown;
  const moves = view.moves;
  if (choice.discarding) {
    const m = moves.find((x) => body(x) === `discard ${card}`);
    reset();
    return m ? ui.send(m) : ui.prompt(`You cannot discard ${card} now`);
  }
  const reveal = moves.find((x) => body(x) === `reveal ${card}`);
  if (reveal) return ui.send(reveal);
  const give = moves.find((x) => /^give [a-z]+ /.test(body(x)) && body(x).endsWith(` ${card}`));
  if (give) return ui.send(give);
  if (!choice.link) {
    ui.prompt(moves.some(linkOf) ? "Click a link on the board first, then the cards to pay" : "");
    return;
  }
  const chosen = [...choice.cards, card];
  const builds = paymentsOn(moves, choice.link);
  const exact = builds.filter((b) => sameCards(b.cards, chosen));
  if (exact.length === 1) { reset(); return ui.send(exact[0].move); }
  if (exact.length > 1) { // two colors can build it (a player of two colors): ask which
    ui.prompt("Build with which color?");
    ui.actions.replaceChildren(...exact.map((b) =>
      el("button", { type: "button", class: `with-${builder(b.move)}`, onclick: () => { reset(); ui.send(b.move); } },
        `with ${builder(b.move)}`)));
    return;
  }
  if (builds.some((b) => within(chosen, b.cards))) {
    choice.cards = chosen;
    ui.prompt(`${choice.link}: paying ${chosen.join("+")}; click one more card`);
    ui.redraw();
    return;
  }
  ui.prompt(`${card} does not pay for ${choice.link}; choose the link again`);
  reset();
  ui.redraw();
}

function clickFaceUp(card) {
  if (!shown || shown.ui.busy()) return;
  const m = shown.view.moves.find((x) => body(x) === `take ${card}`);
  if (m) shown.ui.send(m);
  else shown.ui.prompt(`You cannot take ${card} now`);
}

function clickDeck() {
  const m = shown && shown.view.moves.find((x) => body(x) === "draw");
  if (m) shown.ui.send(m);
}
