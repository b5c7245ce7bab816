// The JSON API of docs/web.md, and the files the page reads and writes.

import { el } from "./dom.js";

export async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new Error("the server does not answer (is kanaloa serve still running?)");
  }
  let data;
  try {
    data = await response.json();
  } catch (err) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    const err = new Error(data.error || `HTTP ${response.status}`);
    err.status = response.status; // 409: the game is not as the view showed it (another tab moved first)
    throw err;
  }
  return data;
}

// A file to download, as the server wrote it: its text is kept as it is, since JSON.parse would round
// the 64-bit seeds of positions and records to the nearest double.
export async function downloadFrom(path, name) {
  const response = await fetch(path);
  const text = await response.text();
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try { message = JSON.parse(text).error || message; } catch (err) { /* not JSON: keep the status */ }
    throw new Error(message);
  }
  download(name, text.endsWith("\n") ? text : text + "\n");
}

export function download(name, value) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2) + "\n";
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files[0];
    if (!file) return reject(new Error("no file chosen"));
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Error(`cannot read ${file.name}`));
    reader.readAsText(file);
  });
}

// A change refused because the game moved on elsewhere (409: another tab or server changed it first): the game read
// again from `path` and shown with `show`, and the refusal told with `error`, saying the `what` ("game", "table")
// is shown as it is now.  Whether it was caught up so.
export async function catchUp(err, path, show, error, what) {
  if (err.status !== 409) return false;
  try { show(await api("GET", path)); } catch (again) { return false; }
  error(`${err.message} (the ${what} is shown as it is now)`);
  return true;
}

// The address of the page for a saved game (`#game=ID`, `#table=ID`), so that a reload, a bookmark or another
// tab returns to it; none (`""`) when no game is open.
export function showAddress(kind, id) {
  const hash = id ? `#${kind}=${id}` : "";
  if (location.hash !== hash) history.replaceState(null, "", `${location.pathname}${location.search}${hash}`);
}

// The game the page's address names: `{ kind: "game" | "table", id }`, or null.
export function addressed() {
  const found = /^#(game|table)=([0-9a-f]+)$/.exec(location.hash);
  return found ? { kind: found[1], id: found[2] } : null;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
