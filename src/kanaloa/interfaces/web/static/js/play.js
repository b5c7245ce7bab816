// Play: a game against bots or friends at this screen.

import { api, downloadFrom, readFile, sleep } from "./api.js";
import { askHint, cardButton, deckCount, drawBoard, drawHistory, drawScores, drawStatus, outcomeText } from "./board.js";
import { $, $$, el } from "./dom.js";
import { body, builder, linkOf, otherPlayer, paymentsOn, sameCards, within } from "./moves.js";
import {
  chosenBoard, drawGameRows, followGame, formRules, offers, playerCounts, seatLabels, setupError, shared,
} from "./setup.js";

const BOT_CHOICES = ["human", "random", "greedy", "ismcts:iterations=500", "hint:iterations=1000", "pimc:iterations=500"];

export const play = {
  id: null,
  view: null,
  pause: 700,
  link: null, // the link chosen for a build
  cards: [], // the cards chosen to pay for it
  discarding: false,
  busy: false,
};

// The form for the chosen game: its seats (each player, named by its colors), and only the choices it offers.
export function drawSeatChoices() {
  const form = $("#play-setup");
  drawGameRows(form, "play", true);
  const names = seatLabels(formRules(form));
  const box = $("#play-seats");
  const old = $$("input", box).map((i) => i.value);
  box.replaceChildren(...names.map((name, i) => {
    const list = `seat-options`;
    return el("label", { class: "seat" }, el("span", { class: "color", text: name }),
      el("input", { name: `seat${i}`, list, value: old[i] || (i === 0 ? "human" : "random") }));
  }));
  if (!$("#seat-options")) {
    document.body.append(el("datalist", { id: "seat-options" }, ...BOT_CHOICES.map((c) => el("option", { value: c }))));
  }
}
$("#play-setup [name=players]").addEventListener("change", drawSeatChoices);
$("#play-setup [name=ruleset]").addEventListener("change", () => { drawSeatChoices(); followGame($("#play-setup")); });

export function playError(message) { $("#play-error").textContent = message || ""; }
function playPrompt(message) { $("#play-prompt").textContent = message || ""; }

function seatsFromForm() {
  return $$("#play-seats input").map((i) => i.value.trim() || "human");
}

// The form's seats for an uploaded position or record: as many as its players (the form's first ones, then
// people), so that a file of another game or player count fits whatever the form was set to.
function seatsForUpload(text) {
  const seats = seatsFromForm();
  let doc = null;
  try { doc = JSON.parse(text); } catch (err) {
    try { doc = JSON.parse(text.split("\n").find((line) => line.trim()) || ""); } catch (err2) { doc = null; }
  }
  const count = doc && (Array.isArray(doc.players) ? doc.players.length : doc.players);
  if (!Number.isInteger(count) || !playerCounts().has(count)) return seats;
  return Array.from({ length: count }, (_, i) => seats[i] || "human");
}

async function startPlay(extra) {
  const form = $("#play-setup");
  play.pause = Math.max(0, Number(form.pause.value) || 0);
  const upload = extra.position || extra.record;
  const request = { seats: upload ? seatsForUpload(upload) : seatsFromForm(), ...extra };
  if (!upload) {
    request.ruleset = form.ruleset.value;
    if (offers(form, "players")) request.players = Number(form.players.value);
    if (offers(form, "preset")) request.preset = form.preset.value;
    if (offers(form, "gods") && form.gods.checked) request.gods = true;
    request.board = chosenBoard(form.board.value);
    if (form.seed.value !== "") request.seed = Number(form.seed.value);
  } else if (form.board.value === "edited") {
    request.board = shared.edited;
  }
  playError("");
  try {
    const view = await api("POST", "/api/games", request);
    play.id = view.id;
    $("#play-setup").hidden = true;
    $("#play-game").hidden = false;
    $("#play-summary").hidden = true;
    $("#play-hint-box").hidden = true;
    showPlay(view);
    runBots();
  } catch (err) {
    playError(err.message);
    $("#play-game").hidden = true;
    $("#play-setup").hidden = false;
    setupError("play", err.message);
  }
}

$("#play-setup").addEventListener("submit", (e) => { e.preventDefault(); startPlay({}); });
$("#play-upload-position").addEventListener("change", async (e) => {
  try { await startPlay({ position: await readFile(e.target) }); } catch (err) { setupError("play", err.message); }
  e.target.value = "";
});
$("#play-upload-record").addEventListener("change", async (e) => {
  try { await startPlay({ record: await readFile(e.target) }); } catch (err) { setupError("play", err.message); }
  e.target.value = "";
});

function resetChoice() {
  play.link = null;
  play.cards = [];
  play.discarding = false;
}

function showPlay(view) {
  play.view = view;
  const pos = view.position;
  const moves = view.moves;
  drawStatus($("#play-status"), view, view.bot_to_move ? " (a bot is thinking)" : "");
  drawScores($("#play-scores"), view);
  drawBoard($("#play-board"), view);
  // the picture's links: mark those with a legal move
  const playable = new Set(moves.map(linkOf).filter(Boolean));
  for (const g of $$("#play-board g.link")) {
    g.classList.toggle("playable", playable.has(g.dataset.link));
    g.classList.toggle("selected", g.dataset.link === play.link);
    g.addEventListener("click", () => clickLink(g.dataset.link));
  }
  for (const g of $$("#play-board [data-card]")) g.addEventListener("click", () => clickFaceUp(g.dataset.card));
  const own = `#play-board g.hand[data-player="${view.perspective}"] [data-hand-card]`;
  for (const g of $$(own)) g.addEventListener("click", () => clickHand(g.dataset.handCard));
  for (const g of $$("#play-board g.deck")) g.addEventListener("click", () => $("#play-deck").click());
  // face-up row and deck
  $("#play-faceup").replaceChildren(...pos.face_up.map((c) =>
    cardButton(c, { "data-card": c, class: moves.some((m) => body(m) === `take ${c}`) ? "card playable" : "card" },
      () => clickFaceUp(c))));
  const deck = $("#play-deck");
  deck.textContent = `Draw from the deck (${deckCount(pos)} left)`;
  deck.disabled = !moves.some((m) => body(m) === "draw");
  // the hand of the person whose eyes we see through
  const who = view.perspective;
  const hand = who && pos.hands[who] && pos.hands[who].cards ? pos.hands[who].cards : [];
  $("#play-hand-title").textContent = who ? `${who}'s hand` : "Hand";
  $("#play-hand").replaceChildren(...hand.map((c, i) =>
    cardButton(c, { "data-hand-card": c, "data-index": i, class: play.cards.includes(c) ? "card selected" : "card" },
      () => clickHand(c))));
  // the moves that are buttons: discard, end, pass
  const actions = [];
  if (moves.some((m) => body(m).startsWith("discard "))) {
    actions.push(el("button", { type: "button", id: "play-discard", class: play.discarding ? "selected" : "",
      onclick: () => { play.discarding = !play.discarding; play.link = null; play.cards = [];
        playPrompt(play.discarding ? "Click the card to discard face-down" : ""); showPlay(play.view); } },
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
      onclick: () => end && sendMove(end) }, "End turn without drawing"));
  } else if (end) {
    actions.push(el("button", { type: "button", id: "play-end", onclick: () => sendMove(end) }, "End turn"));
  }
  const pass = moves.find((x) => body(x) === "pass");
  if (pass) actions.push(el("button", { type: "button", id: "play-pass", onclick: () => sendMove(pass) }, "Pass"));
  actions.push(...godActions(view));
  $("#play-actions").replaceChildren(...actions);
  $("#play-moves").replaceChildren(...moves.map((m) =>
    el("button", { type: "button", class: "move", "data-move": m, onclick: () => sendMove(m) }, m)));
  drawHistory($("#play-history"), view.history);
  $("#play-undo").disabled = !view.can_undo;
  $("#play-hint").disabled = moves.length === 0;
  $("#play-download-record").disabled = !(view.has_record && view.outcome);
  if (view.outcome) showSummary(view);
  else $("#play-summary").hidden = true;
  if (!moves.length && !view.outcome && !view.bot_to_move) playPrompt(view.waiting || "");
  // what the page is waiting for, for people who script it (and the browser tests)
  document.body.dataset.play = view.outcome ? "over" : view.bot_to_move ? "bot" : moves.length ? "your-turn" : "waiting";
  document.body.dataset.playMoves = String(view.history.length);
}

// The god token moves the server lists now, as buttons: the joker as a payment once a link is chosen, KU's
// player, the card to steal from the hand KU shows, PELE, the card given to each receiver, LONO.
function godActions(view) {
  const moves = view.moves;
  const out = [];
  const token = (word, move, label, extra = {}) => el("button", { type: "button", class: "token",
    "data-token": word.toUpperCase(), "data-move": move, onclick: () => sendMove(move), ...extra }, label);
  const joker = view.rules.joker;
  if (joker && play.link && paymentsOn(moves, play.link).some((b) => b.cards.includes(joker))) {
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
        "data-move": m }, () => sendMove(m))));
  }
  const pele = moves.find((m) => body(m) === "pele");
  if (pele) out.push(token("pele", pele, "PELE: take a card at random from each other player, then give one back"));
  const gifts = moves.filter((m) => body(m).startsWith("give "));
  if (gifts.length) {
    const to = body(gifts[0]).split(" ")[1];
    out.push(el("span", { class: "prompt", text: `give ${to}` }),
      ...gifts.map((m) => cardButton(body(m).split(" ")[2], { class: "card playable", "data-give": body(m).split(" ")[2],
        "data-move": m }, () => sendMove(m))));
  }
  const lono = moves.find((m) => body(m) === "lono");
  if (lono) out.push(token("lono", lono, "LONO: take an extra card"));
  return out;
}

function showSummary(view) {
  const box = $("#play-summary");
  box.hidden = false;
  const o = view.outcome;
  box.replaceChildren(
    el("h3", { text: outcomeText(view) }),
    el("ol", {}, ...o.ranking.map((c) => el("li", { "data-color": c, text: `${c}: ${view.scores[c]} points` }))),
    el("p", { text: `${view.history.length} moves.` }));
  playPrompt("");
}

function clickLink(link) {
  if (play.busy || !play.view) return;
  const moves = play.view.moves;
  const removal = moves.find((m) => body(m) === `remove ${link}`);
  if (removal) return sendMove(removal);
  const builds = paymentsOn(moves, link);
  if (!builds.length) {
    playPrompt(moves.length ? `No legal move on ${link}` : "");
    return;
  }
  play.link = link;
  play.cards = [];
  play.discarding = false;
  const payments = [...new Set(builds.map((b) => b.cards.join("+")))];
  const what = builds[0].removal ? `remove ${play.view.position.bridges[link]}'s bridge on ${link}` : link;
  playPrompt(`${what}: now click the card${payments.some((p) => p.includes("+")) ? "s" : ""} to pay (${payments.join(" or ")})`);
  showPlay(play.view);
}

function clickHand(card) {
  if (play.busy || !play.view) return;
  const moves = play.view.moves;
  if (play.discarding) {
    const m = moves.find((x) => body(x) === `discard ${card}`);
    resetChoice();
    return m ? sendMove(m) : playPrompt(`You cannot discard ${card} now`);
  }
  const reveal = moves.find((x) => body(x) === `reveal ${card}`);
  if (reveal) return sendMove(reveal);
  const give = moves.find((x) => /^give [a-z]+ /.test(body(x)) && body(x).endsWith(` ${card}`));
  if (give) return sendMove(give);
  if (!play.link) {
    playPrompt(moves.some(linkOf) ? "Click a link on the board first, then the cards to pay" : "");
    return;
  }
  const chosen = [...play.cards, card];
  const builds = paymentsOn(moves, play.link);
  const exact = builds.filter((b) => sameCards(b.cards, chosen));
  if (exact.length === 1) { resetChoice(); return sendMove(exact[0].move); }
  if (exact.length > 1) { // two colors can build it (a player of two colors): ask which
    playPrompt("Build with which color?");
    $("#play-actions").replaceChildren(...exact.map((b) =>
      el("button", { type: "button", class: `with-${builder(b.move)}`, onclick: () => { resetChoice(); sendMove(b.move); } },
        `with ${builder(b.move)}`)));
    return;
  }
  if (builds.some((b) => within(chosen, b.cards))) {
    play.cards = chosen;
    playPrompt(`${play.link}: paying ${chosen.join("+")}; click one more card`);
    showPlay(play.view);
    return;
  }
  playPrompt(`${card} does not pay for ${play.link}; choose the link again`);
  resetChoice();
  showPlay(play.view);
}

function clickFaceUp(card) {
  if (play.busy || !play.view) return;
  const m = play.view.moves.find((x) => body(x) === `take ${card}`);
  if (m) sendMove(m);
  else playPrompt(`You cannot take ${card} now`);
}

$("#play-deck").addEventListener("click", () => {
  const m = play.view && play.view.moves.find((x) => body(x) === "draw");
  if (m) sendMove(m);
});

async function sendMove(move) {
  if (play.busy) return;
  play.busy = true;
  playError("");
  resetChoice();
  try {
    const view = await api("POST", `/api/games/${play.id}/move`, { move });
    playPrompt("");
    $("#play-hint-box").hidden = true;
    showPlay(view);
  } catch (err) {
    playError(err.message);
  } finally {
    play.busy = false;
  }
  runBots();
}

let botsRunning = false;
async function runBots() {
  if (botsRunning) return;
  botsRunning = true;
  try {
    while (play.view && play.view.bot_to_move && !play.busy) {
      const id = play.id;
      await sleep(play.pause);
      if (id !== play.id || play.busy) break;
      play.busy = true;
      try {
        const view = await api("POST", `/api/games/${id}/bot`, {});
        if (id === play.id) showPlay(view);
      } catch (err) {
        playError(err.message);
        break;
      } finally {
        play.busy = false;
      }
    }
  } finally {
    botsRunning = false;
  }
}

$("#play-hint").addEventListener("click", () => askHint("play", `/api/games/${play.id}/hint`, play.view, showPlay));

$("#play-undo").addEventListener("click", async () => {
  if (play.busy) return;
  play.busy = true;
  try {
    showPlay(await api("POST", `/api/games/${play.id}/undo`, {}));
    playError("");
  } catch (err) {
    playError(err.message);
  } finally {
    play.busy = false;
  }
  runBots();
});

$("#play-download-position").addEventListener("click", () =>
  downloadFrom(`/api/games/${play.id}/position`, "kanaloa-position.json").catch((err) => playError(err.message)));
$("#play-download-record").addEventListener("click", () =>
  downloadFrom(`/api/games/${play.id}/record`, "kanaloa-game.jsonl").catch((err) => playError(err.message)));
$("#play-new").addEventListener("click", () => {
  play.id = null;
  play.view = null;
  $("#play-game").hidden = true;
  $("#play-setup").hidden = false;
});

// Open the New-game form with the editor's board chosen.
export function playOnEditedBoard() {
  $("#play-game").hidden = true;
  $("#play-setup").hidden = false;
  $("#play-setup [name=board]").value = "edited";
}
