// The analysis of a whole game (docs/web.md "Analysis"): one component for Replay, Play and Table.  Its button
// starts the job the server runs in the background (POST …/analysis), the component polls its progress (with a
// Cancel button), then shows what the server sent: the win-chance chart (kanaloa.interfaces.chart), where a click
// on a move's column or mark shows that move, the caption of the move shown, and each player's summary.  Which
// position a click shows is the mode's (`onMove`); the caption and the marks of the move played on the picture
// are drawn here for every mode (`showMove`).

import { api, sleep } from "./api.js";
import { drawBoard } from "./board.js";
import { el } from "./dom.js";
import { gameModule, shared } from "./setup.js";

const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder", "forced"];
const POLL_MS = 250;
const pct = (x) => `${(100 * x).toFixed(1)}%`;

// One line on a move of the analysis: what was played, its grade and the mover's win chance before and after it,
// and the engine's move with its chance (the chance before the move: the chance with the best play found).
export function reviewCaption(review) {
  const head = `Move ${review.index + 1}, ${review.player}: `;
  const played = el("span", { class: "played-move", text: `played ${review.move}` });
  if (!review.analysed) return [head, played, ` (not judged: ${review.why})`];
  if (review.grade === "forced") return [head, played, " (forced: the only legal move)"];
  const plan = review.plan.length > 1 ? `${review.best}, then ${review.plan.slice(1).join(", then ")}` : review.best;
  const certain = review.proven ? ", a win for certain" : "";
  return [head, played, ` (${review.grade}, win ${pct(review.before)}→${pct(review.after)}) · `,
    el("span", { class: "engine-move", text: `engine: ${plan}` }), ` (${pct(review.before)}${certain})`];
}

// The picture of a move of the analysis (the view GET …/analysis/moves/I answers): the position before the move,
// the engine's plan drawn by the server, the move played marked by the game's module where it can.
export function drawMove(target, view) {
  drawBoard(target, view);
  const mark = gameModule(view.ruleset).markPlayed;
  if (mark) mark(view.review.move, target, view);
}

// Move `index` of `analysis` on a board of the mode's own (Play, Table): the position before the move, the move
// played and the engine's plan, the caption, and a button back (`backLabel`; `back()` draws the mode's position
// again). `error(text)` shows what went wrong, or clears it.
export async function showOnBoard(analysis, index, { mode, base, board, backLabel, back, error }) {
  try {
    const view = await api("GET", `${base()}/analysis/moves/${index}`);
    drawMove(board, view);
    analysis.showMove(view.review, index);
    analysis.extra.replaceChildren(el("button", { type: "button", id: `${mode}-analysis-back`, onclick: () => {
      analysis.showMove(null, null);
      analysis.extra.replaceChildren();
      back();
    } }, backLabel));
    document.body.dataset[`${mode}Analysed`] = String(index);
    error("");
  } catch (err) {
    error(err.message);
  }
}

// The component in `box` for mode `mode` ("replay", "play", "table"): `label` names its button, `base()` is the
// API path of the session analysed (`/api/replays/ID`), `onMove(index)` shows move `index` of the analysis, and
// `onDone()`, when given, is called once the result is shown.
export function createAnalysis(box, { mode, label, base, onMove, onDone = null }) {
  const state = { token: 0, result: null };
  const button = el("button", { type: "button", id: `${mode}-analyse` }, label);
  const iterations = el("input", { type: "number", min: "1", id: `${mode}-analysis-iterations`,
    "aria-label": "iterations a search" });
  const cancel = el("button", { type: "button", id: `${mode}-analysis-cancel`, hidden: true }, "Cancel");
  const progress = el("progress", { id: `${mode}-analysis-progress`, hidden: true });
  const status = el("span", { class: "prompt", id: `${mode}-analysis-status` });
  const error = el("p", { class: "error", role: "alert", id: `${mode}-analysis-error` });
  const chart = el("div", { class: "analysis-chart", id: `${mode}-analysis-chart` });
  const caption = el("p", { class: "analysis-caption", id: `${mode}-analysis-caption` });
  const extra = el("div", { class: "row analysis-extra", id: `${mode}-analysis-extra` });
  const summary = el("div", { class: "analysis-summary", id: `${mode}-analysis-summary` });
  box.classList.add("analysis");
  box.replaceChildren(el("div", { class: "row analysis-controls" }, button,
    el("label", { class: "analysis-budget" }, "iterations a search ", iterations), cancel, progress, status),
  error, chart, caption, extra, summary);

  const setState = (name) => { box.dataset.state = name; };
  function clear() {
    state.result = null;
    chart.replaceChildren();
    caption.replaceChildren();
    extra.replaceChildren();
    summary.replaceChildren();
  }

  function showJob(job) {
    setState(job.state);
    const running = job.state === "queued" || job.state === "running";
    button.disabled = running;
    cancel.hidden = !running;
    progress.hidden = !running;
    progress.max = Math.max(job.total, 1);
    progress.value = job.done;
    status.textContent = job.state === "queued" ? "Waiting for the server's analysis thread…"
      : job.state === "running" ? `Analysing: ${job.done} of ${job.total} moves judged`
        : job.state === "cancelled" ? "Analysis cancelled." : job.state === "failed" ? "" : status.textContent;
    if (job.state === "failed") error.textContent = `The analysis failed: ${job.error}`;
  }

  async function start() {
    const token = ++state.token;
    error.textContent = "";
    const body = {};
    if (iterations.value !== "") body.iterations = Number(iterations.value);
    let job;
    try {
      job = await api("POST", `${base()}/analysis`, body);
    } catch (err) {
      error.textContent = err.message;
      return;
    }
    clear();
    while (token === state.token) {
      showJob(job);
      if (job.state !== "queued" && job.state !== "running") break;
      await sleep(POLL_MS);
      if (token !== state.token) return;
      try {
        job = await api("GET", `${base()}/analysis`);
      } catch (err) {
        error.textContent = err.message;
        return;
      }
    }
    if (token !== state.token || job.state !== "done") return;
    try {
      show(await api("GET", `${base()}/analysis/result`));
    } catch (err) {
      error.textContent = err.message;
    }
  }

  function show(result) {
    state.result = result;
    const analysis = result.analysis;
    const judged = analysis.moves.filter((m) => m.analysed).length;
    status.textContent = `${judged} of ${analysis.moves.length} moves judged, ${result.iterations} iterations a ` +
      `search, seed ${result.seed}. Click the chart to see a move.`;
    chart.innerHTML = result.chart;
    for (const target of chart.querySelectorAll("[data-move]")) {
      target.addEventListener("click", () => onMove(Number(target.dataset.move)));
      if (target.classList.contains("mark")) {
        target.setAttribute("tabindex", "0");
        target.setAttribute("role", "button");
        target.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onMove(Number(target.dataset.move)); }
        });
      }
    }
    summary.replaceChildren(summaryTable(analysis));
    setState("done");
    if (onDone) onDone();
  }

  function summaryTable(analysis) {
    const head = el("tr", {}, el("th", { text: "player" }), el("th", { text: "moves" }),
      el("th", { text: "mean loss" }), ...GRADES.map((g) => el("th", { class: `grade ${g}`, text: g })),
      el("th", { text: "turning points" }));
    const rows = analysis.summary.map((s) => el("tr", { "data-player": s.player }, el("td", { text: s.player }),
      el("td", { text: String(s.moves) }), el("td", { text: s.mean_loss === null ? "-" : pct(s.mean_loss) }),
      ...GRADES.map((g) => el("td", { class: `grade ${g}`, text: String(s.grades[g]) })),
      el("td", {}, ...s.turning_points.map((i) => el("button", { type: "button", class: "turning-point",
        "data-move": i, onclick: () => onMove(i) }, `move ${i + 1}`)))));
    return el("table", {}, head, ...rows);
  }

  button.addEventListener("click", start);
  cancel.addEventListener("click", async () => {
    state.token += 1; // the polling stops here
    try {
      showJob(await api("POST", `${base()}/analysis/cancel`, {}));
    } catch (err) {
      error.textContent = err.message;
      setState("idle");
      button.disabled = false;
    }
  });

  return {
    get result() { return state.result; },
    extra,
    // Forget the analysis shown (another game, or a game no longer over), and offer the button again.
    reset() {
      state.token += 1;
      clear();
      error.textContent = "";
      status.textContent = "";
      button.disabled = false;
      cancel.hidden = true;
      progress.hidden = true;
      iterations.max = String(shared.hintIterations || "");
      iterations.placeholder = String(shared.hintIterations || "");
      setState("idle");
    },
    // Say whether the game still has the moves analysed (`count` moves now).
    update(count) {
      if (!state.result) return;
      const stale = count !== state.result.moves;
      status.textContent = stale ? `The analysis covers the first ${state.result.moves} moves; analyse again to ` +
        "include the moves since." : status.textContent;
    },
    // The move `index` shown (null: none): its caption, and its column marked on the chart.
    showMove(review, index) {
      caption.replaceChildren(...(review ? reviewCaption(review) : []));
      for (const hit of chart.querySelectorAll("rect.move-hit")) {
        hit.classList.toggle("current", Number(hit.dataset.move) === index);
      }
    },
  };
}
