// The score pad page. Every field names its place in the tally (data-path). A change is that one
// field, sent with the value this phone saw there before its player typed (its "base"): the server
// sets it only if nobody changed it since, so a stale keyboard never overwrites a newer value; the
// newer value is shown beside the field instead, to take or to overrule. Changes are pushed to
// every phone (Server-Sent Events; polling while those fail). Edits wait in this phone's storage
// until the server has them, so a lost Wi-Fi or a reload loses nothing. No framework, no eval.
"use strict";

const state = JSON.parse(document.getElementById("state").textContent); // the game as the server last said
const words = JSON.parse(document.getElementById("words").textContent);
const lang = document.documentElement.lang;
const api = `/api/games/${state.id}`;
const keys = {pending: `kkprint-pending-${state.id}`, view: `kkprint-view-${state.id}`, me: `kkprint-me-${state.id}`};
const pad = document.getElementById("pad");
const mapGame = state.game === "webofpower";

// path -> {value, base, held, theirs}: typed here, not yet saved. `held`: another phone changed
// the field since `base`; nothing is sent until this phone's player chooses.
const pending = new Map(readStored(keys.pending, []));
const inflight = new Map(); // path -> value sent and not yet answered: its echo is this phone's own
let focused = null; // {path, base}: the field being typed in, and the server's value when it was entered
let sending = false;
let online = true;
let timer = null;
let poller = null;
let source = null;
let reloadWanted = false;

function readStored(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch (err) { return fallback; }
}
function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (err) { /* private mode: kept in memory only */ }
}
function savePending() { store(keys.pending, [...pending]); }

function split(path) { return path.split("."); }
function same(a, b) { return JSON.stringify(a ?? null) === JSON.stringify(b ?? null); }

function lookup(tally, parts) {
  let node = tally;
  for (const part of parts) {
    if (typeof node === "string") { node = node[Number(part)]; continue; }
    if (node === null || typeof node !== "object") return undefined;
    node = Array.isArray(node) ? node[Number(part)] : node[part];
  }
  return node;
}

// The tally as this phone shows it: the server's, with this phone's unsaved edits laid over.
function shownTally() {
  const tally = structuredClone(state.tally);
  for (const [path, edit] of pending) {
    const parts = split(path);
    let node = tally;
    for (const [i, part] of parts.slice(0, -1).entries()) {
      const next = node[part];
      if (typeof next === "string" && i === parts.length - 2) {
        const at = Number(parts[parts.length - 1]);
        node[part] = next.slice(0, at) + edit.value + next.slice(at + 1);
        node = null;
        break;
      }
      if (next === null || typeof next !== "object") node[part] = /^\d+$/.test(parts[i + 1]) ? [] : {};
      node = node[part];
    }
    if (node) node[parts[parts.length - 1]] = edit.value;
  }
  return tally;
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
    case "int":
      // K&K arms counted per kind ({cross: 4, fan: 1}): the largest, which is what scores
      if (typeof value === "object") return String(Math.max(0, ...Object.values(value).filter(Number.isFinite)));
      return value === 0 && input.dataset.path.match(/\.(interim|roads)\./) ? "" : String(value);
    default: return String(value);
  }
}

// -- the status line --------------------------------------------------------------------------

function status() {
  const sync = document.getElementById("sync");
  const waiting = pending.size;
  const which = !online ? "offline" : waiting ? "saving" : "saved";
  sync.textContent = !online
    ? (waiting ? sync.dataset.offline.replace("{n}", String(waiting)) : sync.dataset.offlineNone)
    : sync.dataset[which];
  sync.className = `sync ${which}`;
}

// -- sending ------------------------------------------------------------------------------------

function headers() {
  const me = document.getElementById("me").value;
  return {"content-type": "application/json", "x-kkprint-player": encodeURIComponent(me)};
}

async function send(url, method, body) {
  return fetch(`${url}?lang=${lang}`, {method, headers: headers(), body: JSON.stringify(body)});
}

function edit(path, value, base) {
  const known = pending.get(path);
  if (known) known.value = value;
  else pending.set(path, {value, base: base ?? null, held: false});
  savePending();
  status();
  clearTimeout(timer);
  timer = setTimeout(flush, 250);
}

async function flush() {
  if (sending) return;
  const ready = [...pending].filter(([, e]) => !e.held);
  if (ready.length === 0) { status(); return; }
  sending = true;
  const sent = new Map(ready.map(([path, e]) => [path, e.value]));
  for (const [path, value] of sent) inflight.set(path, value);
  let retry = 0;
  try {
    const response = await send(`${api}/fields`, "POST", {changes: ready.map(([path, e]) => ({path, value: e.value, base: e.base}))});
    const answer = await response.json();
    online = true;
    if (!response.ok) {
      // refused for good (a field the game no longer has, a deleted game): said, and dropped
      for (const path of sent.keys()) pending.delete(path);
      showProblem(answer.error || String(response.status));
    } else {
      const conflicts = new Map((answer.conflicts || []).map((c) => [c.path, c.value]));
      for (const [path, value] of sent) {
        const e = pending.get(path);
        if (!e) continue;
        if (conflicts.has(path)) {
          if (mapGame && path.startsWith("monasteries.")) { pending.delete(path); contested(path); continue; }
          e.held = true;
          e.theirs = conflicts.get(path);
        } else {
          saw(path, value); // the field open here now starts from what this phone saved
          if (same(e.value, value)) pending.delete(path);
          else e.base = value; // typed on meanwhile: what was sent is the server's value now
        }
      }
      apply(answer);
    }
  } catch (err) {
    online = false; // kept in `pending` (and in this phone's storage) until the pad answers again
    retry = 3000;
    startPolling();
  } finally {
    sending = false;
    inflight.clear();
    savePending();
    status();
    if ([...pending.values()].some((e) => !e.held)) { clearTimeout(timer); timer = setTimeout(flush, retry || 250); }
  }
}

// This phone's own value reached the server: a field still open starts from it from now on.
function saw(path, value) {
  if (focused && focused.path === path) focused.base = value;
}

// -- hearing of changes -------------------------------------------------------------------------

function playerCount(tally) { return (tally.players || []).length; }
function shape(tally) { return `${playerCount(tally)}|${Object.keys(tally.regions || {}).join("\n")}`; }

function apply(view) {
  if (view.version < state.version) return; // older news than the page has
  const reshaped = shape(view.tally) !== shape(state.tally);
  Object.assign(state, view);
  store(keys.view, state);
  for (const [path, e] of pending) {
    const now = lookup(state.tally, split(path));
    if (same(now, e.value)) { pending.delete(path); saw(path, now); } // the server has it already
    else if (inflight.has(path) && same(now, inflight.get(path))) e.base = now; // this phone's own, heard before its answer
    else if (!same(now, e.base)) { e.held = true; e.theirs = now; }
  }
  savePending();
  if (reshaped) {
    if (document.activeElement && document.activeElement.dataset && document.activeElement.dataset.path) {
      reloadWanted = true;
      document.getElementById("joined").hidden = false;
    } else { location.reload(); return; }
  }
  const tally = shownTally();
  pad.querySelectorAll("[data-path]").forEach((input) => {
    const path = input.dataset.path;
    const server = lookup(state.tally, split(path));
    const e = pending.get(path);
    if (e) {
      note(input, e.held ? e.theirs : undefined, e.held);
      if (input !== document.activeElement && input.value !== shown(input, e.value)) input.value = shown(input, e.value);
      return;
    }
    if (input === document.activeElement && focused && focused.path === path && !same(server, focused.base)) {
      note(input, server, false); // newer than what the player started from: beside, not over it
      return;
    }
    note(input, undefined, false);
    const value = shown(input, lookup(tally, split(path)));
    if (input.value !== value) input.value = value;
  });
  refreshNames();
  refreshMap();
  document.getElementById("results").innerHTML = view.html;
  markProblem(view.error);
  document.getElementById("undo").disabled = !state.can_undo;
  document.getElementById("redo").disabled = !state.can_redo;
  document.getElementById("gone").hidden = !state.deleted;
  document.getElementById("finished").checked = Boolean(state.finished);
  const rename = document.getElementById("rename");
  if (rename !== document.activeElement) rename.value = state.name || "";
  document.getElementById("game-name").textContent = state.name || rename.placeholder;
  loadHistory();
  status();
}

// A newer value from another phone, beside the field: take it, or (if this phone typed) keep its own.
function note(input, theirs, held) {
  const old = input.parentElement.querySelector(`.newer[data-for="${CSS.escape(input.dataset.path)}"]`);
  if (old) old.remove();
  input.classList.toggle("stale", theirs !== undefined);
  if (theirs === undefined) return;
  const box = document.createElement("div");
  box.className = "newer";
  box.dataset.for = input.dataset.path;
  box.setAttribute("role", "status");
  const said = document.createElement("span");
  said.textContent = words.newer.replace("{value}", shown(input, theirs) || words.empty);
  const take = document.createElement("button");
  take.type = "button";
  take.className = "take";
  take.textContent = words.use;
  take.addEventListener("click", () => {
    pending.delete(input.dataset.path);
    if (focused && focused.path === input.dataset.path) focused.base = theirs;
    savePending();
    input.value = shown(input, theirs);
    apply(state);
  });
  box.append(said, take);
  if (held) {
    const keep = document.createElement("button");
    keep.type = "button";
    keep.className = "keep";
    keep.textContent = words.keep;
    keep.addEventListener("click", () => {
      const e = pending.get(input.dataset.path);
      if (e) { e.base = theirs; e.held = false; e.theirs = undefined; }
      note(input, undefined, false);
      savePending();
      flush();
    });
    box.append(keep);
  }
  input.insertAdjacentElement("afterend", box);
}

function contested(path) {
  const [, row, col] = split(path);
  const cell = document.querySelector(`#map .cell[data-row="${row}"][data-col="${col}"]`);
  if (!cell) return;
  cell.classList.add("contested");
  cell.title = words.contested;
  setTimeout(() => { cell.classList.remove("contested"); cell.removeAttribute("title"); }, 1500);
}

async function poll() {
  try {
    const response = await fetch(`${api}?lang=${lang}`, {cache: "no-store"});
    if (!response.ok) throw new Error(String(response.status));
    online = true;
    apply(await response.json());
    flush();
  } catch (err) {
    online = false;
  }
  status();
}

function startPolling() { if (!poller) poller = setInterval(poll, 2000); }
function stopPolling() { clearInterval(poller); poller = null; }

function listen() {
  if (!("EventSource" in window)) { startPolling(); return; }
  source = new EventSource(`${api}/events?lang=${lang}`);
  source.addEventListener("view", (event) => {
    online = true;
    stopPolling();
    apply(JSON.parse(event.data));
    flush();
  });
  source.addEventListener("error", () => {
    startPolling(); // until the stream is back (the browser reconnects it by itself)
    if (source.readyState === EventSource.CLOSED) { source = null; setTimeout(listen, 3000); }
  });
}

// -- problems -----------------------------------------------------------------------------------

function showProblem(message) {
  const banner = document.getElementById("problem");
  banner.className = "problem";
  banner.textContent = message;
  banner.hidden = false;
}

// A mistake gets a note beside its field, over the fields around it (its cell is lifted above
// the table's sticky headers, the note kept inside the page's width), and is said in full below
// the form, where the scores would be; a field still to be filled in (a game just started) is
// only outlined, its hint said below the form, so no note covers the fields around it.
function markProblem(error) {
  document.querySelectorAll(".bad, .todo").forEach((el) => {
    el.classList.remove("bad", "todo");
    el.removeAttribute("aria-invalid");
    el.removeAttribute("aria-describedby");
  });
  document.querySelectorAll(".field-error").forEach((el) => el.remove());
  document.querySelectorAll(".holds-error").forEach((el) => el.classList.remove("holds-error"));
  const banner = document.getElementById("problem");
  banner.hidden = true;
  if (!error) return;
  const field = error.path && document.querySelector(`[data-path="${CSS.escape(error.path.join("."))}"]`);
  const todo = Boolean(field) && field.value.trim() === "";
  if (field && !todo) {
    field.classList.add("bad");
    const message = document.createElement("div");
    message.className = "field-error";
    message.id = "field-error"; // (the banner below is the alert: one message is read out once)
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", message.id);
    message.textContent = error.at_field || error.message;
    field.insertAdjacentElement("afterend", message);
    field.parentElement.classList.add("holds-error");
    const box = message.getBoundingClientRect();
    const over = box.right - (document.documentElement.clientWidth - 4);
    if (over > 0) message.style.left = `${-Math.min(over, box.left - 4)}px`; // (the table may be scrolled)
  }
  if (todo) field.classList.add("todo");
  banner.className = todo ? "problem todo-note" : "problem";
  banner.textContent = error.message;
  banner.hidden = false;
}

// -- the names: owners of Culdcept squares, who this phone belongs to --------------------------

function names() {
  return (shownTally().players || []).map((p) => (p && typeof p === "object" ? p.name : p)).map((n) => (typeof n === "string" ? n : ""));
}

function fillSelect(select, wanted, emptyWord) {
  const have = [...select.options].map((o) => o.value);
  if (have.join("\n") !== wanted.join("\n")) {
    select.replaceChildren(...wanted.map((name) => new Option(name || emptyWord, name)));
  }
}

function refreshNames() {
  const typed = names().filter(Boolean);
  document.querySelectorAll("select[data-owner]").forEach((select) => {
    fillSelect(select, ["", ...typed], "–");
    const value = lookup(shownTally(), split(select.dataset.path)) || "";
    if (select !== document.activeElement) select.value = value;
  });
  const me = document.getElementById("me");
  const chosen = readStored(keys.me, "");
  fillSelect(me, ["", ...typed], me.options[0] ? me.options[0].text : "");
  me.value = typed.includes(chosen) ? chosen : "";
}

// -- the trump map: a tap hands a square to the next player, then clears it ---------------------

function refreshMap() {
  const map = document.getElementById("map");
  if (!map) return;
  const symbols = [...map.dataset.symbols];
  const rows = shownTally().monasteries || [];
  const who = names();
  map.querySelectorAll(".cell").forEach((cell) => {
    const mark = (rows[cell.dataset.row] || "")[cell.dataset.col] || ".";
    const index = "123".indexOf(mark);
    cell.querySelector(".mark").textContent = index >= 0 ? symbols[index] : "";
    cell.dataset.mark = index >= 0 ? String(index + 1) : "";
    const holder = index >= 0 ? (who[index] || symbols[index]) : map.dataset.empty;
    cell.querySelector(".holder").textContent = `${cell.dataset.label}: ${holder}`; // what a screen reader says
  });
}

function tap(cell) {
  const map = document.getElementById("map");
  const players = Number(map.dataset.playerCount);
  const path = `monasteries.${cell.dataset.row}.${cell.dataset.col}`;
  const now = lookup(shownTally(), split(path)) || ".";
  const next = "123".indexOf(now) + 1 >= players ? "." : String("123".indexOf(now) + 2);
  edit(path, next, pending.has(path) ? undefined : lookup(state.tally, split(path)) ?? null);
  refreshMap();
}

// -- the game as a whole -----------------------------------------------------------------------

async function changePlayers(step) {
  await flush();
  const response = await send(`${api}/players`, "POST", {count: playerCount(state.tally) + step});
  if (response.ok) location.reload();
  else showProblem((await response.json()).error);
}

async function renameRegion(input) {
  const old = input.dataset.region;
  const name = normal(input.value);
  const regions = state.tally.regions || {};
  if (!name || name.includes(".") || name === old || name in regions) { input.value = old; return; }
  await flush();
  const response = await send(api, "PUT", {regions: {[old]: null, [name]: regions[old] || {}}});
  if (response.ok) location.reload();
}

async function answer(response) {
  const body = await response.json();
  if (response.ok) apply(body);
  else showProblem(body.error || String(response.status));
  return response.ok;
}

async function undoRedo(which) {
  await flush();
  try { await answer(await send(`${api}/${which}`, "POST", {})); } catch (err) { online = false; status(); }
}

async function loadHistory() {
  const details = document.getElementById("history");
  if (!details.open) return;
  let steps;
  try {
    const response = await fetch(`${api}/history?lang=${lang}`, {cache: "no-store"});
    steps = (await response.json()).steps;
  } catch (err) { return; }
  const list = document.getElementById("history-list");
  document.getElementById("history-empty").hidden = steps.length > 0;
  list.replaceChildren(...steps.map((step) => {
    const item = document.createElement("li");
    item.className = `step ${step.state}`;
    const when = document.createElement("time");
    when.textContent = step.time;
    item.append(when);
    if (step.by) {
      const by = document.createElement("span");
      by.className = "by";
      by.textContent = list.dataset.by.replace("{name}", step.by);
      item.append(" ", by);
    }
    for (const change of step.changes) {
      const line = document.createElement("span");
      line.className = "change";
      line.textContent = `${change.label}: ${change.before} → ${change.after}`;
      item.append(line);
    }
    if (step.state !== "done") {
      const undone = document.createElement("span");
      undone.className = "undone-note";
      undone.textContent = step.undone_by ? list.dataset.undoneBy.replace("{name}", step.undone_by) : list.dataset.undone;
      item.append(" ", undone);
    }
    return item;
  }));
}

// -- wiring -------------------------------------------------------------------------------------

pad.addEventListener("submit", (event) => event.preventDefault());
pad.addEventListener("focusin", (event) => {
  const path = event.target.dataset && event.target.dataset.path;
  if (path) focused = {path, base: lookup(state.tally, split(path)) ?? null};
});
pad.addEventListener("focusout", (event) => {
  const input = event.target;
  if (!input.dataset || !input.dataset.path) return;
  focused = null;
  if (reloadWanted && pending.size === 0) { location.reload(); return; }
  if (reloadWanted) { flush().then(() => location.reload()); return; }
  if (!pending.has(input.dataset.path)) setTimeout(() => apply(state), 0); // a newer value it was shown beside: now in place
});
pad.addEventListener("input", (event) => {
  const input = event.target;
  if (!input.dataset.path) return;
  const base = focused && focused.path === input.dataset.path ? focused.base : lookup(state.tally, split(input.dataset.path));
  edit(input.dataset.path, read(input), base);
});
pad.addEventListener("change", (event) => {
  const input = event.target;
  if (input.classList.contains("region")) renameRegion(input);
  if (input.id === "only") showOnly(input.value);
});
document.querySelectorAll("button[data-players]").forEach((button) =>
  button.addEventListener("click", () => changePlayers(Number(button.dataset.players))));
document.querySelectorAll("#map .cell").forEach((cell) => cell.addEventListener("click", () => tap(cell)));
document.getElementById("undo").addEventListener("click", () => undoRedo("undo"));
document.getElementById("redo").addEventListener("click", () => undoRedo("redo"));
document.getElementById("history").addEventListener("toggle", loadHistory);
document.getElementById("me").addEventListener("change", (event) => store(keys.me, event.target.value));
document.getElementById("rename").addEventListener("change", (event) => send(api, "PATCH", {name: event.target.value}).then(answer));
document.getElementById("finished").addEventListener("change", (event) => send(api, "PATCH", {finished: event.target.checked}).then(answer));
document.getElementById("delete").addEventListener("click", async () => {
  const response = await fetch(`${api}?lang=${lang}`, {method: "DELETE", headers: headers(), body: "{}"});
  // the list, where it can be brought back; a phone without the pad's key stays (its page says how)
  if (response.ok && document.getElementById("pad").dataset.keyed === "yes") location.assign(`/?deleted=${encodeURIComponent(state.id)}`);
  else await answer(response);
});
document.getElementById("bring-back").addEventListener("click", () => send(`${api}/restore`, "POST", {}).then(answer));
window.addEventListener("online", () => { flush(); poll(); });
// Culdcept's ring: each square's place on it, for the style sheet to use where the ring is drawn
// (a style attribute would be inline style).
document.querySelectorAll(".square[data-x]").forEach((square) => {
  square.style.setProperty("--x", `${square.dataset.x}%`);
  square.style.setProperty("--y", `${square.dataset.y}%`);
});

// K&K on a phone: show one player's column, so each player fills in their own.
function showOnly(index) {
  store(`kkprint-only-${state.id}`, index);
  document.querySelectorAll(".kk [class*='col-']").forEach((cell) => {
    cell.hidden = index !== "" && !cell.classList.contains(`col-${index}`);
  });
}
const only = document.getElementById("only");
if (only) { only.value = readStored(`kkprint-only-${state.id}`, ""); showOnly(only.value); }

// (with --lan the page holds the address the phones reach, not this browser's 127.0.0.1)
const address = document.getElementById("address");
if (!address.textContent) address.textContent = location.origin + location.pathname;
// A page kept by the service worker may be older than what this phone last heard.
const heard = readStored(keys.view, null);
if (heard && heard.id === state.id && heard.version > state.version && shape(heard.tally) === shape(state.tally)) Object.assign(state, heard);
apply(state);
listen();
flush();
