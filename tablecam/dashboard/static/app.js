// The live page: one EventSource, a handler per message kind, plain DOM updates.
"use strict";

const {el, cardText, cardClass} = Tablecam;
const NS = "http://www.w3.org/2000/svg";
const FEED_LIMIT = 300;

const view = {
  names: {A: "A", B: "B"},
  variantChoices: {},
  frameMeta: new Map(),   // seq -> {t, cards}, the last few frames announced
  frameLoading: false,
  frameWanted: 0,
  frameShown: 0,
  objectUrl: null,
  events: [],
};

// Numbers the browser tests read (arrival times of messages, frames drawn).
window.tablecamStats = {events: 0, lastEventAt: 0, lastEventT: null, frames: 0, snapshots: 0};

function svg(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function name(seat) {
  return view.names[seat] || seat;
}

// ------------------------------------------------------------------ camera
function onFrame(meta) {
  if (!meta) return;
  view.frameMeta.set(meta.seq, meta);
  for (const seq of view.frameMeta.keys()) {
    if (seq < meta.seq - 16) view.frameMeta.delete(seq);
  }
  view.frameWanted = meta.seq;
  loadFrame();
}

// Fetch the newest announced frame; while one is loading, later ones just update
// frameWanted, so a slow screen skips frames instead of queueing them.
async function loadFrame() {
  if (view.frameLoading || view.frameWanted <= view.frameShown) return;
  view.frameLoading = true;
  const seq = view.frameWanted;
  try {
    const response = await fetch(`/frame.jpg?seq=${seq}`, {cache: "no-store"});
    if (response.ok) {
      const gotSeq = Number(response.headers.get("X-Frame-Seq")) || seq;
      const blob = await response.blob();
      const bitmap = await createImageBitmap(blob);
      const url = URL.createObjectURL(blob);
      drawFrame(url, bitmap.width, bitmap.height, view.frameMeta.get(gotSeq) || view.frameMeta.get(seq));
      bitmap.close();
      view.frameShown = Math.max(seq, gotSeq);
    } else {
      view.frameShown = seq;
    }
  } catch (_) {
    view.frameShown = seq;
  } finally {
    view.frameLoading = false;
  }
  if (view.frameWanted > view.frameShown) loadFrame();
}

function drawFrame(url, width, height, meta) {
  const camera = document.getElementById("camera");
  const image = document.getElementById("camera-image");
  camera.setAttribute("viewBox", `0 0 ${width} ${height}`);
  image.setAttribute("width", width);
  image.setAttribute("height", height);
  image.setAttribute("href", url);
  if (view.objectUrl) URL.revokeObjectURL(view.objectUrl);
  view.objectUrl = url;
  document.getElementById("camera-empty").style.display = "none";
  const group = document.getElementById("outlines");
  group.replaceChildren();
  const scale = Math.max(width, height) / 640;
  for (const card of (meta && meta.cards) || []) {
    if (!card.corners || card.corners.length !== 4) continue;
    const points = card.corners.map(([x, y]) => `${x},${y}`).join(" ");
    const known = card.card !== null && card.card !== undefined;
    group.append(svg("polygon", {points, class: known ? "outline" : "outline unknown",
                                 "stroke-width": 2.5 * scale}));
    const top = card.corners.reduce((a, b) => (b[1] < a[1] ? b : a));
    const label = svg("text", {x: top[0], y: Math.max(top[1] - 4 * scale, 18 * scale), class: "card-label",
                               "font-size": 18 * scale, "data-card": card.card || ""},
                      known ? cardText(card.card) : "?");
    group.append(label);
  }
  window.tablecamStats.frames += 1;
}

// ------------------------------------------------------------------- state
function cardBox(code, extra) {
  return el("span", {class: cardClass(code) + (extra ? " " + extra : ""), "data-card": code || ""},
            cardText(code));
}

function renderSeat(seat, player) {
  const box = document.getElementById(`seat-${seat}`);
  const columns = el("div", {class: "columns"});
  const list = player ? player.columns : [];
  for (let i = 0; i < 5; i += 1) {
    const column = list[i];
    const cell = el("div", {class: "column", "data-column": i + 1});
    if (column) {
      if (column.down > 0) cell.append(el("span", {class: "down", title: `${column.down} face down`}, `+${column.down}`));
      cell.append(column.up ? cardBox(column.up) : el("span", {class: "card empty"}, "\u00b7"));
    } else {
      cell.append(el("span", {class: "card empty"}, "\u00b7"));
    }
    columns.append(cell);
  }
  // Seat B faces the camera's bottom edge: its column 1 is at the image's right.
  if (seat === "B") columns.style.flexDirection = "row-reverse";
  const total = player ? (player.total ?? ((player.tableau ?? 0) + (player.spit ?? 0))) : null;
  const info = el("div", {class: "seat-info"},
    el("strong", {class: "name", "data-name": seat}, name(seat)),
    el("span", {"data-testid": `spit-${seat}`}, `spit cards left: ${player ? player.spit : "–"}`),
    el("span", {"data-testid": `total-${seat}`}, `cards: ${total ?? "–"}`));
  box.replaceChildren(info, columns);
}

function renderState(state) {
  const round = document.getElementById("round");
  const phase = document.getElementById("phase");
  if (!state) {
    round.textContent = "waiting for the deal";
    phase.textContent = "";
    renderSeat("A", null);
    renderSeat("B", null);
    document.getElementById("centre").replaceChildren();
    return;
  }
  round.textContent = `round ${state.round}`;
  // Accept both the documented snapshot (centre/count/winner) and the referee's
  // (piles/cards/round_winner).
  const winner = state.winner ?? (state.phase === "game_over" ? state.round_winner : null);
  phase.textContent = winner ? `${name(winner)} wins` : (state.phase || "").replaceAll("_", " ");
  renderSeat("A", state.players && state.players.A);
  renderSeat("B", state.players && state.players.B);
  const centre = document.getElementById("centre");
  centre.replaceChildren();
  for (const pile of ["left", "right"]) {
    const piles = state.centre || state.piles || {};
    const data = piles[pile] || {top: null};
    const count = data.count ?? data.cards ?? 0;
    centre.append(el("div", {class: "pile", "data-pile": pile},
      count ? cardBox(data.top, "large") : el("span", {class: "card large empty"}, "\u00b7"),
      el("span", {class: "count", "data-testid": `pile-${pile}`}, `${pile}: ${count} cards`)));
  }
}

// -------------------------------------------------------------------- feed
function describe(event) {
  const who = event.player ? name(event.player) : "";
  switch (event.type) {
    case "deal": return `Round ${event.round}: cards dealt`;
    case "spit": return `Spit: ${Object.entries(event.cards || {}).map(([p, c]) => `${cardText(c)} ${p}`).join(", ")}`;
    case "play": return `${who} plays ${cardText(event.card)} on ${event.pile}`;
    case "reveal": return `${who} turns up ${cardText(event.card)} in column ${event.column}`;
    case "move": return `${who} moves ${cardText(event.card)} to column ${event.to}`;
    case "takeback": return `${who} takes back ${cardText(event.card)}`;
    case "illegal": return `Illegal: ${who} ${event.card ? cardText(event.card) : ""} (${event.reason})`;
    case "stall": return "Nobody can play: Spit!";
    case "round_end": return `${name(event.winner)} wins round ${event.round}`;
    case "take": return `${who} takes the ${event.pile} pile (${event.cards} cards)`;
    case "round_summary": return `Next round: ${name("A")} ${event.cards.A}, ${name("B")} ${event.cards.B} cards`;
    case "game_end": return `${name(event.winner)} wins the game`;
    case "button": return event.button === "slap" ? `${who} slaps` : "Spit button";
    default: return event.type;
  }
}

function feedItem(message) {
  const event = message.event;
  if (!event) {
    return el("li", {class: "event say", "data-type": "say"},
      el("span", {class: "t"}, `${Number(message.t || 0).toFixed(1)}s`),
      el("q", {class: "announcement"}, message.announcement || ""));
  }
  const important = ["stall", "round_end", "take", "round_summary", "game_end", "illegal"].includes(event.type);
  return el("li", {class: `event ${event.type}${important ? " important" : ""}`, "data-type": event.type},
    el("span", {class: "t"}, `${event.t.toFixed(1)}s`),
    el("span", {class: "what"}, describe(event)),
    message.announcement ? el("q", {class: "announcement"}, message.announcement) : null);
}

// The big call a table glances at: "Spit!", a round won, a pile taken, the game won.
const CALLOUT_TYPES = ["stall", "round_end", "take", "round_summary", "game_end", "illegal"];
let calloutTimer = null;

function callout(message) {
  const event = message.event;
  if (!event || !CALLOUT_TYPES.includes(event.type)) return;
  const box = document.getElementById("callout");
  box.textContent = event.type === "stall" ? "Spit!" : (message.announcement || describe(event));
  box.classList.add("show");
  clearTimeout(calloutTimer);
  calloutTimer = setTimeout(() => box.classList.remove("show"), 3500);
}

function addEvent(message, live) {
  const feed = document.getElementById("feed");
  feed.prepend(feedItem(message));
  while (feed.children.length > FEED_LIMIT) feed.lastChild.remove();
  if (live) callout(message);
  if (live && message.event) {
    window.tablecamStats.events += 1;
    window.tablecamStats.lastEventAt = performance.timeOrigin + performance.now();
    window.tablecamStats.lastEventT = message.event.t;
  }
}

// ------------------------------------------------------------------ rounds
function renderRounds(rounds) {
  view.lastRounds = rounds;  // a rename redraws the table and chart with the new names
  const body = document.querySelector("#round-table tbody");
  body.replaceChildren();
  const latest = rounds.length ? rounds[rounds.length - 1].round : 0;
  for (const r of rounds) {
    const took = ["A", "B"].filter((s) => r.taken && s in r.taken)
      .map((s) => `${name(s)} ${r.taken[s]}`).join(", ");
    const after = r.cards_after ? `${name("A")} ${r.cards_after.A} · ${name("B")} ${r.cards_after.B}` : "";
    body.append(el("tr", {"data-round": r.round},
      el("td", {}, r.round),
      el("td", {}, r.winner ? name(r.winner) + (r.game_winner ? " (game)" : "")
                            : (r.round < latest ? "not seen" : "playing")),
      el("td", {}, took),
      el("td", {}, after)));
  }
  renderChart(rounds);
}

// Cards each player holds at each deal, and after the last finished round.
function renderChart(rounds) {
  const chart = document.getElementById("chart");
  chart.replaceChildren();
  const series = {A: [], B: []};
  for (const r of rounds) {
    if (r.cards_at_deal) for (const s of ["A", "B"]) series[s].push(r.cards_at_deal[s]);
  }
  const last = rounds[rounds.length - 1];
  if (last && last.cards_after) for (const s of ["A", "B"]) series[s].push(last.cards_after[s]);
  else if (last && last.game_winner) for (const s of ["A", "B"]) series[s].push(s === last.game_winner ? 0 : 52);
  const n = Math.max(series.A.length, series.B.length);
  const W = 320, H = 160, L = 28, R = 10, T = 10, B = 22;
  const x = (i) => L + (n > 1 ? (i * (W - L - R)) / (n - 1) : (W - L - R) / 2);
  const y = (v) => T + ((52 - v) * (H - T - B)) / 52;
  for (const v of [0, 26, 52]) {
    chart.append(svg("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid"}));
    chart.append(svg("text", {x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "axis"}, v));
  }
  for (let i = 0; i < n; i += 1) {
    const label = i < rounds.length ? `R${i + 1}` : "end";
    chart.append(svg("text", {x: x(i), y: H - 6, "text-anchor": "middle", class: "axis"}, label));
  }
  for (const s of ["A", "B"]) {
    if (!series[s].length) continue;
    const points = series[s].map((v, i) => `${x(i)},${y(v)}`).join(" ");
    chart.append(svg("polyline", {points, class: `series seat-${s}`, "data-seat": s}));
    series[s].forEach((v, i) => chart.append(svg("circle", {cx: x(i), cy: y(v), r: 3, class: `seat-${s}`},)));
    const lastV = series[s][series[s].length - 1];
    // When both end on the same count, A's name goes under the line and B's above it.
    const tie = series.A[series.A.length - 1] === series.B[series.B.length - 1];
    const dy = tie && s === "A" ? 14 : -6;
    chart.append(svg("text", {x: x(series[s].length - 1) - 4, y: y(lastV) + dy, "text-anchor": "end", class: `legend seat-${s}`}, name(s)));
  }
}

// ---------------------------------------------------------------- settings
function applySettings(settings) {
  if (!settings) return;
  if (settings.names) view.names = {...view.names, ...settings.names};
  for (const node of document.querySelectorAll("[data-name]")) node.textContent = name(node.dataset.name);
  const form = document.getElementById("settings");
  if (document.activeElement === null || !form.contains(document.activeElement)) {
    form.elements["name-A"].value = name("A");
    form.elements["name-B"].value = name("B");
    form.elements.speech.checked = !!settings.speech;
    for (const [variant, choice] of Object.entries(settings.variants || {})) {
      const select = form.querySelector(`select[name="variant-${variant}"]`);
      if (select) select.value = String(choice);
    }
  }
}

async function loadSettingsForm() {
  const answer = await Tablecam.request("GET", "/api/settings");
  if (!answer.ok) return;
  view.variantChoices = answer.data.variant_choices || {};
  const box = document.getElementById("variants");
  box.replaceChildren();
  for (const [variant, choices] of Object.entries(view.variantChoices)) {
    const select = el("select", {name: `variant-${variant}`});
    for (const choice of choices) select.append(el("option", {value: String(choice)}, String(choice).replaceAll("_", " ")));
    box.append(el("label", {}, `Rule: ${variant.replaceAll("_", " ")} `, select));
  }
  applySettings(answer.data);
}

async function saveSettings(e) {
  e.preventDefault();
  const form = e.target;
  const variants = {};
  for (const variant of Object.keys(view.variantChoices)) {
    variants[variant] = form.querySelector(`select[name="variant-${variant}"]`).value;
  }
  const body = {names: {A: form.elements["name-A"].value, B: form.elements["name-B"].value},
                speech: form.elements.speech.checked, variants};
  const answer = await Tablecam.controlRequest("POST", "/api/settings", body);
  document.getElementById("settings-status").textContent = answer.ok ? "Saved." : answer.error;
  if (answer.ok) {
    form.querySelector("button[type=submit]").focus();
    applySettings(answer.data);
  }
}

// ---------------------------------------------------------------- controls
async function press(e) {
  const button = e.currentTarget;
  const body = {button: button.dataset.button};
  if (button.dataset.player) body.player = button.dataset.player;
  const status = document.getElementById("control-status");
  const answer = await Tablecam.controlRequest("POST", "/api/button", body);
  if (answer.ok) {
    status.textContent = body.button === "spit" ? "Spit sent." : `Slap for ${name(body.player)} sent.`;
    button.classList.add("pressed");
    setTimeout(() => button.classList.remove("pressed"), 250);
  } else if (answer.error !== "locked") {
    status.textContent = answer.error;
  }
}

function showLock() {
  const unlocked = !!Tablecam.pin();
  document.getElementById("lock-state").textContent = unlocked ? "unlocked" : "locked: PIN needed";
  document.getElementById("unlock").textContent = unlocked ? "Lock controls" : "Unlock controls";
  document.body.classList.toggle("unlocked", unlocked);
}

// --------------------------------------------------------------- the stream
function onSnapshot(snapshot) {
  window.tablecamStats.snapshots += 1;
  applySettings(snapshot.settings);
  renderState(snapshot.state);
  document.getElementById("feed").replaceChildren();
  for (const message of snapshot.events || []) addEvent(message, false);
  renderRounds(snapshot.rounds || []);
  if (snapshot.frame) onFrame(snapshot.frame);
}

function connect() {
  const status = document.getElementById("connection");
  const source = new EventSource("/events");
  const on = (kind, handler) => source.addEventListener(kind, (e) => handler(JSON.parse(e.data)));
  source.onopen = () => { status.textContent = "live"; status.className = "pill online"; };
  source.onerror = () => { status.textContent = "reconnecting"; status.className = "pill offline"; };
  on("snapshot", onSnapshot);
  on("state", renderState);
  on("event", (m) => addEvent(m, true));
  on("rounds", (m) => renderRounds(m.rounds));
  on("frame", onFrame);
  on("settings", (s) => { applySettings(s); renderRounds(view.lastRounds || []); });
  on("new_game", () => { document.getElementById("feed").replaceChildren(); renderRounds([]); });
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-button]")) button.addEventListener("click", press);
  document.getElementById("unlock").addEventListener("click", async () => {
    if (Tablecam.pin()) Tablecam.setPin(null);
    else await Tablecam.askPin();
  });
  document.addEventListener("tablecam-pin", showLock);
  document.getElementById("settings").addEventListener("submit", saveSettings);
  showLock();
  renderState(null);
  renderChart([]);
  loadSettingsForm();
  connect();
});
