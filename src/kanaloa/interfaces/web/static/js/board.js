// What every mode shows of a position of any game: the picture, the moves so far, hints.  What a game's picture
// means, its status line, its scores and its summary are the game's module's (setup.js `gameModule`; docs/web.md
// "A game's module").

import { api } from "./api.js";
import { $, el } from "./dom.js";
import { gameModule } from "./setup.js";

export function drawBoard(target, view) {
  target.innerHTML = view.svg;
}

// A view's status line and score lines, as its game's module writes them; `extra` follows the status.
export function drawStatus(target, view, extra = "") {
  target.textContent = gameModule(view.ruleset).status(view) + extra;
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
  box.append(
    el("p", {}, el("strong", { text: "Hint: " }), el("span", { class: "hint-move", text: hint.move })),
    el("p", { text: `Plan: ${hint.plan.join(", then ")}` }),
    el("table", {}, el("tr", {}, el("th", { text: "move" }), el("th", { text: "win" }), el("th", { text: "95%" }),
      el("th", { text: "visits" })), ...rows),
    el("p", { class: "prompt", text: `${hint.iterations} iterations, ${hint.seconds} s` }));
  const mark = gameModule(view.ruleset).markHint; // the picture the server sent draws the plan; a game may add to it
  if (mark) mark(hint, boardTarget);
}

// Ask for a hint in mode `mode` ("play" or "table"): the answer's picture, with the plan drawn, replaces the
// board, and the hint box lists the plan and the candidates.
export async function askHint(mode, path, view, show) {
  const button = $(`#${mode}-hint`);
  const prompt = $(`#${mode}-prompt`);
  button.disabled = true;
  prompt.textContent = "Thinking about a hint...";
  try {
    const hint = await api("POST", path, {});
    show({ ...view, svg: hint.svg });
    drawHint($(`#${mode}-hint-box`), hint, $(`#${mode}-board`), view);
    prompt.textContent = "";
  } catch (err) {
    $(`#${mode}-error`).textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

export function drawHistory(target, items, current = null) {
  target.replaceChildren(...items.map((item, i) =>
    el("li", { class: i === current ? "current" : "" }, `${i + 1}. ` + (item.seat ? `${item.seat}: ${item.move}` : item.move))));
  const shown = current === null ? null : target.children[current];
  target.scrollTop = shown ? shown.offsetTop - target.offsetTop - target.clientHeight / 2 : target.scrollHeight;
}
