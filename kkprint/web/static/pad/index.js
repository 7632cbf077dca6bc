// The list of games: a button starts a saved game (a JSON request, as every change to the pad
// must be) and opens its page; a game just deleted, or one deleted lately, can be brought back.
"use strict";

const problem = document.getElementById("problem");
const lang = document.documentElement.lang;

async function post(url, body) {
  const response = await fetch(`${url}?lang=${lang}`, {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || String(response.status));
  return answer;
}

function say(err) {
  problem.textContent = err.message;
  problem.hidden = false;
}

document.querySelectorAll("button[data-game]").forEach((button) => button.addEventListener("click", async () => {
  button.disabled = true;
  try {
    location.assign((await post("/api/games", {game: button.dataset.game})).url);
  } catch (err) {
    say(err);
    button.disabled = false;
  }
}));

async function restore(id) {
  try {
    await post(`/api/games/${encodeURIComponent(id)}/restore`, {});
    location.assign(`/g/${encodeURIComponent(id)}`);
  } catch (err) { say(err); }
}

document.querySelectorAll("button[data-restore]").forEach((button) =>
  button.addEventListener("click", () => restore(button.dataset.restore)));
const deleted = new URLSearchParams(location.search).get("deleted");
if (deleted) {
  document.getElementById("deleted-note").hidden = false;
  document.getElementById("undelete").addEventListener("click", () => restore(deleted));
}
