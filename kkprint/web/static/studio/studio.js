// The deck studio's page: the deck arrives as Server-Sent Events ("deck"), every card is a tile
// whose picture changes only when its inputs did; a tile opens the card large with its regions,
// its data row and its preflight. Every text of the deck is set with textContent: a card named
// "<script>" shows those letters and nothing runs; and inside <bdi>, apart from the words around
// it, so a name written right to left, or with a mark that turns the text around (U+202E), leaves
// the rest of the line reading as it should.
"use strict";

const WORDS = JSON.parse(document.getElementById("studio-words").textContent);
const $ = (id) => document.getElementById(id);

function say(key, values = {}) {
  return WORDS[key].replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined && text !== null) made.textContent = text;
  return made;
}

// the user's own text (a name, a value, a file), isolated from the words around it
function given(text) {
  return element("bdi", null, text);
}

// a text the server sent in parts: [text, given] (given: the user's own, isolated)
function withParts(target, parts) {
  for (const [text, isGiven] of parts) target.append(isGiven ? given(text) : document.createTextNode(text));
  return target;
}

// say() as nodes: the values (the deck's names and texts) isolated
function sayWith(key, values = {}) {
  const made = document.createDocumentFragment();
  const words = WORDS[key];
  let at = 0;
  for (const match of words.matchAll(/\{(\w+)\}/g)) {
    made.append(words.slice(at, match.index), match[1] in values ? given(String(values[match[1]])) : match[0]);
    at = match.index + match[0].length;
  }
  made.append(words.slice(at));
  return made;
}

// a problem as the list and a card opened large show it: its file, place and message apart
function problemInto(target, problem) {
  if (problem.file) target.append(withParts(element("span", "problem-file"), [[problem.file, true]]));
  if (problem.place) target.append(withParts(element("span", "problem-place"), problem.place_parts));
  target.append(withParts(element("span", "problem-message"), problem.message_parts));
  return target;
}

const studio = {
  deck: null, // the last state the server sent
  tiles: new Map(), // card index -> its tile
  backs: false, // the grid shows backs
  open: null, // the index of the card opened large
  view: "cards",
};

// -- the grid ---------------------------------------------------------------------------------

function cardShape(target, card) {
  target.style.setProperty("--card-ratio", `${card.w} / ${card.h}`);
  target.style.setProperty("--card-corner", `${(100 * card.corner) / card.w}% / ${(100 * card.corner) / card.h}%`);
  target.dataset.shape = card.shape;
}

function makeTile(card) {
  const tile = element("figure", "tile");
  const button = element("button", "tile-picture");
  button.type = "button";
  const picture = element("img");
  picture.alt = "";
  picture.decoding = "async";
  button.append(picture);
  const caption = element("figcaption");
  caption.append(element("span", "tile-number"), element("span", "tile-title"), element("span", "tile-copies"));
  tile.append(button, caption);
  button.addEventListener("click", () => openCard(Number(tile.dataset.index)));
  return tile;
}

function updateTile(tile, card) {
  tile.dataset.index = card.index;
  const picture = tile.querySelector("img");
  const source = (studio.backs && card.has_back ? card.back : card.front) || "";
  if (picture.getAttribute("src") !== source) {
    if (source) picture.src = source;
    else picture.removeAttribute("src");
  }
  picture.alt = card.title;
  tile.querySelector(".tile-number").textContent = String(card.number);
  tile.querySelector(".tile-title").textContent = card.title;
  tile.querySelector(".tile-copies").textContent = card.count > 1 ? say("copies", { count: card.count }) : "";
  tile.querySelector(".tile-copies").title = card.count > 1 ? say("copies_title", { count: card.count }) : "";
  tile.classList.toggle("broken", Boolean(card.error));
  tile.classList.toggle("warned", !card.error && card.warnings > 0);
  tile.classList.toggle("stale", !card.current);
  // a card out of date: still to be drawn, or kept as it last drew while the deck names a column
  // no card has (its faces are drawn off screen all the same: its error is its own)
  const late = card.current ? "" : say(card.held ? "held" : "stale");
  tile.title = card.error || late || (card.warnings ? say("warned", { count: card.warnings }) : "");
}

function showDeck(deck) {
  studio.deck = deck;
  if (deck.name) $("deck-name").textContent = deck.name;
  if (deck.card) cardShape($("grid"), deck.card);
  const grid = $("grid");
  const seen = new Set();
  let previous = null;
  for (const card of deck.cards) {
    let tile = studio.tiles.get(card.index);
    if (!tile) {
      tile = makeTile(card);
      studio.tiles.set(card.index, tile);
    }
    updateTile(tile, card);
    const place = previous ? previous.nextSibling : grid.firstChild;
    if (place !== tile) grid.insertBefore(tile, place);
    previous = tile;
    seen.add(card.index);
  }
  for (const [index, tile] of studio.tiles) {
    if (!seen.has(index)) {
      tile.remove();
      studio.tiles.delete(index);
    }
  }
  showProblems(deck.errors);
  showChoices(deck);
  filter();
  showStatus();
  if (studio.open !== null) refreshOpenCard();
  if (studio.view === "sheets") sheetsLater();
}

function showStatus() {
  const deck = studio.deck;
  const status = $("status");
  status.classList.remove("offline", "busy", "live");
  status.classList.add(deck.busy ? "busy" : "live");
  status.textContent = deck.busy ? say("drawing", { count: deck.pending }) : say("live");
}

function showProblems(errors) {
  const list = $("problem-list");
  list.replaceChildren();
  for (const problem of errors) {
    // a card's problem opens the card: a button inside the item (the list stays a list)
    const item = element("li");
    if (problem.card !== null) {
      const open = problemInto(element("button", "problem-card"), problem);
      open.type = "button";
      open.addEventListener("click", () => openCard(problem.card));
      item.append(open);
    } else {
      problemInto(item, problem);
    }
    list.append(item);
  }
  $("problems").hidden = errors.length === 0;
}

// -- filters ----------------------------------------------------------------------------------

function setOptions(select, values, keep) {
  const chosen = select.value;
  const first = select.options[0];
  select.replaceChildren(first);
  for (const value of values) {
    const option = element("option", null, value);
    option.value = value;
    select.append(option);
  }
  select.value = keep && values.includes(chosen) ? chosen : "";
}

function showChoices(deck) {
  setOptions($("field"), deck.columns, true);
  const layouts = deck.layouts;
  setOptions($("layout"), layouts, true);
  $("layout").hidden = layouts.length < 2;
  showValues();
}

function showValues() {
  const field = $("field").value;
  const values = $("value");
  if (!field || !studio.deck) {
    values.hidden = true;
    values.value = "";
    return;
  }
  const found = [...new Set(studio.deck.cards.map((card) => card.fields[field] ?? ""))].sort();
  setOptions(values, found, true);
  values.hidden = false;
}

function filter() {
  const deck = studio.deck;
  if (!deck) return;
  const words = $("search").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const field = $("field").value;
  const value = $("value").value;
  const layout = $("layout").value;
  let shown = 0;
  for (const card of deck.cards) {
    const text = [card.title, String(card.number), ...Object.values(card.fields)].join(" ").toLowerCase();
    const visible =
      words.every((word) => text.includes(word)) &&
      (!field || !value || (card.fields[field] ?? "") === value) &&
      (!layout || card.layout === layout);
    const tile = studio.tiles.get(card.index);
    tile.hidden = !visible;
    if (visible) shown += 1;
  }
  $("shown").textContent = say("shown", { shown, total: deck.cards.length });
}

// -- one card, large --------------------------------------------------------------------------

async function openCard(index) {
  studio.open = index;
  const dialog = $("card");
  if (!dialog.open) dialog.showModal();
  await refreshOpenCard();
}

async function refreshOpenCard() {
  const index = studio.open;
  const answer = await fetch(`/api/cards/${index}`);
  if (studio.open !== index) return;
  if (!answer.ok) {
    $("card").close();
    return;
  }
  showCard(await answer.json());
}

function showCard(card) {
  $("card-title").replaceChildren(say("number", { number: card.number }), " · ", given(card.title));
  const error = $("card-error");
  error.hidden = !card.error;
  error.replaceChildren();
  if (card.error) problemInto(error, card.error);
  const faces = $("faces");
  const chosen = faces.querySelector(".region.chosen");
  const keep = chosen ? [chosen.dataset.side, chosen.dataset.name] : null;
  faces.replaceChildren();
  cardShape(faces, card.card);
  for (const side of ["front", "back"]) {
    const face = card[side];
    const figure = element("figure", "face");
    figure.append(element("figcaption", null, say(side)));
    if (!face) {
      figure.append(element("p", "hint", say("no_back")));
      faces.append(figure);
      continue;
    }
    const frame = element("div", "face-frame");
    const picture = element("img");
    picture.alt = `${card.title} (${say(side)})`;
    if (face.picture) picture.src = face.picture;
    frame.append(picture);
    const list = element("ul", "region-list");
    // the outlines go largest first, so a small region inside a large one stays on top, reachable
    const outlines = [];
    for (const region of face.regions) {
      const outline = element("button", region.drawn ? "region" : "region not-drawn");
      const flagged = flaggedOn(card, face, region.name);
      if (flagged) outline.classList.add(`flagged-${flagged}`);
      outline.type = "button";
      outline.dataset.name = region.name;
      outline.dataset.side = side;
      outline.setAttribute("aria-label", say("region_kind", { name: region.name, kind: region.type }));
      const [x, y, w, h] = region.box;
      outline.style.left = `${(100 * x) / card.card.w}%`;
      outline.style.top = `${(100 * y) / card.card.h}%`;
      outline.style.width = `${(100 * w) / card.card.w}%`;
      outline.style.height = `${(100 * h) / card.card.h}%`;
      if (region.rotation) outline.style.transform = `rotate(${-region.rotation}deg)`;
      outline.append(element("span", "region-name", region.name));
      outline.addEventListener("click", () => chooseRegion(face, region, side));
      if (region.drawn) outlines.push([region.box[2] * region.box[3], outline]);
      const item = element("li");
      const named = element("button", region.drawn ? "region-chip" : "region-chip not-drawn", region.name);
      if (flagged) named.classList.add(`flagged-${flagged}`);
      named.type = "button";
      named.dataset.name = region.name;
      named.dataset.side = side;
      named.addEventListener("click", () => chooseRegion(face, region, side));
      item.append(named);
      list.append(item);
    }
    outlines.sort((a, b) => b[0] - a[0]);
    frame.append(...outlines.map(([, outline]) => outline));
    figure.append(frame, list);
    faces.append(figure);
  }
  const rows = $("row").tBodies[0];
  rows.replaceChildren();
  for (const [key, value] of card.fields) {
    const row = element("tr");
    row.append(element("th", null, key), element("td", null, value));
    rows.append(row);
  }
  $("origin").textContent = card.origin;
  const warnings = $("warnings");
  warnings.replaceChildren();
  for (const warning of card.warnings) {
    const item = withParts(element("li", `finding ${warning.severity}`), warning.parts);
    item.dataset.kind = warning.kind;
    if (warning.region) item.dataset.region = warning.region;
    warnings.append(item);
  }
  if (!card.warnings.length) warnings.append(element("li", "hint", say("no_warnings")));
  studio.card = card;
  if (keep) {
    const again = card[keep[0]] && card[keep[0]].regions.find((region) => region.name === keep[1]);
    if (again) chooseRegion(card[keep[0]], again, keep[0]);
  }
}

// "error" or "warning" when the preflight found something on this region of this face
function flaggedOn(card, face, name) {
  let found = null;
  for (const warning of card.warnings) {
    if (warning.region === name && warning.face === face.section) {
      if (warning.severity === "error") return "error";
      found = "warning";
    }
  }
  return found;
}

function chooseRegion(face, region, side) {
  for (const other of $("faces").querySelectorAll(".chosen")) other.classList.remove("chosen");
  for (const marked of $("faces").querySelectorAll(`[data-side="${side}"]`)) {
    if (marked.dataset.name === region.name) marked.classList.add("chosen");
  }
  const info = $("region");
  info.replaceChildren();
  const heading = element("h3");
  heading.append(sayWith("region_kind", { name: region.name, kind: region.type }));
  info.append(heading);
  const file = studio.deck ? studio.deck.file : "";
  const said = (tag, className, key, values) => {
    const made = element(tag, className);
    made.append(sayWith(key, values));
    info.append(made);
  };
  if (region.line) {
    said("p", "region-line", "line", { file, line: region.line });
    if (region.section) said("p", "hint", "section", { section: region.section });
    if (region.source) info.append(element("code", "region-source", region.source));
  } else {
    info.append(element("p", "hint", say("template")));
  }
  if (!region.drawn) said("p", "region-why", "not_drawn", { why: region.why || "" });
}

function step(by) {
  if (!studio.deck || studio.open === null) return;
  const visible = studio.deck.cards.filter((card) => !studio.tiles.get(card.index).hidden);
  const at = visible.findIndex((card) => card.index === studio.open);
  const next = visible[at + by];
  if (next) openCard(next.index);
}

// -- sheets -----------------------------------------------------------------------------------

let sheetTimer = null;
let sheetAsked = 0;

function sheetsLater() {
  clearTimeout(sheetTimer);
  sheetTimer = setTimeout(showSheets, 300);
}

async function showSheets() {
  const asked = ++sheetAsked;
  $("sheet-status").textContent = say("building");
  const query = new URLSearchParams({ paper: $("paper").value, backs: $("backs").value });
  const answer = await fetch(`/api/sheets?${query}`);
  const found = await answer.json();
  if (asked !== sheetAsked) return;
  const pages = $("sheet-pages");
  if (!answer.ok) {
    $("sheet-status").textContent = found.error;
    pages.replaceChildren(); // (no sheets of this paper and backs were ever built)
    delete pages.dataset.key; // (so the last good ones are drawn again when they come back)
    return;
  }
  // while the deck does not build, the last sheets that did, said to be out of date
  $("sheet-status").textContent = found.stale ? say("sheets_kept") : say("pages", { count: found.pages.length });
  pages.classList.toggle("stale", Boolean(found.stale));
  if (pages.dataset.key === found.key) return;
  pages.dataset.key = found.key;
  pages.replaceChildren();
  for (const page of found.pages) {
    const figure = element("figure", `sheet-page side-${page.side}`);
    const picture = element("img");
    picture.loading = "lazy";
    picture.src = page.url;
    picture.style.aspectRatio = `${page.w} / ${page.h}`;
    const side = page.side === "fold" ? say("sheet_fold") : say(`sheet_${page.side}`);
    picture.alt = `${say("sheet", { sheet: page.sheet })} · ${side}`;
    figure.append(picture, element("figcaption", null, picture.alt));
    pages.append(figure);
  }
}

function showView(view) {
  studio.view = view;
  $("show-cards").setAttribute("aria-pressed", String(view === "cards"));
  $("show-sheets").setAttribute("aria-pressed", String(view === "sheets"));
  $("grid").hidden = view !== "cards";
  $("shown").hidden = view !== "cards";
  $("sheets").hidden = view !== "sheets";
  for (const id of ["search", "field", "value", "layout", "flip", "zoom"]) $(id).disabled = view !== "cards";
  if (view === "sheets") showSheets();
}

// -- wiring -----------------------------------------------------------------------------------

function connect() {
  const events = new EventSource("/api/events");
  events.addEventListener("deck", (event) => showDeck(JSON.parse(event.data)));
  events.addEventListener("error", () => {
    const status = $("status");
    status.textContent = say("offline");
    status.classList.remove("live", "busy");
    status.classList.add("offline");
  });
}

$("search").addEventListener("input", filter);
$("field").addEventListener("change", () => {
  showValues();
  filter();
});
$("value").addEventListener("change", filter);
$("layout").addEventListener("change", filter);
$("flip").addEventListener("click", () => {
  studio.backs = !studio.backs;
  $("flip").setAttribute("aria-pressed", String(studio.backs));
  $("flip").textContent = say(studio.backs ? "show_fronts" : "show_backs");
  if (studio.deck) showDeck(studio.deck);
});
$("zoom").addEventListener("input", () => $("grid").style.setProperty("--tile", `${$("zoom").value}px`));
$("show-cards").addEventListener("click", () => showView("cards"));
$("show-sheets").addEventListener("click", () => showView("sheets"));
$("paper").addEventListener("change", showSheets);
$("backs").addEventListener("change", showSheets);
$("close").addEventListener("click", () => $("card").close());
$("previous").addEventListener("click", () => step(-1));
$("next").addEventListener("click", () => step(1));
$("card").addEventListener("close", () => {
  studio.open = null;
});
$("card").addEventListener("keydown", (event) => {
  if (event.key === "ArrowLeft") step(-1);
  if (event.key === "ArrowRight") step(1);
});
connect();
