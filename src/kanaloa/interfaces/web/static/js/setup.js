// What the setup forms share: the games of the registry (GET /api/games), each game's module, the rule set a form
// stands for, the boards offered, and the form's error line.  Every seat, size and label a form shows is read from
// the rule sets the server lists, never written here.

import { $, $$, el } from "./dom.js";

export const shared = {
  listing: { games: [], default: null }, // GET /api/games
  modules: {}, // each game's module (its web face's `module`), by the game's name
  boards: [], // the built-in boards
  edited: null, // the board file the editor last checked, offered to Play and Table
  hintIterations: null, // the server's hint budget (--hint-iterations), the most an analysis may search a move
};

// Each game's module, imported once as the page starts (docs/web.md "A game's module"), and its style sheet.
export async function loadGameModules() {
  for (const g of shared.listing.games) {
    shared.modules[g.name] = await import(g.web.module);
    if (g.web.style && !document.querySelector(`link[href="${g.web.style}"]`)) {
      document.head.append(el("link", { rel: "stylesheet", href: g.web.style }));
    }
  }
}
export const gameModule = (name) => shared.modules[name] || shared.modules[gameEntry(name).name];

const WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
export const numberWord = (n) => WORDS[n] || String(n);

export const gameEntry = (name) => shared.listing.games.find((g) => g.name === name) || shared.listing.games[0];
export const formGame = (form) => gameEntry(form.ruleset.value);
export const parameter = (entry, name) => entry.parameters.find((p) => p.name === name) || null;

// The choices a form offers for a parameter of its game: none when the game has no such parameter or a single
// value it cannot change (those rows are hidden, and the request leaves the parameter out).
function offered(entry, name) {
  const p = parameter(entry, name);
  return p && p.choices && p.choices.length > 1 ? p.choices : null;
}
export const offers = (form, name) => offered(formGame(form), name) !== null;

// The rule set of the form's game with its players (the others at their defaults): its seats, colors, deal.
export function formRules(form) {
  const entry = formGame(form);
  const players = parameter(entry, "players");
  const byPlayers = entry.choices.players || {};
  const chosen = offered(entry, "players") ? form.players.value : players && players.choices ? players.choices[0] : null;
  return byPlayers[chosen] || entry.default;
}

// The god tokens of the form's game when it is played with the gods, or [] (a game without them).
export function formTokens(form) {
  const gods = formGame(form).choices.gods || {};
  return gods.true ? gods.true.tokens : [];
}

// The seats of a rule set to fill: each seat's name, and its other colors when a player plays several.
export const seatLabels = (rules) => rules.seats.map((name) => {
  const others = ((rules.colors || {})[name] || []).filter((c) => c !== name);
  return others.length ? `${name} (+${others.join("+")})` : name;
});

// The game choice of a form: every registered game the mode serves (`serves(entry)`, by default every one); a
// game played by a fixed number of players says so.
export function fillGameChoices(form, serves = () => true) {
  const games = shared.listing.games.filter(serves);
  form.ruleset.replaceChildren(...games.map((g) => {
    const players = parameter(g, "players");
    const fixed = players && players.choices && players.choices.length === 1;
    const text = fixed ? `${g.title} (${players.choices[0]} players, ${g.default.seats.join(" and ")})` : g.title;
    return el("option", { value: g.name, text, title: g.summary });
  }));
  form.ruleset.value = games.some((g) => g.name === shared.listing.default) ? shared.listing.default : games[0].name;
}

// The rows of a form that depend on its game (`mode` is the form's prefix: "play" or "table"): the players, the
// preset and the gods, each shown only where the game offers a choice, with the game's choices and labels.
export function drawGameRows(form, mode, presetLabels) {
  const entry = formGame(form);
  const players = offered(entry, "players");
  $(`#${mode}-players-row`).hidden = !players;
  if (players) refill(form.players, players.map((c) => [c, c]), parameter(entry, "players").default);
  const presets = offered(entry, "preset");
  $(`#${mode}-preset-row`).hidden = !presets;
  if (presets) {
    refill(form.preset, presets.map((c) => [c, presetLabels ? presetLabel(entry, c) : c]),
      parameter(entry, "preset").default);
  }
  const gods = parameter(entry, "gods");
  $(`#${mode}-gods-row`).hidden = !offered(entry, "gods");
  if (gods) $(`#${mode}-gods-row .help`).textContent = gods.help;
  $(`#${mode}-board-row`).hidden = !parameter(entry, "board"); // a game played on a board of islands
}

// "tabletop (20 bridges a color)": a preset and the bridges its rule set gives each color.
function presetLabel(entry, preset) {
  const rules = (entry.choices.preset || {})[preset];
  if (!rules) return preset;
  return `${preset} (${rules.bridges === null ? "unlimited bridges" : `${rules.bridges} bridges a color`})`;
}

// A select's options, replaced only when they change, keeping the choice made (else the default).
function refill(select, options, fallback) {
  const now = [...select.options].map((o) => [o.value, o.textContent]);
  if (JSON.stringify(now) === JSON.stringify(options)) return;
  const chosen = select.value;
  select.replaceChildren(...options.map(([value, text]) => el("option", { value, text })));
  select.value = options.some(([value]) => value === chosen) ? chosen : fallback;
}

// The player counts any game of the registry is played by.
export function playerCounts() {
  const counts = new Set();
  for (const g of shared.listing.games) {
    const p = parameter(g, "players");
    for (const c of (p && p.choices) || []) counts.add(Number(c));
  }
  return counts;
}

// A change of game moves the board choice to the new game's own board, unless another one was chosen.
export function followGame(form) {
  const own = formGame(form).default.board;
  if (!own) return; // a game without a board
  const defaults = shared.listing.games.map((g) => g.default.board).filter(Boolean);
  if (form.board.value !== own && defaults.includes(form.board.value) &&
      [...form.board.options].some((o) => o.value === own)) {
    form.board.value = own;
  }
}

export function fillBoardSelects() {
  for (const select of $$("select[name=board]")) {
    const chosen = select.value;
    select.replaceChildren(...shared.boards.map((b) => el("option", { value: b, text: b })));
    if (shared.edited) select.append(el("option", { value: "edited", text: `${shared.edited.name} (from the editor)` }));
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
  }
}
export const chosenBoard = (value) => (value === "edited" ? shared.edited : value);

export function setupError(mode, message) {
  let p = $(`#${mode}-setup .error`);
  if (!p) { p = el("p", { class: "error", role: "alert" }); $(`#${mode}-setup`).append(p); }
  p.textContent = message;
}
