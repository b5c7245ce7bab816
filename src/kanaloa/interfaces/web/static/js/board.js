// What every mode shows of a position of any game: the picture, the moves so far, hints and the "Think first"
// switch.  What a game's picture means, its status line, its scores and its summary are the game's module's
// (setup.js `gameModule`; docs/web.md "A game's module").

import { api } from "./api.js";
import { $, $$, el } from "./dom.js";
import { gameModule } from "./setup.js";
import { zoomBoard } from "./zoom.js";

export function drawBoard(target, view) {
  target.innerHTML = view.svg;
  zoomBoard(target); // the zoom and pan the picture had (zoom.js)
}

// A view's status line and score lines, as its game's module writes them; `extra` follows the status.
export function drawStatus(target, view, extra = "") {
  target.textContent = gameModule(view.ruleset).status(view) + extra;
}

// The last move of a view's history in words ("Green takes Rasi from the face-up cards ..."), so that a player sees
// at a glance what a bot did, or what the table was just told; empty before the first move.
export function drawLastMove(target, view) {
  const last = view.history[view.history.length - 1];
  target.textContent = last && last.words ? `Last move: ${last.words}` : "";
}

export function drawScores(target, view) {
  target.replaceChildren(...gameModule(view.ruleset).scores(view));
}

function drawHint(box, hint, boardTarget, view) {
  box.hidden = false;
  box.replaceChildren();
  const rows = hint.candidates.map((c) => el("tr", {},
    el("td", { text: c.move + (c.proven ? " (wins for certain)" : c.about_equal ? " ~" : "") }),
    el("td", { text: `${(100 * c.win).toFixed(1)}%` }),
    el("td", { text: `${(100 * c.interval[0]).toFixed(0)}-${(100 * c.interval[1]).toFixed(0)}%` }),
    el("td", { text: String(c.visits) })));
  const plan = hint.plan_words && hint.plan_words.length > 1
    ? el("ol", { class: "plan-words" }, ...hint.plan_words.map((w) => el("li", { text: w }))) : "";
  box.append(
    el("p", {}, el("strong", { text: "Hint: " }), el("span", { class: "hint-move", text: hint.move })),
    hint.words ? el("p", { class: "hint-words", text: hint.words }) : "",
    el("p", { text: `Plan: ${hint.plan.join(", then ")}` }),
    plan,
    el("table", {}, el("tr", {}, el("th", { text: "move" }), el("th", { text: "win" }), el("th", { text: "95%" }),
      el("th", { text: "visits" })), ...rows),
    el("p", { class: "prompt", text: `${hint.iterations} iterations, ${hint.seconds} s` +
      (hint.interrupted ? " (stopped early: the best found so far)" : "") }));
  const mark = gameModule(view.ruleset).markHint; // the picture the server sent draws the plan; a game may add to it
  if (mark) mark(hint, boardTarget);
}

// -- Think first --------------------------------------------------------------------------------------------
//
// With the switch on (Play and Table share it, and the browser keeps it: localStorage), the hint for each position
// on which the person may ask one is prepared as the position is shown, and kept hidden: the Hint button turns into
// "Reveal hint", and only a click shows it.  With the switch off the Hint button asks for the hint and shows it.

const THINK_FIRST = "kanaloa.thinkFirst";
const prepared = {}; // by mode: {key, promise, hint, error} of the hint prepared for the position shown
const switched = []; // what each mode does when the switch is turned

export function thinkFirst() {
  try { return localStorage.getItem(THINK_FIRST) === "on"; } catch (err) { return false; }
}

function setThinkFirst(on) {
  try { localStorage.setItem(THINK_FIRST, on ? "on" : "off"); } catch (err) { /* a browser that keeps nothing */ }
  for (const box of $$(".think-first input")) box.checked = on;
  for (const fn of switched) fn(on);
}

// `fn(on)` is called when the switch is turned (a mode prepares the hint of the position it shows, or forgets it).
export function onThinkFirst(fn) { switched.push(fn); }

for (const box of $$(".think-first input")) {
  box.checked = thinkFirst();
  box.addEventListener("change", () => setThinkFirst(box.checked));
}

// What the page's hint is doing in mode `mode`, for people who script it (and the browser tests):
// "preparing", "ready" (prepared, hidden), "shown", or "" (nothing asked).
function hintState(mode, name) {
  document.body.dataset[`${mode}Hint`] = name;
  const button = $(`#${mode}-hint`);
  button.textContent = name === "preparing" ? "Hint (preparing…)" : name === "ready" ? "Reveal hint" : "Hint";
}

// Mode `mode` shows `view`, on which its person may ask a hint at `path` when the Hint button is enabled: with
// Think first on, the hint is prepared now and kept hidden.
export function prepareHint(mode, path, view) {
  const button = $(`#${mode}-hint`);
  if (!thinkFirst() || button.disabled) {
    prepared[mode] = null;
    hintState(mode, "");
    return;
  }
  const key = `${path} ${JSON.stringify(view.position)}`;
  if (prepared[mode] && prepared[mode].key === key) return;
  const entry = { key, hint: null, error: null };
  entry.promise = api("POST", path, {}).then((hint) => { entry.hint = hint; }, (err) => { entry.error = err; })
    .then(() => { if (prepared[mode] === entry) hintState(mode, entry.error ? "" : "ready"); });
  prepared[mode] = entry;
  hintState(mode, "preparing");
}

// Ask for a hint in mode `mode` ("play" or "table"), or reveal the one prepared (Think first): the answer's
// picture, with the plan drawn, replaces the board, and the hint box lists the plan and the candidates.
export async function askHint(mode, path, view, show) {
  const button = $(`#${mode}-hint`);
  const prompt = $(`#${mode}-prompt`);
  const ready = prepared[mode];
  button.disabled = true;
  prompt.textContent = ready && !ready.hint ? "Preparing the hint..." : ready ? "" : "Thinking about a hint... ";
  if (!ready || !ready.hint) { // a search under way can be stopped: it answers with the best move found so far
    prompt.append(el("button", { type: "button", id: `${mode}-hint-stop`, class: "stop",
      onclick: (e) => { e.target.disabled = true; api("POST", `${path}/cancel`, {}).catch(() => {}); } }, "Stop"));
  }
  try {
    let hint;
    if (ready && ready.key === `${path} ${JSON.stringify(view.position)}`) {
      await ready.promise;
      if (ready.error) throw ready.error;
      hint = ready.hint;
    } else {
      hint = await api("POST", path, {});
    }
    show({ ...view, svg: hint.svg });
    drawHint($(`#${mode}-hint-box`), hint, $(`#${mode}-board`), view);
    prompt.textContent = "";
    hintState(mode, "shown");
  } catch (err) {
    $(`#${mode}-error`).textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

export function drawHistory(target, items, current = null) {
  // each move in notation, and beneath it in words where the server tells them (a game's `words` face)
  target.replaceChildren(...items.map((item, i) => {
    const move = item.seat ? `${item.seat}: ${item.move}` : item.move;
    return el("li", { class: i === current ? "current" : "", "data-move": move },
      el("span", { class: "notation", text: `${i + 1}. ${move}` }),
      item.words ? el("span", { class: "words", text: item.words }) : "");
  }));
  const shown = current === null ? null : target.children[current];
  target.scrollTop = shown ? shown.offsetTop - target.offsetTop - target.clientHeight / 2 : target.scrollHeight;
}
