// Saved: the games of the Play and Table modes the server keeps in its database (docs/web.md "Saved games"),
// the last changed first, each with resume, rename, delete and download.  A game's address (`#game=ID`,
// `#table=ID`) resumes it too: main.js follows it when the page loads and when the address changes.

import { api, downloadFrom } from "./api.js";
import { $, el } from "./dom.js";
import { resumePlay } from "./play.js";
import { resumeTable } from "./table.js";

export const saved = { games: [] };

function savedError(message) { $("#saved-error").textContent = message || ""; }

// Open saved game `id` of `kind` ("game" or "table") in its mode.
export function resume(kind, id) {
  return kind === "table" ? resumeTable(id) : resumePlay(id);
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

// One line of what a saved game is at: over and how, or whose turn it is.
function state(game) {
  if (game.over) return "over";
  if (!game.to_move) return "";
  if (game.kind === "table") return game.to_move === game.viewer ? "your turn" : `${game.to_move} to move`;
  return `${game.to_move} to move`;
}

function line(game) {
  const kind = game.kind === "table" ? `Table, you play ${game.viewer}` : `Play: ${game.seats.join(", ")}`;
  const facts = [game.title, kind, `${game.moves} move${game.moves === 1 ? "" : "s"}`, state(game),
    `changed ${when(game.updated)}`].filter(Boolean).join(" · ");
  const act = (label, cls, fn) => el("button", { type: "button", class: cls, onclick: () => fn().catch((err) =>
    savedError(err.message)) }, label);
  return el("li", { "data-id": game.id, "data-kind": game.kind },
    el("div", { class: "saved-name", text: game.name }),
    el("div", { class: "saved-facts", text: facts }),
    el("div", { class: "buttons" },
      act("Resume", "saved-resume", () => resume(game.kind, game.id)),
      act("Rename", "saved-rename", () => rename(game)),
      act("Download", "saved-download", () => downloadFrom(`/api/saved/${game.id}/download`,
        `${game.name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "game"}.json`)),
      act("Delete", "saved-delete", () => remove(game))));
}

async function rename(game) {
  const name = window.prompt("A new name for the game:", game.name);
  if (name === null) return;
  await api("POST", `/api/saved/${game.id}/rename`, { name });
  savedError("");
  await showSaved();
}

async function remove(game) {
  if (!window.confirm(`Delete "${game.name}" and all its moves? This cannot be undone.`)) return;
  await api("DELETE", `/api/saved/${game.id}`);
  savedError("");
  await showSaved();
}

// Read the list again and show it.
export async function showSaved() {
  try {
    const data = await api("GET", "/api/saved");
    saved.games = data.games;
    $("#saved-where").textContent = data.db ? `Kept in ${data.db} on the server.`
      : "Kept in the server's memory only (it was started with --db :memory:): they end when it stops.";
    $("#saved-empty").hidden = data.games.length > 0;
    $("#saved-list").replaceChildren(...data.games.map(line));
  } catch (err) {
    savedError(err.message);
  }
}
