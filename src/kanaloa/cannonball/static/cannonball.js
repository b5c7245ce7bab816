// Cannonball Colony's part of the page (R20): the module its web face names (kanaloa/cannonball/web.py; docs/web.md
// "A game's module", docs/cannonball.md "In the web app").  Nothing of the rules is decided here: every view
// carries the legal moves grouped by the space each is played on (`targets`) and those on no space (`buttons`),
// the status line (`status`), each country's line (`standings`) and, once over, who won and why (`outcome_text`).
//
// Play: a click on a space of the picture (or Enter on it: the interactive picture's spaces are focusable
// buttons) plays the only legal move there, or offers the moves there as buttons; a click on a piece counts as a
// click on its space (a rival fort is where `fire` aims).  `end` and `pass` are buttons.  The New-game form gets
// a country for each seat and the tiles to draw the island from: the built-in ones, tile files uploaded, and the
// tiles of the tile editor (tiles.js).

import { $$, el } from "/static/js/dom.js";
import { tileChoices, tileEditor, tilesOfRequest } from "./tiles.js";

export const editor = tileEditor;

export const status = (view) => view.status;

export const scores = (view) => view.standings.map((s) =>
  el("span", { class: "score", "data-color": s.player, "data-forts": s.forts },
    el("span", { class: "swatch", style: `background: ${s.color}` }), s.text));

export function summary(view) {
  const byName = Object.fromEntries(view.standings.map((s) => [s.player, s]));
  return { title: view.outcome_text, lines: view.outcome.ranking.map((name) => ({ player: name, text: byName[name].text })) };
}

// -- Play -------------------------------------------------------------------------------------------------------

let chosen = null; // the space whose moves are offered as buttons

export function reset() { chosen = null; }

export function showPlay(view, ui) {
  const targets = view.targets || {};
  for (const g of $$("g.space", ui.board)) {
    const space = g.dataset.space;
    g.classList.toggle("playable", space in targets);
    g.classList.toggle("selected", space === chosen);
    g.addEventListener("click", () => clickSpace(space, view, ui));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickSpace(space, view, ui); }
    });
  }
  for (const g of $$("g.piece", ui.board)) g.addEventListener("click", () => clickSpace(g.dataset.space, view, ui));
  const offered = chosen && targets[chosen] ? targets[chosen] : [];
  if (!offered.length) chosen = null;
  const word = (move) => move.split(" ")[0];
  ui.actions.replaceChildren(
    ...offered.map((m) => el("button", { type: "button", class: "move choice", "data-move": m, onclick: () => ui.send(m) }, m)),
    ...(view.buttons || []).map((m) => el("button", { type: "button", id: `play-${word(m)}`, "data-move": m,
      onclick: () => ui.send(m) }, m === "end" ? "End the turn (no second grass road)" : m === "pass" ? "Pass" : m)));
  if (!ui.panel.childElementCount) {
    ui.panel.append(el("p", { class: "prompt", text: "Click a ringed space to play there: a landing, a shot at a " +
      "rival fort, a road or a piece. Where several moves are possible, choose one below the picture." }));
  }
}

function clickSpace(space, view, ui) {
  if (ui.busy()) return;
  const moves = (view.targets || {})[space] || [];
  if (!moves.length) {
    ui.prompt(view.moves.length ? `No legal move on ${space}` : "");
    return;
  }
  if (moves.length === 1) { chosen = null; ui.send(moves[0]); return; }
  chosen = space;
  ui.prompt(`${space}: ${moves.join(" or ")}?`);
  ui.redraw();
}

// -- the New-game form ------------------------------------------------------------------------------------------

// A country for each seat (R20.3, the rule set's palette; the seat's own by default) and the tiles (R20.2).
export function setupRows(box, { entry, rules, changed }) {
  const old = [...box.querySelectorAll("select[data-seat]")].map((s) => s.value);
  const countries = el("div", { class: "row countries", id: "play-countries" }, el("span", { text: "Countries" }),
    ...rules.seats.map((own, i) => {
      const select = el("select", { "data-seat": i, "aria-label": `country of seat ${i + 1}`, onchange: changed },
        ...rules.palette.map((c) => el("option", { value: c, text: c })));
      select.value = old[i] && rules.palette.includes(old[i]) ? old[i] : own;
      return select;
    }));
  const tiles = box.querySelector("#play-tiles") || el("div", { id: "play-tiles" });
  box.replaceChildren(countries, tiles);
  tileChoices(tiles, entry);
}

export const seatNames = (box) => [...box.querySelectorAll("select[data-seat]")].map((s) => s.value);

export function setupRequest(box, entry) {
  const request = {};
  const chosenCountries = seatNames(box);
  const defaults = entry.choices.players[String(chosenCountries.length)];
  if (!defaults || chosenCountries.join(",") !== defaults.seats.join(",")) request.countries = chosenCountries;
  const tiles = tilesOfRequest(box.querySelector("#play-tiles"), entry);
  if (tiles !== null) request.tiles = tiles;
  return request;
}
