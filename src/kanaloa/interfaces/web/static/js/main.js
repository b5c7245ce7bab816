// The page of `kanaloa serve`: four modes over the JSON API of docs/web.md, one module each (play.js,
// table.js, editor.js, replay.js), over what they share (board.js: the picture and panels of a position;
// setup.js: the games of the registry and the boards; moves.js: the notation; api.js; dom.js).
// No rule is decided here: the server lists the legal moves and refuses what does not fit, and every rule fact
// the page shows (seats, sizes, rule ids) is read from the rule sets the server sends (`rules` in every view,
// GET /api/games for the forms).  This module starts the page and switches the modes.

import { api } from "./api.js";
import { $, $$, showMode } from "./dom.js";
import { editor, startEditor } from "./editor.js";
import { drawSeatChoices, play, playError } from "./play.js";
import { replay } from "./replay.js";
import { fillBoardSelects, fillGameChoices, followGame, setupError, shared } from "./setup.js";
import { drawHandPicker, drawTableViewers, table } from "./table.js";

for (const b of $$("#modes button")) b.addEventListener("click", () => showMode(b.dataset.mode));

// The state of each mode, for people who script the page (and the browser tests).
window.kanaloa = { play, table, editor, replay, shared };

async function start() {
  try {
    const [boards, games] = await Promise.all([api("GET", "/api/boards"), api("GET", "/api/games")]);
    shared.boards = boards.builtin;
    shared.listing = games;
  } catch (err) {
    playError(err.message);
    setupError("play", `cannot start the page: ${err.message}`);
    return;
  }
  fillBoardSelects();
  for (const form of [$("#play-setup"), $("#table-setup")]) {
    fillGameChoices(form);
    followGame(form);
  }
  drawSeatChoices();
  drawTableViewers();
  startEditor();
  await drawHandPicker();
  document.body.dataset.ready = "1";
}
start();
