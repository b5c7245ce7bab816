// Table: follow a real game as one of its players, a game whose hands are hidden (the card games: the games
// whose entry in GET /api/games has no `table` reason; main.js offers only those, and says why not the others).

import { createAnalysis, showOnBoard } from "./analysis.js";
import { api, catchUp, downloadFrom, readFile, showAddress } from "./api.js";
import {
  askHint, drawBoard, drawHistory, drawLastMove, drawScores, drawStatus, onThinkFirst, prepareHint,
} from "./board.js";
import { cardButton, deckCount } from "./cards.js";
import { $, $$, el, showMode } from "./dom.js";
import { body, paymentsOn } from "./moves.js";
import {
  chosenBoard, drawGameRows, followGame, formRules, formTokens, numberWord, offers, setupError, shared,
} from "./setup.js";

export const table = { id: null, view: null, hand: [], faceup: [], link: null, busy: false, islands: [], tokens: {} };
const form = () => $("#table-setup");
const tableGods = () => offers(form(), "gods") && $("#table-setup [name=gods]").checked;
const tableHandSize = () => formRules(form()).deal;
const tableFaceUpSize = () => formRules(form()).face_up_at_deal;

function tableError(message) { $("#table-error").textContent = message || ""; }
function tablePrompt(message) { $("#table-prompt").textContent = message || ""; }

async function tableIslands() {
  const board = chosenBoard($("#table-setup [name=board]").value);
  const data = typeof board === "string" ? await api("GET", `/api/boards/${board}`) : board;
  return data.islands.map((i) => i.name.toUpperCase());
}

// The setup form for the chosen game: its seats, the cards dealt to the viewer, the cards turned face-up at the
// deal where the game turns some then, and the choices the game offers.
export function drawTableViewers() {
  drawGameRows(form(), "table", false);
  const rules = formRules(form());
  $("#table-setup [name=viewer]").replaceChildren(...rules.seats.map((c) => el("option", { value: c, text: c })));
  const faceUp = rules.face_up_at_deal;
  $("#table-faceup-setup").hidden = !faceUp;
  $("#table-faceup-help").textContent =
    `The ${numberWord(faceUp)} cards turned face-up at the deal (click to add, click again in the list to remove):`;
  $("#table-tokens-setup").hidden = !tableGods();
  $("#table-hand-help").textContent =
    `Your ${numberWord(rules.deal)} dealt cards (click to add, click again in the list to remove):`;
}

export async function drawHandPicker() {
  try { table.islands = await tableIslands(); } catch (err) { setupError("table", err.message); return; }
  const pickerOf = (list, attr, size) => table.islands.map((name) =>
    el("button", { type: "button", class: "card", [attr]: name, onclick: () => {
      if (list().length < size()) list().push(name);
      drawHand();
    } }, name));
  $("#table-hand-picker").replaceChildren(...pickerOf(() => table.hand, "data-pick", tableHandSize));
  $("#table-faceup-picker").replaceChildren(...pickerOf(() => table.faceup, "data-pick-faceup", tableFaceUpSize));
  drawTokens();
  drawHand();
}
// With god tokens: the token lying on each island, chosen from the game's tokens
function drawTokens() {
  $("#table-tokens").replaceChildren(...table.islands.map((name) => el("label", { class: "token-pick" }, `${name} `,
    el("select", { "data-token-island": name, onchange: (e) => {
      if (e.target.value) table.tokens[name] = e.target.value; else delete table.tokens[name];
    } }, el("option", { value: "", text: "?" }),
    ...formTokens(form()).map((g) => el("option", { value: g, text: g, ...(table.tokens[name] === g ? { selected: "" } : {}) }))))));
}
$("#table-setup [name=gods]").addEventListener("change", drawTableViewers);
function drawHand() {
  for (const [id, list] of [["#table-hand", table.hand], ["#table-faceup-chosen", table.faceup]]) {
    const span = $(id);
    span.replaceChildren(...list.map((c, i) =>
      el("button", { type: "button", class: "card", "data-chosen": c, onclick: () => { list.splice(i, 1); drawHand(); } }, c)));
    if (!list.length) span.textContent = "none";
  }
}
$("#table-setup [name=players]").addEventListener("change", drawTableViewers);
$("#table-setup [name=board]").addEventListener("change", () => {
  table.hand = []; table.faceup = []; table.tokens = {}; drawHandPicker();
});
$("#table-setup [name=ruleset]").addEventListener("change", () => {
  const before = form().board.value;
  followGame(form());
  table.hand.splice(tableHandSize());
  drawTableViewers();
  if (form().board.value !== before) { table.hand = []; table.faceup = []; drawHandPicker(); } else drawHand();
});

async function startTable(extra) {
  const f = form();
  const request = { ...extra };
  if (!request.position) {
    request.ruleset = f.ruleset.value;
    request.viewer = f.viewer.value;
    request.hand = table.hand;
    request.board = chosenBoard(f.board.value);
    if (tableFaceUpSize()) request.face_up = table.faceup;
    if (offers(f, "players")) request.players = Number(f.players.value);
    if (offers(f, "preset")) request.preset = f.preset.value;
    if (tableGods()) {
      request.gods = true;
      request.tokens = table.tokens;
    }
  } else if (f.board.value === "edited") {
    request.board = shared.edited;
  }
  try {
    openTable(await api("POST", "/api/tables", request));
  } catch (err) {
    setupError("table", err.message);
  }
}

// Show a table (a new one, or one saved: `view` is its view) and go on following it.
export function openTable(view) {
  table.id = view.id;
  table.islands = Object.keys(view.sizes);
  showAddress("table", view.id);
  analysis.reset();
  $("#table-setup").hidden = true;
  $("#table-game").hidden = false;
  $("#table-hint-box").hidden = true;
  tableError("");
  showTable(view);
}

// Resume saved table `id` (the page's address, the list of saved games).
export async function resumeTable(id) {
  showMode("table");
  openTable(await api("GET", `/api/tables/${id}`));
}

// A change refused because the table moved on elsewhere (another tab, another server): show it as it is now.
function caughtUp(err) {
  return Boolean(table.id) && catchUp(err, `/api/tables/${table.id}`, showTable, tableError, "table");
}

// Send a change of the table (a move, an undo, a redo) made on the view shown.
async function change(path, extra = {}) {
  showTable(await api("POST", `/api/tables/${table.id}/${path}`, { ...extra, version: table.view.version }));
}
$("#table-setup").addEventListener("submit", (e) => { e.preventDefault(); startTable({}); });
$("#table-upload").addEventListener("change", async (e) => {
  try { await startTable({ position: await readFile(e.target) }); } catch (err) { setupError("table", err.message); }
  e.target.value = "";
});

// A record for the mover: "green: MOVE", or the viewer's own move without a prefix.
function tableMove(text) {
  const v = table.view;
  return v.to_move && v.to_move !== v.viewer ? `${v.to_move}: ${text}` : text;
}

function picker(prompt, names, done) {
  tablePrompt(prompt);
  $("#table-picker").replaceChildren(...names.map((n) =>
    el("button", { type: "button", class: "card", "data-pick": n, onclick: () => done(n) }, n)));
}
function clearPicker() { $("#table-picker").replaceChildren(); tablePrompt(""); }

function showTable(view) {
  table.view = view;
  table.link = null;
  const pos = view.position;
  const rules = view.rules;
  const mine = view.to_move === view.viewer;
  drawStatus($("#table-status"), view);
  drawScores($("#table-scores"), view);
  drawBoard($("#table-board"), view);
  for (const g of $$("#table-board g.link")) g.addEventListener("click", () => tableLink(g.dataset.link));
  $("#table-faceup").replaceChildren(...pos.face_up.map((c) => cardButton(c, { "data-card": c }, () => tableTake(c))));
  const deck = $("#table-deck");
  deck.textContent = `Draw from the deck (${deckCount(pos)} left)`;
  deck.disabled = Boolean(view.waiting || view.outcome);
  const hand = pos.hands[view.viewer].cards || [];
  $("#table-hand-cards").replaceChildren(...hand.map((c) =>
    cardButton(c, { "data-hand-card": c }, () => tableHandCard(c))));
  const actions = [];
  const add = (id, label, move) => actions.push(el("button", { type: "button", id, onclick: () => tellMove(move) }, label));
  if (view.waiting) {
    actions.push(el("button", { type: "button", id: "table-faceup-record", onclick: faceupRecord }, "Record the cards turned face-up"));
  } else if (!view.outcome && !mine && rules.may_skip_draw) {
    // a face-down discard of a full hand, a turn ended without drawing; the final turns draw nothing
    if (pos.round === "final") add("table-end", `${view.to_move} ended the turn`, tableMove("end"));
    else {
      add("table-discard", `${view.to_move} discarded face-down`, tableMove("discard"));
      add("table-end", `${view.to_move} ended the turn without drawing`, tableMove("end"));
    }
  } else if (!view.outcome && !mine) {
    if (rules.has_setup && pos.round === 0) add("table-reveal", `${view.to_move} chose a card`, tableMove("reveal"));
    else {
      add("table-discard", `${view.to_move} discarded face-down`, tableMove("discard"));
      if (pos.round === "final") {
        add("table-end", `${view.to_move} ended the turn`, tableMove("end"));
        if (rules.has_pass) add("table-pass", `${view.to_move} passed`, tableMove("pass"));
      }
    }
  } else if (mine) {
    for (const m of view.moves) {
      if (body(m) === "end") add("table-end", rules.may_skip_draw && pos.round !== "final" ? "End turn without drawing" : "End turn", m);
      if (body(m) === "pass") add("table-pass", "Pass", m);
    }
  }
  if (!view.waiting && !view.outcome && rules.tokens.length) actions.push(...tableGodActions(view));
  $("#table-actions").replaceChildren(...actions);
  const other = pos.players[1];
  $("#table-typed input").placeholder = rules.removal_pays ? `or type a move: ${other}: remove ALOA-BARI/ALOA+BARI`
    : `or type a move: ${other}: take RASI refill KULU`;
  clearPicker();
  if (!view.outcome && !view.waiting) {
    tablePrompt(mine ? "Your turn: click a link then your cards, a face-up card, or the deck"
      : `${view.to_move}'s turn: click the link ${view.to_move} built on${rules.removal_pays ? " or removed from" : ""}, ` +
        "the card taken, or the deck");
  }
  drawHistory($("#table-history"), view.history);
  drawLastMove($("#table-last"), view);
  $("#table-undo").disabled = !view.can_undo;
  $("#table-redo").disabled = !view.can_redo;
  $("#table-redo").title = view.can_redo ? `Tell again: ${view.redo}` : "No move has been taken back";
  $("#table-hint").disabled = !mine || Boolean(view.waiting || view.outcome);
  prepareHint("table", `/api/tables/${table.id}/hint`, view);
  $("#table-analysis").hidden = view.history.length === 0;
  analysis.update(view.history.length);
  analysis.showMove(null, null); // the board shows the table again, not a move of the analysis
  analysis.extra.replaceChildren();
  document.body.dataset.tableMoves = String(view.history.length);
}

async function tellMove(move) {
  if (table.busy) return;
  table.busy = true;
  tableError("");
  try {
    await change("move", { move });
    $("#table-hint-box").hidden = true;
  } catch (err) {
    if (!(await caughtUp(err))) tableError(err.message);
  } finally {
    table.busy = false;
  }
}

function tableLink(link) {
  const v = table.view;
  if (!v || v.waiting || v.outcome) return;
  const [a, b] = link.split("-");
  const rules = v.rules;
  if (v.to_move === v.viewer) {
    const removal = v.moves.find((m) => body(m) === `remove ${link}`);
    if (removal) return tellMove(removal);
    const builds = paymentsOn(v.moves, link);
    if (!builds.length) return tablePrompt(`No legal move on ${link}`);
    return picker(`${link}: how do you pay?`, builds.map((x) => x.move), (m) => tellMove(m));
  }
  const twoCards = [`${a}+${a}`, `${a}+${b}`, `${b}+${b}`];
  if (rules.removal_pays) {
    // another player's place on a free link, or its removal of your bridge paying two cards
    const owner = v.position.bridges[link];
    if (owner === v.to_move) return tablePrompt(`${link} holds ${owner}'s own bridge: no move of ${owner}'s there`);
    const options = owner ? twoCards.map((pay) => `${v.to_move}: remove ${link}/${pay}`)
      : [a, b].map((pay) => `${v.to_move}: ${link}/${pay}`);
    return picker(`${v.to_move} on ${link}: which move?`, options, (m) => tellMove(m));
  }
  // another player's build or removal: every way it could be written; the server checks it
  const colors = v.position.colors ? v.position.colors[v.to_move] : [v.to_move];
  const pays = rules.has_swap ? [a, b, ...twoCards] : [a, b];
  const options = [];
  for (const color of colors) {
    for (const pay of pays) options.push(`${color}: ${link}/${pay}`);
  }
  if (rules.joker && v.position.round !== 0) {
    for (const color of colors) options.push(`${color}: ${link}/${rules.joker}`);
  }
  options.push(`${v.to_move}: remove ${link}`);
  picker(`${v.to_move} on ${link}: which move?`, options, (m) => tellMove(m));
}

// God tokens at a table: the viewer's token moves from the legal list, with a picker for the cards KU shows and
// PELE takes; another player's token moves as records (the server checks them), in the rounds tokens are used.
function tableGodActions(view) {
  const pos = view.position;
  const turn = pos.turn || {};
  const out = [];
  const tell = (id, label, move, extra = {}) => el("button", { type: "button", class: "token", id, "data-move": move,
    onclick: () => tellMove(move), ...extra }, label);
  const heldBy = (p) => { const h = pos.hands[p] || {}; return h.cards ? h.cards.length : h.count || 0; };
  if (view.to_move === view.viewer) {
    for (const m of view.moves) {
      const b = body(m);
      const ku = /^ku ([a-z]+)$/.exec(b);
      if (ku) {
        out.push(el("button", { type: "button", class: "token", "data-token": "KU", "data-target": ku[1],
          onclick: () => pickCards(`KU: the cards in ${ku[1]}'s hand`, heldBy(ku[1]),
            (cards) => tellMove(`${m} sees ${cards.join(" ")}`)) }, `KU: look at ${ku[1]}'s hand`));
      } else if (b.startsWith("steal ")) {
        out.push(cardButton(b.slice(6), { class: "card playable", "data-steal": b.slice(6), "data-move": m },
          () => tellMove(m)));
      } else if (b === "pele") {
        const victims = pos.players.filter((p) => p !== view.viewer && heldBy(p) > 0);
        out.push(el("button", { type: "button", class: "token", "data-token": "PELE", onclick: () => {
          const taken = [];
          const next = () => {
            if (taken.length === victims.length) return tellMove(`${m} takes ${taken.join(" ")}`);
            const victim = victims[taken.length];
            picker(`PELE: the card taken from ${victim}`, table.islands, (card) => { taken.push(`${victim}:${card}`); next(); });
          };
          next();
        } }, "PELE: the cards taken"));
      } else if (b.startsWith("give ")) {
        out.push(cardButton(b.split(" ")[2], { class: "card playable", "data-give": b.split(" ")[2], "data-move": m },
          () => tellMove(m)));
      } else if (b === "lono") {
        out.push(tell("table-lono", "LONO: take an extra card", m, { "data-token": "LONO" }));
      }
    }
    return out;
  }
  if (!view.rules.token_rounds.includes(pos.round)) return out;
  const who = view.to_move;
  const mine = pos.hands[view.viewer].cards || [];
  if (turn.ku_target) {
    if (turn.ku_target === view.viewer) {
      out.push(el("span", { class: "prompt", text: `${who} stole from your hand:` }), ...[...new Set(mine)].map((c) =>
        cardButton(c, { class: "card playable", "data-steal": c }, () => tellMove(`${who}: steal ${c}`))));
    } else out.push(tell("table-steal", `${who} stole from ${turn.ku_target}`, `${who}: steal`));
    return out;
  }
  if (turn.pele_gifts && turn.pele_gifts.length) {
    const to = turn.pele_gifts[0];
    if (to === view.viewer) {
      out.push(el("button", { type: "button", class: "token", id: "table-give", onclick: () =>
        picker(`${who} gave you which card?`, table.islands, (c) => tellMove(`${who}: give ${to} ${c}`)) },
      `${who} gave you a card`));
    } else out.push(tell("table-give", `${who} gave ${to} a card`, `${who}: give ${to}`));
    return out;
  }
  for (const p of pos.players.filter((x) => x !== who)) {
    out.push(tell(`table-ku-${p}`, `${who} used KU on ${p}`, `${who}: ku ${p}`, { "data-token": "KU" }));
  }
  if (mine.length) {
    out.push(el("button", { type: "button", class: "token", id: "table-pele", "data-token": "PELE", onclick: () =>
      picker(`${who} used PELE: which card of yours was taken?`, [...new Set(mine)],
        (c) => tellMove(`${who}: pele takes ${c}`)) }, `${who} used PELE`));
  } else out.push(tell("table-pele", `${who} used PELE`, `${who}: pele`, { "data-token": "PELE" }));
  out.push(tell("table-lono", `${who} used LONO`, `${who}: lono`, { "data-token": "LONO" }));
  return out;
}

// Pick `count` cards (repeats allowed) and hand them to `done`.
function pickCards(prompt, count, done) {
  const chosen = [];
  if (!count) return done(chosen);
  const again = () => picker(`${prompt} (${chosen.length}/${count}): ${chosen.join(" ")}`, table.islands, (card) => {
    chosen.push(card);
    if (chosen.length === count) done(chosen);
    else again();
  });
  again();
}

function tableTake(card) {
  const v = table.view;
  if (!v || v.waiting || v.outcome) return;
  const take = tableMove(`take ${card}`);
  if (deckCount(v.position) === 0) return tellMove(take);
  picker(`The deck refilled the gap with which card?`, table.islands, (refill) => tellMove(`${take} refill ${refill}`));
}

$("#table-deck").addEventListener("click", () => {
  const v = table.view;
  if (!v) return;
  if (v.to_move !== v.viewer) return tellMove(tableMove("draw"));
  picker("Which card did you draw?", table.islands, (card) => tellMove(`draw ${card}`));
});

function tableHandCard(card) {
  const v = table.view;
  if (!v || v.to_move !== v.viewer) return;
  const own = v.moves.find((m) => body(m) === `reveal ${card}`) || null;
  if (own) return tellMove(own);
  const discard = v.moves.find((m) => body(m) === `discard ${card}`);
  if (discard) picker(`Discard ${card} face-down?`, [discard], (m) => tellMove(m));
}

function faceupRecord() {
  const v = table.view;
  const need = (/faceup((?: CARD)+)/.exec(v.waiting) || ["", ""])[1].trim().split(" ").length;
  const chosen = [];
  const again = () => picker(`Cards turned face-up, in order (${chosen.length}/${need}): ${chosen.join(" ")}`,
    table.islands, (card) => {
      chosen.push(card);
      if (chosen.length === need) tellMove(`faceup ${chosen.join(" ")}`);
      else again();
    });
  again();
}

$("#table-typed").addEventListener("submit", (e) => {
  e.preventDefault();
  const move = e.target.move.value.trim();
  if (move) tellMove(move).then(() => { if (!$("#table-error").textContent) e.target.move.value = ""; });
});

$("#table-hint").addEventListener("click", () =>
  askHint("table", `/api/tables/${table.id}/hint`, table.view, showTable));
onThinkFirst(() => { if (table.view) prepareHint("table", `/api/tables/${table.id}/hint`, table.view); });

// The analysis of the viewer's own moves told so far (the others' hands are unknown, so their moves are not judged).
const analysis = createAnalysis($("#table-analysis"), {
  mode: "table", label: "Analyse my moves", base: () => `/api/tables/${table.id}`, onMove: showAnalysedMove,
});
analysis.reset();

function showAnalysedMove(index) {
  return showOnBoard(analysis, index, { mode: "table", base: () => `/api/tables/${table.id}`,
    board: $("#table-board"), backLabel: "Back to the table", back: () => showTable(table.view), error: tableError });
}
for (const [id, path] of [["#table-undo", "undo"], ["#table-redo", "redo"]]) {
  $(id).addEventListener("click", async () => {
    if (table.busy) return;
    table.busy = true;
    try { await change(path); tableError(""); }
    catch (err) { if (!(await caughtUp(err))) tableError(err.message); }
    finally { table.busy = false; }
  });
}
$("#table-download").addEventListener("click", () =>
  downloadFrom(`/api/tables/${table.id}/position`, "kanaloa-table.json").catch((err) => tableError(err.message)));
$("#table-new").addEventListener("click", () => {
  table.id = null;
  showAddress("table", null);
  table.hand = [];
  table.faceup = [];
  drawHand();
  $("#table-game").hidden = true;
  $("#table-setup").hidden = false;
});
