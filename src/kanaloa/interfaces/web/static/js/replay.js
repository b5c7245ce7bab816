// Replay: step through a game recorded by kanaloa simulate --out, and analyse it (analysis.js): once analysed,
// the chart under the board jumps to a move, and each step shows the move about to be played beside the engine's.

import { createAnalysis, drawMove } from "./analysis.js";
import { api, readFile } from "./api.js";
import { drawBoard, drawHistory, drawScores, drawStatus } from "./board.js";
import { $, el } from "./dom.js";
import { shared } from "./setup.js";

// `at`: the step shown; `wanted`: the step last asked for (the buttons step from it, so that clicks faster than
// the server's answers add up, and only the answer to the last request is shown).
export const replay = { id: null, at: 0, wanted: 0, length: 0, view: null };
let asked = 0; // requests of a step made so far

const analysis = createAnalysis($("#replay-analysis"), {
  mode: "replay", label: "Analyse game", base: () => `/api/replays/${replay.id}`, onMove: (index) => replayTo(index, true),
  onDone: () => replayTo(replay.wanted),
});
analysis.reset();

// Once the game is analysed, whether each step shows the next move beside the engine's (a click on the chart always
// does).
const reviewing = el("input", { type: "checkbox", id: "replay-review", checked: true });

async function loadReplay() {
  const form = $("#replay-setup");
  $("#replay-load-error").textContent = "";
  try {
    const records = await readFile($("#replay-file"));
    const request = { records };
    if (form.game.value !== "") request.game = Number(form.game.value);
    if (form.board.value === "edited") request.board = shared.edited;
    const view = await api("POST", "/api/replays", request);
    replay.id = view.id;
    replay.length = view.length;
    replay.wanted = 0;
    analysis.reset();
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
  if (view.review) drawMove($("#replay-board"), view);
  else drawBoard($("#replay-board"), view);
  $("#replay-slider").value = view.at;
  const rec = view.record;
  const last = view.at ? `; move ${view.at}: ${rec.moves[view.at - 1]}` : "";
  $("#replay-at").textContent = `Move ${view.at} of ${view.length}${last}`;
  $("#replay-lineup").textContent = `Game ${rec.game}: ` +
    pos.players.map((color, seat) => `${color} ${rec.lineup[seat]}`).join(", ");
  // with a move of the analysis shown, the move about to be played is the one marked; else the last one played
  const marked = view.review ? view.at : view.at - 1;
  drawHistory($("#replay-history"), rec.moves.map((m) => ({ move: m })), marked);
  if (analysis.result) {
    analysis.showMove(view.review || null, marked);
    if (!$("#replay-review")) {
      analysis.extra.replaceChildren(el("label", { class: "switch" }, reviewing, " Show the engine's move at each step"));
    }
  }
  document.body.dataset.replayAt = String(view.at);
  document.body.dataset.replayReview = view.review ? String(view.index) : "";
}

// Step `at` of the replay (the moves played before it); with the analysis done and `review` (or the switch
// on), the move about to be played beside the engine's.
async function replayTo(at, review = false) {
  if (!replay.id) return;
  const target = Math.max(0, Math.min(replay.length, at));
  const move = analysis.result && target < replay.length && (review || reviewing.checked);
  const ticket = ++asked;
  replay.wanted = target;
  try {
    const view = await api("GET", move ? `/api/replays/${replay.id}/analysis/moves/${target}`
      : `/api/replays/${replay.id}?at=${target}`);
    if (ticket !== asked) return; // a later step was asked for meanwhile
    showReplay(view);
    $("#replay-error").textContent = "";
  } catch (err) {
    if (ticket === asked) $("#replay-error").textContent = err.message;
  }
}
reviewing.addEventListener("change", () => replayTo(replay.wanted));
$("#replay-another").addEventListener("click", () => {
  replay.id = null;
  analysis.reset();
  $("#replay-game").hidden = true;
  $("#replay-setup").hidden = false;
});
$("#replay-first").addEventListener("click", () => replayTo(0));
$("#replay-prev").addEventListener("click", () => replayTo(replay.wanted - 1));
$("#replay-next").addEventListener("click", () => replayTo(replay.wanted + 1));
$("#replay-last").addEventListener("click", () => replayTo(replay.length));
$("#replay-slider").addEventListener("change", (e) => replayTo(Number(e.target.value)));
document.addEventListener("keydown", (e) => {
  if (!$("#replay").classList.contains("active") || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") replayTo(replay.wanted + 1);
  if (e.key === "ArrowLeft") replayTo(replay.wanted - 1);
});
