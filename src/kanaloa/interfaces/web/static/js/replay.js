// Replay: step through a game recorded by kanaloa simulate --out.

import { api, readFile } from "./api.js";
import { drawBoard, drawHistory, drawScores, drawStatus } from "./board.js";
import { $ } from "./dom.js";
import { shared } from "./setup.js";

export const replay = { id: null, at: 0, length: 0, view: null };

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
