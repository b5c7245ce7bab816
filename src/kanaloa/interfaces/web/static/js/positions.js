// The position editor: a position of any game as its document (kanaloa-position/1), edited as text, read by the
// game's own reader on the server (POST /api/positions/check), drawn, saved, and played on from the Play mode.
// A new one is dealt by POST /api/positions.  The document is kept as the server wrote it (`text`): JSON.parse
// would round a 64-bit seed.

import { api, download, readFile } from "./api.js";
import { drawBoard } from "./board.js";
import { $, el } from "./dom.js";
import { play, playPosition } from "./play.js";
import { fillGameChoices, formGame, parameter, shared } from "./setup.js";

export const positions = { view: null };

function editorMessage(error, ok = "") {
  $("#position-error").textContent = error || "";
  $("#position-ok").textContent = ok;
}

function show(view) {
  positions.view = view;
  $("#position-text").value = view.text;
  drawBoard($("#position-board"), view);
  const rules = view.rules;
  const whose = view.viewer ? `, as ${view.viewer} sees it` : "";
  const where = view.outcome ? "the game is over" : `${view.to_move} to move, ${view.moves.length} legal moves`;
  editorMessage("", `A good position of ${rules.description}${whose}: ${where}.`);
}

// The document in the text box, read by the server; the view, or null with the reason shown in one line.
async function check() {
  editorMessage("");
  try {
    const view = await api("POST", "/api/positions/check", { position: $("#position-text").value });
    show(view);
    return view;
  } catch (err) {
    editorMessage(err.message);
    return null;
  }
}

function drawPlayers() {
  const form = $("#position-deal");
  const players = parameter(formGame(form), "players");
  const choices = (players && players.choices) || [];
  $("#position-players-row").hidden = choices.length < 2;
  form.players.replaceChildren(...choices.map((c) => el("option", { value: c, text: c })));
  if (players) form.players.value = players.default;
}

$("#position-deal").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.target;
  const request = { ruleset: form.ruleset.value, seed: Number(form.seed.value) || 0 };
  if (!$("#position-players-row").hidden) request.players = Number(form.players.value);
  try { show(await api("POST", "/api/positions", request)); } catch (err) { editorMessage(err.message); }
});
$("#position-deal [name=ruleset]").addEventListener("change", drawPlayers);
$("#position-check").addEventListener("click", check);
$("#position-download").addEventListener("click", async () => {
  const view = await check();
  if (view) download("kanaloa-position.json", view.text);
});
$("#position-play").addEventListener("click", async () => {
  const view = await check();
  if (view) await playPosition(view.text);
});
$("#position-from-play").addEventListener("click", async () => {
  if (!play.id) { editorMessage("no game in the Play mode: start one there first"); return; }
  const response = await fetch(`/api/games/${play.id}/position`);
  $("#position-text").value = await response.text();
  await check();
});
$("#position-upload").addEventListener("change", async (e) => {
  try { $("#position-text").value = await readFile(e.target); await check(); } catch (err) { editorMessage(err.message); }
  e.target.value = "";
});

export function startPositions() {
  fillGameChoices($("#position-deal"));
  drawPlayers();
  if (!shared.listing.games.length) editorMessage("the server lists no game");
}
