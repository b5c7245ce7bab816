// Play: a game of any registered game against bots or friends at this screen.  What a click on the picture means,
// the panel beside it and the buttons of the game's own moves are the game's module's (`showPlay`, docs/web.md
// "A game's module"); this module deals the game, sends the moves, runs the bots, and shows what every game has:
// the status, the scores, the legal moves, the moves so far, the hint, undo, the downloads, the summary and, once
// the game is over, its analysis (analysis.js).

import { createAnalysis, showOnBoard } from "./analysis.js";
import { api, catchUp, downloadFrom, readFile, showAddress, sleep } from "./api.js";
import {
  askHint, drawBoard, drawHistory, drawLastMove, drawScores, drawStatus, onThinkFirst, prepareHint,
} from "./board.js";
import { $, $$, el, showMode } from "./dom.js";
import {
  chosenBoard, drawGameRows, followGame, formGame, formRules, gameModule, offers, parameter, playerCounts, seatLabels,
  setupError, shared,
} from "./setup.js";

export const play = {
  id: null,
  view: null,
  pause: 700,
  busy: false,
  panelOf: null, // the game whose module drew the panel last
};

// What a game's module is handed to draw its part of Play (docs/web.md "A game's module").
const ui = {
  mode: "play",
  get board() { return $("#play-board"); },
  get panel() { return $("#play-panel"); },
  get actions() { return $("#play-actions"); },
  prompt: (message) => playPrompt(message),
  send: (move) => sendMove(move),
  busy: () => play.busy,
  redraw: () => play.view && showPlay(play.view),
};

// The form for the chosen game: its own rows (the game's module's), its seats (each player, named as the game
// names its seats), and only the choices it offers.
export function drawSeatChoices() {
  const form = $("#play-setup");
  drawGameRows(form, "play", true);
  const entry = formGame(form);
  const mod = gameModule(entry.name);
  const rows = $("#play-game-rows");
  if (rows.dataset.game !== entry.name) { rows.replaceChildren(); rows.dataset.game = entry.name; }
  if (mod.setupRows) mod.setupRows(rows, { entry, rules: formRules(form), changed: drawSeats });
  else rows.replaceChildren();
  drawSeats();
}

function drawSeats() {
  const form = $("#play-setup");
  const entry = formGame(form);
  const mod = gameModule(entry.name);
  const names = (mod.seatNames && mod.seatNames($("#play-game-rows"))) || seatLabels(formRules(form));
  const box = $("#play-seats");
  const old = $$(".seat", box).map((row) => ({ who: $("select", row).value, spec: $("input", row).value }));
  box.replaceChildren(...names.map((name, i) => seatRow(name, i, entry, old[i] || {})),
    el("div", { id: "play-seat-help", class: "help" }, "A bot spec is NAME[:KEY=VALUE]…, e.g. hint:iterations=5000:",
      el("ul", {}, ...shared.listing.bots.map((b) => el("li", {}, el("code", { text: b.name }), `: ${b.help}`)))));
  const options = $("#seat-options") || document.body.appendChild(el("datalist", { id: "seat-options" }));
  options.replaceChildren(...entry.web.bots.filter((c) => c !== "human").map((c) => el("option", { value: c })));
  showSeatSpecs();
}

// A seat of the form: You (a person at this screen), a named strength the game offers (its entry's `levels`), or
// Advanced… with a bot spec typed in; a bot seat starts at the server's default level.
function seatRow(name, i, entry, old) {
  const who = el("select", { name: `who${i}`, onchange: showSeatSpecs },
    el("option", { value: "human", text: "You", title: "a person at this screen" }),
    ...entry.levels.map((l) => el("option", { value: l.name, text: l.label, title: `${l.description} (${l.spec})` })),
    el("option", { value: "advanced", text: "Advanced…", title: "a bot spec of your own" }));
  const offered = (value) => [...who.options].some((o) => o.value === value);
  const start = i === 0 ? "human" : offered(shared.listing.default_level) ? shared.listing.default_level : "advanced";
  who.value = offered(old.who) ? old.who : start;
  return el("label", { class: "seat" }, el("span", { class: "color", text: name }), who,
    el("input", { name: `seat${i}`, list: "seat-options", value: old.spec || "", "aria-label": `${name}: bot spec`,
      placeholder: "bot spec, e.g. hint:iterations=5000" }));
}

// The spec field of each Advanced… seat, and the list of bots while one is shown; each choice's description
// as its seat's tooltip.
function showSeatSpecs() {
  const rows = $$("#play-seats .seat");
  for (const row of rows) {
    const who = $("select", row);
    $("input", row).hidden = who.value !== "advanced";
    who.title = who.selectedOptions[0] ? who.selectedOptions[0].title : "";
  }
  $("#play-seat-help").hidden = rows.every((row) => $("input", row).hidden);
}
$("#play-setup [name=players]").addEventListener("change", drawSeatChoices);
$("#play-setup [name=ruleset]").addEventListener("change", () => { drawSeatChoices(); followGame($("#play-setup")); });

export function playError(message) { $("#play-error").textContent = message || ""; }
function playPrompt(message) { $("#play-prompt").textContent = message || ""; }

// Each seat as a request gives it: "human", a level's name or the Advanced… seat's spec.
function seatsFromForm() {
  return $$("#play-seats .seat").map((row) => {
    const who = $("select", row).value;
    return who === "advanced" ? $("input", row).value.trim() : who;
  });
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
  return Array.from({ length: count }, (_, i) => seats[i] ?? "human");
}

async function startPlay(extra) {
  const form = $("#play-setup");
  play.pause = Math.max(0, Number(form.pause.value) || 0);
  const upload = extra.position || extra.record;
  const request = { seats: upload ? seatsForUpload(upload) : seatsFromForm(), ...extra };
  const entry = formGame(form);
  if (!upload) {
    request.ruleset = entry.name;
    if (offers(form, "players")) request.players = Number(form.players.value);
    if (offers(form, "preset")) request.preset = form.preset.value;
    if (offers(form, "gods") && form.gods.checked) request.gods = true;
    if (parameter(entry, "board")) request.board = chosenBoard(form.board.value);
    if (form.seed.value !== "") request.seed = Number(form.seed.value);
    const mod = gameModule(entry.name);
    if (mod.setupRequest) Object.assign(request, mod.setupRequest($("#play-game-rows"), entry));
  } else if (form.board.value === "edited") {
    request.board = shared.edited;
  }
  playError("");
  try {
    openPlay(await api("POST", "/api/games", request));
  } catch (err) {
    playError(err.message);
    $("#play-game").hidden = true;
    $("#play-setup").hidden = false;
    setupError("play", err.message);
  }
}

// Show a game of the Play mode (a new one, or one saved: `view` is its view) and go on with it.
export function openPlay(view) {
  play.id = view.id;
  showAddress("game", view.id);
  $("#play-setup").hidden = true;
  $("#play-game").hidden = false;
  $("#play-summary").hidden = true;
  $("#play-hint-box").hidden = true;
  $("#play-analysis").hidden = true;
  analysis.reset();
  resetChoice(view);
  showPlay(view);
  runBots();
}

// Resume saved game `id` (the page's address, the list of saved games).
export async function resumePlay(id) {
  showMode("play");
  openPlay(await api("GET", `/api/games/${id}`));
}

// A change refused because the game moved on elsewhere (another tab, another server): show it as it is now.
function caughtUp(err) {
  return Boolean(play.id) && catchUp(err, `/api/games/${play.id}`, showPlay, playError, "game");
}

// Play a position of any game (the Editor mode's "Play from here"): the form's seats, as for an upload.
export async function playPosition(text) {
  showMode("play");
  await startPlay({ position: text });
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

// Forget a move half made (a link chosen, cards picked) in the game's module.
function resetChoice(view) {
  const mod = view && gameModule(view.ruleset);
  if (mod && mod.reset) mod.reset();
}

function showPlay(view) {
  play.view = view;
  const moves = view.moves;
  const mod = gameModule(view.ruleset);
  if (play.panelOf !== view.ruleset) { // the panel is the game's own: a new game's module starts it afresh
    $("#play-panel").replaceChildren();
    play.panelOf = view.ruleset;
  }
  drawStatus($("#play-status"), view, view.bot_to_move ? " (a bot is thinking)" : "");
  drawScores($("#play-scores"), view);
  drawBoard($("#play-board"), view);
  $("#play-actions").replaceChildren();
  mod.showPlay(view, ui);
  $("#play-moves").replaceChildren(...moves.map((m) =>
    el("button", { type: "button", class: "move", "data-move": m, onclick: () => sendMove(m) }, m)));
  drawHistory($("#play-history"), view.history);
  drawLastMove($("#play-last"), view);
  $("#play-undo").disabled = !view.can_undo;
  $("#play-hint").disabled = moves.length === 0;
  prepareHint("play", `/api/games/${play.id}/hint`, view);
  $("#play-download-record").disabled = !(view.has_record && view.outcome);
  if (view.outcome) showSummary(view);
  else $("#play-summary").hidden = true;
  // a finished game is analysed in one click; a game taken back from its end is another game
  if (view.outcome) {
    $("#play-analysis").hidden = false;
    analysis.update(view.history.length);
    analysis.showMove(null, null); // the board shows the game's end, not a move of the analysis
    analysis.extra.replaceChildren();
  } else if (!$("#play-analysis").hidden) {
    $("#play-analysis").hidden = true;
    analysis.reset();
  }
  if (!moves.length && !view.outcome && !view.bot_to_move) playPrompt(view.waiting || "");
  // what the page is waiting for, for people who script it (and the browser tests)
  document.body.dataset.play = view.outcome ? "over" : view.bot_to_move ? "bot" : moves.length ? "your-turn" : "waiting";
  document.body.dataset.playMoves = String(view.history.length);
}

function showSummary(view) {
  const box = $("#play-summary");
  box.hidden = false;
  const { title, lines } = gameModule(view.ruleset).summary(view);
  box.replaceChildren(
    el("h3", { text: title }),
    el("ol", {}, ...lines.map((line) => el("li", { "data-color": line.player, text: line.text }))),
    el("p", { text: `${view.history.length} moves.` }));
  playPrompt("");
}

async function sendMove(move) {
  if (play.busy) return;
  play.busy = true;
  playError("");
  resetChoice(play.view);
  try {
    const view = await api("POST", `/api/games/${play.id}/move`, { move, version: play.view.version });
    playPrompt("");
    $("#play-hint-box").hidden = true;
    showPlay(view);
  } catch (err) {
    if (!(await caughtUp(err))) playError(err.message);
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
        const view = await api("POST", `/api/games/${id}/bot`, { version: play.view.version });
        if (id === play.id) showPlay(view);
      } catch (err) {
        if (!(await caughtUp(err))) { playError(err.message); break; }
      } finally {
        play.busy = false;
      }
    }
  } finally {
    botsRunning = false;
  }
}

$("#play-hint").addEventListener("click", () => askHint("play", `/api/games/${play.id}/hint`, play.view, showPlay));
onThinkFirst(() => { if (play.view) prepareHint("play", `/api/games/${play.id}/hint`, play.view); });

// -- the analysis of a finished game --------------------------------------------------------------------------

const analysis = createAnalysis($("#play-analysis"), {
  mode: "play", label: "Analyse game", base: () => `/api/games/${play.id}`, onMove: showAnalysedMove,
});
analysis.reset();

// Move `index` of the analysis on the board: the position before it, the move played and the engine's plan.
function showAnalysedMove(index) {
  return showOnBoard(analysis, index, { mode: "play", base: () => `/api/games/${play.id}`, board: $("#play-board"),
    backLabel: "Back to the end of the game", back: () => showPlay(play.view), error: playError });
}

$("#play-undo").addEventListener("click", async () => {
  if (play.busy) return;
  play.busy = true;
  try {
    resetChoice(play.view);
    showPlay(await api("POST", `/api/games/${play.id}/undo`, { version: play.view.version }));
    playError("");
  } catch (err) {
    if (!(await caughtUp(err))) playError(err.message);
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
  showAddress("game", null);
  $("#play-game").hidden = true;
  $("#play-setup").hidden = false;
});

// Open the New-game form with the editor's board chosen (and a game played on a board, if the form had another).
export function playOnEditedBoard() {
  const form = $("#play-setup");
  $("#play-game").hidden = true;
  form.hidden = false;
  if (!parameter(formGame(form), "board")) {
    form.ruleset.value = shared.listing.games.find((g) => parameter(g, "board")).name;
    drawSeatChoices();
  }
  form.board.value = "edited";
}
