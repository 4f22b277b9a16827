// bow3d serve: a room's page. Speaks the room's WebSocket (bow3d/serve/messages.py): says hello with the
// token of the link (kept in the address's #fragment, never sent in a URL), then draws every state frame:
// the pieces in 3D (three.js, the scene's glTF), what the game awaits, this seat's choices, the log.
const WORDS = JSON.parse(document.getElementById("bow3d-words").textContent);
const ROOM = JSON.parse(document.getElementById("bow3d-room").textContent);
const w = (text, slots = {}) => (WORDS[text] || text).replace(/\{(\w+)\}/g, (all, k) => (k in slots ? slots[k] : all));
const $ = (id) => document.getElementById(id);
const page = window.bow3dRoom = {state: null, drawn: -1, errors: [], previewed: null, ready3d: false, error3d: null, frames: 0};
const token = decodeURIComponent(location.hash.replace(/^#/, ""));
let socket = null, retry = 500, chosenUnit = null;

function el(tag, attrs = {}, ...children) {  // children: nodes or text
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c !== undefined && c !== null).map((c) => (typeof c === "object" ? c : String(c))));
  return node;
}

function say(message, isError = true) {
  const box = $("error");
  box.hidden = !message;
  box.textContent = message || "";
  box.classList.toggle("note", !isError);
}

function connect() {
  if (!token) { say(w("This link is not a seat of this room: open the link you were given.")); return; }
  $("turn").textContent = w("Connecting...");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(ROOM.room)}`);
  socket.addEventListener("open", () => {
    retry = 500;
    socket.send(JSON.stringify({type: "hello", token, lang: ROOM.lang}));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    $("turn").textContent = w("Connection lost: reconnecting...");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(frame) {
  if (frame.type === "state") { page.state = frame; page.frames += 1; schedule(); }
  else if (frame.type === "preview") showPreview(frame);
  else if (frame.type === "error") {
    page.errors.push(frame);
    say(frame.message);
    if (frame.code === "bad-token") socket.close();
  } else if (frame.type === "welcome") say("");
}

// Frames can come faster than a phone draws (the AI plays a record every few tenths of a second): only the
// newest state is drawn, once per animation frame.
let drawPending = false;
function schedule() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    draw(page.state);
    page.drawn = page.state.records;
  });
}

function sideName(state, id) {
  const side = state.sides.find((s) => s.id === id);
  return side ? side.name : String(id);
}

function draw(state) {
  const you = state.you === "spectator" ? w("You watch this game") : w("You play {side}", {side: sideName(state, state.you)});
  $("who").textContent = `${state.title} (${state.ruleset_title}) · ${you}`;
  const a = state.awaiting;
  let turn;
  if (state.result) turn = state.result;
  else if (a.mine) turn = w("Your turn");
  else if (a.side && a.player !== "human") turn = w("The AI plays {side}", {side: sideName(state, a.side)});
  else turn = w("Waiting for {side}", {side: sideName(state, a.side)});
  $("turn").textContent = (a.round ? w("Round {round}", {round: a.round}) + " · " : "") + turn;
  $("turn").classList.toggle("mine", !!a.mine);
  hidePreview();
  drawTakeBack(state);
  drawChoices(state);
  const log = $("log");
  log.replaceChildren(...state.log.map((line) => el("li", {}, line)));
  log.scrollTop = log.scrollHeight;
  if (view.ready) view.pose(state);
}

function drawTakeBack(state) {
  const box = $("take-back");
  const t = state.take_back;
  box.replaceChildren();
  box.hidden = !(t.allowed && state.you !== "spectator" && state.records > 0);
  if (box.hidden) return;
  if (t.asked_by && t.asked_by !== state.you) {
    box.append(el("span", {}, w("{side} asks to take back the last record", {side: sideName(state, t.asked_by)})),
      el("button", {id: "agree-take-back", onclick: () => send({type: "take_back"})}, w("Agree to take back")));
  } else {
    box.append(el("button", {id: "ask-take-back", disabled: !!t.asked_by, onclick: () => send({type: "take_back"})},
      w("Take back")));
  }
}

function drawChoices(state) {
  const choices = state.awaiting.choices || [];
  const units = [...new Set(choices.filter((c) => c.actor).map((c) => c.actor))];
  if (!units.includes(chosenUnit)) chosenUnit = units.length ? units[0] : null;
  const unitBox = $("units");
  unitBox.replaceChildren(...units.map((u) => el("button", {
    class: u === chosenUnit ? "unit chosen" : "unit", "data-unit": u,
    onclick: () => { chosenUnit = u; drawChoices(page.state); view.highlight(u); }}, u)));
  const shown = choices.filter((c) => c.actor === null || c.actor === chosenUnit);
  $("choices").replaceChildren(...shown.map((c) => el("button", {
    class: `choice kind-${c.kind}`, "data-index": c.index, "data-kind": c.kind,
    onclick: () => choose(c)}, c.words)));
  if (chosenUnit) view.highlight(chosenUnit);
}

function choose(choice) {
  say("");
  if (choice.aim.kind === "none") { send({type: "act", index: choice.index, records: page.state.records}); return; }
  send({type: "preview", index: choice.index, records: page.state.records});
}

function showPreview(frame) {
  if (!page.state || frame.records !== page.state.records) return;
  page.previewed = frame;
  const p = frame.preview, box = $("preview");
  box.replaceChildren(el("p", {class: "words"}, p.words || frame.choice.words));
  if (p.odds) {
    const percent = `${Math.round(p.odds.success * 1000) / 10} %`;
    box.append(el("p", {class: "odds"}, w("Chance of success: {percent}", {percent}) + (p.odds.words ? ` · ${p.odds.words}` : "")));
  }
  if (p.cost) box.append(el("p", {class: "cost"}, p.cost));
  box.append(el("div", {class: "buttons"},
    el("button", {id: "commit", class: "commit", onclick: () => {
      send({type: "act", index: frame.index, records: frame.records}); hidePreview(); }}, w("Commit")),
    el("button", {id: "cancel", onclick: hidePreview}, w("Cancel"))));
  box.hidden = false;
  view.aim(frame.choice.aim, p.path);
}

function hidePreview() {
  page.previewed = null;
  $("preview").hidden = true;
  view.aim(null);
}

// --- the battlefield in 3D --------------------------------------------------------------------------
const view = {ready: false, pose() {}, highlight() {}, aim() {}};

async function start3d() {
  const spec = JSON.parse(document.getElementById("bow3d-three").textContent);
  const m = await window.bow3dLoadThree(spec);
  const THREE = m.three;
  const canvas = $("battle-canvas");
  const renderer = new THREE.WebGLRenderer({canvas, antialias: true, preserveDrawingBuffer: true});
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xdde6ee);
  scene.environment = new THREE.PMREMGenerator(renderer).fromScene(new m.RoomEnvironment.RoomEnvironment(), 0.04).texture;
  scene.add(new THREE.HemisphereLight(0xffffff, 0x556655, 1.2));
  const sun = new THREE.DirectionalLight(0xffffff, 2.0);
  sun.position.set(0.6, 1.0, 0.4);
  scene.add(sun);
  const response = await fetch(`/scene/${encodeURIComponent(page.state ? page.state.scene : ROOM.scene || "")}.glb`);
  if (!response.ok) throw new Error(`the scene's glTF: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  const gltf = await new Promise((resolve, reject) => new m.GLTFLoader.GLTFLoader().parse(bytes, "", resolve, reject));
  scene.add(gltf.scene);
  const nodes = {};
  gltf.scene.traverse((node) => { if (node.userData && node.userData.id) nodes[node.userData.id] = node; });
  const box = new THREE.Box3().setFromObject(gltf.scene);
  const centre = box.getCenter(new THREE.Vector3());
  const size = box.getSize(new THREE.Vector3()).length();
  const camera = new THREE.PerspectiveCamera(45, 1, size / 200, size * 10);
  camera.position.copy(centre).add(new THREE.Vector3(0.0, 0.75, 0.7).multiplyScalar(size * 0.75));
  const controls = new m.OrbitControls.OrbitControls(camera, canvas);
  controls.target.copy(centre);
  controls.update();
  const ring = new THREE.Mesh(new THREE.RingGeometry(0.012, 0.018, 32), new THREE.MeshBasicMaterial({color: 0xffcc00, side: THREE.DoubleSide}));
  ring.rotation.x = -Math.PI / 2;
  ring.visible = false;
  scene.add(ring);
  const target = new THREE.Mesh(new THREE.RingGeometry(0.012, 0.018, 32), new THREE.MeshBasicMaterial({color: 0xff3344, side: THREE.DoubleSide}));
  target.rotation.x = -Math.PI / 2;
  target.visible = false;
  scene.add(target);
  const path = new THREE.Line(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({color: 0xffcc00}));
  scene.add(path);
  const root = gltf.scene.children[0] || gltf.scene;
  function groundAt(node) {
    if (!node) return null;
    node.updateWorldMatrix(true, false);
    return new THREE.Vector3().setFromMatrixPosition(node.matrixWorld);
  }
  function render() {
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (canvas.width !== Math.floor(width * renderer.getPixelRatio()) || canvas.height !== Math.floor(height * renderer.getPixelRatio())) {
      renderer.setSize(width, height, false);
      camera.aspect = width / Math.max(1, height);
      camera.updateProjectionMatrix();
    }
    renderer.render(scene, camera);
  }
  function studsToWorld(x, y) {  // a stud position on the battlefield's plane (LDraw X, Z = 20x, 20y), ground height from the nearest piece
    const local = new THREE.Vector3(x * 20, 0, y * 20);
    root.updateWorldMatrix(true, false);
    return local.applyMatrix4(root.matrixWorld);
  }
  view.pose = (state) => {
    for (const [id, trs] of Object.entries(state.poses || {})) {
      const node = nodes[id];
      if (!node) continue;
      if (!trs) { node.visible = false; continue; }
      node.visible = true;
      node.position.fromArray(trs[0]);
      node.quaternion.fromArray(trs[1]);
      node.scale.fromArray(trs[2]);
    }
    render();
  };
  view.highlight = (id) => {
    const at = groundAt(nodes[id]);
    ring.visible = !!at;
    if (at) ring.position.copy(at).add(new THREE.Vector3(0, 0.002, 0));
    render();
  };
  view.aim = (aim, points) => {
    target.visible = false;
    path.visible = false;
    if (aim && aim.kind === "unit") {
      const at = groundAt(nodes[aim.target]);
      if (at) { target.position.copy(at).add(new THREE.Vector3(0, 0.002, 0)); target.visible = true; }
    } else if (aim && aim.at) {
      const p = aim.kind === "cell" ? [aim.at[0] + 0.5, aim.at[1] + 0.5] : aim.at;
      const at = studsToWorld(p[0], p[1]);
      const from = groundAt(nodes[chosenUnit]);
      if (from) at.y = from.y;
      target.position.copy(at).add(new THREE.Vector3(0, 0.002, 0));
      target.visible = true;
    }
    if (points && points.length > 1) {
      const from = groundAt(nodes[chosenUnit]);
      const y = from ? from.y + 0.004 : 0;
      path.geometry.setFromPoints(points.map((p) => { const v = studsToWorld(p[0], p[1]); v.y = y; return v; }));
      path.visible = true;
    }
    render();
  };
  controls.addEventListener("change", render);
  window.addEventListener("resize", render);
  view.ready = true;
  page.ready3d = true;
  page.unitPosition = (id) => { const p = groundAt(nodes[id]); return p ? [p.x, p.y, p.z] : null; };
  if (page.state) view.pose(page.state);
  $("view-status").textContent = w("Drag to turn, pinch or wheel to zoom.");
}

function waitForState() {
  return new Promise((resolve) => {
    const check = () => (page.state ? resolve() : setTimeout(check, 100));
    check();
  });
}

connect();
waitForState().then(start3d).catch((error) => {
  page.error3d = String(error && error.message || error);
  $("view-status").textContent = w("The 3D view could not start: ") + page.error3d;
  console.warn("bow3d room: " + page.error3d);
});
