// bow3d serve: a room's page. Speaks the room's WebSocket (bow3d/serve/messages.py): says hello with the
// token of the link (kept in the address's #fragment, never sent in a URL), then draws every state frame:
// the pieces in 3D (three.js, the scene's glTF), what the game awaits, this seat's choices, the log.
const WORDS = JSON.parse(document.getElementById("bow3d-words").textContent);
const ROOM = JSON.parse(document.getElementById("bow3d-room").textContent);
const w = (text, slots = {}) => (WORDS[text] || text).replace(/\{(\w+)\}/g, (all, k) => (k in slots ? slots[k] : all));
const $ = (id) => document.getElementById(id);
const page = window.bow3dRoom = {state: null, drawn: -1, errors: [], previewed: null, ready3d: false, error3d: null, frames: 0};
const token = decodeURIComponent(location.hash.replace(/^#/, ""));
let socket = null, retry = 500, chosenUnit = null, refused = false;

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
  socket.addEventListener("close", (event) => {
    if (refused || event.code === 4404 || event.code === 4408) return;  // a wrong link stays wrong
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
    if (frame.code === "bad-token" || frame.code === "no-such-room" || frame.code === "room-full") {
      refused = true;
      socket.close();
    }
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

const FOLDED_FROM = 8;  // more choices on cells than this are folded (a rifleman's moves: 73 on the village)
const cellOf = (aim) => (aim.kind === "cell" ? [aim.at[0], aim.at[1]] : aim.kind === "point" ? [Math.floor(aim.at[0]), Math.floor(aim.at[1])] : null);

function drawChoices(state) {
  const choices = state.awaiting.choices || [];
  const units = [...new Set(choices.filter((c) => c.actor).map((c) => c.actor))];
  if (!units.includes(chosenUnit)) chosenUnit = units.length ? units[0] : null;
  const unitBox = $("units");
  unitBox.replaceChildren(...units.map((u) => el("button", {
    class: u === chosenUnit ? "unit chosen" : "unit", "data-unit": u,
    onclick: () => { chosenUnit = u; drawChoices(page.state); }}, u)));
  const shown = choices.filter((c) => c.actor === null || c.actor === chosenUnit);
  const button = (c) => el("button", {class: `choice kind-${c.kind}`, "data-index": c.index, "data-kind": c.kind,
    onclick: () => choose(c)}, c.words);
  // The moves to a cell are many (every lit cell): tapped on the battlefield, or listed folded
  const aimed = shown.filter((c) => c.actor && cellOf(c.aim) && c.aim.kind !== "unit");
  const moves = aimed.length > FOLDED_FROM ? aimed : [];
  const others = shown.filter((c) => !moves.includes(c));
  const box = $("choices");
  box.replaceChildren(...others.map(button));
  if (moves.length) {
    box.append(el("details", {class: "moves"}, el("summary", {}, w("{n} moves: tap a lit cell on the battlefield, or choose here", {n: moves.length})),
      el("div", {class: "move-list"}, ...moves.map(button))));
  }
  page.lit = aimed.map((c) => cellOf(c.aim));
  view.highlight(chosenUnit, page.lit);
}

function tapCell(cell) {  // a tap on the battlefield: the chosen unit's choice that ends on that cell
  const choices = (page.state && page.state.awaiting.choices) || [];
  const found = choices.find((c) => c.actor === chosenUnit && c.aim.kind !== "unit" && cellOf(c.aim) &&
    cellOf(c.aim)[0] === cell[0] && cellOf(c.aim)[1] === cell[1]);
  if (found) choose(found);
  return !!found;
}

function tapUnit(id) {  // a tap on a figure: aim at it (the chosen unit's first choice on it), else choose it
  const choices = (page.state && page.state.awaiting.choices) || [];
  const aimed = choices.find((c) => c.actor === chosenUnit && c.aim.kind === "unit" && c.aim.target === id);
  if (aimed) { choose(aimed); return true; }
  if (id !== chosenUnit && choices.some((c) => c.actor === id)) { chosenUnit = id; drawChoices(page.state); return true; }
  return false;  // the chosen unit itself, or a figure that is no choice: the cell under the pointer
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
  const controls = new m.OrbitControls.OrbitControls(camera, canvas);
  controls.target.copy(centre);
  let framed = false;
  function frame() {  // the whole battlefield in view, whatever the canvas's shape (a phone is taller than wide)
    const vertical = camera.fov * Math.PI / 180;
    const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * camera.aspect);
    const distance = 0.5 * 0.8 * size / Math.sin(Math.min(vertical, horizontal) / 2);
    camera.position.copy(centre).add(new THREE.Vector3(0.0, 0.8, 0.6).normalize().multiplyScalar(distance));
    controls.update();
    framed = true;
  }
  const ring = new THREE.Mesh(new THREE.RingGeometry(0.010, 0.016, 32), new THREE.MeshBasicMaterial({color: 0xffcc00, side: THREE.DoubleSide, depthTest: false}));
  ring.renderOrder = 2;
  ring.rotation.x = -Math.PI / 2;
  ring.visible = false;
  scene.add(ring);
  const target = new THREE.Mesh(new THREE.RingGeometry(0.010, 0.016, 32), new THREE.MeshBasicMaterial({color: 0xff3344, side: THREE.DoubleSide, depthTest: false}));
  target.renderOrder = 2;
  target.rotation.x = -Math.PI / 2;
  target.visible = false;
  scene.add(target);
  const path = new THREE.Line(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({color: 0xffcc00}));
  scene.add(path);
  const root = gltf.scene.children[0] || gltf.scene;
  const STUD = 20;  // LDU a stud; the root node turns bow3d's world (Z up, LDU) into glTF's
  const battlefield = root.children.find((n) => n.userData && n.userData.kind === "battlefield") || root;
  const raycaster = new THREE.Raycaster();
  function groundAt(node) {
    if (!node || !node.visible) return null;
    node.updateWorldMatrix(true, false);
    return new THREE.Vector3().setFromMatrixPosition(node.matrixWorld);
  }
  function surface(x, y) {  // the world point on top of the battlefield at [x, y] studs
    root.updateWorldMatrix(true, false);
    const top = root.localToWorld(new THREE.Vector3(x * STUD, y * STUD, 10000));
    const low = root.localToWorld(new THREE.Vector3(x * STUD, y * STUD, -10000));
    raycaster.set(top, low.clone().sub(top).normalize());
    const hit = raycaster.intersectObject(battlefield, true)[0];
    return hit ? hit.point : root.localToWorld(new THREE.Vector3(x * STUD, y * STUD, 0));
  }
  const litMaterial = new THREE.MeshBasicMaterial({color: 0x33aaff, transparent: true, opacity: 0.55, depthTest: false});
  let litMesh = null;
  function render() {
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (canvas.width !== Math.floor(width * renderer.getPixelRatio()) || canvas.height !== Math.floor(height * renderer.getPixelRatio())) {
      renderer.setSize(width, height, false);
      camera.aspect = width / Math.max(1, height);
      camera.updateProjectionMatrix();
      if (!framed) frame();
    }
    renderer.render(scene, camera);
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
  view.highlight = (id, cells) => {
    const at = groundAt(nodes[id]);
    ring.visible = !!at;
    if (at) ring.position.copy(at).add(new THREE.Vector3(0, 0.002, 0));
    if (litMesh) { scene.remove(litMesh); litMesh.dispose(); litMesh = null; }
    if (cells && cells.length) {  // the lit cells: a flat square on each, just above the ground
      const side = 0.8 * STUD * root.scale.x;
      litMesh = new THREE.InstancedMesh(new THREE.PlaneGeometry(side, side).rotateX(-Math.PI / 2), litMaterial, cells.length);
      const matrix = new THREE.Matrix4();
      cells.forEach((c, k) => {
        const p = surface(c[0] + 0.5, c[1] + 0.5);
        litMesh.setMatrixAt(k, matrix.makeTranslation(p.x, p.y + 0.001, p.z));
      });
      litMesh.renderOrder = 1;
      litMesh.frustumCulled = false;  // its bounding sphere is the one square's, at the origin
      scene.add(litMesh);
    }
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
      target.position.copy(surface(p[0], p[1])).add(new THREE.Vector3(0, 0.002, 0));
      target.visible = true;
    }
    if (points && points.length > 1) {
      path.geometry.setFromPoints(points.map((p) => surface(p[0], p[1]).add(new THREE.Vector3(0, 0.004, 0))));
      path.visible = true;
    }
    render();
  };
  function pointer(clientX, clientY) {
    const r = canvas.getBoundingClientRect();
    return new THREE.Vector2((clientX - r.left) / r.width * 2 - 1, -(clientY - r.top) / r.height * 2 + 1);
  }
  function tap(clientX, clientY) {  // a figure under the pointer, else the stud cell
    raycaster.setFromCamera(pointer(clientX, clientY), camera);
    const figures = Object.values(nodes).filter((n) => n.visible);
    const hit = raycaster.intersectObjects(figures, true)[0];
    if (hit) {
      let node = hit.object;
      while (node && !(node.userData && node.userData.id)) node = node.parent;
      page.lastTap = {unit: node && node.userData.id};
      if (node && tapUnit(node.userData.id)) return;
    }
    const ground = raycaster.intersectObject(battlefield, true)[0];
    if (!ground) return;
    const local = root.worldToLocal(ground.point.clone());
    page.lastTap = {cell: [Math.floor(local.x / STUD), Math.floor(local.y / STUD)]};
    tapCell(page.lastTap.cell);
  }
  let pressed = null;
  canvas.addEventListener("pointerdown", (event) => { pressed = [event.clientX, event.clientY]; });
  canvas.addEventListener("pointerup", (event) => {
    if (pressed && Math.hypot(event.clientX - pressed[0], event.clientY - pressed[1]) < 8) tap(event.clientX, event.clientY);
    pressed = null;
  });
  page.cellOnScreen = (i, j) => {  // where a cell's centre is on the page (for scripts and tests)
    const p = surface(i + 0.5, j + 0.5).project(camera);
    const r = canvas.getBoundingClientRect();
    return [r.left + (p.x + 1) / 2 * r.width, r.top + (1 - p.y) / 2 * r.height];
  };
  controls.addEventListener("change", render);
  window.addEventListener("resize", render);
  view.ready = true;
  page.ready3d = true;
  if (page.state) view.highlight(chosenUnit, page.lit);
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

// the language links keep the seat's token (after '#', which a link without it would drop)
for (const link of document.querySelectorAll("nav.languages a")) link.href = link.getAttribute("href") + location.hash;
connect();
waitForState().then(start3d).catch((error) => {
  page.error3d = String(error && error.message || error);
  $("view-status").textContent = w("The 3D view could not start: ") + page.error3d;
  console.warn("bow3d room: " + page.error3d);
});
