// Drawing the table from the geometry JSON that boneyard.render.geometry computes.
// Same conventions as boneyard/render/svg.py: a tile is 2 x 1 table units with halves[0] on
// the left, turned `rotation` degrees clockwise about its centre (x, y).

const NS = "http://www.w3.org/2000/svg";
export const COLORS = { felt: "#17563a", face: "#fbf7ea", edge: "#1d1d1d", pip: "#141414", special: "#9b1c1c" };

let PIPS = {};
let PIP_RADIUS = 0.085;

export function setPips(meta) {
  PIPS = meta.pips;
  PIP_RADIUS = meta.pip_radius;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function half(group, text, left) {
  if (/^\d+$/.test(text)) {
    for (const [x, y] of PIPS[text] || []) {
      el("circle", { cx: left + x, cy: y - 0.5, r: PIP_RADIUS, fill: COLORS.pip }, group);
    }
    return;
  }
  const label = el("text", {
    x: left + 0.5, y: 0.02, "font-size": 0.62, "font-family": "sans-serif", "font-weight": 700,
    "text-anchor": "middle", "dominant-baseline": "middle", fill: COLORS.special,
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
  el("rect", { x: -0.97, y: -0.47, width: 1.94, height: 0.94, rx: 0.12, fill: COLORS.face, stroke: COLORS.edge,
    "stroke-width": 0.05 }, inner);
  el("line", { x1: 0, y1: -0.36, x2: 0, y2: 0.36, stroke: COLORS.edge, "stroke-width": 0.04 }, inner);
  half(inner, box.halves[0], -0.97);
  half(inner, box.halves[1], -0.03);
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

/**
 * Draw the table into `svg`.
 * tiles: geometry tiles; view: [x, y, w, h]; spots: hotspots to light up;
 * fresh: tiles with index >= fresh are new (animated); active: index into spots.
 */
export function drawTable(svg, { tiles, view, spots = [], fresh = Infinity, active = -1, onSpot = null,
  onDrop = null }) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("viewBox", view.join(" "));
  el("rect", { x: view[0], y: view[1], width: view[2], height: view[3], fill: COLORS.felt }, svg);
  for (const box of tiles) {
    const group = tileGroup(box, box.index >= fresh ? "tile fresh" : "tile");
    svg.appendChild(group);
  }
  spots.forEach((spot, i) => {
    const horizontal = spot.rotation % 180 === 0;
    const [w, h] = horizontal ? [2, 1] : [1, 2];
    const rect = el("rect", {
      class: i === active ? "hotspot active" : "hotspot", x: spot.x - w / 2, y: spot.y - h / 2, width: w,
      height: h, rx: 0.15, "data-moves": spot.moves.join(" "), "data-target": spot.target,
      "data-value": spot.value, role: "button",
      "aria-label": spot.target ? `play on the ${spot.value} end of tile ${spot.target}` : "lead here",
    }, svg);
    if (onSpot) rect.addEventListener("click", (event) => { event.stopPropagation(); onSpot(spot); });
    if (onDrop) {
      rect.addEventListener("dragover", (event) => { event.preventDefault(); rect.classList.add("over"); });
      rect.addEventListener("dragleave", () => rect.classList.remove("over"));
      rect.addEventListener("drop", (event) => { event.preventDefault(); onDrop(spot, event); });
    }
  });
}
