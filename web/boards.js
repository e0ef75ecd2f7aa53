// One SVG drawing per game, from the view the server sends a seat (the
// game's view_json: envs/<id>/<id>_view.cpp). Each draws only what the view
// holds; a hidden card is drawn face down.
//
// What a move can be played by clicking carries `data-ref`: the phrases, split
// by "|", that the moves' texts use for it ("Engineer", "in the Construction
// Zone", "large red from top", "to top-right", "player +1's yellow rocket").
// app.js reads a move's text as the refs it names, in order: the piece, card
// or die to pick first, then its target. A player's area carries
// `data-seat`, its hand (or what is known of it) the class `hand`.
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
  function text(parent, x, y, content, cls) {
    const node = el("text", { x, y, class: cls || "" }, content);
    parent.append(node);
    return node;
  }
  function rect(parent, x, y, w, h, fill, extra) {
    const node = el("rect", Object.assign({ x, y, width: w, height: h, fill, rx: 4 }, extra || {}));
    parent.append(node);
    return node;
  }
  function card(parent, x, y, w, h, label, fill, tooltip) {
    const group = el("g", { class: "card" });
    rect(group, x, y, w, h, fill || "#2a3446", { stroke: "#8894a8" });
    text(group, x + 3, y + h / 2 + 4, label, "small");
    if (tooltip) group.append(el("title", {}, tooltip));
    parent.append(group);
    return group;
  }
  const you = (viewer, seat) => (viewer === seat ? " (you)" : "");
  // Marks `node` as clickable under the phrases `refs`.
  function ref(node, ...refs) {
    const kept = refs.filter((r) => r);
    if (kept.length) node.setAttribute("data-ref", kept.join("|"));
    return node;
  }
  // How a move's text names a seat's things from the viewer's side: "own" or "player +k's".
  const owner = (viewer, seat, players) =>
    viewer === seat ? "own" : "player +" + ((seat - (viewer === "full" ? 0 : viewer) + players) % players) + "'s";
  function group(parent, attributes) {
    const g = el("g", attributes);
    parent.append(g);
    return g;
  }

  // Launchpad 23: the 3x3 launch complex, pyramids by colour and size, the Bank and the dice.
  function launchpad23(view, viewer) {
    const b = view.board;
    const cell = 150;
    const s = svg(3 * cell + 20, 3 * cell + 120);
    for (const space of b.spaces) {
      const x = 10 + space.column * cell, y = 10 + space.row * cell;
      const fill = space.owner >= 0 ? SEAT_COLOURS[space.owner] + "33" : space.name === "Factory" ? "#3a3046" : "#1e2634";
      const area = group(s, space.owner >= 0 ? { "data-seat": space.owner } : {});
      ref(rect(area, x, y, cell - 6, cell - 6, fill, { stroke: "#55627a" }), "to " + space.name, "into the " + space.name);
      text(area, x + 6, y + 16, space.name + (space.owner >= 0 ? " — P" + space.owner + you(viewer, space.owner) : ""), "small");
      space.pieces.forEach((p, i) =>
        ref(pyramid(area, x + 14 + (i % 5) * 26, y + 50 + Math.floor(i / 5) * 34, p), p.size + " " + p.colour + " from " + space.name));
    }
    const y0 = 3 * cell + 24;
    text(s, 10, y0, "Bank", "title");
    b.bank.forEach((p, i) => ref(pyramid(s, 60 + i * 14, y0 - 4, p, 0.5), "a " + p.size + " " + p.colour + " piece from the Bank"));
    let line = "Turn " + b.turn + ", " + b.phase;
    if (b.dice) line += " — dice: " + b.dice.sizes.join("/") + " " + b.dice.colour + ", " + b.dice.moves_left + " moves" +
                        (b.dice.shortage ? ", parts shortage" : "");
    if (b.setup) line += " — setup: " + b.setup.map((c) => "P" + c.seat + (c.size ? " " + c.size : c.chosen ? " chose" : " …")).join(", ");
    if (b.winner !== undefined) line += b.winner >= 0 ? " — P" + b.winner + " launches!" : " — a draw";
    text(s, 10, y0 + 40, line);
    if (b.dice) ref(s.lastChild, "re-roll the dice");
    return s;
  }
  function pyramid(parent, x, y, piece, scale) {
    const k = (scale || 1) * ({ small: 10, medium: 14, large: 18 }[piece.size]);
    const poly = el("polygon", { points: `${x},${y - k} ${x - k * 0.7},${y + k * 0.6} ${x + k * 0.7},${y + k * 0.6}`,
                                 fill: CARD_COLOURS[piece.colour], stroke: "#ddd" });
    poly.append(el("title", {}, piece.size + " " + piece.colour));
    parent.append(poly);
    return poly;
  }

  // Launch Pad: each player's three Game Zones with experts and rockets (a zone grows with its
  // rockets), Specialty cards, hand.
  function launchPad(view, viewer) {
    const b = view.board;
    const n = b.players.length;
    const zoneW = 220, rocketH = 22;
    const rowH = b.players.map((p) => 90 + rocketH * Math.max(3, ...[0, 1, 2].map((z) => p.rockets.filter((r) => r.zone === z).length),
                                                   p.hand ? p.hand.length : 0));
    const top = (row) => 62 + rowH.slice(0, row).reduce((a, h) => a + h, 0);
    const s = svg(3 * zoneW + 220, top(n) + 10);
    const head = group(s);
    text(head, 10, 20, "Launch Pad area " + b.launch_pad_area.cards + "/" + b.launch_pad_area.needed +
         (b.countdown ? " — COUNTDOWN, " + b.final_turns_left + " turns left" : "") + " — step " + b.step + ", turn of P" + b.turn_player, "title");
    ref(card(head, 10, 30, 140, 20, "draw pile " + b.draw_pile, "#26324a"), "the draw pile", "from the draw pile");
    const top_discard = b.discard_pile.length ? b.discard_pile[b.discard_pile.length - 1] : "";
    ref(card(head, 160, 30, 320, 20, "discard pile " + b.discard_pile.length + (top_discard ? ": " + top_discard : ""), "#3a3046",
             b.discard_pile.join(", ")), "the discard pile", "the top of the discard pile", "from the discard pile");
    b.players.forEach((p, row) => {
      const y = top(row), h = rowH[row];
      const area = group(s, { "data-seat": p.seat });
      const who = owner(viewer, p.seat, n);
      text(area, 10, y + 14, "P" + p.seat + you(viewer, p.seat) + ": score " + p.score + ", hand " + p.hand_size + "/" + p.hand_limit, "title");
      p.zones.forEach((zone, z) => {
        const x = 10 + z * zoneW;
        const box = rect(area, x, y + 22, zoneW - 8, h - 30, "#1e2634", { stroke: "#55627a" });
        if (who === "own") ref(box, "in the " + zone.name, "as the " + zone.name + " expert", "to the " + zone.name);
        const label = text(area, x + 4, y + 36, zone.name + (zone.launch_pad_cards ? " [" + zone.launch_pad_cards + " LP]" : ""), "small");
        if (zone.launch_pad_cards) ref(label, who + " Launch Pad card in the " + zone.name);
        ref(text(area, x + 4, y + 50, "expert: " + (zone.expert || "—"), "small"), who + " expert in the " + zone.name);
        p.rockets.filter((r) => r.zone === z).forEach((r, i) => {
          const label = r.rocket + " M" + r.metal + "/" + r.metal_needed + " F" + r.fuel + "/" + r.fuel_needed;
          ref(card(area, x + 4, y + 56 + i * rocketH, zoneW - 16, 20, label + (r.bonuses.length ? " +" + r.bonuses.length : ""),
                   "#2d3c55", label + (r.bonuses.length ? ", " + r.bonuses.join(", ") : "")),
              who + " rocket in slot " + r.slot, who + " rocket slot " + r.slot);
        });
      });
      const x = 10 + 3 * zoneW;
      ref(text(area, x, y + 36, "specialty: " + (p.specialties.join(", ") || "—"), "small"), who + " Specialty card", ...p.specialties.map((c) => who === "own" ? c : ""));
      const hand = group(area, { class: "hand" });
      if (p.hand) p.hand.forEach((c, i) => ref(card(hand, x, y + 44 + i * rocketH, 200, 20, c.count + "× " + c.card, "#3a4a66"), c.card));
      else {
        text(hand, x, y + 54, p.hand_size + " cards (hidden)", "small");
        if (p.known_hand && p.known_hand.length) text(hand, x, y + 68, "known: " + p.known_hand.map((c) => c.count + "× " + c.card).join(", "), "small");
      }
      ref(hand, "player +" + ((p.seat - (viewer === "full" ? 0 : viewer) + n) % n) + "'s hand");
    });
    return s;
  }

  // Rocket Squad: each player's four rockets (booster, boxes bottom up, Joker, Imaginary Friend), hand.
  const SQUAD_NAMES = { imaginary_friend: "Imaginary Friend", duct_tape: "Duct Tape", water_balloons: "Water Balloons" };
  function squadCard(id) {
    const booster = /^(red|green|yellow|blue|wild)_(\d+)$/.exec(id);
    if (booster) return booster[1] + " booster " + booster[2];
    return SQUAD_NAMES[id] || id.charAt(0).toUpperCase() + id.slice(1);
  }
  // What the seat knows of the draw pile (Jackie's cards by position, a reshuffled discard
  // pile's cards somewhere in it): " (bottom: 1 Dad, 2 ?, 3 Mom; somewhere: Jack)".
  function squadDrawKnown(known) {
    if (!known) return "";
    const parts = [];
    if (known.from_bottom.length)
      parts.push("bottom: " + known.from_bottom.map((c, i) => i + 1 + " " + (c ? squadCard(c) : "?")).join(", "));
    if (known.somewhere.length) parts.push("somewhere: " + known.somewhere.map(squadCard).join(", "));
    return parts.length ? " (" + parts.join("; ") + ")" : "";
  }
  function rocketSquad(view, viewer) {
    const b = view.board;
    const n = b.players.length;
    const colW = 150, rowH = 230;
    const s = svg(4 * colW + 220, 40 + n * rowH);
    text(s, 10, 20, "Turn " + b.turn + ", P" + b.turn_player + " to play, " + b.phase + " — draw pile " + b.draw_pile +
         squadDrawKnown(b.draw_pile_known) + ", discard pile " + b.discard_pile.length + (b.on_the_table ? " — on the table: " + b.on_the_table.play : "") +
         (b.end_triggered ? " — final turns" : ""), "title");
    ref(s.lastChild, "from the draw pile", "of the draw pile");
    b.players.forEach((p, row) => {
      const y = 40 + row * rowH;
      const area = group(s, { "data-seat": p.seat });
      const who = owner(viewer, p.seat, n);
      ref(text(area, 10, y + 14, "P" + p.seat + you(viewer, p.seat) + ": " + p.score + " points", "title"),
          ...(who === "own" ? [] : [who.slice(0, -2)]));
      p.rockets.forEach((r, loc) => {
        const x = 10 + loc * colW;
        const box = rect(area, x, y + 22, colW - 8, rowH - 30, "#1e2634", { stroke: CARD_COLOURS[r.location] });
        ref(box, who + " " + r.location + " rocket", ...(who === "own" ? ["the " + r.location + " rocket", "the " + r.location + " location"] : []));
        text(area, x + 4, y + 36, r.location + (r.launched ? " — launched" + (r.crew ? " + Crew" : "") : ""), "small");
        if (!r.booster) return;
        const boosterColour = CARD_COLOURS[r.booster.split("_")[0]] || "#666";
        card(area, x + 4, y + rowH - 34, colW - 16, 20, squadCard(r.booster) + " (" + r.boxes.length + "/" + r.need + ")", boosterColour);
        r.boxes.forEach((face, i) =>
          card(area, x + 14, y + rowH - 56 - i * 15, colW - 36, 14, face ? squadCard(face) : "?", face ? "#4a5870" : "#303a4c",
               face ? "box: " + squadCard(face) : "a face-down box"));
        if (r.joker) text(area, x + 4, y + 50, "Joker on top", "small");
        if (r.imaginary_friend) text(area, x + 4, y + 64, "Imaginary Friend", "small");
      });
      const x = 10 + 4 * colW;
      const hand = group(area, { class: "hand" });
      if (p.hand) p.hand.forEach((c, i) => ref(card(hand, x, y + 26 + i * 22, 180, 20, squadCard(c), "#3a4a66"), squadCard(c)));
      else {
        text(hand, x, y + 36, p.hand_size + " cards in hand", "small");
        if (p.known_in_hand.length) text(hand, x, y + 50, "known: " + p.known_in_hand.map(squadCard).join(", "), "small");
      }
    });
    if (b.jackie_look) b.jackie_look.forEach((c, i) => ref(card(s, 10 + i * 130, 26 + n * rowH - 20, 120, 18, "Jackie: " + squadCard(c), "#3a4a66"), "keep " + squadCard(c)));
    return s;
  }

  // The Last Blast: the asteroid field with the cubes, each rocket front to back, the draft hands.
  const BLAST_ROLES = { red: "Jump Boost", green: "Shield", amber: "Science" };
  const blastLabel = (c) => (BLAST_ROLES[c.colour] || "Science") + " " + c.number + " (" + c.symbol + ")";
  const blastName = (c) => c.colour + " " + (BLAST_ROLES[c.colour] || "Science") + " " + c.number + " (" + c.symbol + ")";
  function lastBlast(view, viewer) {
    const b = view.board;
    const cw = 90, ch = 40, cardW = 118;
    const width = Math.max(7 * cw + 20, 900, ...b.players.map((p) => 10 + (p.rocket.length + 1) * (cardW + 2)));
    const s = svg(width, 60 + b.field.length * ch + b.players.length * 110);
    let head = "The Last Blast — " + b.phase;
    if (b.phase === "draft") head += ": hand " + b.hand_number + ", pick " + b.pick_number + ", P" + b.picker + " picks";
    if (b.phase === "flight") head += ": column " + b.column + ", P" + b.mover + (b.damage_left ? " removes damage" : " moves");
    text(s, 10, 20, head, "title");
    ref(text(s, width - 250, 20, "deck and discards: " + (b.deck_and_discards !== undefined ? b.deck_and_discards : (b.deck || []).length + (b.discards || []).length), "small"), "draw blind from the deck");
    b.field.forEach((row, r) => row.forEach((symbol, c) => {
      const x = 10 + c * cw, y = 30 + r * ch;
      ref(rect(s, x, y, cw - 4, ch - 4, "#1e2634", { stroke: "#55627a" }), "row " + (r + 1) + " of column " + (c + 1));
      text(s, x + 4, y + 14, symbol, "small");
    }));
    b.players.forEach((p) => {
      if (p.row < 0) return;
      const x = 10 + p.column * cw + 20 + p.seat * 14, y = 30 + p.row * ch + 26;
      s.append(el("circle", { cx: x, cy: y, r: 6, fill: p.status === "exploded" ? "#555" : SEAT_COLOURS[p.seat], "data-seat": p.seat }));
    });
    const y0 = 40 + b.field.length * ch;
    b.players.forEach((p, i) => {
      const y = y0 + i * 110;
      const area = group(s, { "data-seat": p.seat });
      text(area, 10, y + 14, "P" + p.seat + you(viewer, p.seat) + " (" + p.status + ", score " + p.score + ") front → back", "title");
      const mine = viewer === p.seat;
      if (mine) ref(rect(area, 10 - 8, y + 20, 6, 26, "#8894a8"), "for the front", "at the front");
      p.rocket.forEach((c, k) => {
        const node = card(area, 10 + k * (cardW + 2), y + 20, cardW, 26, blastLabel(c), CARD_COLOURS[c.colour], blastName(c));
        if (mine) ref(node, k === 0 ? "remove the front card" : "", k === p.rocket.length - 1 ? "remove the back card" : "");
      });
      if (mine) ref(rect(area, 10 + p.rocket.length * (cardW + 2), y + 20, 30, 26, "#26324a", { stroke: "#8894a8" }), "for the back", "at the back");
      const hand = group(area, { class: "hand" });
      if (!p.hand) return;
      if (p.hand.cards) {
        p.hand.cards.forEach((c, k) => ref(card(hand, 10 + k * (cardW + 2), y + 52, cardW, 26, blastLabel(c), CARD_COLOURS[c.colour], blastName(c)),
                                           "pick " + blastName(c)));
        if (p.hand.pick) text(hand, 10 + 5 * (cardW + 2) + 10, y + 70, "pick: " + p.hand.pick.name + (p.hand.pick_end ? " (" + p.hand.pick_end + ")" : ""), "small");
      } else {
        text(hand, 10, y + 70, "hand: " + p.hand.size + " cards" + (p.hand.has_picked ? ", has picked" : "") +
             (p.hand.seen.length ? "; seen: " + p.hand.seen.map(blastName).join(", ") : ""), "small");
      }
    });
    return s;
  }

  // Lift Off: each player's board (money, income, tech, lab, capacity, station), missions, specialists.
  function liftOff(view, viewer) {
    const b = view.board;
    const width = 1000;
    const s = svg(width, 100);
    text(s, 10, 20, "Lift Off — round " + b.round + ", phase " + b.phase + ", " + b.step + (b.to_act >= 0 ? ", P" + b.to_act + " to act" : "") +
         " — specialists " + b.specialist_deck, "title");
    const mission = (m) => m.name + " (L" + m.level + ")";
    // A labelled row of chips, wrapped at the board's width; returns the y below it.
    const chips = (parent, x, y, items, label, refs) => {
      text(parent, x, y + 13, label, "small");
      const left = x + 8 + label.length * 6;
      let at = left;
      items.forEach((item) => {
        const w = 8 + item.length * 6.2;
        if (at + w > width - 14 && at > left) {
          at = left;
          y += 22;
        }
        ref(card(parent, at, y, w, 18, item, "#2d3c55"), ...refs(item));
        at += w + 4;
      });
      return y + 22;
    };
    let y = 36;
    b.players.forEach((p) => {
      const area = group(s, { "data-seat": p.seat });
      const frame = rect(area, 6, y, width - 12, 10, "#1a2230", { stroke: SEAT_COLOURS[p.seat] });
      const y0 = y;
      const mine = viewer === p.seat;
      text(area, 14, y + 18, "P" + p.seat + you(viewer, p.seat) + ": " + p.vp + " VP" + (p.final_vp !== undefined ? " + " + p.final_vp + " final" : "") +
           ", money " + p.money + ", income " + p.income + ", lab L" + p.lab_level + ", capacity " + p.capacity +
           ", launch cost " + p.launch_cost + ", station " + p.station, "title");
      ["red", "yellow", "blue", "green"].forEach((colour, k) => {
        const box = rect(area, 14 + k * 44, y + 26, 40, 20, CARD_COLOURS[colour]);
        if (mine) ref(box, colour + " tech");
        text(area, 20 + k * 44, y + 40, String(p.tech[colour]));
      });
      if (mine) {
        ref(card(area, 200, y + 26, 90, 20, "lab L" + p.lab_level, "#26324a"), "the lab", "lab's");
        ref(card(area, 294, y + 26, 110, 20, "capacity " + p.capacity, "#26324a"), "capacity upgrade");
        ref(card(area, 408, y + 26, 110, 20, "station " + p.station, "#26324a"), "space station");
      }
      y = chips(area, 14, y + 52, p.earth.map(mission), "earth:", (m) => [m]);
      y = chips(area, 14, y, p.space.map(mission), "space:", (m) => [m]);
      y = chips(area, 14, y, p.played.map((c) => c.name + " (" + c.id + ")"), "played:", (c) => [c]);
      const hand = group(area, { class: "hand" });
      const known = (h) => h.cards.map((c) => c.name + " (" + c.id + ")").concat(Array(h.unknown).fill("?"));
      y = chips(hand, 14, y, known(p.hand), "hand" + (p.pick ? " (picking " + p.pick.name + ")" : p.has_picked ? " (has picked)" : "") + ":",
                (c) => [c]);
      // Discarded face down: named to their seat (discarded_objectives), counted for the others.
      const discarded = !p.objectives_discarded ? ""
        : p.discarded_objectives ? " (discarded: " + p.discarded_objectives.map((c) => c.name + " (" + c.id + ")").join(", ") + ")"
        : " (" + p.objectives_discarded + " discarded)";
      y = chips(hand, 14, y, known(p.objectives), "objectives" + discarded + ":", (c) => [c]);
      frame.setAttribute("height", y - y0);
      y += 8;
    });
    b.mission_decks.forEach((count, k) =>
      ref(card(s, 10 + k * 150, y + 4, 140, 18, "level " + (k + 1) + " deck: " + count, "#26324a"), "level " + (k + 1) + " mission deck"));
    y += 28;
    if (b.drawn) {
      y = chips(s, 10, y, b.drawn.missions.map(mission), "drawn (keep up to " + b.drawn.keep_up_to + "):", (m) => [m]);
    }
    if (b.rocket) {
      y += 16;
      ref(text(s, 10, y, "rocket (" + b.rocket.symbol + ", capacity " + b.rocket.capacity + "): " + b.rocket.loaded.map((m) => m.name).join(", ")),
          "on the rocket", "lift off");
    }
    if (b.resolving) text(s, 10, (y += 20), "resolving " + b.resolving.name);
    s.setAttribute("viewBox", "0 0 " + width + " " + (y + 20));
    s.setAttribute("height", y + 20);
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
