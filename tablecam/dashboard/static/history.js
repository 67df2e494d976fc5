// The history page: every stored game with its rounds, exports, and a PIN-protected delete.
"use strict";

const H = Tablecam;

function gameCard(game) {
  const names = game.names;
  const title = `Game ${game.id}: ${names.A} v ${names.B}`;
  const result = game.winner ? `${names[game.winner]} won` : (game.ended_at ? "ended" : "in progress");
  const rows = game.rounds.map((r) => H.el("tr", {"data-round": r.round},
    H.el("td", {}, r.round),
    H.el("td", {}, r.winner ? names[r.winner] : ""),
    H.el("td", {}, ["A", "B"].filter((s) => r.taken[s]).map((s) => `${names[s]} ${r.taken[s]} (${r.piles[s]})`).join(", ")),
    H.el("td", {}, r.cards_after ? `${names.A} ${r.cards_after.A} · ${names.B} ${r.cards_after.B}` : "")));
  const remove = H.el("button", {type: "button", "data-delete": game.id}, "Delete");
  remove.addEventListener("click", async () => {
    if (!confirm(`Delete game ${game.id}?`)) return;
    const answer = await H.controlRequest("DELETE", `/api/games/${game.id}`);
    if (answer.ok) load();
    else if (answer.error !== "locked") alert(answer.error);
  });
  return H.el("section", {class: "panel game", "data-game": game.id},
    H.el("h3", {}, title),
    H.el("p", {class: "status"}, `${game.started_at.replace("T", " ")} · ${result} · ${game.rounds.length} rounds`),
    H.el("table", {},
      H.el("thead", {}, H.el("tr", {}, H.el("th", {}, "Round"), H.el("th", {}, "Winner"),
                         H.el("th", {}, "Took"), H.el("th", {}, "Cards after"))),
      H.el("tbody", {}, ...rows)),
    H.el("div", {class: "actions"},
      H.el("a", {href: `/api/games/${game.id}.json`, download: ""}, "JSON"),
      H.el("a", {href: `/api/games/${game.id}.csv`, download: ""}, "CSV"),
      remove));
}

async function load() {
  const main = document.getElementById("games");
  const answer = await H.request("GET", "/api/games");
  if (!answer.ok) {
    main.replaceChildren(H.el("p", {class: "status"}, answer.error));
    return;
  }
  const games = answer.data.games;
  main.replaceChildren(...(games.length ? games.map(gameCard)
                                        : [H.el("p", {class: "status"}, "No games recorded yet.")]));
}

document.addEventListener("DOMContentLoaded", load);
