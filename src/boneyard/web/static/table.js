// Drawing the table from the geometry JSON that boneyard.render.geometry computes.
// Same conventions as boneyard/render/svg.py: a tile is 2 x 1 table units with halves[0] on
// the left, turned `rotation` degrees clockwise about its centre (x, y).  Letter and wild
// halves are turned back so they always read upright.

const NS = "http://www.w3.org/2000/svg";
export const COLORS = {
  felt: "#17563a", face: "#fbf7ea", edge: "#1d1d1d", pip: "#141414", special: "#9b1c1c",
  back: "#7a2e1f", backEdge: "#f4f1e8",
};

let PIPS = {};
let PIP_RADIUS = 0.085;

export function setPips(meta) {
  PIPS = meta.pips;
  PIP_RADIUS = meta.pip_radius;
}

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function half(group, text, left, rotation) {
  if (/^\d+$/.test(text)) {
    for (const [x, y] of PIPS[text] || []) {
      el("circle", { cx: left + x, cy: y - 0.5, r: PIP_RADIUS, fill: COLORS.pip }, group);
    }
    return;
  }
  const cx = left + 0.5;
  const label = el("text", {
    x: cx, y: 0.02, "font-size": 0.62, "font-family": "sans-serif", "font-weight": 700,
    "text-anchor": "middle", "dominant-baseline": "middle", fill: COLORS.special, class: "letter",
    transform: `rotate(${-rotation} ${cx} 0)`,
  }, group);
  label.textContent = text === "W" ? "★" : text;
}

/** One tile as an SVG <g>; `box` has x, y, rotation, halves, tile, index. */
export function tileGroup(box, className = "tile") {
  const group = el("g", {
    class: className, "data-index": box.index, "data-tile": box.tile,
    transform: `translate(${box.x} ${box.y}) rotate(${box.rotation})`,
  });
  const inner = el("g", { class: "tile-body" }, group);
  if (/\b(last|owed)\b/.test(className)) {
    el("rect", { class: "halo", x: -1.12, y: -0.62, width: 2.24, height: 1.24, rx: 0.22 }, inner);
  }
  el("rect", { x: -0.97, y: -0.47, width: 1.94, height: 0.94, rx: 0.12, fill: COLORS.face, stroke: COLORS.edge,
    "stroke-width": 0.05 }, inner);
  el("line", { x1: 0, y1: -0.36, x2: 0, y2: 0.36, stroke: COLORS.edge, "stroke-width": 0.04 }, inner);
  half(inner, box.halves[0], -0.97, box.rotation);
  half(inner, box.halves[1], -0.03, box.rotation);
  return group;
}

/** A standalone tile for a hand or a summary (vertical by default). */
export function tileSvg(tile, { vertical = true, scale = 30 } = {}) {
  const [a, b] = tile.split("-");
  const [w, h] = vertical ? [1, 2] : [2, 1];
  const svg = el("svg", { viewBox: `${-w / 2} ${-h / 2} ${w} ${h}`, width: w * scale, height: h * scale,
    "aria-hidden": "true", focusable: "false" });
  svg.appendChild(tileGroup({ x: 0, y: 0, rotation: vertical ? 90 : 0, halves: [a, b], tile, index: 0 }));
  return svg;
}

/** The back of one tile (an opponent's hand, the stock), upright. */
export function backSvg({ scale = 8, className = "back" } = {}) {
  const svg = el("svg", { viewBox: "-0.5 -1 1 2", width: scale, height: scale * 2, class: className,
    "aria-hidden": "true", focusable: "false" });
  el("rect", { x: -0.47, y: -0.97, width: 0.94, height: 1.94, rx: 0.14, fill: COLORS.back,
    stroke: COLORS.backEdge, "stroke-width": 0.08 }, svg);
  el("circle", { cx: 0, cy: 0, r: 0.16, fill: COLORS.backEdge, "fill-opacity": 0.7 }, svg);
  return svg;
}

/** A pile of tile backs (the stock), a few drawn offset so it reads as a stack. */
export function pileSvg(count, { scale = 10 } = {}) {
  const layers = Math.min(3, Math.max(count, 0));
  const svg = el("svg", { viewBox: "-0.7 -1.3 1.6 2.4", width: scale * 1.6, height: scale * 2.4,
    class: "pile", "aria-hidden": "true", focusable: "false" });
  for (let i = 0; i < layers; i += 1) {
    const shift = (layers - 1 - i) * 0.12;
    el("rect", { x: -0.47 + shift, y: -0.97 - shift, width: 0.94, height: 1.94, rx: 0.14, fill: COLORS.back,
      stroke: COLORS.backEdge, "stroke-width": 0.08 }, svg);
  }
  if (!layers) {
    el("rect", { x: -0.47, y: -0.97, width: 0.94, height: 1.94, rx: 0.14, fill: "none",
      stroke: COLORS.backEdge, "stroke-width": 0.06, "stroke-dasharray": "0.15 0.1" }, svg);
  }
  return svg;
}

/** An icon drawn in SVG (never a font glyph): first, previous, next, last. */
export function iconSvg(name) {
  const svg = el("svg", { viewBox: "0 0 24 24", width: 20, height: 20, class: `icon icon-${name}`,
    "aria-hidden": "true", focusable: "false" });
  const shapes = {
    first: [["rect", { x: 4, y: 5, width: 3, height: 14 }], ["path", { d: "M20 5 L9 12 L20 19 Z" }]],
    prev: [["path", { d: "M17 5 L6 12 L17 19 Z" }]],
    next: [["path", { d: "M7 5 L18 12 L7 19 Z" }]],
    last: [["path", { d: "M4 5 L15 12 L4 19 Z" }], ["rect", { x: 17, y: 5, width: 3, height: 14 }]],
  };
  for (const [tag, attrs] of shapes[name]) el(tag, { ...attrs, fill: "currentColor" }, svg);
  return svg;
}

/** A tile on the table as a screen reader says it: "6-4, tile 3", "3-3, the lead, owes more plays". */
export function tileName(box, owes = false) {
  return `${box.tile}, ${box.index === 1 ? "the lead" : `tile ${box.index}`}${owes ? ", owes more plays" : ""}`;
}

/**
 * Draw the table into `svg`.
 * tiles: geometry tiles; view: [x, y, w, h]; spots: hotspots to light up; ends: the open ends' numbers (said);
 * fresh: tiles with index >= fresh are new (animated); active: index into spots;
 * last: the index of the tile placed last (highlighted); owed: indices of doubles owed plays.
 */
export function drawTable(svg, { tiles, view, spots = [], fresh = Infinity, active = -1, onSpot = null,
  onDrop = null, last = null, owed = [], ends = null }) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("viewBox", view.join(" "));
  // what a screen reader reads: the table (a group), each tile on it by name and number in play order, each lit end
  const byIndex = new Map(tiles.map((box) => [box.index, box]));
  const open = ends && ends.length ? `; open ends ${ends.map((end) => (end === "W" ? "wild" : end)).join(", ")}` : "";
  svg.setAttribute("aria-label", tiles.length ? `the table, ${tiles.length} tile${tiles.length === 1 ? "" : "s"}${open}`
    : "the table, empty");
  el("rect", { x: view[0], y: view[1], width: view[2], height: view[3], fill: COLORS.felt, "aria-hidden": "true" }, svg);
  for (const box of tiles) {
    const classes = ["tile"];
    if (box.index >= fresh) classes.push("fresh");
    if (box.index === last) classes.push("last");
    if (owed.includes(box.index)) classes.push("owed");
    const group = tileGroup(box, classes.join(" "));
    group.setAttribute("role", "img");
    group.setAttribute("aria-label", tileName(box, owed.includes(box.index)));
    svg.appendChild(group);
  }
  if (!spots.length) return;
  // a lit end smaller than a finger (a crowded table on a phone) gets a larger, unseen reach around it, in a layer
  // under every lit end so a neighbour's is never covered: 24 CSS pixels at least each way (WCAG's target size)
  const shown = svg.getBoundingClientRect();
  const scale = Math.min(shown.width / view[2], shown.height / view[3]);
  const least = scale > 0 ? REACH_PX / scale : 0;
  const reaches = el("g", { class: "reaches", "aria-hidden": "true" }, svg);
  spots.forEach((spot, i) => {
    const [w, h] = spot.rotation % 180 === 0 ? [2, 1] : [1, 2];
    const rect = el("rect", {
      class: i === active ? "hotspot active" : "hotspot", x: spot.x - w / 2, y: spot.y - h / 2, width: w,
      height: h, rx: 0.15, "data-moves": spot.moves.join(" "), "data-target": spot.target,
      "data-value": spot.value, role: "button",
      "aria-label": spot.target ? `play on the ${spot.value} end of ${byIndex.get(spot.target)?.tile ?? "tile"} `
        + `(tile ${spot.target})` : "lead here",
    }, svg);
    listen(rect, rect, spot, onSpot, onDrop);
    if (w >= least && h >= least) return;
    const [rw, rh] = [Math.max(w, least), Math.max(h, least)];
    const reach = el("rect", { class: "hotspot-reach", x: spot.x - rw / 2, y: spot.y - rh / 2, width: rw, height: rh,
      "data-moves": spot.moves.join(" ") }, reaches);
    listen(reach, rect, spot, onSpot, onDrop);
  });
}

/** The smallest a lit end reaches on the screen, each way, in CSS pixels. */
const REACH_PX = 24;

/** A click on ``target`` plays ``spot``; a tile dragged over it lights ``lit`` (the lit end it belongs to). */
function listen(target, lit, spot, onSpot, onDrop) {
  if (onSpot) target.addEventListener("click", (event) => { event.stopPropagation(); onSpot(spot); });
  if (onDrop) {
    target.addEventListener("dragover", (event) => { event.preventDefault(); lit.classList.add("over"); });
    target.addEventListener("dragleave", () => lit.classList.remove("over"));
    target.addEventListener("drop", (event) => { event.preventDefault(); onDrop(spot, event); });
  }
}
