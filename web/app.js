// The browser table of `rocketgym serve`: a new-table form, then the board
// of the seat playing (boards.js draws it from the server's view), played by
// clicking it (a piece, card or die, then its target; the text list of legal
// moves below as a fallback), the bots' moves one step at a time with the last
// one marked on the board, the zoo bot's analysis as bars and a hint, and
// recorded games replayed with keys, a slider and autoplay (replay.js).
// Everything the page shows comes from the server's reply for one seat
// (docs/browser.md).
"use strict";

const $ = (id) => document.getElementById(id);
let games = [];
let table = null;  // the last reply of the server
let autoTimer = null;
let watching = null;  // the last reply of a record being watched
let records = [];     // GET /api/records
let arenaTables = [];  // GET /api/arena: the arena's table of each records file
// The keys of the human seats of the table being played ({seat: key}), given
// when it was made: a seat's view, moves and undo need its key. Kept with the
// table's id in the address's #fragment (never sent to a server), so that a
// reload resumes the game.
let keys = {};

async function api(method, path, body, seat) {
  const headers = body ? { "Content-Type": "application/json" } : {};
  if (seat !== undefined && keys[seat]) headers["X-Seat-Key"] = keys[seat];
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const reply = await response.json();
  if (!response.ok) throw new Error(reply.error || "HTTP " + response.status);
  return reply;
}

function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
  $("error").hidden = !error;
}

function fillSetup() {
  const game = games.find((g) => g.id === $("game").value);
  const players = $("players");
  const keep = Number(players.value) || game.min_players;
  players.innerHTML = "";
  for (let n = game.min_players; n <= game.max_players; n++) players.add(new Option(String(n), String(n)));
  players.value = String(Math.min(Math.max(keep, game.min_players), game.max_players));
  fillSeats();
  const options = $("options");
  options.innerHTML = "";
  for (const option of game.options) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = option.default;
    box.dataset.key = option.key;
    label.append(box, " " + option.key.replace(/_/g, " "));
    options.append(label);
  }
}

// A select per seat, of the seat kinds the server offers at this game and size.
function fillSeats() {
  const game = games.find((g) => g.id === $("game").value);
  const kinds = game.seats[$("players").value];
  const seats = $("seats");
  const before = [...seats.querySelectorAll("select")].map((i) => i.value);
  seats.innerHTML = "";
  for (let s = 0; s < Number($("players").value); s++) {
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.id = "seat" + s;
    for (const kind of kinds) select.add(new Option(kind, kind));
    const wanted = before[s] || game.lineup[$("players").value][s];
    select.value = kinds.includes(wanted) ? wanted : kinds[0];
    label.append("Seat " + s + " ", select);
    seats.append(label);
  }
}

async function startTable() {
  showError(null);
  const request = {
    game: $("game").value,
    players: Number($("players").value),
    seats: [...$("seats").querySelectorAll("select")].map((i) => i.value),
    options: {},
  };
  for (const box of $("options").querySelectorAll("input")) request.options[box.dataset.key] = box.checked;
  if ($("seed").value !== "") request.seed = Number($("seed").value);
  try {
    const reply = await api("POST", "/api/tables", request);
    keys = reply.keys;
    show(reply);
  } catch (error) {
    showError(error);
  }
}

// The table's id, the seat shown and the keys, in the address's #fragment.
function remember(reply) {
  const fragment = new URLSearchParams({ table: reply.table, seat: String(reply.viewer) });
  for (const [seat, key] of Object.entries(keys)) fragment.set("key" + seat, key);
  history.replaceState(null, "", "#" + fragment.toString());
}

function forget() {
  keys = {};
  history.replaceState(null, "", location.pathname);
}

// A reload: the table of the address's #fragment, as its seat sees it.
async function resume() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.get("table")) return;
  keys = {};
  for (const [name, value] of fragment) if (/^key[0-9]+$/.test(name)) keys[name.slice(3)] = value;
  const seat = fragment.get("seat");
  try {
    show(await api("GET", "/api/tables/" + encodeURIComponent(fragment.get("table")) + "?seat=" +
                   encodeURIComponent(seat), undefined, seat));
  } catch (error) {
    forget();
    showError(error);
  }
}

function seatName(seat) {
  return "seat " + seat + (table.people[seat] ? "" : " (" + table.seats[seat] + ")");
}

function show(reply) {
  table = reply;
  watching = null;
  remember(reply);
  clearTimeout(autoTimer);
  $("replay").hidden = true;
  $("controls").hidden = false;
  $("setup").hidden = true;
  $("watch").hidden = true;
  $("table").hidden = false;
  $("hint").hidden = false;
  document.body.dataset.mode = "play";
  document.body.dataset.version = String(reply.version);
  document.body.dataset.waiting = reply.waiting;
  document.body.dataset.game = reply.game;
  const viewer = reply.viewer === "full" ? "the full board" : "seat " + reply.viewer;
  const waiting = {
    you: "Your move (" + viewer + ")",
    bot: "A bot is to move",
    person: "Seat " + reply.person_seat + " (" + reply.seats[reply.person_seat] + ") is to move: pass the screen",
    other: "Another seat is to move (who, the game keeps secret): pass the screen",
    over: "Game over",
  }[reply.waiting];
  $("turn").textContent = reply.game + " — " + viewer + " — " + waiting;
  drawBoard(reply.game, reply.view, reply.viewer);
  $("text").textContent = reply.text;
  const log = $("log");
  log.innerHTML = "";
  for (const entry of reply.log) {
    const item = document.createElement("li");
    item.textContent = seatName(entry.seat) + ": " + entry.text;
    if (entry.bot) item.className = "bot";
    log.append(item);
  }
  markLastMove(reply);
  clearAnalysis();
  $("hint").disabled = reply.waiting !== "you";
  document.body.dataset.revealed = "";
  const moves = $("moves");
  moves.innerHTML = "";
  for (const move of reply.legal) {
    const button = document.createElement("button");
    button.textContent = move.text;
    button.title = move.text + " (action " + move.id + ")";
    button.dataset.action = String(move.id);
    button.addEventListener("click", () => play(move.id));
    moves.append(button);
  }
  $("step").hidden = reply.waiting !== "bot";
  $("step").disabled = false;
  $("undo").disabled = !reply.can_undo;
  $("arena").hidden = true;
  // The seat to pass the screen to, or, where who decides is secret, every other person's seat.
  const passTo = reply.waiting === "person" ? [reply.person_seat]
    : reply.waiting === "other" ? reply.people.flatMap((person, seat) => (person && seat !== reply.viewer ? [seat] : []))
    : [];
  for (const seat of passTo) {
    const pass = document.createElement("button");
    if (passTo.length === 1) pass.id = "pass";
    pass.textContent = "Show seat " + seat;
    pass.addEventListener("click", () => reload(seat));
    moves.append(pass);
  }
  $("result").textContent = reply.waiting === "over" ? resultText(reply.view, undefined, reply.viewer) : "";
  $("result").className = reply.waiting === "over" ? "over" : "";
  selection = [];
  armBoard();
  if (reply.waiting === "over") reveal(reply);
  if (reply.waiting === "bot" && $("auto").checked) autoTimer = setTimeout(step, 400);
}

// Who won (the highest return; several: a shared win), in words, then each seat's score.
function resultText(view, names, viewer) {
  const name = (seat) => (names ? "seat " + seat + " (" + names[seat] + ")" : seatName(seat));
  const best = Math.max(...view.returns);
  const winners = view.returns.map((r, seat) => (r === best ? seat : -1)).filter((s) => s >= 0);
  let words;
  if (winners.length === view.returns.length) words = "A draw.";
  else if (winners.length > 1) words = "Shared win: " + winners.map(name).join(" and ") + ".";
  else if (winners[0] === viewer) words = "You win! (" + name(winners[0]) + ")";
  else words = name(winners[0]) + " wins" + (typeof viewer === "number" ? "; you lose." : ".");
  const parts = view.scores.map((score, seat) => name(seat) + ": " + score + " (return " + view.returns[seat] + ")");
  return (view.truncated ? "Cut short. " : "") + words + " Scores — " + parts.join(", ");
}

// Once the game is over, the full board (every hand) with the key of the seat playing.
async function reveal(reply) {
  if (reply.viewer === "full") {
    document.body.dataset.revealed = "full";
    return;
  }
  try {
    const full = await api("GET", "/api/tables/" + reply.table + "?seat=full", undefined, reply.viewer);
    if (table !== reply) return;
    drawBoard(full.game, full.view, "full");
    $("text").textContent = full.text;
    markLastMove(reply);
    document.body.dataset.revealed = "full";
  } catch (error) {
    showError(error);
  }
}

// --- The board: drawn, played by clicking ------------------------------------
let selection = [];  // the refs clicked so far (boards.js: data-ref)
let paths = [];      // per legal move of `table`: the refs its text names, in order

function drawBoard(game, view, viewer) {
  $("board").innerHTML = "";
  $("board").append(Boards.draw(game, view, viewer));
  $("board-choices").innerHTML = "";
}

const refsOf = (node) => node.dataset.ref.split("|");
function boardRefs() {
  const refs = new Set();
  for (const node of $("board").querySelectorAll("[data-ref]")) for (const r of refsOf(node)) refs.add(r);
  return refs;
}

// The refs a move's text names, in order: the longest first where two overlap,
// each a whole phrase (not inside a longer word).
function pathOf(text, refs) {
  const word = (c) => c !== undefined && /[A-Za-z0-9-]/.test(c);
  const taken = [];
  for (const r of [...refs].sort((a, b) => b.length - a.length)) {
    for (let i = text.indexOf(r); i >= 0; i = text.indexOf(r, i + 1)) {
      if (word(text[i - 1]) || word(text[i + r.length])) continue;
      if (taken.some(([a, b]) => i < b && a < i + r.length)) continue;
      taken.push([i, i + r.length, r]);
    }
  }
  return taken.sort((a, b) => a[0] - b[0]).map((t) => t[2]);
}

const extends_ = (path, prefix) => prefix.every((r, i) => path[i] === r);

// Highlights what may be clicked next: the first refs of the legal moves (or,
// once one is picked, the targets after it); the moves with nothing more to
// click become buttons beside the board.
function armBoard() {
  const board = $("board");
  for (const node of board.querySelectorAll(".pickable, .target, .selected"))
    node.classList.remove("pickable", "target", "selected");
  $("board-choices").innerHTML = "";
  if (!table || table.waiting !== "you") {
    paths = [];
    return;
  }
  if (!selection.length) paths = table.legal.map((m) => pathOf(m.text, boardRefs()));
  const open = table.legal.map((m, i) => i).filter((i) => extends_(paths[i], selection));
  const next = new Set(open.map((i) => paths[i][selection.length]).filter((r) => r !== undefined));
  for (const node of board.querySelectorAll("[data-ref]")) {
    const refs = refsOf(node);
    if (refs.some((r) => next.has(r))) node.classList.add(selection.length ? "target" : "pickable");
    if (refs.some((r) => selection.includes(r))) node.classList.add("selected");
  }
  for (const i of open.filter((k) => paths[k].length === selection.length)) {
    const button = document.createElement("button");
    button.className = "board-choice";
    button.textContent = table.legal[i].text;
    button.dataset.action = String(table.legal[i].id);
    button.addEventListener("click", () => play(table.legal[i].id));
    $("board-choices").append(button);
  }
  if (selection.length) {
    const cancel = document.createElement("button");
    cancel.id = "cancel";
    cancel.textContent = "Cancel: pick something else";
    cancel.addEventListener("click", () => {
      selection = [];
      armBoard();
    });
    $("board-choices").append(cancel);
  }
  document.body.dataset.selection = String(selection.length);
}

function clickBoard(event) {
  if (!table || table.waiting !== "you") return;
  const node = event.target.closest("[data-ref].pickable, [data-ref].target");
  if (!node) return;
  const open = table.legal.map((m, i) => i).filter((i) => extends_(paths[i], selection));
  const r = refsOf(node).find((x) => open.some((i) => paths[i][selection.length] === x));
  if (r === undefined) return;
  selection.push(r);
  const left = open.filter((i) => paths[i][selection.length - 1] === r);
  if (left.length === 1) {
    selection = [];
    play(table.legal[left[0]].id);
  } else {
    armBoard();
  }
}

// The bots' last move (after the seat's own), on the board and in one line.
function markLastMove(reply) {
  let last = null;
  for (const entry of reply.log) {
    if (entry.seat === reply.viewer) last = null;
    else if (entry.bot) last = entry;
  }
  $("last-move").textContent = last ? "Last bot move — " + seatName(last.seat) + ": " + last.text : "";
  document.body.dataset.lastMove = last ? last.text : "";
  if (!last) return;
  const absolute = [...boardRefs()].filter((r) => !r.startsWith("own ") && !r.startsWith("player +"));
  const named = new Set(pathOf(last.text, absolute));
  const marked = [...$("board").querySelectorAll("[data-ref]")].filter((n) => refsOf(n).some((r) => named.has(r)));
  const area = $("board").querySelector('[data-seat="' + last.seat + '"]');
  if (!marked.length && area) marked.push(area);
  const svgRoot = $("board").querySelector("svg");
  for (const node of marked) {
    const box = node.getBBox();
    const frame = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    for (const [k, v] of Object.entries({ x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6, rx: 5 }))
      frame.setAttribute(k, v);
    frame.setAttribute("class", "last-move-marker");
    frame.append(Object.assign(document.createElementNS("http://www.w3.org/2000/svg", "title"), { textContent: "last bot move: " + last.text }));
    svgRoot.append(frame);
  }
}

// --- Analysis: the zoo bot's view of a decision --------------------------------
function clearAnalysis() {
  $("bars").innerHTML = "";
  $("analysis-note").textContent = "";
  delete document.body.dataset.analysis;
  delete document.body.dataset.analysisSeat;
}

function showBars(analysis, played) {
  const bars = $("bars");
  bars.innerHTML = "";
  // Another seat's analysis (a replay): its value from what it knew, and no moves (the decision is not its own).
  const other = analysis.to_move !== undefined && analysis.to_move !== analysis.seat
    ? " from what it knew; seat " + analysis.to_move + " is to move" : "";
  $("analysis-note").textContent = analysis.by + " (" + analysis.how + "), value " +
    (analysis.value === null ? "—" : analysis.value.toFixed(2)) + " for seat " + analysis.seat + other +
    (played && played.probability !== null ? "; the move played had " + (100 * played.probability).toFixed(1) + "%" : "");
  document.body.dataset.analysisSeat = String(analysis.seat);
  analysis.moves.forEach((m, k) => {
    const row = document.createElement("div");
    row.className = "bar-row" + (k === 0 ? " best" : "") + (played && played.action === m.action ? " played" : "");
    row.dataset.action = String(m.action);
    row.textContent = m.text + " — " + (100 * m.probability).toFixed(1) + "%" + (m.visits ? ", " + m.visits + " visits" : "");
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.style.width = Math.max(1, 100 * m.probability).toFixed(1) + "%";
    row.append(bar);
    bars.append(row);
  });
}

async function hint() {
  showError(null);
  const asked = table;
  try {
    const analysis = await api("GET", "/api/tables/" + asked.table + "/analysis?seat=" + asked.viewer, undefined, asked.viewer);
    if (table !== asked) return;
    showBars(analysis);
    // The best move's first click, marked on the board (or its button beside it).
    const best = asked.legal.findIndex((m) => m.id === analysis.moves[0].action);
    selection = [];
    armBoard();
    const first = paths[best] && paths[best][0];
    for (const node of $("board").querySelectorAll("[data-ref]"))
      if (first !== undefined && refsOf(node).includes(first)) node.classList.add("hinted");
    for (const button of $("board-choices").querySelectorAll("button"))
      if (button.dataset.action === String(analysis.moves[0].action)) button.classList.add("hinted");
    document.body.dataset.analysis = String(analysis.moves.length);
  } catch (error) {
    $("analysis-note").textContent = String(error.message || error);
  }
}

async function send(method, path, body, seat) {
  showError(null);
  const buttons = [...document.querySelectorAll("#moves button, #step, #undo")];
  const enabled = buttons.map((button) => !button.disabled);
  for (const button of buttons) button.disabled = true;
  try {
    show(await api(method, path, body, seat));
  } catch (error) {
    showError(error);
    buttons.forEach((button, i) => (button.disabled = !enabled[i]));
  }
}

const play = (action) =>
  send("POST", "/api/tables/" + table.table + "/move", { seat: table.viewer, action, version: table.version },
       table.viewer);
const step = () =>
  send("POST", "/api/tables/" + table.table + "/step", { seat: table.viewer, version: table.version }, table.viewer);
const undo = () =>
  send("POST", "/api/tables/" + table.table + "/undo", { seat: table.viewer, version: table.version }, table.viewer);
const reload = (seat) => send("GET", "/api/tables/" + table.table + "?seat=" + seat, undefined, seat);

async function init() {
  $("game").addEventListener("change", fillSetup);
  $("players").addEventListener("change", fillSeats);
  $("start").addEventListener("click", startTable);
  $("step").addEventListener("click", step);
  $("undo").addEventListener("click", undo);
  $("auto").addEventListener("change", () => table && table.waiting === "bot" && $("auto").checked && step());
  const backToSetup = () => {
    setAutoplay(false);
    clearTimeout(autoTimer);
    forget();
    $("table").hidden = true;
    $("setup").hidden = false;
    $("watch").hidden = $("record").options.length === 0;
  };
  $("new").addEventListener("click", backToSetup);
  $("close").addEventListener("click", backToSetup);
  $("hint").addEventListener("click", hint);
  $("board").addEventListener("click", clickBoard);
  initReplay();
  try {
    games = await api("GET", "/api/games");
  } catch (error) {
    showError(error);
    return;
  }
  for (const game of games) $("game").add(new Option(game.name + " (" + game.id + ")", game.id));
  fillSetup();
  await loadRecords();
  await resume();
  document.body.dataset.ready = "1";
}

init();
