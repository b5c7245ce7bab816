// Moves as text: the server's notation, read only as far as the picture needs.

// "blue: ALOA-BAFI/ALOA" -> "ALOA-BAFI/ALOA"
export const body = (move) => move.replace(/^[a-z]+:\s*/, "");
export const builder = (move) => (/^([a-z]+):/.exec(move) || [])[1] || null;
export const sameCards = (a, b) => a.length === b.length && [...a].sort().join("+") === [...b].sort().join("+");

export function within(part, whole) {
  const left = [...whole];
  for (const card of part) {
    const i = left.indexOf(card);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

// the legal moves on a link that pay with cards, with their cards: [{move, cards, removal}]: builds
// ("LINK/CARD", "LINK/CARD+CARD") and, where a removal is a move paying two cards, the removals of a rival
// bridge ("remove LINK/CARD+CARD")
export const paymentsOn = (moves, link) => moves.map((m) => {
  const whole = body(m);
  const text = whole.startsWith("remove ") ? whole.slice(7) : whole;
  if (!text.startsWith(link + "/")) return null;
  return { move: m, cards: text.split("/")[1].split("+"), removal: text !== whole };
}).filter(Boolean);

// the link a move builds on or removes from, or null
export const linkOf = (move) => {
  const m = /^(?:remove )?([A-Z0-9]+-[A-Z0-9]+)(?:\/|$)/.exec(body(move));
  return m ? m[1] : null;
};

export const otherPlayer = (pos, player) => pos.players.find((p) => p !== player);
