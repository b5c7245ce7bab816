// The page of `kanaloa serve`: four modes over the JSON API of docs/web.md.
// No rule is decided here: the server lists the legal moves and refuses what
// does not fit; this script shows them, turns clicks into moves, and shows
// the server's answers.
"use strict";

const COLORS = ["red", "green", "blue", "yellow"];
const KAHUNA_COLORS = ["white", "black"]; // Kahuna's two seats (R16.1)
const KAHUNA_DEAL = 3; // cards dealt to each player and turned face-up in Kahuna (R16.2)
const DEFAULT_BOARD = { kanaloa: "oro", kahuna: "kahuna" };
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new Error("the server does not answer (is kanaloa serve still running?)");
  }
  let data;
  try {
    data = await response.json();
  } catch (err) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// A file to download, as the server wrote it: its text is kept as it is, since JSON.parse would round
// the 64-bit seeds of positions and records to the nearest double.
async function downloadFrom(path, name) {
  const response = await fetch(path);
  const text = await response.text();
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try { message = JSON.parse(text).error || message; } catch (err) { /* not JSON: keep the status */ }
    throw new Error(message);
  }
  download(name, text.endsWith("\n") ? text : text + "\n");
}

function download(name, value) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2) + "\n";
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files[0];
    if (!file) return reject(new Error("no file chosen"));
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Error(`cannot read ${file.name}`));
    reader.readAsText(file);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// -- moves as text: the server's notation, read only as far as the picture needs -----------

// "blue: ALOA-BAFI/ALOA" -> "ALOA-BAFI/ALOA"
const body = (move) => move.replace(/^[a-z]+:\s*/, "");
const builder = (move) => (/^([a-z]+):/.exec(move) || [])[1] || null;
const sameCards = (a, b) => a.length === b.length && [...a].sort().join("+") === [...b].sort().join("+");
function within(part, whole) {
  const left = [...whole];
  for (const card of part) {
    const i = left.indexOf(card);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}
// the legal moves on a link that pay with cards, with their cards: [{move, cards, removal}]: builds
// ("LINK/CARD", "LINK/CARD+CARD") and Kahuna's removals of a rival bridge ("remove LINK/CARD+CARD", R16.3)
const paymentsOn = (moves, link) => moves.map((m) => {
  const whole = body(m);
  const text = whole.startsWith("remove ") ? whole.slice(7) : whole;
  if (!text.startsWith(link + "/")) return null;
  return { move: m, cards: text.split("/")[1].split("+"), removal: text !== whole };
}).filter(Boolean);
// the link a move builds on or removes from, or null
const linkOf = (move) => { const m = /^(?:remove )?([A-Z0-9]+-[A-Z0-9]+)(?:\/|$)/.exec(body(move)); return m ? m[1] : null; };
const isKahuna = (view) => view.ruleset === "kahuna";
const otherPlayer = (pos, player) => pos.players.find((p) => p !== player);

// -- the shared picture and panels of a position --------------------------------------------

const islandNames = (view) => Object.keys(view.sizes);

// How a game ended, in one sentence: the winner and why, or that nobody won (Kahuna, R16.7, R16.8).
function outcomeText(outcome) {
  const { winner, reason, ranking } = outcome;
  if (reason === "no bridges") {
    return winner ? `${winner} wins: ${ranking.find((c) => c !== winner)} has no bridge left on the board (R16.8)`
      : "No winner: neither player has a bridge left on the board (R16.8)";
  }
  if (!winner) return "No winner: a tie that the final scoring and the bridges on the board do not break (R16.7)";
  return `${winner} wins on ${reason}`;
}

function drawStatus(target, view, extra = "") {
  const pos = view.position;
  let text;
  if (view.outcome) text = `Game over: ${outcomeText(view.outcome)}`;
  else if (view.waiting) text = `Waiting: ${view.waiting}`;
  else {
    const round = pos.round === 0 ? "setup" : pos.round === "final" ? "final round" : `round ${pos.round}`;
    text = `${round}; ${view.to_move} to move`;
    if (pos.turn && pos.turn.remove_on && pos.turn.remove_on.length) text += ` (removal on ${pos.turn.remove_on.join(", ")})`;
    if (pos.turn && pos.turn.ku_target) text += ` (KU: steal a card from ${pos.turn.ku_target})`;
    if (pos.turn && pos.turn.pele_gifts && pos.turn.pele_gifts.length) text += ` (PELE: give a card back to ${pos.turn.pele_gifts.join(", then ")})`;
    if (pos.turn && pos.turn.lono_draw) text += " (LONO: take a face-up card or draw, the turn goes on)";
    if (pos.turn && pos.turn.over_limit) text += " (over the hand limit: build or discard, R14.9)";
    if (isKahuna(view) && pos.turn) {
      if (pos.round === "final") text += " (a last turn without a draw)";
      else if (pos.turn.discarded) text += " (discarded: discard more or draw)";
      else if (pos.turn.skipped_draw) text += ` (${otherPlayer(pos, view.to_move)} skipped its draw, so this turn must draw)`;
    }
  }
  target.textContent = text + extra;
}

function drawScores(target, view) {
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

// The god tokens a player owns in a game with Might of the Gods (R14), or null in a game without them (and for
// a player's second color in a 2-player game: the tokens are the player's, listed with its first color).
function godsOwned(view, color) {
  const gods = view.position.gods;
  if (!gods || !(view.position.rules || {}).gods || !gods.owned || !(color in gods.owned)) return null;
  return gods.owned[color];
}

function drawBoard(target, view) {
  target.innerHTML = view.svg;
}

function deckCount(pos) {
  return Array.isArray(pos.deck) ? pos.deck.length : pos.deck.count;
}

function cardButton(name, attrs, onclick) {
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
async function askHint(mode, path, view, show) {
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

function drawHistory(target, items, current = null) {
  target.replaceChildren(...items.map((item, i) =>
    el("li", { class: i === current ? "current" : "" }, `${i + 1}. ` + (item.seat ? `${item.seat}: ${item.move}` : item.move))));
  const shown = current === null ? null : target.children[current];
  target.scrollTop = shown ? shown.offsetTop - target.offsetTop - target.clientHeight / 2 : target.scrollHeight;
}

// -- mode switching -------------------------------------------------------------------------

function showMode(name) {
  for (const b of $$("#modes button")) b.classList.toggle("active", b.dataset.mode === name);
  for (const s of $$("main > .mode")) s.classList.toggle("active", s.id === name);
}
for (const b of $$("#modes button")) b.addEventListener("click", () => showMode(b.dataset.mode));

let builtinBoards = ["oro", "kahuna"];
let editedBoard = null; // the board file the editor last checked, offered to Play and Table

function fillBoardSelects() {
  for (const select of $$("select[name=board]")) {
    const chosen = select.value;
    select.replaceChildren(...builtinBoards.map((b) => el("option", { value: b, text: b })));
    if (editedBoard) select.append(el("option", { value: "edited", text: `${editedBoard.name} (from the editor)` }));
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
  }
}
const chosenBoard = (value) => (value === "edited" ? editedBoard : value);

// -- Play -------------------------------------------------------------------------------------

const BOT_CHOICES = ["human", "random", "greedy", "ismcts:iterations=500", "hint:iterations=1000", "pimc:iterations=500"];

const play = {
  id: null,
  view: null,
  pause: 700,
  link: null, // the link chosen for a build
  cards: [], // the cards chosen to pay for it
  discarding: false,
  busy: false,
};

// Choosing Kahuna shows its two seats and hides what only Kanaloa has (a player count, the presets).
function drawSeatChoices() {
  const form = $("#play-setup");
  const kahuna = form.ruleset.value === "kahuna";
  const count = kahuna ? 2 : Number(form.players.value);
  const names = kahuna ? KAHUNA_COLORS : count === 2 ? ["red (+blue)", "green (+yellow)"] : COLORS.slice(0, count);
  $("#play-players-row").hidden = kahuna;
  $("#play-preset-row").hidden = kahuna;
  $("#play-gods-row").hidden = kahuna;
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

// A change of game moves the board choice to the new game's own board, unless another one was chosen.
function followGame(form) {
  const game = form.ruleset.value;
  const other = DEFAULT_BOARD[game === "kahuna" ? "kanaloa" : "kahuna"];
  if (form.board.value === other && [...form.board.options].some((o) => o.value === DEFAULT_BOARD[game])) {
    form.board.value = DEFAULT_BOARD[game];
  }
}
$("#play-setup [name=ruleset]").addEventListener("change", () => { drawSeatChoices(); followGame($("#play-setup")); });

function playError(message) { $("#play-error").textContent = message || ""; }
function playPrompt(message) { $("#play-prompt").textContent = message || ""; }

function seatsFromForm() {
  return $$("#play-seats input").map((i) => i.value.trim() || "human");
}

// The form's seats for an uploaded position or record: as many as its players (the form's first ones, then
// people), so that a Kahuna file or a 2-player one fits whatever the form was set to.
function seatsForUpload(text) {
  const seats = seatsFromForm();
  let doc = null;
  try { doc = JSON.parse(text); } catch (err) {
    try { doc = JSON.parse(text.split("\n").find((line) => line.trim()) || ""); } catch (err2) { doc = null; }
  }
  const count = doc && (Array.isArray(doc.players) ? doc.players.length : doc.players);
  if (!Number.isInteger(count) || count < 2 || count > 4) return seats;
  return Array.from({ length: count }, (_, i) => seats[i] || "human");
}

async function startPlay(extra) {
  const form = $("#play-setup");
  play.pause = Math.max(0, Number(form.pause.value) || 0);
  const upload = extra.position || extra.record;
  const request = { seats: upload ? seatsForUpload(upload) : seatsFromForm(), ...extra };
  if (!upload) {
    request.ruleset = form.ruleset.value;
    if (request.ruleset !== "kahuna") {
      request.players = Number(form.players.value);
      request.preset = form.preset.value;
      if (form.gods.checked) request.gods = true;
    }
    request.board = chosenBoard(form.board.value);
    if (form.seed.value !== "") request.seed = Number(form.seed.value);
  } else if (form.board.value === "edited") {
    request.board = editedBoard;
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

function setupError(mode, message) {
  let p = $(`#${mode}-setup .error`);
  if (!p) { p = el("p", { class: "error", role: "alert" }); $(`#${mode}-setup`).append(p); }
  p.textContent = message;
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
  if (isKahuna(view) && moves.length && pos.round !== "final") {
    // Kahuna's skipped draw (R16.5): offered on every turn of rounds 1 to 3, enabled only when it is legal
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

// The god token moves the server lists now (R14), as buttons: KANALOA as a payment once a link is chosen,
// KU's player, the card to steal from the hand KU shows, PELE, the card given to each receiver, LONO.
function godActions(view) {
  const moves = view.moves;
  const out = [];
  const token = (name, move, label, extra = {}) => el("button", { type: "button", class: "token", "data-token": name,
    "data-move": move, onclick: () => sendMove(move), ...extra }, label);
  if (play.link && paymentsOn(moves, play.link).some((b) => b.cards.includes("KANALOA"))) {
    out.push(el("button", { type: "button", class: "token", id: "play-kanaloa", "data-token": "KANALOA",
      onclick: () => clickHand("KANALOA") }, "KANALOA (pay with the token)"));
  }
  for (const m of moves) {
    const b = body(m);
    const ku = /^ku ([a-z]+)$/.exec(b);
    if (ku) out.push(token("KU", m, `KU: steal from ${ku[1]}`, { "data-target": ku[1] }));
  }
  const steals = moves.filter((m) => body(m).startsWith("steal "));
  if (steals.length) {
    const victim = view.position.turn && view.position.turn.ku_target;
    out.push(el("span", { class: "prompt", text: `${victim}'s hand: steal` }),
      ...steals.map((m) => cardButton(body(m).slice(6), { class: "card playable", "data-steal": body(m).slice(6),
        "data-move": m }, () => sendMove(m))));
  }
  const pele = moves.find((m) => body(m) === "pele");
  if (pele) out.push(token("PELE", pele, "PELE: take a card at random from each other player, then give one back"));
  const gifts = moves.filter((m) => body(m).startsWith("give "));
  if (gifts.length) {
    const to = body(gifts[0]).split(" ")[1];
    out.push(el("span", { class: "prompt", text: `give ${to}` }),
      ...gifts.map((m) => cardButton(body(m).split(" ")[2], { class: "card playable", "data-give": body(m).split(" ")[2],
        "data-move": m }, () => sendMove(m))));
  }
  const lono = moves.find((m) => body(m) === "lono");
  if (lono) out.push(token("LONO", lono, "LONO: take an extra card"));
  return out;
}

function showSummary(view) {
  const box = $("#play-summary");
  box.hidden = false;
  const o = view.outcome;
  box.replaceChildren(
    el("h3", { text: outcomeText(o) }),
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
  if (exact.length > 1) { // two colors can build it (two players): ask which
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

// -- Table ------------------------------------------------------------------------------------

const table = { id: null, view: null, hand: [], faceup: [], link: null, busy: false, islands: [], tokens: {} };
const GOD_NAMES = ["KANE", "KANALOA", "KU", "PELE", "LONO"]; // R14.1
const tableGods = () => !tableKahuna() && $("#table-setup [name=gods]").checked;
const tableKahuna = () => $("#table-setup [name=ruleset]").value === "kahuna";
const tableHandSize = () => (tableKahuna() ? KAHUNA_DEAL : 4);

function tableError(message) { $("#table-error").textContent = message || ""; }
function tablePrompt(message) { $("#table-prompt").textContent = message || ""; }

async function tableIslands() {
  const board = chosenBoard($("#table-setup [name=board]").value);
  const data = typeof board === "string" ? await api("GET", `/api/boards/${board}`) : board;
  return data.islands.map((i) => i.name.toUpperCase());
}

// The setup form: Kahuna has two seats, 3 dealt cards and the 3 cards turned face-up (R16.2), no presets.
function drawTableViewers() {
  const kahuna = tableKahuna();
  const count = Number($("#table-setup [name=players]").value);
  const names = kahuna ? KAHUNA_COLORS : count === 2 ? ["red", "green"] : COLORS.slice(0, count);
  $("#table-setup [name=viewer]").replaceChildren(...names.map((c) => el("option", { value: c, text: c })));
  $("#table-players-row").hidden = kahuna;
  $("#table-preset-row").hidden = kahuna;
  $("#table-faceup-setup").hidden = !kahuna;
  $("#table-gods-row").hidden = kahuna;
  $("#table-tokens-setup").hidden = !tableGods();
  $("#table-hand-help").textContent =
    `Your ${kahuna ? "three" : "four"} dealt cards (click to add, click again in the list to remove):`;
}

async function drawHandPicker() {
  try { table.islands = await tableIslands(); } catch (err) { setupError("table", err.message); return; }
  const pickerOf = (list, attr, size) => table.islands.map((name) =>
    el("button", { type: "button", class: "card", [attr]: name, onclick: () => {
      if (list().length < size()) list().push(name);
      drawHand();
    } }, name));
  $("#table-hand-picker").replaceChildren(...pickerOf(() => table.hand, "data-pick", tableHandSize));
  $("#table-faceup-picker").replaceChildren(...pickerOf(() => table.faceup, "data-pick-faceup", () => KAHUNA_DEAL));
  drawTokens();
  drawHand();
}
// Might of the Gods (R14.1): the token lying on each island, chosen from the five gods
function drawTokens() {
  $("#table-tokens").replaceChildren(...table.islands.map((name) => el("label", { class: "token-pick" }, `${name} `,
    el("select", { "data-token-island": name, onchange: (e) => {
      if (e.target.value) table.tokens[name] = e.target.value; else delete table.tokens[name];
    } }, el("option", { value: "", text: "?" }),
    ...GOD_NAMES.map((g) => el("option", { value: g, text: g, ...(table.tokens[name] === g ? { selected: "" } : {}) }))))));
}
$("#table-setup [name=gods]").addEventListener("change", drawTableViewers);
function drawHand() {
  for (const [id, list] of [["#table-hand", table.hand], ["#table-faceup-chosen", table.faceup]]) {
    const span = $(id);
    span.replaceChildren(...list.map((c, i) =>
      el("button", { type: "button", class: "card", "data-chosen": c, onclick: () => { list.splice(i, 1); drawHand(); } }, c)));
    if (!list.length) span.textContent = "none";
  }
}
$("#table-setup [name=players]").addEventListener("change", drawTableViewers);
$("#table-setup [name=board]").addEventListener("change", () => {
  table.hand = []; table.faceup = []; table.tokens = {}; drawHandPicker();
});
$("#table-setup [name=ruleset]").addEventListener("change", () => {
  const form = $("#table-setup");
  const before = form.board.value;
  followGame(form);
  table.hand.splice(tableHandSize());
  drawTableViewers();
  if (form.board.value !== before) { table.hand = []; table.faceup = []; drawHandPicker(); } else drawHand();
});

async function startTable(extra) {
  const form = $("#table-setup");
  const request = { ...extra };
  if (!request.position) {
    request.viewer = form.viewer.value;
    request.hand = table.hand;
    request.board = chosenBoard(form.board.value);
    if (tableKahuna()) {
      request.ruleset = "kahuna";
      request.face_up = table.faceup;
    } else {
      request.players = Number(form.players.value);
      request.preset = form.preset.value;
      if (tableGods()) {
        request.gods = true;
        request.tokens = table.tokens;
      }
    }
  } else if (form.board.value === "edited") {
    request.board = editedBoard;
  }
  try {
    const view = await api("POST", "/api/tables", request);
    table.id = view.id;
    table.islands = Object.keys(view.sizes);
    $("#table-setup").hidden = true;
    $("#table-game").hidden = false;
    showTable(view);
  } catch (err) {
    setupError("table", err.message);
  }
}
$("#table-setup").addEventListener("submit", (e) => { e.preventDefault(); startTable({}); });
$("#table-upload").addEventListener("change", async (e) => {
  try { await startTable({ position: await readFile(e.target) }); } catch (err) { setupError("table", err.message); }
  e.target.value = "";
});

// A record for the mover: "green: MOVE", or the viewer's own move without a prefix.
function tableMove(text) {
  const v = table.view;
  return v.to_move && v.to_move !== v.viewer ? `${v.to_move}: ${text}` : text;
}

function picker(prompt, names, done) {
  tablePrompt(prompt);
  $("#table-picker").replaceChildren(...names.map((n) =>
    el("button", { type: "button", class: "card", "data-pick": n, onclick: () => done(n) }, n)));
}
function clearPicker() { $("#table-picker").replaceChildren(); tablePrompt(""); }

function showTable(view) {
  table.view = view;
  table.link = null;
  const pos = view.position;
  const mine = view.to_move === view.viewer;
  drawStatus($("#table-status"), view);
  drawScores($("#table-scores"), view);
  drawBoard($("#table-board"), view);
  for (const g of $$("#table-board g.link")) g.addEventListener("click", () => tableLink(g.dataset.link));
  $("#table-faceup").replaceChildren(...pos.face_up.map((c) => cardButton(c, { "data-card": c }, () => tableTake(c))));
  const deck = $("#table-deck");
  deck.textContent = `Draw from the deck (${deckCount(pos)} left)`;
  deck.disabled = Boolean(view.waiting || view.outcome);
  const hand = pos.hands[view.viewer].cards || [];
  $("#table-hand-cards").replaceChildren(...hand.map((c) =>
    cardButton(c, { "data-hand-card": c }, () => tableHandCard(c))));
  const actions = [];
  const add = (id, label, move) => actions.push(el("button", { type: "button", id, onclick: () => tellMove(move) }, label));
  if (view.waiting) {
    actions.push(el("button", { type: "button", id: "table-faceup-record", onclick: faceupRecord }, "Record the cards turned face-up"));
  } else if (!view.outcome && !mine && isKahuna(view)) {
    // Kahuna (R16.5): a face-down discard of a full hand, a turn ended without drawing; the final turns draw nothing
    if (pos.round === "final") add("table-end", `${view.to_move} ended the turn`, tableMove("end"));
    else {
      add("table-discard", `${view.to_move} discarded face-down`, tableMove("discard"));
      add("table-end", `${view.to_move} ended the turn without drawing`, tableMove("end"));
    }
  } else if (!view.outcome && !mine) {
    if (pos.round === 0) add("table-reveal", `${view.to_move} chose a card`, tableMove("reveal"));
    else {
      add("table-discard", `${view.to_move} discarded face-down`, tableMove("discard"));
      if (pos.round === "final") {
        add("table-end", `${view.to_move} ended the turn`, tableMove("end"));
        add("table-pass", `${view.to_move} passed`, tableMove("pass"));
      }
    }
  } else if (mine) {
    for (const m of view.moves) {
      if (body(m) === "end") add("table-end", isKahuna(view) && pos.round !== "final" ? "End turn without drawing" : "End turn", m);
      if (body(m) === "pass") add("table-pass", "Pass", m);
    }
  }
  if (!view.waiting && !view.outcome && pos.rules && pos.rules.gods) actions.push(...tableGodActions(view));
  $("#table-actions").replaceChildren(...actions);
  $("#table-typed input").placeholder = isKahuna(view) ? "or type a move: black: remove ALOA-BARI/ALOA+BARI"
    : "or type a move: green: take RASI refill KULU";
  clearPicker();
  if (!view.outcome && !view.waiting) {
    tablePrompt(mine ? "Your turn: click a link then your cards, a face-up card, or the deck"
      : `${view.to_move}'s turn: click the link ${view.to_move} built on${isKahuna(view) ? " or removed from" : ""}, ` +
        "the card taken, or the deck");
  }
  drawHistory($("#table-history"), view.history);
  $("#table-undo").disabled = !view.can_undo;
  $("#table-hint").disabled = !mine || Boolean(view.waiting || view.outcome);
  document.body.dataset.tableMoves = String(view.history.length);
}

async function tellMove(move) {
  if (table.busy) return;
  table.busy = true;
  tableError("");
  try {
    showTable(await api("POST", `/api/tables/${table.id}/move`, { move }));
    $("#table-hint-box").hidden = true;
  } catch (err) {
    tableError(err.message);
  } finally {
    table.busy = false;
  }
}

function tableLink(link) {
  const v = table.view;
  if (!v || v.waiting || v.outcome) return;
  const [a, b] = link.split("-");
  if (v.to_move === v.viewer) {
    const removal = v.moves.find((m) => body(m) === `remove ${link}`);
    if (removal) return tellMove(removal);
    const builds = paymentsOn(v.moves, link);
    if (!builds.length) return tablePrompt(`No legal move on ${link}`);
    return picker(`${link}: how do you pay?`, builds.map((x) => x.move), (m) => tellMove(m));
  }
  if (isKahuna(v)) {
    // another player's place on a free link, or removal of your bridge paying two cards (R16.3)
    const owner = v.position.bridges[link];
    if (owner === v.to_move) return tablePrompt(`${link} holds ${owner}'s own bridge: no move of ${owner}'s there`);
    const options = owner ? [`${a}+${a}`, `${a}+${b}`, `${b}+${b}`].map((pay) => `${v.to_move}: remove ${link}/${pay}`)
      : [a, b].map((pay) => `${v.to_move}: ${link}/${pay}`);
    return picker(`${v.to_move} on ${link}: which move?`, options, (m) => tellMove(m));
  }
  // another player's build or removal: every way it could be written; the server checks it
  const colors = v.position.colors ? v.position.colors[v.to_move] : [v.to_move];
  const options = [];
  for (const color of colors) {
    for (const pay of [a, b, `${a}+${a}`, `${a}+${b}`, `${b}+${b}`]) options.push(`${color}: ${link}/${pay}`);
  }
  if (v.position.rules && v.position.rules.gods && v.position.round !== 0) {
    for (const color of colors) options.push(`${color}: ${link}/KANALOA`);
  }
  options.push(`${v.to_move}: remove ${link}`);
  picker(`${v.to_move} on ${link}: which move?`, options, (m) => tellMove(m));
}

// Might of the Gods (R14) at a table: the viewer's token moves from the legal list, with a picker for the cards
// KU shows and PELE takes; another player's token moves as records (the server checks them).
function tableGodActions(view) {
  const pos = view.position;
  const turn = pos.turn || {};
  const out = [];
  const tell = (id, label, move, extra = {}) => el("button", { type: "button", class: "token", id, "data-move": move,
    onclick: () => tellMove(move), ...extra }, label);
  const heldBy = (p) => { const h = pos.hands[p] || {}; return h.cards ? h.cards.length : h.count || 0; };
  if (view.to_move === view.viewer) {
    for (const m of view.moves) {
      const b = body(m);
      const ku = /^ku ([a-z]+)$/.exec(b);
      if (ku) {
        out.push(el("button", { type: "button", class: "token", "data-token": "KU", "data-target": ku[1],
          onclick: () => pickCards(`KU: the cards in ${ku[1]}'s hand`, heldBy(ku[1]),
            (cards) => tellMove(`${m} sees ${cards.join(" ")}`)) }, `KU: look at ${ku[1]}'s hand`));
      } else if (b.startsWith("steal ")) {
        out.push(cardButton(b.slice(6), { class: "card playable", "data-steal": b.slice(6), "data-move": m },
          () => tellMove(m)));
      } else if (b === "pele") {
        const victims = pos.players.filter((p) => p !== view.viewer && heldBy(p) > 0);
        out.push(el("button", { type: "button", class: "token", "data-token": "PELE", onclick: () => {
          const taken = [];
          const next = () => {
            if (taken.length === victims.length) return tellMove(`${m} takes ${taken.join(" ")}`);
            const victim = victims[taken.length];
            picker(`PELE: the card taken from ${victim}`, table.islands, (card) => { taken.push(`${victim}:${card}`); next(); });
          };
          next();
        } }, "PELE: the cards taken"));
      } else if (b.startsWith("give ")) {
        out.push(cardButton(b.split(" ")[2], { class: "card playable", "data-give": b.split(" ")[2], "data-move": m },
          () => tellMove(m)));
      } else if (b === "lono") {
        out.push(tell("table-lono", "LONO: take an extra card", m, { "data-token": "LONO" }));
      }
    }
    return out;
  }
  if (pos.round === 0 || pos.round === 1) return out; // tokens are used in round 2 only (R14.4)
  const who = view.to_move;
  const mine = pos.hands[view.viewer].cards || [];
  if (turn.ku_target) {
    if (turn.ku_target === view.viewer) {
      out.push(el("span", { class: "prompt", text: `${who} stole from your hand:` }), ...[...new Set(mine)].map((c) =>
        cardButton(c, { class: "card playable", "data-steal": c }, () => tellMove(`${who}: steal ${c}`))));
    } else out.push(tell("table-steal", `${who} stole from ${turn.ku_target}`, `${who}: steal`));
    return out;
  }
  if (turn.pele_gifts && turn.pele_gifts.length) {
    const to = turn.pele_gifts[0];
    if (to === view.viewer) {
      out.push(el("button", { type: "button", class: "token", id: "table-give", onclick: () =>
        picker(`${who} gave you which card?`, table.islands, (c) => tellMove(`${who}: give ${to} ${c}`)) },
      `${who} gave you a card`));
    } else out.push(tell("table-give", `${who} gave ${to} a card`, `${who}: give ${to}`));
    return out;
  }
  for (const p of pos.players.filter((x) => x !== who)) {
    out.push(tell(`table-ku-${p}`, `${who} used KU on ${p}`, `${who}: ku ${p}`, { "data-token": "KU" }));
  }
  if (mine.length) {
    out.push(el("button", { type: "button", class: "token", id: "table-pele", "data-token": "PELE", onclick: () =>
      picker(`${who} used PELE: which card of yours was taken?`, [...new Set(mine)],
        (c) => tellMove(`${who}: pele takes ${c}`)) }, `${who} used PELE`));
  } else out.push(tell("table-pele", `${who} used PELE`, `${who}: pele`, { "data-token": "PELE" }));
  out.push(tell("table-lono", `${who} used LONO`, `${who}: lono`, { "data-token": "LONO" }));
  return out;
}

// Pick `count` cards (repeats allowed) and hand them to `done`.
function pickCards(prompt, count, done) {
  const chosen = [];
  if (!count) return done(chosen);
  const again = () => picker(`${prompt} (${chosen.length}/${count}): ${chosen.join(" ")}`, table.islands, (card) => {
    chosen.push(card);
    if (chosen.length === count) done(chosen);
    else again();
  });
  again();
}

function tableTake(card) {
  const v = table.view;
  if (!v || v.waiting || v.outcome) return;
  const take = tableMove(`take ${card}`);
  if (deckCount(v.position) === 0) return tellMove(take);
  picker(`The deck refilled the gap with which card?`, table.islands, (refill) => tellMove(`${take} refill ${refill}`));
}

$("#table-deck").addEventListener("click", () => {
  const v = table.view;
  if (!v) return;
  if (v.to_move !== v.viewer) return tellMove(tableMove("draw"));
  picker("Which card did you draw?", table.islands, (card) => tellMove(`draw ${card}`));
});

function tableHandCard(card) {
  const v = table.view;
  if (!v || v.to_move !== v.viewer) return;
  const own = v.moves.find((m) => body(m) === `reveal ${card}`) || null;
  if (own) return tellMove(own);
  const discard = v.moves.find((m) => body(m) === `discard ${card}`);
  if (discard) picker(`Discard ${card} face-down?`, [discard], (m) => tellMove(m));
}

function faceupRecord() {
  const v = table.view;
  const need = (/faceup((?: CARD)+)/.exec(v.waiting) || ["", ""])[1].trim().split(" ").length;
  const chosen = [];
  const again = () => picker(`Cards turned face-up, in order (${chosen.length}/${need}): ${chosen.join(" ")}`,
    table.islands, (card) => {
      chosen.push(card);
      if (chosen.length === need) tellMove(`faceup ${chosen.join(" ")}`);
      else again();
    });
  again();
}

$("#table-typed").addEventListener("submit", (e) => {
  e.preventDefault();
  const move = e.target.move.value.trim();
  if (move) tellMove(move).then(() => { if (!$("#table-error").textContent) e.target.move.value = ""; });
});

$("#table-hint").addEventListener("click", () =>
  askHint("table", `/api/tables/${table.id}/hint`, table.view, showTable));
$("#table-undo").addEventListener("click", async () => {
  try { showTable(await api("POST", `/api/tables/${table.id}/undo`, {})); tableError(""); }
  catch (err) { tableError(err.message); }
});
$("#table-download").addEventListener("click", () =>
  downloadFrom(`/api/tables/${table.id}/position`, "kanaloa-table.json").catch((err) => tableError(err.message)));
$("#table-new").addEventListener("click", () => {
  table.id = null;
  table.hand = [];
  table.faceup = [];
  drawHand();
  $("#table-game").hidden = true;
  $("#table-setup").hidden = false;
});

// -- Board editor ------------------------------------------------------------------------------

const editor = { islands: [], links: [], tool: "island", selected: null, dragging: null, counter: 0 };
const SVG_NS = "http://www.w3.org/2000/svg";
const svgEl = (tag, attrs) => {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
};

function editorPrompt(message) { $("#editor-prompt").textContent = message; }
function editorError(message) { $("#editor-error").textContent = message || ""; $("#editor-ok").textContent = ""; }

function editorBoard() {
  return {
    name: $("#editor-name").value.trim() || "myboard",
    cards_per_island: Number($("#editor-cpi").value),
    islands: editor.islands.map((i) => ({ name: i.name, xy: [Math.round(i.x * 10) / 10, Math.round(i.y * 10) / 10] })),
    links: editor.links.map(([a, b]) => [editor.islands[a].name, editor.islands[b].name]),
  };
}

function setEditorBoard(board) {
  const xs = board.islands.map((i) => (i.xy || [0, 0])[0]);
  const ys = board.islands.map((i) => (i.xy || [0, 0])[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = Math.min(90 / Math.max(x1 - x0, 1), 65 / Math.max(y1 - y0, 1));
  editor.islands = board.islands.map((i) => ({
    name: i.name.toUpperCase(),
    x: 5 + ((i.xy || [0, 0])[0] - x0) * scale,
    y: 5 + ((i.xy || [0, 0])[1] - y0) * scale,
  }));
  const index = Object.fromEntries(editor.islands.map((i, k) => [i.name, k]));
  editor.links = board.links.map(([a, b]) => [index[a.toUpperCase()], index[b.toUpperCase()]]);
  $("#editor-name").value = board.name;
  $("#editor-cpi").value = board.cards_per_island;
  editor.selected = null;
  drawEditor();
}

function svgPoint(event) {
  const svg = $("#editor-svg");
  const pt = svg.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function drawEditor() {
  const svg = $("#editor-svg");
  svg.setAttribute("viewBox", "0 0 100 75");
  svg.replaceChildren();
  editor.links.forEach(([a, b], k) => {
    const [p, q] = [editor.islands[a], editor.islands[b]];
    const line = svgEl("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, "data-link": `${p.name}-${q.name}` });
    line.addEventListener("click", (e) => {
      e.stopPropagation();
      if (editor.tool === "delete" || editor.tool === "link") { editor.links.splice(k, 1); drawEditor(); }
    });
    svg.append(line);
  });
  editor.islands.forEach((isl, k) => {
    const size = editor.links.filter((l) => l.includes(k)).length;
    const circle = svgEl("circle", { cx: isl.x, cy: isl.y, r: 4 + 0.3 * size, "data-island": isl.name,
      class: editor.selected === k ? "selected" : "" });
    circle.addEventListener("mousedown", (e) => { e.stopPropagation(); islandDown(k, e); });
    circle.addEventListener("click", (e) => e.stopPropagation());
    svg.append(circle);
    const label = svgEl("text", { x: isl.x, y: isl.y + 0.4 });
    label.textContent = isl.name;
    const count = svgEl("text", { x: isl.x, y: isl.y + 2.6, class: "size" });
    count.textContent = `${size} link${size === 1 ? "" : "s"}`;
    svg.append(label, count);
  });
  const sizes = editor.islands.map((_, k) => editor.links.filter((l) => l.includes(k)).length);
  $("#editor-counts").textContent = `${editor.islands.length} islands, ${editor.links.length} links, ` +
    `${editor.islands.length * Number($("#editor-cpi").value)} cards`;
  $("#editor-islands").replaceChildren(...editor.islands.map((isl, k) =>
    el("li", { text: `${isl.name}: ${sizes[k]} link${sizes[k] === 1 ? "" : "s"}` })));
  const name = $("#editor-island-name");
  name.disabled = editor.selected === null;
  name.value = editor.selected === null ? "" : editor.islands[editor.selected].name;
}

function islandDown(k, event) {
  if (editor.tool === "delete") {
    editor.islands.splice(k, 1);
    editor.links = editor.links.filter((l) => !l.includes(k)).map((l) => l.map((i) => (i > k ? i - 1 : i)));
    editor.selected = null;
  } else if (editor.tool === "link") {
    if (editor.selected === null || editor.selected === k) {
      editor.selected = editor.selected === k ? null : k;
      editorPrompt(editor.selected === null ? "Click an island" : "Click the island to connect it to");
    } else {
      const a = editor.selected;
      if (!editor.links.some((l) => l.includes(a) && l.includes(k))) editor.links.push([a, k]);
      editor.selected = null;
      editorPrompt("Click an island, then another to connect them (click a link to remove it)");
    }
  } else {
    editor.selected = k;
    if (editor.tool === "move") editor.dragging = k;
  }
  drawEditor();
}

$("#editor-svg").addEventListener("click", (e) => {
  if (editor.tool !== "island") return;
  const p = svgPoint(e);
  let name;
  do { editor.counter += 1; name = `ISLE${editor.counter}`; } while (editor.islands.some((i) => i.name === name));
  editor.islands.push({ name, x: p.x, y: p.y });
  editor.selected = editor.islands.length - 1;
  drawEditor();
});
$("#editor-svg").addEventListener("mousemove", (e) => {
  if (editor.dragging === null) return;
  const p = svgPoint(e);
  Object.assign(editor.islands[editor.dragging], { x: p.x, y: p.y });
  drawEditor();
});
window.addEventListener("mouseup", () => { editor.dragging = null; });

const TOOL_PROMPTS = {
  island: "Click the sea to add an island; click an island to select it and rename it",
  link: "Click an island, then another to connect them (click a link to remove it)",
  move: "Drag an island to move it",
  delete: "Click an island or a link to delete it",
};
for (const b of $$("#editor-tools button")) {
  b.addEventListener("click", () => {
    editor.tool = b.dataset.tool;
    editor.selected = null;
    for (const o of $$("#editor-tools button")) o.classList.toggle("active", o === b);
    editorPrompt(TOOL_PROMPTS[editor.tool]);
    drawEditor();
  });
}
$("#editor-island-name").addEventListener("input", (e) => {
  if (editor.selected === null) return;
  editor.islands[editor.selected].name = e.target.value.toUpperCase().replace(/[^A-Z0-9]/g, "");
  e.target.value = editor.islands[editor.selected].name;
  drawEditor();
  $("#editor-island-name").focus();
});
$("#editor-cpi").addEventListener("input", drawEditor);

async function checkEditorBoard() {
  editorError("");
  try {
    const checked = await api("POST", "/api/boards/check", editorBoard());
    const kahuna = checked.cards >= 3 * KAHUNA_DEAL ? "" : ` Too few cards for Kahuna, which deals ${3 * KAHUNA_DEAL}.`;
    $("#editor-ok").textContent = `The board is good: ${checked.islands} islands, ${checked.links} links, ${checked.cards} cards.${kahuna}`;
    editedBoard = checked.board;
    fillBoardSelects();
    return checked.board;
  } catch (err) {
    editorError(err.message);
    return null;
  }
}
$("#editor-check").addEventListener("click", checkEditorBoard);
$("#editor-download").addEventListener("click", async () => {
  const board = await checkEditorBoard();
  if (board) download(`${board.name}.json`, board);
});
$("#editor-play").addEventListener("click", async () => {
  const board = await checkEditorBoard();
  if (!board) return;
  showMode("play");
  $("#play-game").hidden = true;
  $("#play-setup").hidden = false;
  $("#play-setup [name=board]").value = "edited";
});
$("#editor-clear").addEventListener("click", () => { editor.islands = []; editor.links = []; editor.selected = null; drawEditor(); });
$("#editor-load").addEventListener("click", async () => {
  try { setEditorBoard(await api("GET", `/api/boards/${$("#editor-builtin").value}`)); editorError(""); }
  catch (err) { editorError(err.message); }
});
$("#editor-upload").addEventListener("change", async (e) => {
  try { setEditorBoard(JSON.parse(await readFile(e.target))); editorError(""); }
  catch (err) { editorError(`cannot load that board file: ${err.message}`); }
  e.target.value = "";
});

// -- Replay ------------------------------------------------------------------------------------

const replay = { id: null, at: 0, length: 0, view: null };

async function loadReplay() {
  const form = $("#replay-setup");
  $("#replay-load-error").textContent = "";
  try {
    const records = await readFile($("#replay-file"));
    const request = { records };
    if (form.game.value !== "") request.game = Number(form.game.value);
    if (form.board.value === "edited") request.board = editedBoard;
    const view = await api("POST", "/api/replays", request);
    replay.id = view.id;
    replay.length = view.length;
    $("#replay-slider").max = view.length;
    $("#replay-game").hidden = false;
    $("#replay-setup").hidden = true;
    showReplay(view);
  } catch (err) {
    $("#replay-load-error").textContent = err.message;
  }
}
$("#replay-setup").addEventListener("submit", (e) => { e.preventDefault(); loadReplay(); });

function showReplay(view) {
  replay.view = view;
  replay.at = view.at;
  const pos = view.position;
  drawStatus($("#replay-status"), view);
  drawScores($("#replay-scores"), view);
  drawBoard($("#replay-board"), view);
  $("#replay-slider").value = view.at;
  const rec = view.record;
  const last = view.at ? `; move ${view.at}: ${rec.moves[view.at - 1]}` : "";
  $("#replay-at").textContent = `Move ${view.at} of ${view.length}${last}`;
  $("#replay-lineup").textContent = `Game ${rec.game}: ` +
    pos.players.map((color, seat) => `${color} ${rec.lineup[seat]}`).join(", ");
  drawHistory($("#replay-history"), rec.moves.map((m) => ({ move: m })), view.at - 1);
}

async function replayTo(at) {
  if (!replay.id) return;
  const target = Math.max(0, Math.min(replay.length, at));
  try {
    showReplay(await api("GET", `/api/replays/${replay.id}?at=${target}`));
    $("#replay-error").textContent = "";
  } catch (err) {
    $("#replay-error").textContent = err.message;
  }
}
$("#replay-another").addEventListener("click", () => {
  replay.id = null;
  $("#replay-game").hidden = true;
  $("#replay-setup").hidden = false;
});
$("#replay-first").addEventListener("click", () => replayTo(0));
$("#replay-prev").addEventListener("click", () => replayTo(replay.at - 1));
$("#replay-next").addEventListener("click", () => replayTo(replay.at + 1));
$("#replay-last").addEventListener("click", () => replayTo(replay.length));
$("#replay-slider").addEventListener("change", (e) => replayTo(Number(e.target.value)));
document.addEventListener("keydown", (e) => {
  if (!$("#replay").classList.contains("active") || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") replayTo(replay.at + 1);
  if (e.key === "ArrowLeft") replayTo(replay.at - 1);
});

// -- start -------------------------------------------------------------------------------------

async function start() {
  drawSeatChoices();
  drawTableViewers();
  editorPrompt(TOOL_PROMPTS.island);
  try {
    const info = await api("GET", "/api/boards");
    builtinBoards = info.builtin;
  } catch (err) {
    playError(err.message);
  }
  fillBoardSelects();
  $("#editor-builtin").replaceChildren(...builtinBoards.map((b) => el("option", { value: b, text: b })));
  drawEditor();
  drawHandPicker();
  document.body.dataset.ready = "1";
}
start();
