// Recorded games (rocketgym serve --records): a game replayed at any move,
// from any seat or the full board, with keys, a slider and autoplay, the
// analysis of the move played, and the arena's table of its records file.
// It draws with boards.js and shares the page's state and helpers of app.js
// (api, the board, the analysis bars); init() in app.js wires it up
// (initReplay) and lists the records (loadRecords).
"use strict";

// The analysis of the next move from the seat the View shows (the full board: the seat to move).
async function replayAnalysis() {
  const asked = watching;
  try {
    const seat = asked.viewer === "full" ? "" : "&seat=" + asked.viewer;
    const analysis = await api("GET", "/api/records/" + asked.record + "/analysis?move=" + asked.move + seat);
    if (watching !== asked) return;
    showBars(analysis, analysis.played);
    document.body.dataset.analysis = String(analysis.moves.length);
  } catch (error) {
    $("analysis-note").textContent = String(error.message || error);
  }
}

// A recorded game, at one move, from one seat or the full board.
function showRecord(reply) {
  watching = reply;
  table = null;
  clearTimeout(autoTimer);
  $("setup").hidden = true;
  $("watch").hidden = true;
  $("table").hidden = false;
  $("replay").hidden = false;
  $("controls").hidden = true;
  $("moves").innerHTML = "";
  document.body.dataset.mode = "watch";
  document.body.dataset.move = String(reply.move);
  document.body.dataset.viewer = String(reply.viewer);
  document.body.dataset.game = reply.game;
  const seat = $("watch-seat");
  if (seat.options.length !== reply.seats.length + 1) {
    seat.innerHTML = "";
    seat.add(new Option("full board", "full"));
    reply.seats.forEach((name, s) => seat.add(new Option("seat " + s + " (" + name + ")", String(s))));
  }
  seat.value = String(reply.viewer);
  $("turn").textContent = reply.game + " — " + reply.source + " — " + reply.seats.join(" vs ");
  $("move").textContent = "move " + reply.move + " of " + reply.moves;
  $("back").disabled = reply.move === 0;
  $("forward").disabled = reply.move === reply.moves;
  $("slider").max = String(reply.moves);
  $("slider").value = String(reply.move);
  $("replay-analysis").disabled = reply.move === reply.moves;
  clearAnalysis();
  $("hint").hidden = true;
  $("last-move").textContent = reply.log.length && reply.log[reply.log.length - 1].move === reply.move - 1
    ? "Last move — seat " + reply.log[reply.log.length - 1].seat + ": " + reply.log[reply.log.length - 1].text : "";
  drawBoard(reply.game, reply.view, reply.viewer);
  $("text").textContent = reply.text;
  const log = $("log");
  log.innerHTML = "";
  for (const entry of reply.log) {
    const item = document.createElement("li");
    item.value = entry.move + 1;
    item.textContent = "seat " + entry.seat + " (" + reply.seats[entry.seat] + "): " + entry.text;
    log.append(item);
  }
  $("result").textContent = reply.view.terminal ? resultText(reply.view, reply.seats) : "";
  $("result").className = reply.view.terminal ? "over" : "";
  $("log-box").open = true;
  if (autoplaying) {
    if (reply.move < reply.moves) autoTimer = setTimeout(() => watch(reply.record, reply.move + 1, reply.viewer), Number($("speed").value));
    else setAutoplay(false);
  }
  showArena($("arena"), records[reply.record].arena);
  $("arena").hidden = false;
}

// The arena's table of a records file (GET /api/arena, training/arena/results.h):
// each agent's score share, the head-to-head score of each pair, the seats.
function arenaTable(arena) {
  const percent = (x) => (100 * x).toFixed(1) + "%";
  const box = document.createElement("div");
  function table(caption, head, rows) {
    const t = document.createElement("table");
    t.createCaption().textContent = caption;
    const tr = t.createTHead().insertRow();
    for (const h of head) tr.append(Object.assign(document.createElement("th"), { textContent: h }));
    const tbody = t.createTBody();
    for (const row of rows) {
      const r = tbody.insertRow();
      for (const cell of row) r.insertCell().textContent = cell;
    }
    box.append(t);
    return t;
  }
  const agents = arena.agents;
  table(
    "Arena table: " + arena.source.split("/").pop() + " — " + arena.game + ", " + arena.num_players + " players, " + arena.games +
      " games" + (arena.truncated ? " (" + arena.truncated + " cut short)" : ""),
    ["agent", "games", "score", "score rate (95%)", "mean return", arena.rating_model + " rating"],
    agents.map((a) => [a.name, a.games, a.wins.toFixed(1),
                       percent(a.win_rate) + " [" + percent(a.win_rate_low) + ", " + percent(a.win_rate_high) + "]",
                       a.mean_return.toFixed(2), a.rating.toFixed(0)]),
  ).id = "arena-agents";
  if (agents.length > 1)
    table("Head to head: how often the row's agent finished ahead of the column's (a tie counts half)",
          [""].concat(agents.map((a) => a.name)),
          agents.map((a, i) => [a.name].concat(agents.map((b, j) =>
            arena.head_to_head_count[i][j] ? percent(arena.head_to_head[i][j]) + " of " + arena.head_to_head_count[i][j]
                                           : "—")))).id = "arena-pairs";
  table("Seats: the score rate of whoever sat there", ["seat", "games", "score rate", "advantage"],
        arena.seats.map((s) => ["seat " + s.seat, s.games, percent(s.win_rate), percent(s.advantage)]));
  return box;
}

function showArena(where, index) {
  where.innerHTML = "";
  if (index !== undefined && arenaTables[index]) where.append(arenaTable(arenaTables[index]));
}

let autoplaying = false;
function setAutoplay(on) {
  autoplaying = on;
  clearTimeout(autoTimer);
  $("autoplay").textContent = on ? "❚❚ Pause" : "▶▶ Play";
  document.body.dataset.autoplay = on ? "1" : "";
  if (on && watching) watch(watching.record, Math.min(watching.move + 1, watching.moves), watching.viewer);
}

async function watch(record, move, seat) {
  showError(null);
  try {
    showRecord(await api("GET", "/api/records/" + record + "?move=" + move + "&seat=" + seat));
  } catch (error) {
    showError(error);
  }
}

// Another seat's view: a seat counts only the moves it sees (another seat's
// secret moves are not even numbered), so the move kept is at most its count.
async function watchSeat(record, move, seat) {
  showError(null);
  try {
    const start = await api("GET", "/api/records/" + record + "?move=0&seat=" + seat);
    showRecord(move === 0 ? start : await api("GET", "/api/records/" + record + "?move=" +
                                              Math.min(move, start.moves) + "&seat=" + seat));
  } catch (error) {
    showError(error);
  }
}

// The controls of a replay: the records list, move keys, slider, seat and autoplay.
function initReplay() {
  $("record").addEventListener("change", () => showArena($("watch-arena"), records[$("record").value].arena));
  $("watch-start").addEventListener("click", () => watch($("record").value, 0, "full"));
  $("back").addEventListener("click", () => watch(watching.record, watching.move - 1, watching.viewer));
  $("forward").addEventListener("click", () => watch(watching.record, watching.move + 1, watching.viewer));
  $("watch-seat").addEventListener("change", () => watchSeat(watching.record, watching.move, $("watch-seat").value));
  $("slider").addEventListener("input", () => watch(watching.record, Number($("slider").value), watching.viewer));
  $("autoplay").addEventListener("click", () => setAutoplay(!autoplaying));
  $("replay-analysis").addEventListener("click", replayAnalysis);
  document.addEventListener("keydown", (event) => {
    if (!watching || $("table").hidden || event.target.matches("input, select, textarea")) return;
    if (event.key === "ArrowLeft" && watching.move > 0) watch(watching.record, watching.move - 1, watching.viewer);
    else if (event.key === "ArrowRight" && watching.move < watching.moves) watch(watching.record, watching.move + 1, watching.viewer);
    else return;
    event.preventDefault();
  });
}

// The server's records and arena tables, in the Watch section (hidden without records).
async function loadRecords() {
  records = await api("GET", "/api/records");
  arenaTables = await api("GET", "/api/arena");
  for (const r of records)
    $("record").add(new Option(r.game + ": " + r.players.join(" vs ") + ", " + r.moves + " moves (" + r.source + ")",
                               String(r.index)));
  $("watch").hidden = records.length === 0;
  if (records.length) showArena($("watch-arena"), records[0].arena);
}
