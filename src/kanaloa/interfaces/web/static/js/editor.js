// The board editor: draw a board, have the server check it, save it, play on it.

import { api, download, readFile } from "./api.js";
import { $, $$, el, showMode } from "./dom.js";
import { playOnEditedBoard } from "./play.js";
import { fillBoardSelects, gameEntry, shared } from "./setup.js";

export const editor = { islands: [], links: [], tool: "island", selected: null, dragging: null, counter: 0 };
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

export function drawEditor() {
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

// The server reads the board as --board does; it says too which games cannot be played on it, and why.
async function checkEditorBoard() {
  editorError("");
  try {
    const checked = await api("POST", "/api/boards/check", editorBoard());
    const refused = Object.entries(checked.games || {}).filter(([, why]) => why)
      .map(([name, why]) => ` Not for ${gameEntry(name).title}: ${why}.`).join("");
    $("#editor-ok").textContent = `The board is good: ${checked.islands} islands, ${checked.links} links, ${checked.cards} cards.${refused}`;
    shared.edited = checked.board;
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
  playOnEditedBoard();
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

// The editor as the page opens: its first tool's prompt, the built-in boards to load, an empty sea.
export function startEditor() {
  editorPrompt(TOOL_PROMPTS.island);
  $("#editor-builtin").replaceChildren(...shared.boards.map((b) => el("option", { value: b, text: b })));
  drawEditor();
}
