// The score pad page: every field names its place in the tally (data-path); a change is sent as
// that small part of the tally, the server merges it, saves it and answers with the scores.
// Other phones' changes arrive by polling. No framework: the page works offline on the table's Wi-Fi.
"use strict";

const state = JSON.parse(document.getElementById("state").textContent);
const lang = document.documentElement.lang;
const api = `/api/games/${state.id}`;
const pending = new Map(); // path -> value not yet confirmed by the server
let timer = null;
let sending = false;

function split(path) { return path.split("."); }

function lookup(tally, parts) {
  let node = tally;
  for (const part of parts) {
    if (node === null || typeof node !== "object") return undefined;
    node = Array.isArray(node) ? node[Number(part)] : node[part];
  }
  return node;
}

// A patch that sets one place: lists are sent at their full length with null for "unchanged",
// so the server merges them place by place; mappings hold only the changed key.
function place(patch, tally, parts, value) {
  let node = patch;
  let current = tally;
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const isList = Array.isArray(current) || (current === undefined && /^\d+$/.test(part));
    const key = isList ? Number(part) : part;
    if (isList && !Array.isArray(node)) throw new Error("mixed");
    if (isList) {
      const length = Math.max(Array.isArray(current) ? current.length : 0, key + 1);
      while (node.length < length) node.push(null);
    }
    if (last) { node[key] = value; return; }
    const next = current === undefined || current === null ? undefined
      : (Array.isArray(current) ? current[key] : current[key]);
    const nextIsList = Array.isArray(next) || (next === undefined && /^\d+$/.test(parts[i + 1]));
    if (node[key] === null || node[key] === undefined) node[key] = nextIsList ? [] : {};
    node = node[key];
    current = next;
  });
}

function normal(text) { return text.normalize("NFKC").trim(); }

function numberOr(text) { return /^\d+$/.test(text) ? Number(text) : text; }

// What a field holds, in the tally's own format.
function read(input) {
  const text = normal(input.value);
  const inList = Array.isArray(lookup(state.tally, split(input.dataset.path).slice(0, -1)));
  switch (input.dataset.kind) {
    case "int": return text === "" ? (inList ? 0 : null) : numberOr(text);
    case "dice": return text === "" ? [] : text.split(/[\s,、]+/).map(numberOr);
    case "runs": {
      const runs = text === "" ? [] : text.split(/[\s,、]+/).map(numberOr);
      return runs.length === 0 ? 0 : runs.length === 1 ? runs[0] : runs;
    }
    case "cards": return text === "" ? null : text.split("+").map((c) => c.trim()).filter(Boolean);
    default: return text === "" && !inList ? null : text;
  }
}

function shown(input, value) {
  if (value === undefined || value === null) return "";
  switch (input.dataset.kind) {
    case "dice": return Array.isArray(value) ? value.join(" ") : String(value);
    case "runs": return Array.isArray(value) ? value.join(" ") : (value === 0 ? "" : String(value));
    case "cards": return Array.isArray(value) ? value.join("+") : String(value);
    case "int": return value === 0 && input.dataset.path.match(/\.(interim|roads)\./) ? "" : String(value);
    default: return String(value);
  }
}

function setStatus(which) {
  const sync = document.getElementById("sync");
  sync.textContent = sync.dataset[which];
  sync.className = `sync ${which}`;
}

function queue(path, value) {
  pending.set(path, value);
  setStatus("saving");
  clearTimeout(timer);
  timer = setTimeout(flush, 250);
}

async function flush() {
  if (sending || pending.size === 0) return;
  const patch = {};
  const sent = new Map(pending);
  for (const [path, value] of sent) place(patch, state.tally, split(path), value);
  sending = true;
  try {
    const response = await fetch(`${api}?lang=${lang}`, {
      method: "PUT", headers: {"content-type": "application/json"}, body: JSON.stringify(patch),
    });
    if (!response.ok) throw new Error(String(response.status));
    for (const [path, value] of sent) if (pending.get(path) === value) pending.delete(path);
    apply(await response.json());
    setStatus(pending.size ? "saving" : "saved");
  } catch (err) {
    setStatus("offline"); // kept in `pending`; sent again with the next change or poll
  } finally {
    sending = false;
    if (pending.size) { clearTimeout(timer); timer = setTimeout(flush, 1500); }
  }
}

// A mistake gets a note beside its field; a field still to be filled in (a game just started)
// is only outlined, its hint said below the form, so no note covers the fields around it.
function markProblem(error) {
  document.querySelectorAll(".bad, .todo").forEach((el) => el.classList.remove("bad", "todo"));
  document.querySelectorAll(".field-error").forEach((el) => el.remove());
  const banner = document.getElementById("problem");
  banner.hidden = true;
  if (!error) return;
  const field = error.path && document.querySelector(`[data-path="${CSS.escape(error.path.join("."))}"]`);
  const todo = Boolean(field) && field.value.trim() === "";
  if (field && !todo) {
    field.classList.add("bad");
    const note = document.createElement("div");
    note.className = "field-error";
    note.setAttribute("role", "alert");
    note.textContent = error.at_field || error.message;
    field.insertAdjacentElement("afterend", note);
    return;
  }
  if (todo) field.classList.add("todo");
  banner.className = todo ? "problem todo-note" : "problem";
  banner.textContent = error.message;
  banner.hidden = false;
}

function playerCount(tally) { return (tally.players || []).length; }

// What this phone changed but the server has not confirmed yet stays in the local tally, so a
// tap or a keystroke is never undone by an answer that left before it.
function keepPending(tally) {
  for (const [path, value] of pending) {
    const parts = split(path);
    let node = tally;
    for (const part of parts.slice(0, -1)) {
      if (node[part] === null || typeof node[part] !== "object") node[part] = /^\d+$/.test(part) ? [] : {};
      node = node[part];
    }
    node[parts[parts.length - 1]] = value;
  }
}

function apply(view) {
  const grew = playerCount(view.tally) !== playerCount(state.tally);
  Object.assign(state, view);
  keepPending(state.tally);
  if (grew && !document.activeElement.matches("input, select")) { location.reload(); return; }
  document.querySelectorAll("[data-path]").forEach((input) => {
    if (input === document.activeElement || pending.has(input.dataset.path)) return;
    const value = shown(input, lookup(state.tally, split(input.dataset.path)));
    if (input.value !== value) input.value = value;
  });
  refreshOwners();
  refreshMap();
  document.getElementById("results").innerHTML = view.html;
  markProblem(view.error);
}

async function poll() {
  if (sending || pending.size) { flush(); return; }
  try {
    const response = await fetch(`${api}?lang=${lang}`, {cache: "no-store"});
    if (!response.ok) throw new Error(String(response.status));
    const view = await response.json();
    if (view.version !== state.version) apply(view);
    setStatus("saved");
  } catch (err) {
    setStatus("offline");
  }
}

// Culdcept: each square's owner is chosen among the names typed so far.
function refreshOwners() {
  const names = (state.tally.players || []).filter((n) => typeof n === "string" && n);
  document.querySelectorAll("select[data-owner]").forEach((select) => {
    const chosen = lookup(state.tally, split(select.dataset.path)) || "";
    const wanted = ["", ...names];
    const have = [...select.options].map((o) => o.value);
    if (have.join("\n") !== wanted.join("\n")) {
      select.replaceChildren(...wanted.map((name) => new Option(name || "–", name)));
    }
    if (!pending.has(select.dataset.path)) select.value = chosen;
  });
}

// Web of Power trump map: a tap hands the square to the next player, then clears it.
function refreshMap() {
  const map = document.getElementById("map");
  if (!map) return;
  const symbols = [...map.dataset.symbols];
  const rows = state.tally.monasteries || [];
  map.querySelectorAll(".cell").forEach((cell) => {
    const mark = (rows[cell.dataset.row] || "")[cell.dataset.col] || ".";
    const index = "123".indexOf(mark);
    cell.querySelector(".mark").textContent = index >= 0 ? symbols[index] : "";
    cell.dataset.mark = index >= 0 ? String(index + 1) : "";
  });
}

function tap(cell) {
  const map = document.getElementById("map");
  const players = Number(map.dataset.playerCount);
  const r = Number(cell.dataset.row);
  const c = Number(cell.dataset.col);
  const rows = [...(state.tally.monasteries || [])];
  const row = [...(rows[r] || ".".repeat(12))];
  const now = "123".indexOf(row[c]) + 1; // 0 for empty
  row[c] = now >= players ? "." : String(now + 1);
  rows[r] = row.join("");
  state.tally.monasteries = rows;
  refreshMap();
  queue(`monasteries.${r}`, rows[r]);
}

async function changePlayers(step) {
  const count = playerCount(state.tally) + step;
  await flush();
  const response = await fetch(`${api}/players?lang=${lang}`, {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify({count}),
  });
  if (response.ok) location.reload();
}

async function renameRegion(input) {
  const old = input.dataset.region;
  const name = normal(input.value);
  const regions = state.tally.regions || {};
  if (!name || name.includes(".") || name === old || name in regions) { input.value = old; return; }
  const patch = {regions: {[old]: null, [name]: regions[old] || {}}};
  await flush();
  const response = await fetch(`${api}?lang=${lang}`, {
    method: "PUT", headers: {"content-type": "application/json"}, body: JSON.stringify(patch),
  });
  if (response.ok) location.reload();
}

document.getElementById("pad").addEventListener("submit", (event) => event.preventDefault());
// Culdcept's ring: each square sits where the template put it (a style attribute would be inline style).
document.querySelectorAll(".square[data-x]").forEach((square) => {
  square.style.left = `${square.dataset.x}%`;
  square.style.top = `${square.dataset.y}%`;
});
document.getElementById("pad").addEventListener("input", (event) => {
  const input = event.target;
  if (input.dataset.path) queue(input.dataset.path, read(input));
});
document.getElementById("pad").addEventListener("change", (event) => {
  const input = event.target;
  if (input.dataset.path) { queue(input.dataset.path, read(input)); flush(); }
  if (input.classList.contains("region")) renameRegion(input);
  if (input.id === "only") showOnly(input.value);
});
document.querySelectorAll("button[data-players]").forEach((button) =>
  button.addEventListener("click", () => changePlayers(Number(button.dataset.players))));
document.querySelectorAll("#map .cell").forEach((cell) => cell.addEventListener("click", () => tap(cell)));

// K&K on a phone: show one player's column, so each player fills in their own.
function showOnly(index) {
  localStorage.setItem(`only-${state.id}`, index);
  document.querySelectorAll(".kk [class*='col-']").forEach((cell) => {
    cell.hidden = index !== "" && !cell.classList.contains(`col-${index}`);
  });
}
const only = document.getElementById("only");
if (only) { only.value = localStorage.getItem(`only-${state.id}`) || ""; showOnly(only.value); }

document.getElementById("address").textContent = location.origin + location.pathname;
apply(state);
setInterval(poll, 1500);
