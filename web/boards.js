// One SVG drawing per game, from the view the server sends a seat (the
// game's view_json: envs/<id>/<id>_view.cpp). Each draws only what the view
// holds; a hidden card is drawn face down.
"use strict";

const Boards = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const SEAT_COLOURS = ["#e0543c", "#3c8de0", "#e0c23c", "#4cc26a"];
  const CARD_COLOURS = { red: "#d6453a", green: "#3fa55a", amber: "#d9a030", yellow: "#d8c234", blue: "#3a78d6",
                         black: "#555", wild: "#a050c8" };

  function el(name, attributes, text) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svg(width, height) {
    return el("svg", { viewBox: "0 0 " + width + " " + height, width, height });
  }
  const text = (parent, x, y, content, cls) => parent.append(el("text", { x, y, class: cls || "" }, content));
  const rect = (parent, x, y, w, h, fill, extra) =>
    parent.append(el("rect", Object.assign({ x, y, width: w, height: h, fill, rx: 4 }, extra || {})));
  function card(parent, x, y, w, h, label, fill, tooltip) {
    const group = el("g");
    rect(group, x, y, w, h, fill || "#2a3446", { stroke: "#8894a8" });
    text(group, x + 3, y + h / 2 + 4, label, "small");
    if (tooltip) group.append(el("title", {}, tooltip));
    parent.append(group);
  }
  const you = (viewer, seat) => (viewer === seat ? " (you)" : "");

  // Launchpad 23: the 3x3 launch complex, pyramids by colour and size, the Bank and the dice.
  function launchpad23(view, viewer) {
    const b = view.board;
    const cell = 150;
    const s = svg(3 * cell + 20, 3 * cell + 120);
    for (const space of b.spaces) {
      const x = 10 + space.column * cell, y = 10 + space.row * cell;
      const fill = space.owner >= 0 ? SEAT_COLOURS[space.owner] + "33" : space.name === "Factory" ? "#3a3046" : "#1e2634";
      rect(s, x, y, cell - 6, cell - 6, fill, { stroke: "#55627a" });
      text(s, x + 6, y + 16, space.name + (space.owner >= 0 ? " — P" + space.owner + you(viewer, space.owner) : ""), "small");
      space.pieces.forEach((p, i) => pyramid(s, x + 14 + (i % 5) * 26, y + 50 + Math.floor(i / 5) * 34, p));
    }
    const y0 = 3 * cell + 24;
    text(s, 10, y0, "Bank", "title");
    b.bank.forEach((p, i) => pyramid(s, 60 + i * 14, y0 - 4, p, 0.5));
    let line = "Turn " + b.turn + ", " + b.phase;
    if (b.dice) line += " — dice: " + b.dice.sizes.join("/") + " " + b.dice.colour + ", " + b.dice.moves_left + " moves" +
                        (b.dice.shortage ? ", parts shortage" : "");
    if (b.setup) line += " — setup: " + b.setup.map((c) => "P" + c.seat + (c.size ? " " + c.size : c.chosen ? " chose" : " …")).join(", ");
    if (b.winner !== undefined) line += b.winner >= 0 ? " — P" + b.winner + " launches!" : " — a draw";
    text(s, 10, y0 + 40, line);
    return s;
  }
  function pyramid(parent, x, y, piece, scale) {
    const k = (scale || 1) * ({ small: 10, medium: 14, large: 18 }[piece.size]);
    const poly = el("polygon", { points: `${x},${y - k} ${x - k * 0.7},${y + k * 0.6} ${x + k * 0.7},${y + k * 0.6}`,
                                 fill: CARD_COLOURS[piece.colour], stroke: "#ddd" });
    poly.append(el("title", {}, piece.size + " " + piece.colour));
    parent.append(poly);
  }

  // Launch Pad: each player's three Game Zones with experts and rockets, Specialty cards, hand.
  function launchPad(view, viewer) {
    const b = view.board;
    const zoneW = 220, rowH = 190;
    const s = svg(3 * zoneW + 200, 40 + b.players.length * rowH);
    text(s, 10, 20, "Launch Pad area " + b.launch_pad_area.cards + "/" + b.launch_pad_area.needed +
         (b.countdown ? " — COUNTDOWN, " + b.final_turns_left + " turns left" : "") + " — draw pile " + b.draw_pile +
         " — discard pile " + b.discard_pile.length + (b.discard_pile.length ? " (top " + b.discard_pile[b.discard_pile.length - 1] + ")" : "") +
         " — step " + b.step + ", turn of P" + b.turn_player, "title");
    b.players.forEach((p, row) => {
      const y = 40 + row * rowH;
      text(s, 10, y + 14, "P" + p.seat + you(viewer, p.seat) + ": score " + p.score + ", hand " + p.hand_size + "/" + p.hand_limit,
           "title");
      p.zones.forEach((zone, z) => {
        const x = 10 + z * zoneW;
        rect(s, x, y + 22, zoneW - 8, rowH - 30, "#1e2634", { stroke: "#55627a" });
        text(s, x + 4, y + 36, zone.name + (zone.launch_pad_cards ? " [" + zone.launch_pad_cards + " LP]" : ""), "small");
        text(s, x + 4, y + 50, "expert: " + (zone.expert || "—"), "small");
        p.rockets.filter((r) => r.zone === z).forEach((r, i) => {
          const label = r.rocket + " M" + r.metal + "/" + r.metal_needed + " F" + r.fuel + "/" + r.fuel_needed;
          card(s, x + 4, y + 56 + i * 22, zoneW - 16, 20, label + (r.bonuses.length ? " +" + r.bonuses.length : ""),
               "#2d3c55", label + (r.bonuses.length ? ", " + r.bonuses.join(", ") : ""));
        });
      });
      const x = 10 + 3 * zoneW;
      text(s, x, y + 36, "specialty: " + (p.specialties.join(", ") || "—"), "small");
      if (p.hand) p.hand.forEach((c, i) => text(s, x, y + 54 + i * 14, c.count + "× " + c.card, "small"));
      else text(s, x, y + 54, p.hand_size + " cards (hidden)", "small");
    });
    return s;
  }

  // Rocket Squad: each player's four rockets (booster, boxes bottom up, Joker, Imaginary Friend), hand.
  function rocketSquad(view, viewer) {
    const b = view.board;
    const colW = 150, rowH = 230;
    const s = svg(4 * colW + 220, 40 + b.players.length * rowH);
    text(s, 10, 20, "Turn " + b.turn + ", P" + b.turn_player + " to play, " + b.phase + " — draw pile " + b.draw_pile +
         ", discard pile " + b.discard_pile.length + (b.on_the_table ? " — on the table: " + b.on_the_table.play : "") +
         (b.end_triggered ? " — final turns" : ""), "title");
    b.players.forEach((p, row) => {
      const y = 40 + row * rowH;
      text(s, 10, y + 14, "P" + p.seat + you(viewer, p.seat) + ": " + p.score + " points", "title");
      p.rockets.forEach((r, loc) => {
        const x = 10 + loc * colW;
        rect(s, x, y + 22, colW - 8, rowH - 30, "#1e2634", { stroke: CARD_COLOURS[r.location] });
        text(s, x + 4, y + 36, r.location + (r.launched ? " — launched" + (r.crew ? " + Crew" : "") : ""), "small");
        if (!r.booster) return;
        const boosterColour = CARD_COLOURS[r.booster.split("_")[0]] || "#666";
        card(s, x + 4, y + rowH - 34, colW - 16, 20, r.booster.replace("_", " ") + " (" + r.boxes.length + "/" + r.need + ")",
             boosterColour);
        r.boxes.forEach((face, i) =>
          card(s, x + 14, y + rowH - 56 - i * 15, colW - 36, 14, face ? face.replace("_", " ") : "?", face ? "#4a5870" : "#303a4c",
               face ? "box: " + face : "a face-down box"));
        if (r.joker) text(s, x + 4, y + 50, "Joker on top", "small");
        if (r.imaginary_friend) text(s, x + 4, y + 64, "Imaginary Friend", "small");
      });
      const x = 10 + 4 * colW;
      if (p.hand) p.hand.forEach((c, i) => card(s, x, y + 26 + i * 22, 180, 20, c.replace("_", " "), "#3a4a66"));
      else {
        text(s, x, y + 36, p.hand_size + " cards in hand", "small");
        if (p.known_in_hand.length) text(s, x, y + 50, "known: " + p.known_in_hand.join(", "), "small");
      }
    });
    if (b.jackie_look) text(s, 10, 34 + b.players.length * rowH, "Jackie: " + b.jackie_look.join(", "));
    return s;
  }

  // The Last Blast: the asteroid field with the cubes, each rocket front to back, the draft hands.
  function lastBlast(view, viewer) {
    const b = view.board;
    const cw = 90, ch = 40;
    const s = svg(Math.max(7 * cw + 20, 900), 60 + b.field.length * ch + b.players.length * 110);
    let head = "The Last Blast — " + b.phase;
    if (b.phase === "draft") head += ": hand " + b.hand_number + ", pick " + b.pick_number + ", P" + b.picker + " picks";
    if (b.phase === "flight") head += ": column " + b.column + ", P" + b.mover + (b.damage_left ? " removes damage" : " moves");
    text(s, 10, 20, head, "title");
    b.field.forEach((row, r) => row.forEach((symbol, c) => {
      const x = 10 + c * cw, y = 30 + r * ch;
      rect(s, x, y, cw - 4, ch - 4, "#1e2634", { stroke: "#55627a" });
      text(s, x + 4, y + 14, symbol, "small");
    }));
    b.players.forEach((p) => {
      if (p.row < 0) return;
      const x = 10 + p.column * cw + 20 + p.seat * 14, y = 30 + p.row * ch + 26;
      s.append(el("circle", { cx: x, cy: y, r: 6, fill: p.status === "exploded" ? "#555" : SEAT_COLOURS[p.seat] }));
    });
    const y0 = 40 + b.field.length * ch;
    b.players.forEach((p, i) => {
      const y = y0 + i * 110;
      text(s, 10, y + 14, "P" + p.seat + you(viewer, p.seat) + " (" + p.status + ", score " + p.score + ") front →", "title");
      p.rocket.forEach((c, k) => card(s, 10 + k * 72, y + 20, 70, 26, c.number + " " + c.symbol, CARD_COLOURS[c.colour], c.name));
      if (!p.hand) return;
      if (p.hand.cards) {
        p.hand.cards.forEach((c, k) => card(s, 10 + k * 72, y + 52, 70, 26, c.number + " " + c.symbol, CARD_COLOURS[c.colour], c.name));
        if (p.hand.pick) text(s, 10 + 5 * 72 + 10, y + 70, "pick: " + p.hand.pick.name + (p.hand.pick_end ? " (" + p.hand.pick_end + ")" : ""), "small");
      } else {
        text(s, 10, y + 70, "hand: " + p.hand.size + " cards" + (p.hand.has_picked ? ", has picked" : "") +
             (p.hand.seen.length ? "; seen: " + p.hand.seen.map((c) => c.name).join(", ") : ""), "small");
      }
    });
    return s;
  }

  // Lift Off: each player's board (money, income, tech, lab, capacity, station), missions, specialists.
  function liftOff(view, viewer) {
    const b = view.board;
    const rowH = 150;
    const s = svg(1000, 50 + b.players.length * rowH + 60);
    text(s, 10, 20, "Lift Off — round " + b.round + ", phase " + b.phase + ", " + b.step + (b.to_act >= 0 ? ", P" + b.to_act + " to act" : "") +
         " — mission decks " + b.mission_decks.join("/") + ", specialists " + b.specialist_deck, "title");
    b.players.forEach((p, i) => {
      const y = 36 + i * rowH;
      rect(s, 6, y, 988, rowH - 8, "#1a2230", { stroke: SEAT_COLOURS[p.seat] });
      text(s, 14, y + 18, "P" + p.seat + you(viewer, p.seat) + ": " + p.vp + " VP" + (p.final_vp !== undefined ? " + " + p.final_vp + " final" : "") +
           ", money " + p.money + ", income " + p.income + ", lab L" + p.lab_level + ", capacity " + p.capacity +
           ", launch cost " + p.launch_cost + ", station " + p.station, "title");
      ["red", "yellow", "blue", "green"].forEach((colour, k) => {
        rect(s, 14 + k * 44, y + 26, 40, 20, CARD_COLOURS[colour]);
        text(s, 20 + k * 44, y + 40, String(p.tech[colour]));
      });
      text(s, 200, y + 40, "earth: " + (p.earth.map((m) => m.name).join(", ") || "—"), "small");
      text(s, 14, y + 64, "space: " + (p.space.map((m) => m.name).join(", ") || "—"), "small");
      text(s, 14, y + 84, "played: " + (p.played.map((c) => c.name).join(", ") || "—"), "small");
      const hidden = (h) => h.cards.map((c) => c.name).concat(Array(h.unknown).fill("?")).join(", ") || "—";
      text(s, 14, y + 104, "hand: " + hidden(p.hand) + (p.pick ? " (picking " + p.pick.name + ")" : p.has_picked ? " (has picked)" : ""), "small");
      text(s, 14, y + 124, "objectives: " + hidden(p.objectives), "small");
    });
    const y = 50 + b.players.length * rowH;
    if (b.drawn) text(s, 10, y, "drawn: " + b.drawn.missions.map((m) => m.name + " (L" + m.level + ")").join(", ") + " — keep up to " + b.drawn.keep_up_to);
    if (b.rocket) text(s, 10, y + 20, "rocket (" + b.rocket.symbol + ", capacity " + b.rocket.capacity + "): " + b.rocket.loaded.map((m) => m.name).join(", "));
    if (b.resolving) text(s, 10, y + 40, "resolving " + b.resolving.name);
    return s;
  }

  const drawers = { launchpad23, launch_pad: launchPad, rocket_squad: rocketSquad, last_blast: lastBlast, lift_off: liftOff };
  return {
    draw(game, view, viewer) {
      const draw = drawers[game];
      if (!draw) {
        const pre = document.createElement("pre");
        pre.textContent = JSON.stringify(view.board, null, 1);
        return pre;
      }
      return draw(view, viewer);
    },
  };
})();
