// The Boneyard web table: lobby, game table and replay viewer (plain ES module, no build).
import { backSvg, drawTable, iconSvg, pileSvg, setPips, tileSvg } from "./table.js";

const $ = (selector, root = document) => root.querySelector(selector);
const SPEEDS = { off: 0, fast: 150, normal: 350, slow: 700 };

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    headers: { "Content-Type": "application/json" }, ...options,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.detail || `${response.status} ${response.statusText}`);
  return data;
}

/** "1 tile", "2 tiles". */
export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** "You score" / "Ann scores": the verb agrees with the person. */
function says(name, isYou, verb) {
  return isYou ? `You ${verb}` : `${name} ${verb}s`;
}

/** A player's name with a verb that agrees: a record from the terminal names its player "You" ("You lead"). */
function nameSays(name, verb) {
  return says(name, name.toLowerCase() === "you", verb);
}

/** The house rules a table plays by (its options that differ from the variant's defaults), in words:
 * "target 150 · spinner false"; "" where there are none. The table and the lobby's list say them alike. */
function houseRules(options) {
  return Object.entries(options || {}).map(([name, value]) =>
    `${name.replaceAll("_", " ")} ${value === null ? "none" : defaultText(value)}`).join(" · ");
}

/** An option's default in words, as the command line's `boneyard variants` says it (none: by player count). */
function defaultText(value) {
  if (value === null) return "the variant's own for the player count";
  return Array.isArray(value) ? value.join("/") : String(value);
}

/** A tile or a move as the table shows it: a wild half (W in the notation) is drawn as a star. */
function shown(text) {
  return text.replace(/W/g, "★");
}

/** A hand's tiles drawn small, which a screen reader reads as one list ("6-4, 5-5, 3-1"), not as pictures. */
function handTiles(tiles, scale) {
  return h("span", { class: "summary-hand", role: "img", "aria-label": tiles.map(shown).join(", ") },
    tiles.map((t) => tileSvg(t, { scale })));
}

function signed(points) {
  return `${points > 0 ? "+" : ""}${points}`;
}

function announce(text) {
  $("#live").textContent = text;
}

function speed() {
  return SPEEDS[localStorage.getItem("boneyard-speed") || "normal"] ?? 350;
}

function applySpeed() {
  document.documentElement.style.setProperty("--anim-ms", `${speed()}ms`);
  document.body.classList.toggle("no-anim", speed() === 0);
}

let meta = null;
/** The session key of a record loaded from a file and watched as a replay (``/replay/file``). */
const REPLAY_FILE = "boneyard-replay-file";
const TITLE = "Boneyard — the web table";
let variants = [];
let landing = false;  // the page opened a view itself (a link, Create, Back): the view's heading takes the focus

// ------------------------------------------------------------------ routing
function show(id) {
  for (const section of document.querySelectorAll("main > section.view")) section.hidden = section.id !== id;
  if (id !== "table-view") setModal(false);  // (the hand's end panel made the rest inert)
}

/** A view is ready: the tab's title names it, and where the page opened it itself (not a first load, where the
 * browser starts at the top) its heading takes the focus, so a keyboard or screen-reader user starts there and
 * hears where they are instead of being left on a link that is gone. */
function land(heading, title) {
  document.title = title;
  if (!landing) return;
  landing = false;
  $(heading)?.focus({ preventScroll: true });
}

async function route() {
  const path = location.pathname;
  closeSocket();
  let match;
  if ((match = path.match(/^\/game\/([\w-]+)$/))) {
    show("table-view");
    openGame(match[1]);
  } else if ((match = path.match(/^\/replay\/([\w-]+)$/))) {
    show("replay-view");
    try {
      if (match[1] === "file") {  // a record loaded from a file: this tab keeps it
        const text = sessionStorage.getItem(REPLAY_FILE);
        if (text === null) throw new Error("This replay came from a file: load the file again from the lobby.");
        startReplay(await api("/api/replay", { method: "POST", body: JSON.stringify({ record: text }) }));
      } else {
        startReplay(await api(`/api/games/${match[1]}/replay`));
      }
    } catch (error) {
      $("#replay-event").textContent = error.message;
      land("#replay-title", `Replay — ${TITLE}`);
    }
  } else {
    show("lobby");
    land("#new-game-title", TITLE);
    refreshGames();
  }
}

function go(path) {
  history.pushState(null, "", path);
  window.scrollTo(0, 0);  // a new page opens at its top (the lobby may have been scrolled to its button)
  landing = true;
  route();
}

// ------------------------------------------------------------------ lobby
function optionInput(spec) {
  const id = `opt-${spec.name}`;
  let input;
  if (spec.type === "bool") {
    input = h("input", { type: "checkbox", id, "data-option": spec.name, "data-kind": "bool" });
    input.checked = Boolean(spec.default);
  } else if (spec.type === "choice") {
    const values = spec.nullable ? [...spec.allowed, "none"] : spec.allowed;  // none: a value of its own (no floor)
    input = h("select", { id, "data-option": spec.name, "data-kind": "choice" },
      values.map((value) => h("option", { value: String(value), text: String(value) })));
    input.value = String(spec.default);
  } else {
    const value = spec.default === null ? "" : Array.isArray(spec.default) ? spec.default.join("/") : spec.default;
    input = h("input", { type: "text", id, "data-option": spec.name, "data-kind": spec.type, value,
      placeholder: spec.nullable ? "default" : "", size: 8 });
  }
  input.dataset.default = JSON.stringify(spec.default);
  input.setAttribute("aria-describedby", `${id}-help`);  // a screen reader says the help and the default too
  return h("div", { class: "option" },
    h("label", { for: id, text: spec.name.replaceAll("_", " ") }), input,
    h("small", { id: `${id}-help`, text: `${spec.help} (default: ${defaultText(spec.default)})` }));
}

function seatRow(index) {
  const level = h("select", { class: "seat-level", "aria-label": `seat ${index + 1} level` },
    meta.levels.map((name) => h("option", { value: name, text: name })));
  level.value = meta.levels.includes("greedy") ? "greedy" : meta.levels[0];
  const kind = h("select", { class: "seat-kind", "aria-label": `seat ${index + 1} is played by` },
    h("option", { value: "human", text: "human" }), h("option", { value: "computer", text: "computer" }));
  kind.value = index === 0 ? "human" : "computer";
  const name = h("input", { class: "seat-name", "aria-label": `seat ${index + 1} name`,
    maxlength: meta.max_name, value: "" });
  const sync = () => {
    level.hidden = kind.value !== "computer";
    namePlaceholders();
    inviteChoice();
  };
  kind.addEventListener("change", sync);
  level.hidden = kind.value !== "computer";
  return h("div", { class: "seat-row" }, h("span", { text: `Seat ${index + 1}` }), name, kind, level);
}

/** People sitting down at a table of several are invited: the choice shows once two seats are human. */
function humanSeats() {
  return [...document.querySelectorAll("#seats .seat-kind")].filter((kind) => kind.value === "human").length;
}

function inviteChoice() {
  $("#invite-row").hidden = humanSeats() < 2;
  $("#invite-label").hidden = $("#same-screen").checked;  // people at one screen need no invitation
}

/** Each unnamed seat's placeholder is the name the server gives it: Player 1, 2 … and Computer 1, 2 … in order. */
function namePlaceholders() {
  const counts = { human: 0, computer: 0 };
  for (const row of document.querySelectorAll("#seats .seat-row")) {
    const kind = $(".seat-kind", row).value;
    counts[kind] += 1;
    $(".seat-name", row).placeholder = `${kind === "computer" ? "Computer" : "Player"} ${counts[kind]}`;
  }
}

/** A variant's title as the lobby shows it: the short name in the list ("PIP"), the rest said below it
 * ("double-nine with wild and directional tiles"; null where the title has no more). */
function variantName(variant) {
  const [, short, more] = variant.title.match(/^(.*?)(?: \((.+)\))?$/);
  return { short, more: more ?? null };
}

/** The chosen variant, and the player counts it takes with the chosen set (double-nine: 2-8, double-twelve:
 * 2-10), else its own. */
function chosenVariant() {
  const variant = variants.find((v) => v.name === $("#variant").value);
  const range = variant.players_by_set?.[$("#opt-set")?.value] ?? [variant.min_players, variant.max_players];
  return { variant, low: range[0], high: range[1] };
}

function takes(count, low, high) {
  return Number.isInteger(count) && count >= low && count <= high;
}

/** The typed player count, if the variant takes it; else the field is marked and the refusal said (an alert). */
function playerCount() {
  const { variant, low, high } = chosenVariant();
  const players = $("#players");
  const typed = Number(players.value.trim() || NaN);
  if (takes(typed, low, high)) {
    players.removeAttribute("aria-invalid");
    return typed;
  }
  players.setAttribute("aria-invalid", "true");
  const asked = players.value.trim() ? `, not ${players.value.trim()}` : "";
  $("#create-error").textContent = `Players: ${variant.title}${variant.players_by_set ? " with this set" : ""}`
    + ` takes ${low} to ${high} players${asked}.`;
  return null;
}

function renderVariantForm(event) {
  const { variant, low, high } = chosenVariant();
  const { short, more } = variantName(variant);
  $("#variant-help").hidden = !more;
  $("#variant-help").textContent = more ? `${short}: ${more}` : "";
  $("#variant-rules").href = `/rules/${variant.name}`;  // (a new tab: the form keeps what was chosen)
  $("#variant-rules").setAttribute("aria-label", `the rules of ${variant.title} (opens a new tab)`);
  const options = $("#options");
  if (options.dataset.variant !== variant.name) {
    options.replaceChildren(...variant.options.map(optionInput));
    options.dataset.variant = variant.name;
    $("#opt-set")?.addEventListener("change", renderVariantForm);  // a larger set seats more players
  }
  const players = $("#players");
  players.min = low;
  players.max = high;
  const typed = Number(players.value);
  // a count typed follows only while in range; one out of range, once left (or Entered), is refused in words,
  // never changed silently into another; a change of variant or set brings the count into the new range
  if (event?.target === players) {
    if (!takes(typed, low, high)) {
      if (event.type === "change") playerCount();
      return;
    }
    if (players.hasAttribute("aria-invalid")) $("#create-error").textContent = "";  // (put right)
  } else {
    players.value = Math.min(Math.max(typed || 2, low), high);
  }
  players.removeAttribute("aria-invalid");
  const count = Number(players.value);
  const seats = $("#seats");
  while (seats.children.length > count) seats.lastChild.remove();
  while (seats.children.length < count) seats.append(seatRow(seats.children.length));
  namePlaceholders();
  inviteChoice();
}

function chosenOptions() {
  const result = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const fallback = JSON.parse(input.dataset.default);
    let value;
    if (input.dataset.kind === "bool") value = input.checked;
    else value = input.value.trim();
    const same = input.dataset.kind === "bool" ? value === fallback
      : value === (fallback === null ? "" : Array.isArray(fallback) ? fallback.join("/") : String(fallback));
    if (!same) result[input.dataset.option] = value;
  }
  return result;
}

async function createGame(event) {
  event.preventDefault();
  $("#create-error").textContent = "";  // (an error put right does not stay)
  for (const marked of document.querySelectorAll("#new-game [aria-invalid]")) marked.removeAttribute("aria-invalid");
  if (playerCount() === null) {
    $("#players").focus();
    return;
  }
  const seats = [...document.querySelectorAll("#seats .seat-row")].map((row) => ({
    name: $(".seat-name", row).value,
    kind: $(".seat-kind", row).value,
    level: $(".seat-level", row).value,
  }));
  const body = { variant: $("#variant").value, seats, options: chosenOptions() };
  // a table for one screen is invited-only too: only the page that made it takes its seats, nobody who finds it
  if (humanSeats() >= 2 && $("#same-screen").checked) Object.assign(body, { hot_seat: true, invite: true });
  else if (humanSeats() >= 2 && $("#invite-only").checked) body.invite = true;
  try {
    const game = await api("/api/games", { method: "POST", body: JSON.stringify(body) });
    if (game.invite) localStorage.setItem(inviteKey(game.id), game.invite);
    go(`/game/${game.id}`);
  } catch (error) {
    $("#create-error").textContent = error.message;
    refusedOption(error.message);
  }
}

/** A rule option the server refused ("option 'target': 'abc' is not a whole number") is shown, even where the
 * options are folded away, marked invalid and given the focus, so the error beside it can be put right. */
function refusedOption(message) {
  const name = message.match(/^option '(\w+)'/)?.[1];
  const input = name && document.getElementById(`opt-${name}`);
  if (!input) return;
  input.closest("details").open = true;
  input.setAttribute("aria-invalid", "true");
  input.focus();
}

// ------------------------------------------------------------------ your statistics
/** Every table this browser sat at, the one it sat at last first (tables kept before the time was, last): the
 * game and the seat token kept when the seat was claimed. */
function heldSeats() {
  const seats = [];
  for (let index = 0; index < localStorage.length; index += 1) {
    const key = localStorage.key(index);
    if (key && key.startsWith("boneyard-token-")) {
      const game = key.slice("boneyard-token-".length);
      seats.push({ game, token: localStorage.getItem(key), at: Number(localStorage.getItem(satKey(game))) || 0 });
    }
  }
  seats.sort((a, b) => b.at - a.at || (a.game < b.game ? -1 : 1));  // (localStorage's own order is the browser's)
  return seats.map(({ game, token }) => ({ game, token }));
}

const SKIPPED_SHOWN = 5;  // the tables that could not be counted, named one by one (then how many more)
const STATS_AT_ONCE = 500;  // the tables the server counts in one request (MAX_STATS_GAMES, web/app.py)

function percent(value) { return `${Math.round(value * 100)}%`; }

/** Your games at this server's tables, per variant and per opponent (the data of `boneyard stats --json`). */
async function showStats() {
  const box = $("#stats");
  const seats = heldSeats();
  if (!seats.length) {
    box.replaceChildren(h("p", { text: "No games yet: your statistics count the tables you sat at in this browser." }));
    return;
  }
  let stats;
  try {
    stats = await api("/api/stats", { method: "POST", body: JSON.stringify({ seats: seats.slice(0, STATS_AT_ONCE) }) });
  } catch (error) {
    box.replaceChildren(h("p", { class: "error", text: error.message }));
    return;
  }
  const rate = (t) => (t.games ? `${percent(t.win_rate)} (${percent(t.ci95[0])}–${percent(t.ci95[1])})` : "—");
  const table = (title, tallies) => h("table", { class: "stats" },
    h("thead", {}, h("tr", {}, [title, "Games", "Won", "Win rate (95%)", "Hands won", "Unfinished"]
      .map((text) => h("th", { text })))),
    h("tbody", {}, Object.entries(tallies).map(([name, t]) => h("tr", {},
      [name, t.games, t.won, rate(t), `${t.hands_won} of ${t.hands}`, t.unfinished]
        .map((text) => h("td", { text: String(text) }))))));
  const parts = [];
  if (stats.records) {
    parts.push(table("Variant", stats.variants), table("Against", stats.against));
    if (stats.review.decisions) {
      parts.push(h("p", { text: `Reviewed decisions: ${stats.review.decisions}, accuracy ${percent(stats.review.accuracy)}` +
        ` (${stats.review.inaccuracy} inaccuracies, ${stats.review.mistake} mistakes, ${stats.review.blunder} blunders).` }));
    }
  } else if (!stats.shared && !stats.skipped?.length) {  // (shared tables and those not counted are said below)
    parts.push(h("p", { text: "None of the tables you sat at in this browser is stored here any more." }));
  }
  if (seats.length > STATS_AT_ONCE) {  // said, never left out quietly
    parts.push(h("p", { class: "help", text: `Counted the ${STATS_AT_ONCE} tables you sat at most recently, of the `
      + `${seats.length} this browser sat at: the server counts ${STATS_AT_ONCE} at once.` }));
  }
  if (stats.shared) parts.push(h("p", { class: "help", text: `${plural(stats.shared, "game")} played on one screen by several people (not counted as yours).` }));
  if (stats.skipped?.length) {  // a stored game whose record no longer replays: said, with why, never left out quietly
    parts.push(h("p", { class: "error", text: `${plural(stats.skipped.length, "table")} could not be counted:` }),
      h("ul", { class: "help" }, stats.skipped.slice(0, SKIPPED_SHOWN).map((why) => h("li", { text: why }))));
    if (stats.skipped.length > SKIPPED_SHOWN) parts.push(h("p", { class: "help", text: `… and ${stats.skipped.length - SKIPPED_SHOWN} more.` }));
  }
  box.replaceChildren(...parts);
}

const GAMES_PAGE = 200;  // the games the lobby asks for at once (GET /api/games pages by offset)

/** The games list: newest first, a page at a time (*Older games* asks for the next), the tables this browser
 * sits at marked "your seat". */
async function refreshGames() {
  let games = [];
  try {
    games = await api(`/api/games?limit=${GAMES_PAGE}`);
  } catch (error) {
    $("#games").replaceChildren(h("p", { text: error.message }));
    return;
  }
  $("#games").replaceChildren(games.length ? h("table", {},
    h("thead", {}, h("tr", {}, ["Variant", "Players", "Status", "Progress", "Last move", "Actions"]
      .map((t) => h("th", { text: t })))),
    h("tbody", {})) : h("p", { text: "No games yet." }));
  showGames(games, 0);
}

function showGames(games, offset) {
  // a table's next game (Play again) made while this browser was away is its own too: oldest first, so a seat
  // carries down a chain of games
  for (const game of [...games].reverse()) if (game.rematch) carrySeat(game.id, game.rematch);
  const body = $("#games tbody");
  if (!body) return;
  body.append(...games.map(gameRow));
  $("#older-games")?.remove();
  if (games.length === GAMES_PAGE) {
    const more = h("button", { type: "button", id: "older-games", text: "Older games" });
    more.addEventListener("click", async () => {
      more.disabled = true;
      try {
        showGames(await api(`/api/games?limit=${GAMES_PAGE}&offset=${offset + GAMES_PAGE}`), offset + GAMES_PAGE);
        $("#games tbody tr:nth-child(" + (offset + GAMES_PAGE + 1) + ") a")?.focus();  // the first older game
      } catch (error) {
        more.disabled = false;
        more.after(h("p", { class: "error", role: "alert", text: error.message }));
      }
    });
    $("#games").append(more);
  }
}

function gameRow(game) {
  const progress = `${plural(game.hands, "hand")}, ${plural(game.moves, "move")}`;
  const mine = localStorage.getItem(tokenKey(game.id)) !== null;
  // each link says which game it opens: a screen reader's list of links reads more than "Replay, Replay"
  const which = `${game.variant}, ${game.players.map((p) => p.name).join(", ")} (${progress}${mine ? ", your seat" : ""})`;
  const link = (text, href, more = {}) => h("a", { href, class: "button", text, "aria-label": `${text}: ${which}`,
    ...more });
  const status = game.status === "running" && game.invite_only ? "running, invited only" : game.status;
  const when = new Date(game.updated * 1000);
  const house = houseRules(game.options);
  return h("tr", { class: mine ? "mine" : null },
    h("td", {}, game.variant, house ? h("small", { class: "house-rules", text: `house rules: ${house}` }) : null),
    h("td", { text: game.players.map((p) => p.name).join(", ") }),
    h("td", { text: mine ? `${status} · your seat` : status }),
    h("td", { text: progress }),
    h("td", {}, h("time", { datetime: when.toISOString(), text: when.toLocaleString([], { dateStyle: "medium",
      timeStyle: "short" }) })),
    h("td", {},
      game.status === "running" && game.invite_only && !invited(game.id)
        ? link("Watch", `/game/${game.id}?watch`, { title: "only the people its creator invited may sit down" })
        : link(game.status === "running" ? "Open" : "Table", `/game/${game.id}`),
      game.status === "finished" ? link("Replay", `/replay/${game.id}`) : null,
      game.status === "finished" ? link("Download", `/api/games/${game.id}/record`, { download: "" }) : null));
}

async function loadRecordFile(asReplay) {
  $("#load-error").textContent = "";
  const file = $("#record-file").files[0];
  if (!file) {
    $("#load-error").textContent = "Choose a .boneyard.json file first.";
    return;
  }
  const text = await file.text();
  try {
    if (asReplay) {
      const data = await api("/api/replay", { method: "POST", body: JSON.stringify({ record: text }) });
      try {
        sessionStorage.setItem(REPLAY_FILE, text);
      } catch {
        sessionStorage.removeItem(REPLAY_FILE);  // too large to keep: a reload asks for the file again
      }
      history.pushState(null, "", "/replay/file");
      window.scrollTo(0, 0);
      landing = true;
      show("replay-view");
      startReplay(data);
    } else {
      const game = await api("/api/records", { method: "POST", body: JSON.stringify({ record: text }) });
      go(game.finished ? `/replay/${game.id}` : `/game/${game.id}`);  // a finished game has nothing to play on
    }
  } catch (error) {
    $("#load-error").textContent = error.message;
  }
}

// ------------------------------------------------------------------ the table
const table = {
  id: null, socket: null, state: null, selected: null, active: 0, placed: 0, version: -1, retry: null,
  choosing: null, hint: null, moved: null,
  peek: null,  // the hand's end whose panel was put aside to look at the table (see lookAtTable)
  taken: null,  // at a shared screen: who took it, for which hand (takenKey)
  heard: 0,  // how many lines of the hand's log were announced
  lostPlace: null,  // the keyboard's place at the table when a redraw took the focus and nothing could take it
  quietFocus: false,  // the page moves the focus itself: a tile focused so is not selected (nor announced)
  shownSummary: null,  // the hand's end whose panel is on screen (its key), so that it takes the focus once
  panelPick: null,  // the panel's action the page itself gave the focus (a redraw may pick again)
  wantRematch: null,  // the game whose "Play again" this page asked for (it goes to the next game when made)
  brought: false,  // the token resumed came from a seat link (#seat=): one that opens no seat gives way
  keptToken: null,  // the token this browser held before a seat link replaced it
  heardRematch: null,  // the next game the page announced
  held: null,  // the table as a spectator sees it, held back while this page's seat is asked for (holdState)
  holdTimer: null,
};

function tokenKey(id) { return `boneyard-token-${id}`; }
function satKey(id) { return `boneyard-sat-${id}`; }
function inviteKey(id) { return `boneyard-invite-${id}`; }

/** Keep the seat token of table ``id``, and when this browser last sat there (the statistics count the tables
 * sat at most recently first). */
function keepToken(id, token) {
  localStorage.setItem(tokenKey(id), token);
  localStorage.setItem(satKey(id), String(Date.now()));
}

/** Forget the seat this browser held at table ``id`` (``seats``: its shared screen's seats too). */
function dropToken(id, seats = false) {
  for (const key of seats ? [tokenKey, satKey, seatsKey] : [tokenKey, satKey]) localStorage.removeItem(key(id));
}

/** Whether this browser was invited to (or sits at) table ``id``: it keeps the invitation and its seat's token. */
function invited(id) {
  return localStorage.getItem(inviteKey(id)) !== null || localStorage.getItem(tokenKey(id)) !== null;
}

/** The invitation of table ``id`` this browser keeps (from the link that opened the table, see openGame). */
function invitation(id) {
  return localStorage.getItem(inviteKey(id));
}

/** What a seat token looks like (the server's ``secrets.token_urlsafe``): anything else is no seat's token. */
const TOKEN = /^[A-Za-z0-9_-]{1,100}$/;

const NO_GAME = 4404;  // WebSocket close codes of the server (web/app.py)
const DAMAGED_GAME = 4422;
const TRY_AGAIN_LATER = 1013;

function closeSocket() {
  clearTimeout(table.retry);
  if (table.socket) {
    table.socket.onclose = null;
    table.socket.close();
  }
  table.socket = null;
}

function send(message) {
  if (table.socket && table.socket.readyState === WebSocket.OPEN) table.socket.send(JSON.stringify(message));
}

/** Send a move, once per position: a double click or a second key press before the table answers sends nothing. */
function sendMove(move) {
  if (table.moved === table.version || !table.socket || table.socket.readyState !== WebSocket.OPEN) return;
  table.moved = table.version;
  send({ type: "move", move });
}

function openGame(id) {
  const given = new URLSearchParams(location.search).get("invite");
  if (given) localStorage.setItem(inviteKey(id), given);  // kept for later visits and for the link to pass on
  // a seat brought from another device ("Play on another device": /game/ID#seat=TOKEN): kept, and the token
  // taken out of the address bar at once (it is the seat)
  const brought = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
  const held = localStorage.getItem(tokenKey(id));
  if (held !== null && !TOKEN.test(held)) dropToken(id);  // (no seat's: never sent)
  if (brought && TOKEN.test(brought) && brought !== held) {
    // tried first; the seat this browser held (if any) is kept, to go back to if the link opens no seat
    table.keptToken = TOKEN.test(held || "") ? held : null;
    table.brought = true;
    keepToken(id, brought);
  } else if (brought && !TOKEN.test(brought)) {
    $("#status").textContent = "That seat link is not one this table gave (copy it whole from the other device).";
  }
  if (table.id !== id) {
    releaseState();  // (another table's, held back: dropped)
    Object.assign(table, { id, state: null, selected: null, active: 0, placed: 0, version: -1, moved: null, peek: null, taken: null,
      heard: 0, lostPlace: null, shownSummary: null, panelPick: null });
    $("#summary").hidden = true;
  }
  table.moved = null;  // a move sent on a lost connection may not have arrived: the player may send it again
  $("#hint").disabled = false;  // (and a hint asked then)
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${id}`);
  table.socket = socket;
  let first = true;
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      if (first) {
        first = false;
        const token = localStorage.getItem(tokenKey(id));
        const watching = new URLSearchParams(location.search).has("watch");
        let asked = false;
        if (message.hot_seat && !watching) asked = sitAtSharedScreen(message);
        else if (token && !watching) { keepToken(id, token); send({ type: "resume", token }); asked = true; }
        else if (!watching) asked = autoClaim(message);
        if (asked) { holdState(message); return; }
      }
      releaseState();
      onState(message);
    } else if (message.type === "claimed") {
      table.brought = false;
      table.keptToken = null;
      keepToken(id, message.token);
      holdToken(id, message.seat, message.token);
      const seen = table.state || table.held;
      $("#status").textContent = `You are seated as ${seen ? seen.players[message.seat].name : "seat " + (message.seat + 1)}.`;
    } else if (message.type === "hint") {
      $("#hint").disabled = false;
      table.hint = message;
      const giving = message.move.startsWith("give ");  // PIP's D on an empty stock: a tile to give, not to place
      if (giving && message.tile) {
        table.selected = message.tile;
        table.choosing = null;
        markSelection();
        $(`#hand [data-tile="${message.tile}"]`)?.focus({ preventScroll: true });
      } else if (message.tile) selectTile(message.tile, message.move);
      const advice = giving && message.tile ? `give ${shown(message.tile)} to the next player`
        : message.tile ? `play ${shown(message.tile)} (lit on the table)` : shown(message.move);
      $("#status").textContent = `Hint: ${advice} — ${message.reason}`;
    } else if (message.type === "error") {
      releaseState(true);  // a seat refused: the table as a spectator sees it, then what to do
      table.moved = null;  // the move was refused: the player may send another from the same position
      $("#hint").disabled = false;
      if (message.code === "bad_token" && table.brought) {  // a seat link that opens no seat here
        table.brought = false;
        const kept = table.keptToken;
        table.keptToken = null;
        const why = "That seat link opens no seat at this table";
        if (kept) {
          keepToken(id, kept);
          send({ type: "resume", token: kept });
          $("#status").textContent = `${why}: you keep your own seat.`;
          announce(`${why}: you keep your own seat.`);
          return;
        }
        dropToken(id);
        $("#status").textContent = `${why}: you are watching.`;
        announce(`${why}: you are watching.`);
        return;
      }
      if (message.code === "bad_token") {
        dropToken(id, true);
        if (table.state) (table.state.hot_seat ? sitAtSharedScreen : autoClaim)(table.state);
      } else if (message.code === "seat_taken" && table.state && table.state.you === null && !table.state.hot_seat
        && !new URLSearchParams(location.search).has("watch")) {
        // another page took that seat first (two friends opening the link together): the next free one, if any
        // (the state that seated the other page came before this answer, so it is the table as it is now)
        if (table.state.players.some((p) => p.kind === "human" && !p.claimed)) { autoClaim(table.state); return; }
      }
      $("#status").textContent = message.message;
      announce(message.message);
    }
  };
  socket.onclose = (event) => {
    releaseState(true);  // the seat's answer will not come on this connection: the table as it was seen
    if (event.code === NO_GAME) {  // the server said why (its error message is on the status line): no retry
      $("#status").textContent = `There is no game “${id}” here (the lobby lists the games there are).`;
      table.socket = null;
      return;
    }
    if (event.code === DAMAGED_GAME) {  // its error message stays on the status line: no retry
      table.socket = null;
      return;
    }
    const busy = event.code === TRY_AGAIN_LATER;  // over the server's limits: its reason stays, the retry waits
    if (!busy) $("#status").textContent = "Connection lost — reconnecting…";
    else $("#status").textContent += " — trying again in 10 seconds.";
    table.retry = setTimeout(() => { if (table.id === id) openGame(id); }, busy ? 10000 : 1000);
  };
}

/** Claim the first free person's seat; whether one was asked for. */
function autoClaim(state) {
  const seat = state.players.findIndex((p) => p.kind === "human" && !p.claimed);
  if (seat >= 0) { send(claimMessage(state, seat)); return true; }
  $("#status").textContent = "All seats are taken: you are watching.";
  return false;
}

/** A page that asks for its seat as it connects waits for the answer before it draws the table: the table seen
 * as a spectator (other names, no hand, "Sit here" buttons) would flash up first.  It is drawn after all if the
 * seat is refused, or if no answer comes within two seconds. */
function holdState(state) {
  table.held = state;
  $("#status").textContent = "Taking your seat…";
  clearTimeout(table.holdTimer);
  table.holdTimer = setTimeout(() => releaseState(true), 2000);
}

/** Stop holding the table back; with ``draw``, draw the table held (a newer state draws itself). */
function releaseState(draw = false) {
  const held = table.held;
  if (held === null) return;
  clearTimeout(table.holdTimer);
  table.held = null;
  if (draw) onState(held);
}

function myHotspots(tile) {
  return (table.state?.hotspots || []).filter((spot) => spot.tile === tile);
}

function onState(state) {
  const previous = table.state;
  table.state = state;
  const newVersion = state.version !== table.version;
  const place = keyboardPlace();
  if (newVersion) {
    table.moved = null;  // a new position (an undo takes the version back): one move may be sent from it
    $("#hint").disabled = false;
    table.selected = null;
    table.choosing = null;
    const log = shownLog(state);
    if (log.length && (!previous || previous.version < state.version)) {
      // every line this state adds is said (a move that ends the hand comes with the hand's end), once
      const sameHand = previous && previous.game === state.game && previous.hand_number === state.hand_number;
      const from = sameHand && table.heard <= log.length ? table.heard : log.length - 1;
      announce(log.slice(Math.max(0, from)).map((entry) => entry.text).join(" "));
    }
    table.heard = log.length;
  }
  const fresh = newVersion && previous && previous.hand_number === state.hand_number ? table.placed + 1 : Infinity;
  table.version = state.version;
  table.placed = state.table.tiles.length;
  document.body.dataset.version = String(state.version);
  renderTable(fresh);
  renderInfo();
  land("#game-title", `${state.title} — ${TITLE}`);
  renderHand();
  renderSummary();
  renderInvite();
  renderDevice();
  renderPass();
  restoreKeyboardPlace(place);
  followRematch(state);
}

/** Whether the keyboard's focus is nowhere a person can see: the page itself, or an element removed, hidden or
 * made inert (the browser may still name a button the redraw took away). */
function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || Boolean(active.closest("[hidden], [inert]"));
}

/** Where the keyboard is at the table before a redraw (the hand, its buttons, the chooser, the screen's pass
 * button, the hand's end panel), with the tile it is on; null where it is elsewhere (a field, the log, a link). */
function keyboardPlace() {
  const active = document.activeElement;
  if (focusLost()) return table.lostPlace || null;
  if (!active.closest("#hand, .actions, #chooser, #pass-screen, #summary")) return null;
  return { tile: active.dataset?.tile || null };
}

/** After a redraw that took the focus away (the tile played, a button hidden, the panel gone), put it back in
 * the hand: on the same tile if it is still there, else the first that fits, Draw or Pass, else the first tile.
 * The focus moved this way selects nothing and says nothing (the move just made is being announced). */
function restoreKeyboardPlace(place) {
  table.lostPlace = null;
  if (!place) return;
  if (!focusLost()) return;  // still on something (or the panel took it)
  const target = (place.tile && $(`#hand [data-tile="${place.tile}"]`))
    || $("#hand .hand-tile.playable") || $("#draw:not([hidden])") || $("#pass:not([hidden])")
    || $("#take-turn:not([hidden])") || $("#hand button.hand-tile") || $("#show-summary:not([hidden])");
  if (!target || target.closest("[hidden]")) { table.lostPlace = place; return; }  // (kept for the next state)
  quietlyFocus(target);
}

/** Focus ``element`` as the page's own doing: a tile focused so is not selected, nor announced. */
function quietlyFocus(element) {
  if (!element) return;
  table.quietFocus = true;
  try {
    element.focus({ preventScroll: true });
  } finally {
    table.quietFocus = false;
  }
}

// ------------------------------------------------------------------ pass and play (a hot-seat table)
function seatsKey(id) { return `boneyard-seats-${id}`; }

/** The seat tokens this browser holds at table ``id``, by seat: at a hot-seat table one per person at the screen. */
function heldTokens(id) {
  try {
    const held = JSON.parse(localStorage.getItem(seatsKey(id)) || "{}");
    return held && typeof held === "object" && !Array.isArray(held) ? held : {};
  } catch {
    return {};
  }
}

function holdToken(id, seat, token) {
  localStorage.setItem(seatsKey(id), JSON.stringify({ ...heldTokens(id), [seat]: token }));
}

/** A table several people play at one screen, passing it round (a hot-seat table of two or more people). */
function sharedScreen(state) {
  return Boolean(state.hot_seat) && state.players.filter((player) => player.kind === "human").length > 1;
}

/** Which person took the screen, for which hand: a hand is shown only to the person who said "I am …" for it. */
function takenKey(state, seat) { return `${state.game}:${state.hand_number}:${seat}`; }

/** At a shared screen: the seat on turn, where its person has not taken the screen for this hand yet (another's
 * hand is shown, or the page has just sat down, or a new hand began) and this browser may take that seat (it
 * holds the seat's token, or the seat is free); else null. */
function screenToPass(state) {
  if (!sharedScreen(state) || state.you === null || !state.in_hand || state.turn === null) return null;
  if (state.turn === state.you && table.taken === takenKey(state, state.you)) return null;
  const player = state.players[state.turn];
  if (player.kind !== "human") return null;
  if (state.turn !== state.you && player.claimed && !(String(state.turn) in heldTokens(state.game))) return null;
  return state.turn;
}

/** Whether the hand shown is kept face down: at a shared screen, except on its owner's turn once they took it. */
function handHidden(state) {
  return sharedScreen(state) && state.you !== null && state.in_hand
    && (state.turn !== state.you || table.taken !== takenKey(state, state.you));
}

/** The hand's log as the screen may show it: while the hand on screen is face down, or once the hand is over
 * (nobody's own screen: the log names every player), as a spectator reads it. */
function shownLog(state) {
  const spectators = handHidden(state) || (sharedScreen(state) && !state.in_hand);
  return spectators && state.public_log ? state.public_log : state.log;
}

/** The seat this screen speaks to as "You": none at a screen several people share. */
function viewer(state) {
  return sharedScreen(state) ? null : state.you;
}

function renderPass() {
  const state = table.state;
  const seat = screenToPass(state);
  $("#pass-screen").hidden = seat === null;
  if (seat === null) return;
  const name = state.players[seat].name;
  $("#pass-text").textContent = `${name}'s turn: pass the screen to ${name}.`;
  $("#take-turn").textContent = `I am ${name}: show my hand`;
}

/** The person on turn takes the screen: their seat (resumed with its token, or claimed while free) is shown. */
function takeTurn() {
  const state = table.state;
  const seat = state ? screenToPass(state) : null;
  if (seat === null) return;
  table.taken = takenKey(state, seat);
  if (seat === state.you) {  // the screen already sits in that seat: show its hand
    renderInfo();
    renderHand();
    renderPass();
    return;
  }
  const token = heldTokens(state.game)[String(seat)];
  send(token ? { type: "resume", token } : claimMessage(state, seat));
}

/** A claim of ``seat``, with the table's invitation where this browser keeps one. */
function claimMessage(state, seat) {
  const invite = invitation(state.game);
  return invite ? { type: "claim", seat, invite } : { type: "claim", seat };
}

/** Sit down at a hot-seat table opened again: every seat this browser holds, the one on turn first, so that
 * the screen asks before it shows that person's hand; a new table: every free person's seat, the same way.
 * Whether a seat was asked for. */
function sitAtSharedScreen(state) {
  const held = heldTokens(state.game);
  const first = (seat) => (seat === state.turn ? 0 : 1);
  const seats = Object.keys(held).map(Number).filter((seat) => seat < state.players.length)
    .sort((a, b) => first(a) - first(b) || a - b);
  if (seats.length) {
    for (const seat of seats) send({ type: "resume", token: held[String(seat)] });
    return true;
  }
  const token = localStorage.getItem(tokenKey(state.game));  // (a seat brought by its link from another device)
  if (token) { send({ type: "resume", token }); return true; }
  const free = state.players.map((player, seat) => seat)
    .filter((seat) => state.players[seat].kind === "human" && !state.players[seat].claimed)
    .sort((a, b) => first(a) - first(b) || a - b);
  if (!free.length) return autoClaim(state);
  for (const seat of free) send(claimMessage(state, seat));
  return true;
}

/** "Play on another device": for a person seated here (not at a shared screen) while the game goes on. */
function renderDevice() {
  const state = table.state;
  const token = localStorage.getItem(tokenKey(state.game));
  const offered = state.you !== null && !sharedScreen(state) && !state.finished && token !== null;
  $("#other-device").hidden = !offered;
  if (!offered) $("#device").hidden = true;
}

/** The link that seats this person at the same table elsewhere, shown to copy (it holds the seat's token, after
 * a ``#``: a browser never sends that part to a server). */
async function showDeviceLink() {
  const state = table.state;
  const token = state && localStorage.getItem(tokenKey(state.game));
  if (!token) return;
  $("#device").hidden = false;
  const field = $("#device-link");
  field.value = `${location.origin}/game/${state.game}#seat=${encodeURIComponent(token)}`;
  field.focus();
  field.select();
}


/** The table's invitation link, for whoever has it while a human seat is free. */
function renderInvite() {
  const state = table.state;
  const invite = state.invite_only ? invitation(state.game) : null;
  const free = state.players.some((p) => p.kind === "human" && !p.claimed);
  $("#invite").hidden = !(invite && free && !state.finished && !state.hot_seat);  // (one screen: nobody to send it)
  if (!$("#invite").hidden) {
    $("#invite-link").value = `${location.origin}/game/${state.game}?invite=${encodeURIComponent(invite)}`;
  }
}

/** Copy the link in the field ``selector`` (left selected where the clipboard is refused); ``then``: what to do
 * with it, as the status line says it. */
async function copyLink(selector, then) {
  const field = $(selector);
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    $("#status").textContent = `The link is copied: ${then}.`;
  } catch {
    $("#status").textContent = `Copy the selected link and ${then}.`;
  }
}

function renderTable(fresh = Infinity) {
  const state = table.state;
  const spots = table.selected ? myHotspots(table.selected) : [];
  if (table.active >= spots.length) table.active = 0;
  drawTable($("#table"), {
    tiles: state.table.tiles, view: state.table.view, spots, fresh, active: spots.length > 1 ? table.active : 0,
    last: state.last_tile, owed: state.owed.map((item) => item.tile), ends: state.ends,
    onSpot: playSpot, onDrop: (spot, event) => {
      const tile = event.dataTransfer.getData("text/plain");
      if (tile === spot.tile) playSpot(spot);
    },
  });
}

/** The teams of a partnership game (each a list of seats), or null where everyone plays alone. */
function teams(state) {
  if (!state.players.some((player) => (player.side || []).length > 1)) return null;
  const found = [];
  for (const player of state.players) {
    if (!found.some((side) => side[0] === player.side[0])) found.push(player.side);
  }
  return found;
}

/** "You win", "Ann wins", "You and Zoë win": the seat's side (its partners too) and the verb. */
/** Who won the game: "You win", "Ann and Cid win", "Bob and Dee share the win" (PIP's equal lowest totals), or
 * "a draw" where nobody did. */
function gameResult(state, summary) {
  if (summary.game_winner !== null) return sideSays(state, summary.game_winner, "win");
  const shared = summary.game_winners || [];
  if (!shared.length) return "a draw";
  const mine = viewer(state);
  const names = shared.map((s) => (s === mine ? "You" : state.players[s].name));
  const you = names.indexOf("You");
  if (you > 0) names.unshift(...names.splice(you, 1));
  return `${names.join(" and ")} share the win`;
}

function sideSays(state, seat, verb) {
  const side = state.players[seat]?.side || [seat];
  const mine = viewer(state);
  const names = side.map((s) => (s === mine ? "You" : state.players[s].name));
  if (names.length === 1) return says(names[0], side[0] === mine, verb);
  const you = names.indexOf("You");
  if (you > 0) names.unshift(...names.splice(you, 1));
  return `${names.join(" and ")} ${verb}`;
}

function playerChip(state, player, seat, shownName) {
  const you = seat === state.you;
  const sides = teams(state);
  const team = sides ? sides.findIndex((side) => side.includes(seat)) + 1 : 0;
  const turn = seat === state.turn;
  const backs = you ? null : h("span", { class: "backs", "aria-hidden": "true" },
    Array.from({ length: Math.min(player.tiles, 12) }, () => backSvg()));
  return h("li", {
    class: ["player", turn ? "turn" : "", you ? "you" : ""].join(" "), "data-seat": seat,
    "aria-label": `${player.name}${you ? " (you)" : ""}${team ? `, team ${team}` : ""}: ${player.score} points, ${plural(player.tiles, "tile")}${turn ? ", on turn" : ""}`,
  },
  // a long name is cut short with an ellipsis, never the "(you)" after it; the whole name is the chip's title
  h("span", { class: "name", title: player.name }, h("span", { class: "given",
    text: `${turn ? "▶ " : ""}${shownName}` }),
    you && player.name !== "You" ? h("span", { class: "mark", text: " (you)" }) : null),
  team ? h("span", { class: `team team-${team}`, title: `team ${team}: ${sides[team - 1].map((s) => state.players[s].name).join(" and ")}`,
    text: `Team ${team}` }) : null,
  h("span", { class: "score", "data-seat": seat, text: `${player.score}` }),
  backs,
  h("span", { class: "tiles", "data-count": player.tiles, text: plural(player.tiles, "tile") }),
  h("span", { class: "who", text: player.kind === "computer" ? player.level : player.claimed ? (player.connected ? "online" : "away") : "free seat" }),
  state.you === null && player.kind === "human" && !player.claimed && (!state.invite_only || invitation(state.game))
    ? h("button", { onclick: () => send(claimMessage(state, seat)), text: "Sit here" }) : null);
}

/** The names the strip shows, where a narrow chip cuts a long one short: players whose names begin with the same
 * word are told apart by the rest ("M. Thompson", "M. Thornton" for Margaret Thompson and Margaret Thornton). */
function stripNames(players) {
  const first = (name) => name.trim().split(/\s+/)[0];
  return players.map((player, seat) => {
    const words = player.name.trim().split(/\s+/);
    const rest = words.slice(1).join(" ");
    const alike = player.name.length > 10 && !/^\d+$/.test(rest)  // (Player 1, Computer 12 stay whole)
      && players.some((other, index) => index !== seat && first(other.name) === words[0]);
    return alike ? `${[...words[0]][0]}. ${rest}` : player.name;
  });
}

/** The stock's label: tiles nobody will draw this hand (all of Block's, Bergen's reserve) are said so. */
function stockText(stock, outOfPlay, long) {
  if (stock > 0 && outOfPlay === stock) return long ? `${plural(stock, "tile")} out of play` : `Out of play ${stock}`;
  const kept = outOfPlay > 0 ? ` (${outOfPlay} never drawn)` : "";
  return (long ? `stock: ${plural(stock, "tile")}` : `Stock ${stock}`) + kept;
}

function renderInfo() {
  const state = table.state;
  $("#game-title").textContent = state.title;
  const facts = [state.hands_in_game ? `Round ${state.hand_number} of ${state.hands_in_game}` : `Hand ${state.hand_number}`];
  if (state.target !== null) facts.push(`Target ${state.target}`);
  if (state.lowest_wins) facts.push("lowest total wins");
  if (state.dice) facts.push(`Flower ${state.dice.flower.join("+")} · Scorpion ${state.dice.scorpion.join("+")}`);
  if (state.variant === "pip" && state.players.length > 2) facts.push(state.direction > 0 ? "Clockwise ↻" : "Counter-clockwise ↺");
  for (const owed of state.owed) {
    const box = state.table.tiles.find((tile) => tile.index === owed.tile);
    facts.push(`Double ${box ? box.tile : `on tile ${owed.tile}`} owes ${plural(owed.plays, "more play")}`);
  }
  $("#facts").textContent = facts.join(" · ");
  // the house rules this table plays by (the options that differ from the variant's defaults), as the lobby names them
  const house = houseRules(state.options);
  $("#house-rules").hidden = !house;
  $("#house-rules").textContent = house ? `House rules: ${house}` : "";
  const stock = h("li", { class: "stock-pile", "aria-label": stockText(state.stock, state.out_of_play, true) },
    pileSvg(state.stock), h("span", { class: "tiles", id: "stock-count", "data-count": state.stock,
      text: stockText(state.stock, state.out_of_play, false) }));
  const names = stripNames(state.players);
  $("#table-players").replaceChildren(...state.players.map((player, seat) => playerChip(state, player, seat,
    names[seat])), stock);
  const count = $("#count");
  count.hidden = state.count === null || state.count === undefined;
  count.textContent = count.hidden ? "" : `Count ${state.count}`;
  count.dataset.count = count.hidden ? "" : String(state.count);
  const hidden = handHidden(state);  // a shared screen between turns: no move, no hint until the person takes it
  const myTurn = state.you !== null && state.turn === state.you && !hidden;
  $("#draw").hidden = !state.can_draw || hidden;
  $("#pass").hidden = !state.can_pass || hidden;
  $("#hint").hidden = !myTurn;
  $("#undo").hidden = !state.can_undo || !state.in_hand;  // at a hand's end the summary offers it
  let status;
  if (state.finished) status = "The game is over.";
  else if (!state.in_hand) status = "The hand is over.";
  else if (state.you === null) status = `Watching — ${state.players[state.turn].name} to play.`;
  else if (screenToPass(state) !== null) status = `${state.players[state.turn].name}'s turn.`;
  else if (myTurn) {
    const fits = state.hotspots.length > 0;
    status = state.gives.length ? "Your turn: choose a tile to give to the next player."
      : fits && state.can_draw ? "Your turn: pick a tile (or draw)."
        : state.can_draw ? "Your turn: no tile fits, draw."
          : state.can_pass ? "Your turn: no move, pass." : "Your turn: pick a tile.";
  }
  else {
    const mover = state.players[state.turn];
    status = mover.kind === "human" && !mover.claimed
      ? `Waiting for ${mover.name} to join (send them ${state.invite_only ? "the invitation link" : "this page's link"}).`
      : mover.kind === "human" && !mover.connected ? `${mover.name} is away; the game goes on when they come back.`
        : `${mover.name} is thinking…`;
  }
  $("#status").textContent = status;
  renderLog(shownLog(state));
  const link = $("#download");
  link.hidden = !state.finished;
  link.href = `/api/games/${state.game}/record`;
  $("#replay-link").hidden = !state.finished;
  $("#replay-link").href = `/replay/${state.game}`;
  $("#rules-link").hidden = false;
  $("#rules-link").href = `/rules/${state.variant}`;
}

function renderLog(entries) {
  const list = $("#history");
  // an entry of nobody's is the hand's end (last) or a note before the first tile; moves are numbered alone
  let number = 0;
  list.replaceChildren(...entries.map((entry, i) => h("li", {
    class: [entry.seat === null ? (i === entries.length - 1 && i > 0 ? "end" : "note") : "",
      i === entries.length - 1 ? "latest" : ""].join(" ").trim() || null,
    value: entry.seat === null ? null : ++number,
    text: entry.text,
  })));
  const panel = list.closest(".log-panel");
  if (panel) panel.scrollTop = panel.scrollHeight;
}

function renderHand() {
  const state = table.state;
  const myTurn = state.you !== null && state.turn === state.you;
  const hand = $("#hand");
  if (handHidden(state)) {  // a shared screen: the hand shown stays face down while others look on
    hand.replaceChildren(...state.hand.map(() => h("span", { class: "hand-tile face-down", "aria-label": "a tile, face down" },
      backSvg({ scale: 24 }))));
    markSelection();
    return;
  }
  hand.replaceChildren(...state.hand.map((tile) => {
    const spots = myHotspots(tile);
    const playable = myTurn && (spots.length > 0 || state.gives.includes(tile));
    const button = h("button", {
      class: ["hand-tile", playable ? "playable" : "", table.selected === tile ? "selected" : ""].join(" "),
      "data-tile": tile, "aria-label": `tile ${tile}${playable || !myTurn ? "" : " (does not fit now)"}`,
      "aria-pressed": table.selected === tile ? "true" : "false", draggable: playable ? "true" : "false",
      onclick: () => (state.gives.includes(tile) ? sendMove(`give ${tile}`) : selectTile(tile)),
      ondblclick: () => {
        const only = myHotspots(tile);
        if (only.length === 1 && only[0].moves.length === 1) sendMove(only[0].moves[0]);
      },
      onfocus: () => { if (playable && table.selected !== tile && !table.quietFocus) selectTile(tile, null, false); },
      onkeydown: (event) => handKey(event, tile),
      ondragstart: (event) => { event.dataTransfer.setData("text/plain", tile); selectTile(tile, null, false); },
    }, tileSvg(tile));
    return button;
  }));
  markSelection();
}

function markSelection() {
  for (const button of document.querySelectorAll("#hand .hand-tile")) {
    const selected = button.dataset.tile === table.selected;
    button.classList.toggle("selected", selected);
    button.setAttribute("aria-pressed", selected ? "true" : "false");
  }
  $("#chooser").replaceChildren(...(table.choosing ? [h("span", { text: "Which way round? " }),
    ...table.choosing.moves.map((move) => h("button", { onclick: () => sendMove(move), "data-move": move,
      text: `Leave ${shown(move.split("@")[0].split("-")[1])} open` }))] : []));
}

function selectTile(tile, move = null, focusHand = true) {
  const state = table.state;
  if (!state || state.you === null) return;
  table.selected = tile;
  table.choosing = null;
  const spots = myHotspots(tile);
  table.active = move ? Math.max(0, spots.findIndex((spot) => spot.moves.includes(move))) : 0;
  renderTable();
  markSelection();
  if (focusHand) $(`#hand [data-tile="${tile}"]`)?.focus({ preventScroll: true });
  describeActive();
}

function describeActive() {
  const spots = myHotspots(table.selected);
  if (!spots.length) {  // said on the status line too: a raised tile with nothing lit would say nothing
    const why = `${table.selected} does not fit anywhere now`;
    announce(why);
    $("#status").textContent = `${why}.`;
    return;
  }
  const spot = spots[table.active];
  const target = spot.target ? table.state.table.tiles.find((box) => box.index === spot.target) : null;
  const where = spot.target ? `the ${spot.value} end of ${target ? target.tile : "tile"} (tile ${spot.target})` : "lead";
  announce(`${table.selected}: ${where} (${table.active + 1} of ${spots.length}); Enter plays`);
}

function handKey(event, tile) {
  const spots = myHotspots(tile);
  if (event.key === "ArrowRight" || event.key === "ArrowDown" || event.key === "ArrowLeft" || event.key === "ArrowUp") {
    if (!spots.length) return;
    event.preventDefault();
    if (table.selected !== tile) table.selected = tile;
    if (table.choosing) { table.choosing = null; markSelection(); }  // another end: the old chooser goes
    const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : -1;
    table.active = (table.active + step + spots.length) % spots.length;
    renderTable();
    describeActive();
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    if (table.state.gives.includes(tile)) { sendMove(`give ${tile}`); return; }
    if (table.selected !== tile) { selectTile(tile); return; }
    if (spots.length) playSpot(spots[table.active] || spots[0]);
  }  // Escape: the document's handler (start), wherever the focus is
}

/** Esc puts the selected tile back and closes the "which way round?" chooser, wherever the focus is. */
function putBack(event) {
  if (event.key !== "Escape" || $("#table-view").hidden || !table.state) return;
  if (!$("#summary").hidden) { $("#look-at-table").click(); return; }  // Esc puts the hand's end panel aside
  if (table.selected === null && table.choosing === null) return;
  const tile = table.selected;
  table.selected = null;
  table.choosing = null;
  renderTable();
  markSelection();
  renderInfo();  // the status line says again whose turn it is
  if (focusLost()) quietlyFocus($(`#hand [data-tile="${tile}"]`));  // (the chooser had it)
}

function playSpot(spot) {
  if (spot.moves.length === 1) {
    sendMove(spot.moves[0]);
  } else {
    table.choosing = spot;
    markSelection();
    const choices = [...document.querySelectorAll("#chooser button")];
    choices[0]?.focus({ preventScroll: true });
    announce(`Which way round? ${choices.map((button) => button.textContent).join(", or ")}: Tab between them, `
      + "Enter chooses, Esc puts the tile back");
  }
}

function renderSummary() {
  const state = table.state;
  const box = $("#summary");
  const summary = state.summary;
  const back = $("#show-summary");
  if (state.in_hand || !summary) { box.hidden = back.hidden = true; table.peek = null; setModal(false); return; }
  // "Look at the table" puts the panel aside for this hand's end; the button beside the hand brings it back
  const key = `${state.game} ${summary.hand_number} ${summary.game_over}`;
  if (table.peek === key) { box.hidden = true; back.hidden = false; setModal(false); return; }
  table.peek = null;
  const opening = box.hidden || table.shownSummary !== key;
  const was = box.contains(document.activeElement) ? document.activeElement : null;
  const focusAt = was ? panelFocusables().indexOf(was) : -1;
  const pickedByPage = was !== null && was === table.panelPick;  // (not moved there by the player)
  table.shownSummary = key;
  box.hidden = false;
  back.hidden = true;
  const names = summary.names;
  const you = state.you;
  const title = summary.game_over
    ? `Game over — ${gameResult(state, summary)}`
    : `Hand ${summary.hand_number} over (${summary.end}) — ${summary.winner === null ? "nobody wins"
      : sideSays(state, summary.winner, "win")} the hand`;
  const rows = names.map((name, seat) => h("tr", { "data-seat": seat },
    h("th", { text: seat === viewer(state) ? "You" : name }),
    h("td", {}, summary.hands[seat].length ? handTiles(summary.hands[seat], 14) : h("div", { text: "—" }),
    h("small", { text: summary.hands[seat].length ? `${plural(summary.hands[seat].length, "tile")}, ${summary.hand_values[seat]}` : "" })),
    h("td", { text: [
      summary.play_points[seat] ? `in play ${signed(summary.play_points[seat])}` : "",
      ...summary.scoring[seat].map((s) => `${s.name} ${signed(s.points)}`),
    ].filter(Boolean).join(", ") || "—" }),
    h("td", { class: "total", text: String(summary.totals[seat]) })));
  const actions = h("div", { class: "summary-actions", id: "summary-actions" },
    summary.game_over
      ? [playAgain(state),
        h("a", { class: "button", href: `/replay/${state.game}`, text: "Watch the replay" }),
        h("a", { class: "button", href: `/api/games/${state.game}/record`, download: "", text: "Download the record" }),
        h("a", { class: "button", href: "/", text: "Back to the lobby" })]
      : you !== null
        ? [h("button", { id: "next-hand", onclick: () => send({ type: "next_hand", hand: state.hand_number }),
          text: "Next hand" }),
          state.can_undo ? h("button", { id: "summary-undo", onclick: () => send({ type: "undo" }),
            text: "Undo the last move" }) : null]
        : h("p", { text: "Waiting for a player to deal the next hand." }),
    h("button", { id: "look-at-table", onclick: () => lookAtTable(key), text: "Look at the table" }));
  box.replaceChildren(h("div", { class: "panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title" },
    h("h2", { id: "summary-title", text: title }),
    summary.blocked_rule ? h("p", { class: "blocked-rule", id: "summary-rule", text: `A blocked hand: ${summary.blocked_rule}.` }) : null,
    h("div", { class: "summary-body" },
      h("table", {}, h("thead", {}, h("tr", {}, ["Player", "Left in hand", "Scored", "Total"].map((t) => h("th", { text: t })))),
        h("tbody", {}, rows))),
    actions));
  // a hook for add-ons (the game review): the actions row is #summary-actions
  document.dispatchEvent(new CustomEvent("boneyard:summary", { detail: { game: state.game, summary, actions, you } }));
  setModal(true);
  // the keyboard goes into the panel when it opens (Next hand, else its first action); a redraw leaves it on
  // the action the player moved it to (found again by what it does: a redraw may add one before it, as when a
  // watcher is seated and gets Play again), and where the page put it, the page picks again (a watcher's panel
  // had only "Look at the table"; seated, it has Next hand)
  const focusables = panelFocusables();
  let target = null;
  if (focusAt >= 0 && !pickedByPage) {
    target = focusables.find((node) => actionKey(node) === actionKey(was)) || focusables[Math.min(focusAt, focusables.length - 1)];
  } else if (opening || focusLost() || pickedByPage) {
    target = $("#next-hand") || $("#summary-actions a, #summary-actions button");
    table.panelPick = target;
  }
  if (target) target.focus({ preventScroll: true });
}

/** The hand's end panel is modal while it shows: what lies behind it is inert (no focus, no click, nothing read). */
function setModal(on) {
  for (const node of document.querySelectorAll("header, #table-view > :not(#summary)")) {
    if (on) node.setAttribute("inert", "");
    else node.removeAttribute("inert");
  }
}

/** What an action of the hand's end panel does, to find it again once the panel is drawn anew. */
function actionKey(node) {
  return node.id || node.getAttribute("href") || node.textContent;
}

function panelFocusables() {
  return [...document.querySelectorAll("#summary a[href], #summary button:not([disabled]), #summary select, "
    + "#summary input, #summary [tabindex]:not([tabindex='-1'])")].filter((node) => !node.closest("[hidden]"));
}

/** Tab and Shift+Tab go round the hand's end panel while it shows (a dialog keeps the keyboard). */
function trapTab(event) {
  if (event.key !== "Tab" || $("#summary").hidden || $("#table-view").hidden) return;
  const focusables = panelFocusables();
  if (!focusables.length) return;
  const first = focusables[0];
  const last = focusables[focusables.length - 1];
  const inside = $("#summary").contains(document.activeElement);
  if (event.shiftKey && (!inside || document.activeElement === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
    event.preventDefault();
    first.focus();
  }
}

/** At game over: *Play again* for a person seated here (a new game at this table: same variant, options and
 * people, new deals), or, once someone asked, the way to that game, where this page's seat waits for it. */
function playAgain(state) {
  if (state.rematch) {
    const watching = state.you === null;
    return h("a", { class: "button", id: "play-again", href: `/game/${state.rematch}${watching ? "?watch" : ""}`,
      text: watching ? "Watch the next game" : "Go to the next game" });
  }
  if (state.you === null) return null;
  return h("button", { id: "play-again", onclick: () => { table.wantRematch = state.game; send({ type: "rematch" }); },
    text: "Play again" });
}

/** The seat this browser holds at a table (its token, its people's seats at a shared screen, the invitation)
 * carried to the table's next game, which the same tokens open (Play again keeps the seats). */
function carrySeat(game, next) {
  for (const key of [tokenKey, seatsKey, inviteKey]) {
    const held = localStorage.getItem(key(game));
    if (held !== null && localStorage.getItem(key(next)) === null) localStorage.setItem(key(next), held);
  }
  if (localStorage.getItem(tokenKey(next)) !== null) localStorage.setItem(satKey(next), String(Date.now()));
}

/** The next game at this table (``state.rematch``): this browser's seats and invitation go with it (the server
 * gave the new table the same seat tokens and invitation), and the page that asked for it goes there. */
function followRematch(state) {
  const next = state.rematch;
  if (!next) return;
  carrySeat(state.game, next);
  if (table.wantRematch === state.game) {
    table.wantRematch = null;
    go(`/game/${next}`);
  } else if (table.heardRematch !== next) {
    table.heardRematch = next;
    const button = state.you === null ? "Watch the next game" : "Go to the next game";
    announce(`A new game at this table is ready: ${button}, in the game's end panel.`);
  }
}

/** The hand's end panel put aside (``key``: this hand's end) or, with null, shown again. */
function lookAtTable(key) {
  table.peek = key;
  renderSummary();
  const target = key === null ? $("#next-hand") || $("#look-at-table") : $("#show-summary");
  if (target) target.focus({ preventScroll: true });
}

// ------------------------------------------------------------------ replay viewer
const replay = { data: null, hand: 0, step: 0 };

function startReplay(data) {
  Object.assign(replay, { data, hand: 0, step: 0 });
  const select = $("#replay-hand");
  select.replaceChildren(...data.hands.map((hand, i) => h("option", { value: i, text: `Hand ${hand.number}` })));
  $("#replay-title").textContent = `${data.title} — ${data.players.join(", ")}`;
  renderReplay();
  land("#replay-title", `Replay: ${data.title} — ${TITLE}`);
}

function renderReplay() {
  const hand = replay.data.hands[replay.hand];
  if (!hand) return;
  const step = hand.steps[replay.step];
  drawTable($("#replay-table"), { tiles: hand.tiles.slice(0, step.placed), view: step.view,
    fresh: step.event ? step.placed : Infinity, last: step.placed || null });
  $("#replay-hand").value = String(replay.hand);
  $("#replay-position").textContent = `move ${replay.step} of ${hand.steps.length - 1}`;
  const event = step.event;
  // the move, and the record's own annotation of it (a review's judgement: RECORD.md "Annotations"), read together
  const note = event && event.annotation;
  $("#replay-event").replaceChildren(event
    ? event.text || `${event.name}: ${event.move}`
    : `Hand ${hand.number}: ${hand.setup || nameSays(replay.data.players[hand.leader], "lead")}`,
  ...(note ? [h("span", { class: `annotation${note.mark ? ` mark-${note.mark}` : ""}`, "data-mark": note.mark || "",
    text: `» ${note.text}` })] : []));
  // whose turn it is in words as well as by the border; each open hand read as its list of tiles
  $("#replay-hands").replaceChildren(...replay.data.players.map((name, seat) => h("li", {
    class: step.turn === seat ? "turn" : "" },
  h("span", { class: "name", text: `${name}${step.turn === seat ? " (to play)" : ""} — ${step.scores[seat]}`
    + ` · ${plural(step.hands[seat].length, "tile")}` }),
  step.hands[seat].length ? handTiles(step.hands[seat], 16) : null)));
  $("#replay-end").textContent = step.end
    ? `Hand over (${step.end.end}): ${step.end.says} the hand; at the hand's end ${step.end.hand_points.map((p, s) => `${replay.data.players[s]} ${p > 0 ? "+" : ""}${p}`).join(", ")}${
      step.end.blocked_rule ? `. A blocked hand: ${step.end.blocked_rule}.` : ""}`
    : "";
  // a hook for add-ons (the game review): tools go in #replay-tools
  document.dispatchEvent(new CustomEvent("boneyard:replay", { detail: { data: replay.data, hand: replay.hand, step: replay.step } }));
}

function replayMove(delta) {
  const hands = replay.data.hands;
  let { hand, step } = replay;
  step += delta;
  if (step < 0) {
    if (hand === 0) step = 0;
    else { hand -= 1; step = hands[hand].steps.length - 1; }
  } else if (step >= hands[hand].steps.length) {
    if (hand === hands.length - 1) step = hands[hand].steps.length - 1;
    else { hand += 1; step = 0; }
  }
  Object.assign(replay, { hand, step });
  renderReplay();
}

// ------------------------------------------------------------------ start
async function start() {
  const speedSelect = $("#speed");
  speedSelect.value = localStorage.getItem("boneyard-speed") || "normal";
  speedSelect.addEventListener("change", () => { localStorage.setItem("boneyard-speed", speedSelect.value); applySpeed(); });
  applySpeed();
  meta = await api("/api/meta");
  setPips(meta);
  variants = await api("/api/variants");
  // the short name in the list (a phone's select is narrow), what the name leaves out said below it
  $("#variant").replaceChildren(...variants.map((v) => h("option", { value: v.name, text: variantName(v).short })));
  $("#variant").addEventListener("change", renderVariantForm);
  $("#players").addEventListener("change", renderVariantForm);
  $("#players").addEventListener("input", renderVariantForm);
  renderVariantForm();
  $("#new-game").addEventListener("submit", createGame);
  $("#copy-invite").addEventListener("click", () => copyLink("#invite-link", "send it to the people you invite"));
  $("#other-device").addEventListener("click", showDeviceLink);
  $("#copy-device").addEventListener("click", () => copyLink("#device-link", "open it on the other device"));
  $("#load-record").addEventListener("click", () => loadRecordFile(false));
  $("#view-record").addEventListener("click", () => loadRecordFile(true));
  $("#draw").addEventListener("click", () => sendMove("draw"));
  $("#pass").addEventListener("click", () => sendMove("pass"));
  $("#hint").addEventListener("click", () => {  // one hint asked at a time: the button waits for its answer
    $("#hint").disabled = true;
    send({ type: "hint" });
  });
  $("#undo").addEventListener("click", () => send({ type: "undo" }));
  $("#show-summary").addEventListener("click", () => lookAtTable(null));
  $("#take-turn").addEventListener("click", takeTurn);
  $("#same-screen").addEventListener("change", inviteChoice);
  $("#show-stats").addEventListener("click", showStats);
  for (const [id, icon] of [["first", "first"], ["prev", "prev"], ["next", "next"], ["last", "last"]]) {
    $(`#replay-${id}`).replaceChildren(iconSvg(icon));
  }
  $("#replay-first").addEventListener("click", () => { replay.step = 0; renderReplay(); });
  $("#replay-prev").addEventListener("click", () => replayMove(-1));
  $("#replay-next").addEventListener("click", () => replayMove(1));
  $("#replay-last").addEventListener("click", () => {
    replay.step = replay.data.hands[replay.hand].steps.length - 1; renderReplay();
  });
  $("#replay-hand").addEventListener("change", (event) => { replay.hand = Number(event.target.value); replay.step = 0; renderReplay(); });
  document.addEventListener("keydown", (event) => {
    trapTab(event);
    putBack(event);
    // a step button keeps the focus once clicked: the arrows still step (a select or a field keeps them)
    if ($("#replay-view").hidden || !replay.data || event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowRight") replayMove(1);
    if (event.key === "ArrowLeft") replayMove(-1);
  });
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[href^='/']");
    if (link && !link.hasAttribute("download") && !link.getAttribute("href").startsWith("/api/")) {
      event.preventDefault();
      go(link.getAttribute("href"));
    }
  });
  window.addEventListener("popstate", () => { landing = true; route(); });
  document.body.dataset.ready = "true";
  route();
}

start();
