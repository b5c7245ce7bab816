// The page of `kanaloa serve`: four modes over the JSON API of docs/web.md, one module each (play.js,
// table.js, editor.js with positions.js, replay.js), over what they share (board.js: the picture, hints, the moves
// so far and the Think first switch; analysis.js: a whole game's analysis, its chart and summary; setup.js: the
// games of the registry, their modules and the boards; api.js; dom.js).  What a game
// alone knows is its module's, imported from the URL its entry in GET /api/games names (`web.module`): cards.js
// for the card games; a game with files of its own serves its module itself.
// No rule is decided here: the server lists the legal moves and refuses what does not fit, and every rule fact
// the page shows (seats, sizes, rule ids) is read from the rule sets the server sends (`rules` in every view,
// GET /api/games for the forms).  This module starts the page and switches the modes and the editors.

import { addressed, api } from "./api.js";
import { $, $$, el, showMode } from "./dom.js";
import { editor, startEditor } from "./editor.js";
import { drawSeatChoices, play, playError } from "./play.js";
import { positions, startPositions } from "./positions.js";
import { replay } from "./replay.js";
import { resume, saved, showSaved } from "./saved.js";
import {
  fillBoardSelects, fillGameChoices, followGame, gameModule, loadGameModules, setupError, shared,
} from "./setup.js";
import { drawHandPicker, drawTableViewers, table } from "./table.js";

for (const b of $$("#modes button")) {
  b.addEventListener("click", () => { showMode(b.dataset.mode); if (b.dataset.mode === "saved") showSaved(); });
}

// The state of each mode, for people who script the page (and the browser tests).
window.kanaloa = { play, table, editor, positions, replay, saved, shared };

// Resume the game the page's address names (a reload, a bookmark, another tab), unless it is open already.
async function followAddress() {
  const target = addressed();
  if (!target) return;
  const open = target.kind === "table" ? table.id : play.id;
  if (open === target.id) return;
  try {
    await resume(target.kind, target.id);
  } catch (err) {
    showMode("saved");
    await showSaved();
    $("#saved-error").textContent = `cannot resume the game of this address: ${err.message}`;
  }
}
window.addEventListener("hashchange", followAddress);

// Show editor `kind` of the Editor mode ("board", "position", or a game's own files: "tile"...).
export function showEditor(kind) {
  for (const b of $$("#editor-kinds button")) b.classList.toggle("active", b.dataset.editor === kind);
  for (const p of $$("#editor .editor-pane")) p.classList.toggle("active", p.id === `editor-${kind}`);
}

// Each game's editor of its own data files (its module's `editor`), once for each kind of file.
function addGameEditors() {
  const before = $('#editor-kinds button[data-editor="position"]');
  for (const entry of shared.listing.games) {
    const mod = gameModule(entry.name);
    const kind = entry.web.files;
    if (!kind || !mod.editor || $(`#editor-${kind}`)) continue;
    before.before(el("button", { type: "button", "data-editor": kind }, mod.editor.title));
    const pane = el("div", { class: "editor-pane", id: `editor-${kind}` });
    $("#editor").append(pane);
    mod.editor.start(pane, entry);
  }
  for (const b of $$("#editor-kinds button")) b.addEventListener("click", () => showEditor(b.dataset.editor));
}

// The Table mode follows games with hidden hands; the others are named with the reason they are not offered.
function tableGames() {
  const form = $("#table-setup");
  fillGameChoices(form, (g) => g.table === null);
  const others = shared.listing.games.filter((g) => g.table !== null);
  $("#table-not-served").textContent = others.map((g) => `${g.title} is not offered here: ${g.table}.`).join(" ");
}

async function start() {
  try {
    const [boards, games] = await Promise.all([api("GET", "/api/boards"), api("GET", "/api/games")]);
    shared.boards = boards.builtin;
    shared.hintIterations = boards.hint_iterations;
    shared.listing = games;
    await loadGameModules();
  } catch (err) {
    playError(err.message);
    setupError("play", `cannot start the page: ${err.message}`);
    return;
  }
  fillBoardSelects();
  fillGameChoices($("#play-setup"));
  tableGames();
  for (const form of [$("#play-setup"), $("#table-setup")]) followGame(form);
  drawSeatChoices();
  drawTableViewers();
  startEditor();
  startPositions();
  addGameEditors();
  await drawHandPicker();
  await followAddress();
  document.body.dataset.ready = "1";
}
start();
