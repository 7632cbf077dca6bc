// The list of games: a button starts a saved game (a JSON request, as every change to the pad
// must be) and opens its page.
"use strict";

document.querySelectorAll("button[data-game]").forEach((button) => button.addEventListener("click", async () => {
  const problem = document.getElementById("problem");
  button.disabled = true;
  try {
    const response = await fetch(`/api/games?lang=${document.documentElement.lang}`, {
      method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify({game: button.dataset.game}),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || String(response.status));
    location.assign(answer.url);
  } catch (err) {
    problem.textContent = err.message;
    problem.hidden = false;
    button.disabled = false;
  }
}));
