// The game review in the browser (docs/review.md): a Review button at game over and in the replay viewer;
// each reviewed move's tile outlined in its mark's colour, the better move drawn as a ghost tile, and a plot
// of the seat's expected result move by move.  The review is worked out by the server (POST /api/review, in a
// worker process); this module only draws it, through the hooks app.js dispatches (boneyard:summary,
// boneyard:replay).
import { el, tileGroup } from "/static/table.js";

const MARKS = ["best", "inaccuracy", "mistake", "blunder"];
// a mark's point on the plot: it grows with the loss and the worse marks are ringed, so it is told by more than
// its colour (the current decision's point is ringed in the text's colour, larger still)
const DOT = {
  best: { r: 2.5 },
  inaccuracy: { r: 3.5, stroke: "#10291d", "stroke-width": 0.8 },
  mistake: { r: 4.2, stroke: "#f4f1e8", "stroke-width": 1 },
  blunder: { r: 5, stroke: "#f4f1e8", "stroke-width": 1, "stroke-dasharray": "2 1" },
};
const review = { data: null, result: null, seat: 0, busy: false, error: "", last: null, drawn: null };

function node(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") element.textContent = value;
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) element.append(child);
  return element;
}

/** "1 mistake", "2 mistakes", "3 inaccuracies", "4 best". */
function marked(count, mark) {
  if (count === 1 || mark === "best") return `${count} ${mark}`;
  return `${count} ${mark === "inaccuracy" ? "inaccuracies" : `${mark}s`}`;
}

function signed(value, digits = 1) {
  return `${value > 0 ? "+" : ""}${value.toFixed(digits)}`;
}

function addStyle() {
  if (document.getElementById("review-style")) return;
  document.head.append(node("style", { id: "review-style", text: `
    .tile.review-best .halo { stroke: var(--review-best); }
    .tile.review-inaccuracy .halo { stroke: var(--review-inaccuracy); }
    .tile.review-mistake .halo { stroke: var(--review-mistake); }
    .tile.review-blunder .halo { stroke: var(--review-blunder); }
    .tile.ghost { opacity: .45; pointer-events: none; }
    .tile.ghost .halo { stroke: var(--review-best); stroke-dasharray: .2 .1; }
    #review-panel { margin: .5rem 0; }
    /* a mark's word on its colour, legible (WCAG AA, 4.5:1 and more): dark on the three lighter, white on a
       darker red */
    #review-panel .mark { font-weight: 600; padding: 0 .3em; border-radius: .3em; color: #111; }
    #review-panel .mark-best { background: var(--review-best); }
    #review-panel .mark-inaccuracy { background: var(--review-inaccuracy); }
    #review-panel .mark-mistake { background: var(--review-mistake); }
    #review-panel .mark-blunder { background: #b3261e; color: #fff; }
    #review-panel .hindsight { opacity: .8; font-style: italic; }
    #review-plot { width: 100%; max-width: 40rem; height: 9rem; display: block; }
    #review-legend { display: flex; flex-wrap: wrap; gap: .2rem .8rem; font-size: .85rem; margin: 0; }
    #review-legend svg { vertical-align: middle; }
  ` }));
}

// ------------------------------------------------------------------ game over: a Review button
document.addEventListener("boneyard:summary", (event) => {
  const { game, summary, actions, you } = event.detail;
  if (!summary.game_over || !actions || actions.querySelector(".review-link")) return;
  const seat = you ?? 0;  // the player's own seat (a spectator reviews seat 0)
  actions.prepend(node("a", { class: "button review-link", href: `/replay/${game}#review-${seat}`, text: "Review" }));
});

// ------------------------------------------------------------------ the replay viewer
async function recordBody() {
  const match = window.location.pathname.match(/^\/replay\/([\w-]+)$/);
  if (match && match[1] !== "file") return { game_id: match[1] };
  const kept = sessionStorage.getItem("boneyard-replay-file");  // app.js's REPLAY_FILE: the loaded record
  if (kept !== null) return { record: kept };
  const input = document.getElementById("record-file");
  const file = input && input.files[0];
  if (!file) throw new Error("the record of this replay is no longer at hand: load it again");
  return { record: await file.text() };
}

async function runReview() {
  if (review.busy) return;
  review.busy = true;
  review.error = "";
  review.result = null;
  redraw();
  try {
    const body = { ...(await recordBody()), seat: review.seat };
    const response = await fetch("/api/review", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.detail || `the review failed (${response.status})`);
    review.result = answer;
  } catch (error) {
    review.error = error.message;
  } finally {
    review.busy = false;
    redraw();
  }
}

function tools(data) {
  const box = document.getElementById("replay-tools");
  if (!box) return;
  if (box.dataset.review === "ready" && review.data === data) return;
  const seat = node("select", { "aria-label": "seat to review", id: "review-seat",
    onchange: (event) => { review.seat = Number(event.target.value); review.result = null; redraw(); } },
  data.players.map((name, index) => node("option", { value: index, text: name })));
  seat.value = String(review.seat);
  box.replaceChildren(seat, node("button", { type: "button", id: "review-button", onclick: runReview, text: "Review" }));
  box.dataset.review = "ready";
}

function decisionAt(handNumber, step) {
  if (!review.result) return null;
  return review.result.decisions.find((d) => d.hand === handNumber && d.move_number === step) || null;
}

function decorate(detail) {
  const hand = detail.data.hands[detail.hand];
  const svg = document.getElementById("replay-table");
  if (!svg) return;
  svg.querySelectorAll(".tile.ghost").forEach((ghost) => ghost.remove());
  MARKS.forEach((mark) => svg.querySelectorAll(`.review-${mark}`).forEach((tile) => tile.classList.remove(`review-${mark}`)));
  if (!hand || !review.result) return;
  const decision = decisionAt(hand.number, detail.step);
  if (!decision) return;
  const placed = hand.steps[detail.step].placed;
  const played = svg.querySelector(`g.tile[data-index="${placed}"]`);
  if (played && hand.steps[detail.step - 1] && hand.steps[detail.step - 1].placed < placed) {
    played.classList.add(`review-${decision.mark}`);
  }
  if (decision.ghost) {
    const ghost = tileGroup(decision.ghost, "tile ghost");
    ghost.setAttribute("role", "img");
    ghost.setAttribute("aria-label", `better: ${decision.best}`);
    svg.appendChild(ghost);
    showWhole(svg, decision.ghost);
  }
}

/** Widen the table's view (and its felt) to hold the better move's ghost tile: the step's view holds the tiles
 * placed so far only, and a narrow screen shows no more than the view. */
function showWhole(svg, box) {
  const [x, y, width, height] = svg.getAttribute("viewBox").split(/\s+/).map(Number);
  const [w, h] = box.rotation % 180 === 0 ? [1.2, 0.7] : [0.7, 1.2];  // half the tile and its halo, a margin
  const left = Math.min(x, box.x - w);
  const top = Math.min(y, box.y - h);
  const right = Math.max(x + width, box.x + w);
  const bottom = Math.max(y + height, box.y + h);
  const view = [left, top, right - left, bottom - top];
  svg.setAttribute("viewBox", view.join(" "));
  const felt = svg.querySelector(":scope > rect");
  if (felt) ["x", "y", "width", "height"].forEach((key, i) => felt.setAttribute(key, String(view[i])));
}

function describe(decision) {
  const parts = [node("span", { class: `mark mark-${decision.mark}`, text: decision.mark }),
    ` ${decision.played}: ${signed(decision.value)} expected points of the hand`];
  if (decision.best !== decision.played) {
    parts.push(`; best ${decision.best} ${signed(decision.best_value)} (difference ${signed(decision.interval[0])}`
      + ` to ${signed(decision.interval[1])})`);
  }
  if (decision.win !== null) parts.push(`; wins the game in ${Math.round(decision.win * 100)}% of the deals`);
  const lines = [node("p", {}, parts)];
  if (decision.comment) lines.push(node("p", { text: decision.comment }));
  lines.push(node("p", { class: "hindsight", text: decision.open_hands === null
    ? "Open hands (hindsight): not solved here (too many tiles left)."
    : `Open hands (hindsight, every hand known): ${signed(decision.open_hands)}.` }));
  return lines;
}

function plot(result, current) {
  const decisions = result.decisions;
  const width = 400;
  const height = 120;
  const pad = 12;
  // a group of named points: a screen reader reads each decision, its move, its value and its mark
  const svg = el("svg", { id: "review-plot", viewBox: `0 0 ${width} ${height}`, role: "group",
    "aria-label": `the expected net points of the hand, decision by decision (${decisions.length})` });
  if (!decisions.length) return svg;
  const values = decisions.map((d) => d.value);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || 1;
  const x = (i) => pad + (decisions.length === 1 ? 0 : (i * (width - 2 * pad)) / (decisions.length - 1));
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / span;
  el("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), stroke: "currentColor", "stroke-opacity": 0.3 }, svg);
  const label = (text, atY) => {
    el("text", { x: pad, y: atY, "font-size": 9, fill: "currentColor", "fill-opacity": 0.7 }, svg).textContent = text;
  };
  label(`${signed(high, 0)} expected net points of the hand, decision by decision (lines: new hands)`, pad - 1);
  label(signed(low, 0), height - 1);
  decisions.forEach((d, i) => {
    if (i && d.hand !== decisions[i - 1].hand) {
      const at = (x(i) + x(i - 1)) / 2;
      el("line", { x1: at, x2: at, y1: pad, y2: height - pad, stroke: "currentColor", "stroke-opacity": 0.15 }, svg);
    }
  });
  el("polyline", { points: decisions.map((d, i) => `${x(i)},${y(d.value)}`).join(" "), fill: "none",
    stroke: "currentColor", "stroke-width": 1.5 }, svg);
  decisions.forEach((d, i) => {
    const dot = el("circle", { cx: x(i), cy: y(d.value), fill: `var(--review-${d.mark})`, "data-hand": d.hand,
      "data-move": d.move_number, "data-mark": d.mark, "data-played": d.played,
      "data-ghost": d.ghost ? d.ghost.tile : "" }, svg);
    const name = `${decisionName(d)}: ${d.played} ${signed(d.value)} (${d.mark})`;
    dot.setAttribute("role", "img");
    dot.setAttribute("aria-label", name);
    el("title", {}, dot).textContent = name;
  });
  ring(svg, current);
  return svg;
}

/** Each point drawn as its mark's, the current decision's ringed in the text's colour (attributes only: nothing
 * of the plot is drawn again, or said again, as the replay steps). */
function ring(svg, current) {
  for (const dot of svg.querySelectorAll("circle[data-mark]")) {
    const here = current && Number(dot.dataset.hand) === current.hand && Number(dot.dataset.move) === current.move_number;
    const look = DOT[dot.dataset.mark];
    for (const key of ["stroke", "stroke-width", "stroke-dasharray"]) dot.removeAttribute(key);
    const attrs = here ? { r: look.r + 2, stroke: "currentColor", "stroke-width": 1.5 } : look;
    for (const [key, value] of Object.entries(attrs)) dot.setAttribute(key, String(value));
  }
}

function decisionName(decision) {
  return `hand ${decision.hand}, move ${decision.move_number}`;
}

/** What each point of the plot looks like, in words. */
function legend() {
  return node("p", { id: "review-legend", "aria-hidden": "true" }, MARKS.map((mark) => {
    const r = DOT[mark].r;
    const picture = el("svg", { width: 2 * r + 4, height: 2 * r + 4, viewBox: `${-r - 2} ${-r - 2} ${2 * r + 4} ${2 * r + 4}` });
    el("circle", { cx: 0, cy: 0, ...DOT[mark], fill: `var(--review-${mark})` }, picture);
    return node("span", {}, picture, ` ${mark}`);
  }));
}


/**
 * The review's panel. What a screen reader hears of it: the line on top (the progress, the error, then the
 * summary: the panel is a polite live region) and, at each step, the judgement of the move stepped to; the plot,
 * its named points and the costliest moves are there to be read (aria-live off), and only what changed is redrawn.
 */
function panel(detail) {
  let box = document.getElementById("review-panel");
  if (!box) {
    const anchor = document.getElementById("replay-end");
    if (!anchor) return;
    box = node("div", { id: "review-panel", "aria-live": "polite" },
      node("p", { id: "review-status" }), node("div", { id: "review-figure", "aria-live": "off" }),
      node("div", { id: "review-move", "aria-live": "polite" }), node("ol", { id: "review-costliest", "aria-live": "off" }));
    anchor.after(box);
  }
  const [status, figure, move, costliest] = ["status", "figure", "move", "costliest"]
    .map((name) => document.getElementById(`review-${name}`));
  const say = (text, error = false) => {
    if (status.textContent !== text) status.textContent = text;
    status.className = error ? "error" : "";
  };
  const result = review.busy || review.error ? null : review.result;
  if (!result) {
    say(review.busy ? "Reviewing… (the server searches every decision)" : review.error, Boolean(review.error));
    for (const part of [figure, move, costliest]) part.replaceChildren();
    review.drawn = null;
    return;
  }
  const hand = detail.data.hands[detail.hand];
  const decision = hand ? decisionAt(hand.number, detail.step) : null;
  const summary = result.summaries[0];
  const forced = `${summary.forced} forced move${summary.forced === 1 ? "" : "s"} skipped`;
  say(summary.decisions
    ? `${summary.name}: accuracy ${Math.round(summary.accuracy * 100)}%, `
      + `${summary.points_lost.toFixed(1)} expected points lost; ${MARKS.map((m) => marked(summary.marks[m], m)).join(", ")}`
      + ` (${forced})`
    : `${summary.name}: no decision with a choice to judge, so no accuracy (${forced})`);
  const drawn = review.drawn === result;  // the parts that change with the result only are drawn once
  review.drawn = result;
  if (!drawn || !figure.firstChild) {
    figure.replaceChildren(plot(result, decision), legend());
    costliest.replaceChildren(...summary.costliest.map((d) => node("li",
      { text: `${decisionName(d)} (${d.mark}): ${d.comment}` })));
  } else {
    ring(figure.firstChild, decision);  // the ring moves to the current decision
  }
  const shownFor = decision ? `${decision.hand}:${decision.move_number}` : "";
  if (!drawn || move.dataset.decision !== shownFor) {
    move.replaceChildren(...(decision ? describe(decision) : []));
    move.dataset.decision = shownFor;
  }
}

function redraw() {
  if (review.last) render(review.last);
}

function render(detail) {
  addStyle();
  if (review.data !== detail.data) {
    Object.assign(review, { data: detail.data, result: null, error: "", seat: 0 });
  }
  review.last = detail;
  tools(detail.data);
  // busy, the button says so but keeps the focus a keyboard user left on it (a disabled button would drop it)
  const button = document.getElementById("review-button");
  if (button) button.setAttribute("aria-disabled", String(review.busy));
  decorate(detail);
  panel(detail);
}

document.addEventListener("boneyard:replay", (event) => {
  const fresh = review.data !== event.detail.data;
  render(event.detail);
  const asked = window.location.hash.match(/^#review(?:-(\d+))?$/);
  if (fresh && asked) {
    const seat = Number(asked[1] || 0);
    if (seat < event.detail.data.players.length) {
      review.seat = seat;
      document.getElementById("review-seat").value = String(seat);
    }
    runReview();
  }
});
