// Cannonball Colony's tiles in the page (R20.2; docs/cannonball.md "Tiles"): the tile editor of the Editor mode,
// and the tiles the New-game form draws the island from.  The server says what a tile is (GET /api/files/GAME:
// the format, the size, the terrains with their letters and colors, the built-in tiles) and reads every tile
// with the engine's own reader (POST /api/files/GAME/check), so a tile the editor writes is one that
// `kanaloa new --tiles FILE` reads; its one-line refusal is shown as it is.

import { api, download, readFile } from "/static/js/api.js";
import { el } from "/static/js/dom.js";

// The tiles the page holds beside the built-in ones, from the editor or uploaded: [{name, file}].
const extra = [];
const unchecked = new Set(); // the built-in tiles left out of the next game
let formEntry = null; // the game entry the New-game form's tile row was drawn for

const checkTile = (entry, file) => api("POST", `/api/files/${entry.name}/check`, file);

function addExtra(checked) {
  const at = extra.findIndex((t) => t.name === checked.name);
  if (at >= 0) extra.splice(at, 1);
  extra.push({ name: checked.name, file: checked.file, on: true });
  const box = document.querySelector("#play-tiles");
  if (box && formEntry) tileChoices(box, formEntry);
}

// -- the New-game form ------------------------------------------------------------------------------------------

// The tiles row: a box for each built-in tile and each tile of the page, and an upload of tile files.
export function tileChoices(box, entry) {
  formEntry = entry;
  const builtin = entry.default.tiles;
  const error = el("p", { class: "error", id: "play-tiles-error", role: "alert" });
  const upload = el("input", { type: "file", id: "play-tile-upload", accept: ".json,application/json", multiple: true,
    onchange: async (e) => {
      for (const file of [...e.target.files]) {
        try {
          addExtra(await checkTile(entry, JSON.parse(await readFile({ files: [file] }))));
        } catch (err) {
          document.querySelector("#play-tiles-error").textContent = `${file.name}: ${err.message}`;
          break;
        }
      }
      e.target.value = "";
    } });
  box.replaceChildren(
    el("span", { text: "Tiles (the island is drawn from these, a tile a player)" }),
    el("div", { class: "row tile-picks" },
      ...builtin.map((name) => el("label", { class: "tile-pick" }, el("input", { type: "checkbox", "data-tile": name,
        checked: !unchecked.has(name), onchange: (e) => { if (e.target.checked) unchecked.delete(name); else unchecked.add(name); } }),
      name)),
      ...extra.map((t) => el("label", { class: "tile-pick own" }, el("input", { type: "checkbox", "data-own-tile": t.name,
        checked: t.on, onchange: (e) => { t.on = e.target.checked; } }), `${t.name} (yours)`))),
    el("label", { class: "file" }, "Upload tile files", upload),
    error);
}

// The request's `tiles`: null for the built-in set (every built-in tile and no other), else the names of the
// built-in tiles chosen and the content of the others.
export function tilesOfRequest(box, entry) {
  const own = extra.filter((t) => t.on);
  const builtin = entry.default.tiles.filter((name) => !unchecked.has(name));
  if (!own.length && builtin.length === entry.default.tiles.length) return null;
  return [...builtin, ...own.map((t) => t.file)];
}

// -- the tile editor --------------------------------------------------------------------------------------------

export const tileEditor = { title: "Tile editor", start: startTileEditor };

async function startTileEditor(pane, entry) {
  const info = await api("GET", `/api/files/${entry.name}`);
  const size = info.size;
  const fill = Object.fromEntries(info.terrains.map((t) => [t.letter, t.fill]));
  const named = Object.fromEntries(info.terrains.map((t) => [t.letter, t.name]));
  const state = { rows: Array.from({ length: size }, () => info.terrains[0].letter.repeat(size)),
    paint: info.terrains[0].letter, dragging: false };

  const grid = el("div", { class: "tile-grid", id: "tile-grid", style: `grid-template-columns: repeat(${size}, 1fr)` });
  const message = (error, ok = "") => {
    pane.querySelector("#tile-error").textContent = error || "";
    pane.querySelector("#tile-ok").textContent = ok;
  };
  const document_ = () => {
    const doc = { format: info.format, name: pane.querySelector("#tile-name").value };
    const description = pane.querySelector("#tile-description").value;
    if (description) doc.description = description;
    doc.rows = [...state.rows];
    return doc;
  };
  const setCell = (r, c, letter) => {
    const row = state.rows[r];
    state.rows[r] = row.slice(0, c) + letter + row.slice(c + 1);
  };
  function draw() {
    grid.replaceChildren(...state.rows.flatMap((row, r) => [...row].map((letter, c) => el("button", {
      type: "button", class: "tile-cell", "data-row": r, "data-column": c, "data-terrain": named[letter] || letter,
      style: `background: ${fill[letter] || "#ffffff"}`, title: `row ${r + 1} from the top, column ${c + 1}: ${named[letter] || letter}`,
      onmousedown: () => { state.dragging = true; paintAt(r, c); },
      onmouseenter: () => { if (state.dragging) paintAt(r, c); },
      onclick: () => paintAt(r, c) }))));
    const letters = state.rows.join("");
    pane.querySelector("#tile-counts").textContent = info.terrains
      .map((t) => `${[...letters].filter((x) => x === t.letter).length} ${t.name}`).join(", ");
    for (const b of pane.querySelectorAll("#tile-terrains button")) b.classList.toggle("selected", b.dataset.letter === state.paint);
  }
  function paintAt(r, c) {
    if (state.rows[r][c] === state.paint) return;
    setCell(r, c, state.paint);
    message("");
    draw();
  }
  async function check() {
    message("");
    try {
      const checked = await checkTile(entry, document_());
      message("", `The tile is good: ${checked.summary}.`);
      return checked;
    } catch (err) {
      message(err.message);
      return null;
    }
  }
  function load(doc) { // a tile the server has read
    state.rows = [...doc.rows];
    pane.querySelector("#tile-name").value = doc.name || "";
    pane.querySelector("#tile-description").value = doc.description || "";
    draw();
  }

  const builtin = el("select", { id: "tile-builtin" }, ...info.builtin.map((n) => el("option", { value: n, text: n })));
  pane.replaceChildren(el("div", { class: "game tile-editor" },
    el("div", { class: "board" }, grid),
    el("aside", { class: "side" },
      el("p", { class: "prompt", text: `Choose a terrain, then click or drag over the spaces of the ${size} x ${size} ` +
        "tile, the top row first as the file lists it. Turning a tile does not matter: the layout turns every tile." }),
      el("div", { class: "row", id: "tile-terrains" }, ...info.terrains.map((t) => el("button", {
        type: "button", "data-letter": t.letter, "data-terrain": t.name, onclick: () => { state.paint = t.letter; draw(); } },
      el("span", { class: "swatch", style: `background: ${t.fill}` }), ` ${t.name}`))),
      el("label", {}, "Tile name ", el("input", { id: "tile-name", value: "mytile" })),
      el("label", {}, "Description ", el("input", { id: "tile-description", placeholder: "optional" })),
      el("p", { id: "tile-counts" }),
      el("p", { class: "error", id: "tile-error", role: "alert" }),
      el("p", { class: "ok", id: "tile-ok" }),
      el("div", { class: "buttons" },
        el("button", { type: "button", id: "tile-check", onclick: check }, "Check"),
        el("button", { type: "button", id: "tile-download", onclick: async () => {
          const checked = await check();
          if (checked) download(`${checked.file.name.replace(/[^A-Za-z0-9_-]+/g, "-") || "tile"}.json`, checked.file);
        } }, "Download tile file"),
        el("button", { type: "button", id: "tile-use", onclick: async () => {
          const checked = await check();
          if (checked) { addExtra(checked); message("", `${checked.summary}: offered for the next game in Play.`); }
        } }, "Use in the next game"),
        el("button", { type: "button", id: "tile-fill", onclick: () => {
          state.rows = state.rows.map(() => state.paint.repeat(size)); draw();
        } }, "Fill with the terrain"),
        builtin,
        el("button", { type: "button", id: "tile-load", onclick: async () => {
          try { load(await api("GET", `/api/files/${entry.name}/${builtin.value}`)); message(""); }
          catch (err) { message(err.message); }
        } }, "Load"),
        el("label", { class: "file" }, "Upload tile file", el("input", { type: "file", id: "tile-upload",
          accept: ".json,application/json", onchange: async (e) => {
            try {
              const checked = await checkTile(entry, JSON.parse(await readFile(e.target)));
              load(checked.file);
              message("", `The tile is good: ${checked.summary}.`);
            } catch (err) { message(`cannot load that tile file: ${err.message}`); }
            e.target.value = "";
          } }))))));
  window.addEventListener("mouseup", () => { state.dragging = false; });
  draw();
}
