// bow3d serve: the front page. One card a scene: its sides, who plays each (a person or one of the
// ruleset's opponents), a seed and a round limit; "Create the room" answers with a link a seat.
const WORDS = JSON.parse(document.getElementById("bow3d-words").textContent);
const w = (text, slots = {}) => (WORDS[text] || text).replace(/\{(\w+)\}/g, (all, k) => (k in slots ? slots[k] : all));
const scenesBlock = document.getElementById("bow3d-scenes");
const scenes = scenesBlock ? JSON.parse(scenesBlock.textContent) : [];
const refereeBlock = document.getElementById("bow3d-referee");
const referee = refereeBlock ? JSON.parse(refereeBlock.textContent) : false;
const lobby = window.bow3dLobby = {created: null, error: null};
const lang = document.documentElement.lang || "en";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) node.append(child);
  return node;
}

function card(scene) {
  const seats = scene.sides.map((side) => {
    const select = el("select", {name: side.id, "data-side": side.id, "aria-label": side.name},
      el("option", {value: "human"}, w("human")), ...scene.opponents.map((o) => el("option", {value: o}, w("AI: {name}", {name: o}))));
    return el("label", {class: "seat"}, el("span", {}, side.name), select);
  });
  const seed = el("input", {type: "number", name: "seed", min: 0, placeholder: w("seed (empty: any)"), inputmode: "numeric"});
  const rounds = el("input", {type: "number", name: "max_rounds", min: 1, max: 100, value: 30, inputmode: "numeric"});
  const create = el("button", {class: "create", "data-scene": scene.name, onclick: async () => {
    const body = {scene: scene.name, seats: {}, max_rounds: Number(rounds.value) || 30};
    for (const select of seats.map((s) => s.querySelector("select"))) body.seats[select.dataset.side] = select.value;
    if (seed.value !== "") body.seed = Number(seed.value);
    create.disabled = true;
    try {
      const response = await fetch("/api/rooms", {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.message || response.status);
      showCreated(scene, answer);
    } catch (error) {
      lobby.error = String(error.message || error);
      alert(lobby.error);
    } finally { create.disabled = false; }
  }}, w("Create the room"));
  const links = el("p", {class: "scene-links"});
  if (referee) links.append(el("a", {href: `/referee/${encodeURIComponent(scene.name)}?lang=${lang}`}, w("Referee a line of sight")));
  return el("article", {class: "scene", "data-scene": scene.name},
    el("h2", {}, scene.title), el("p", {class: "ruleset"}, scene.ruleset_title),
    el("div", {class: "seats"}, ...seats),
    el("div", {class: "options"}, el("label", {}, el("span", {}, w("rounds at most")), rounds), seed),
    create, links);
}

function showCreated(scene, answer) {
  lobby.created = answer;
  const box = document.getElementById("created");
  box.hidden = false;
  const rows = Object.entries(answer.links).map(([role, link], k) => {
    const url = new URL(link + "", location.origin);
    url.searchParams.set("lang", lang);
    const href = `${url.origin}${url.pathname}?lang=${lang}${link.slice(link.indexOf("#"))}`;
    const side = scene.sides.find((s) => s.id === role);
    const label = role === "spectator" ? w("Spectators (read only)") : side ? side.name : role;
    const hint = role === "spectator" ? "" : (k === 0 ? w("Play this link yourself") : w("Send this link to your opponent"));
    const copy = el("button", {class: "copy", onclick: async () => {
      try { await navigator.clipboard.writeText(href); copy.textContent = w("Copied"); } catch (e) { /* no clipboard: the link is shown */ }
    }}, w("Copy"));
    return el("li", {"data-role": role}, el("strong", {}, label), el("a", {href, class: "invite"}, w("Open the seat")), copy,
      el("code", {}, href), hint ? el("small", {}, hint) : "");
  });
  box.replaceChildren(el("h2", {}, `${w("Invite links")}: ${scene.title}`),
    el("p", {class: "hint"}, w("Keep these links: a seat's link is the only key to it.")), el("ul", {class: "invites"}, ...rows));
  box.scrollIntoView();
}

document.getElementById("scenes")?.replaceChildren(...scenes.map(card));
