// The page's elements: finding them, making them, and the mode shown.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) node.append(child);
  return node;
}

// Show mode `name` ("play", "table", "editor" or "replay") and its tab.
export function showMode(name) {
  for (const b of $$("#modes button")) b.classList.toggle("active", b.dataset.mode === name);
  for (const s of $$("main > .mode")) s.classList.toggle("active", s.id === name);
}
