// The referee page (bow3d/serve/referee.py): the scene's glTF drawn with three.js, every figure dragged
// with a finger (or the mouse) to a stud and turned by 45 degrees, 'can the firer see the target' asked of
// the server (the same world and ruleset as `bow3d los`), the answer shown in words and in 3D (line of
// fire, blockers outlined, range bands, front arc), a tape between two points. The moved figures live in
// the address's #fragment, so a link shares them; "Save as a scene" downloads them as a scene file.
// Frames: glTF is metres, Y up; its root node turns bow3d's world (LDU, Z up) into it, so overlays are
// drawn as children of that root, in LDU; a scene position [x, y] studs is world (20 x, 20 y) LDU.
// For scripts and tests: window.bow3dReferee = {ready, error, verdict, answers, placements, firer, target,
// selected, place(id, x, y, facing), choose(role, id), screenOf(x, y), screenOfFigure(id)}.

const STUD = 20;                  // LDU per stud
const TURN = 45;                  // degrees a turn button turns
const PICK_PX = 14;               // a tap this close to a figure's outline picks it
const TAP_PX = 8;                 // a pointer that moves less than this is a tap, not a drag
const $ = (id) => document.getElementById(id);
const data = JSON.parse($("bow3d-referee").textContent);
const WORDS = JSON.parse($("bow3d-words").textContent);
const say = (text, args = {}) => (WORDS[text] || text).replace(/\{(\w+)\}/g, (all, k) => (k in args ? args[k] : all));
const number = (value, digits = 1) => value.toLocaleString(data.lang, {minimumFractionDigits: digits, maximumFractionDigits: digits});

const ref = window.bow3dReferee = {
  ready: false, error: null, verdict: null, answers: 0, busy: 0, placements: {}, firer: null, target: null,
  selected: null, tape: null,
};
const scenePlacement = {};        // id -> [x, y, facing] as the scene puts it (figures on the battlefield)
for (const f of data.figures) if (f.position) scenePlacement[f.id] = [f.position[0], f.position[1], f.facing];
const moved = {};                 // id -> [x, y, facing]: the figures placed on this page

function current(id) { return moved[id] || scenePlacement[id]; }

// --- the address's fragment: #firer=a&target=b&p=id:x:y:f,id:x:y:f --------------------------------
function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const item of (params.get("p") || "").split(",")) {
    const [id, ...rest] = item.split(":");
    const values = rest.map(Number);
    if (id in scenePlacement && values.length === 3 && values.every(Number.isFinite)) moved[id] = values;
  }
  for (const role of ["firer", "target"]) {
    const id = params.get(role);
    if (id && data.figures.some((f) => f.id === id)) ref[role] = id;
  }
}
function writeFragment() {
  const params = new URLSearchParams();
  if (ref.firer) params.set("firer", ref.firer);
  if (ref.target) params.set("target", ref.target);
  const p = Object.entries(moved).map(([id, v]) => [id, ...v.map((n) => +n.toFixed(3))].join(":")).join(",");
  if (p) params.set("p", p);
  history.replaceState(null, "", "#" + params.toString().replace(/%3A/g, ":").replace(/%2C/g, ","));
  ref.placements = JSON.parse(JSON.stringify(moved));
}

// --- the words of the panel --------------------------------------------------------------------
function label() {
  $("make-firer").textContent = say("Firer");
  $("make-target").textContent = say("Target");
  $("turn-left").setAttribute("aria-label", say("Turn left"));
  $("turn-right").setAttribute("aria-label", say("Turn right"));
  $("tape").textContent = say("Tape");
  $("eye").textContent = say("Firer's eye");
  $("save-scene").textContent = say("Save as a scene");
  $("copy-link").textContent = say("Share this position");
  $("reset").textContent = say("Put every figure back");
  $("link").setAttribute("aria-label", say("Share this position"));
  $("share-label").textContent = say("Seen");
  $("distance-label").textContent = say("Distance");
  $("range-label").textContent = say("Range");
  $("arc-label").textContent = say("Front arc");
  $("hint").textContent = say("Drag a figure to move it; drag elsewhere to turn the view, pinch to zoom.");
}
function showSelected() {
  $("selected").textContent = ref.selected ? say("Selected: {id}", {id: ref.selected}) : say("Nothing selected");
  for (const id of ["make-firer", "make-target", "turn-left", "turn-right"]) $(id).disabled = !ref.selected;
}
function showError(text) {
  $("error").hidden = !text;
  $("error").textContent = text || "";
}
function distanceWords(studs) {
  return data.length_unit === "in" ? say("{distance} inches", {distance: number(studs * 8 / 25.4)})
    : say("{distance} studs", {distance: number(studs)});
}
function describe(b) {
  if (b.kind === "decor") return `${b.part}, ${b.colour}${b.material ? ` (${b.material})` : ""}, ${b.file}:${b.line}`;
  return `${b.kind} ${b.id}`;
}
function showVerdict(v) {
  $("pair").textContent = `${say("Firer")}: ${ref.firer || "-"}  \u2192  ${say("Target")}: ${ref.target || "-"}`;
  if (!v) {
    $("verdict-text").textContent = ref.firer && ref.target ? say("Asking the referee...")
      : say("Choose a firer and a target: tap a figure, then Firer or Target.");
    for (const id of ["share", "distance", "range", "arc"]) $(id).textContent = "";
    $("blockers-label").textContent = "";
    $("blockers").replaceChildren();
    return;
  }
  $("verdict-text").textContent = v.text;
  $("share").textContent = `${number(v.visible_fraction * 100)} %`;
  $("distance").textContent = distanceWords(v.distance_studs);
  const band = v.rings.find(([radius]) => radius >= v.distance_studs - 1e-6);
  $("range").textContent = band ? band[1] : (v.rings.length ? say("beyond every band") : "-");
  $("arc").textContent = say(v.in_front_arc ? "in the front arc" : "outside the front arc");
  $("blockers-label").textContent = v.blockers.length ? say("Hidden by") : say("nothing in the way");
  $("blockers").replaceChildren(...v.blockers.map((b) => {
    const li = document.createElement("li");
    li.textContent = `${describe(b)}: ${number(b.share * 100, 0)} %`;
    return li;
  }));
}

// --- the server --------------------------------------------------------------------------------
let asked = 0;
async function post(path, body) {
  const response = await fetch(`/api/referee/${encodeURIComponent(data.scene)}/${path}`, {
    method: "POST", headers: {"content-type": "application/json"},
    body: JSON.stringify({...body, lang: data.lang}),
  });
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try { message = (await response.json()).message || message; } catch (e) { /* not JSON */ }
    throw new Error(message);
  }
  return path === "scene" ? response.text() : response.json();
}

let view = null;                  // the 3D side, once started
async function ask() {
  const question = ++asked;
  ref.busy += 1;
  writeFragment();
  const both = ref.firer && ref.target && ref.firer !== ref.target;
  if (both) showVerdict(null);
  try {
    const answer = both ? await post("los", {firer: ref.firer, target: ref.target, placements: moved})
      : await post("poses", {placements: moved});
    if (question !== asked) return;
    showError("");
    if (view) view.pose(answer.poses);
    ref.verdict = both ? answer : null;
    if (both) showVerdict(answer); else showVerdict(null);
    if (view) view.verdict(ref.verdict);
    ref.answers += 1;
  } catch (error) {
    if (question === asked) {
      showError(say("The referee could not answer: ") + error.message);
      ref.answers += 1;
    }
  } finally {
    ref.busy -= 1;
  }
}

function choose(role, id) {
  if (!(id in scenePlacement) && !data.figures.some((f) => f.id === id)) return;
  ref[role] = id;
  const other = role === "firer" ? "target" : "firer";
  if (ref[other] === id) ref[other] = null;
  if (view) view.marks();
  ask();
}
function select(id) {
  ref.selected = id;
  showSelected();
  if (view) view.marks();
}
function turn(by) {
  const id = ref.selected;
  if (!id || !current(id)) return;
  const [x, y, facing] = current(id);
  moved[id] = [x, y, ((facing + by) % 360 + 360) % 360];
  ask();
}

// --- the 3D view -------------------------------------------------------------------------------
async function start3d() {
  const m = await window.bow3dLoadThree(JSON.parse($("bow3d-three").textContent));
  const THREE = m.three;
  const canvas = $("referee-canvas");
  const renderer = new THREE.WebGLRenderer({canvas, antialias: true, preserveDrawingBuffer: true});
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xdde6ee);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667766, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(0.5, 1.0, 0.7);
  scene.add(sun);
  const response = await fetch(`/scene/${encodeURIComponent(data.scene)}.glb`);
  if (!response.ok) throw new Error(`/scene/${data.scene}.glb: HTTP ${response.status}`);
  const gltf = await new Promise(async (resolve, reject) =>
    new m.GLTFLoader.GLTFLoader().parse(await response.arrayBuffer(), "", resolve, reject));
  scene.add(gltf.scene);
  gltf.scene.updateMatrixWorld(true);
  const nodes = {};                 // figure id -> its node
  const decor = {};                 // "file:line" -> part nodes
  let battlefield = null, root = null;
  gltf.scene.traverse((node) => {
    const u = node.userData || {};
    if (u.id && (u.kind === "unit" || u.kind === "vehicle")) { nodes[u.id] = node; root = node.parent; }
    if (u.kind === "battlefield") battlefield = node;
    if (u.file && u.line !== undefined && u.part) (decor[`${u.file}:${u.line}`] ||= []).push(node);
  });
  root = root || gltf.scene.children[0];
  const overlay = new THREE.Group();     // LDU, Z up: the root's frame
  root.add(overlay);
  const outlines = new THREE.Group();    // world frame (BoxHelpers)
  scene.add(outlines);
  // the battlefield's extent in studs (what the world calls on the battlefield)
  const worldBox = new THREE.Box3().setFromObject(battlefield || gltf.scene);
  const a = root.worldToLocal(worldBox.min.clone()), b = root.worldToLocal(worldBox.max.clone());
  const extent = {x0: Math.min(a.x, b.x) / STUD, x1: Math.max(a.x, b.x) / STUD, y0: Math.min(a.y, b.y) / STUD,
    y1: Math.max(a.y, b.y) / STUD};
  const centre = worldBox.getCenter(new THREE.Vector3());
  const radius = worldBox.getSize(new THREE.Vector3()).length() / 2;
  const camera = new THREE.PerspectiveCamera(40, 1, radius / 100, radius * 20);
  const controls = new m.OrbitControls.OrbitControls(camera, canvas);
  controls.target.copy(centre);
  controls.maxPolarAngle = Math.PI * 0.48;
  let frame = 0;
  const draw = () => { frame = 0; renderer.render(scene, camera); };
  const redraw = () => { if (!frame) frame = requestAnimationFrame(draw); };
  controls.addEventListener("change", redraw);
  function fit() {
    const width = canvas.clientWidth, height = canvas.clientHeight;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    const half = THREE.MathUtils.degToRad(camera.fov / 2);
    const across = Math.atan(Math.tan(half) * Math.min(1, camera.aspect));
    const distance = radius * 0.82 / Math.sin(across);
    camera.position.copy(centre).add(new THREE.Vector3(0, 0.78, 0.62).normalize().multiplyScalar(distance));
    camera.updateProjectionMatrix();
    controls.update();
    redraw();
  }
  fit();
  new ResizeObserver(fit).observe(canvas);

  // -- where things are ---------------------------------------------------------------------
  const raycaster = new THREE.Raycaster();
  function pointer(clientX, clientY) {
    const r = canvas.getBoundingClientRect();
    return new THREE.Vector2((clientX - r.left) / r.width * 2 - 1, -(clientY - r.top) / r.height * 2 + 1);
  }
  function toScreen(worldPoint) {
    const r = canvas.getBoundingClientRect();
    const p = worldPoint.clone().project(camera);
    return {x: r.left + (p.x + 1) / 2 * r.width, y: r.top + (1 - p.y) / 2 * r.height};
  }
  function ground(clientX, clientY) {   // the battlefield under the pointer: [x_studs, y_studs, z_ldu] or null
    raycaster.setFromCamera(pointer(clientX, clientY), camera);
    const hit = battlefield ? raycaster.intersectObject(battlefield, true)[0] : null;
    let point = hit ? hit.point : null;
    if (!point) {
      const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(new THREE.Vector3(0, 1, 0), worldBox.min);
      point = raycaster.ray.intersectPlane(plane, new THREE.Vector3());
    }
    if (!point) return null;
    const local = root.worldToLocal(point.clone());
    return [local.x / STUD, local.y / STUD, local.z];
  }
  function surface(x, y) {                // the world point on top of the battlefield at [x, y] studs
    const top = root.localToWorld(new THREE.Vector3(x * STUD, y * STUD, 10000));
    const low = root.localToWorld(new THREE.Vector3(x * STUD, y * STUD, -10000));
    raycaster.set(top, low.clone().sub(top).normalize());
    const hit = battlefield ? raycaster.intersectObject(battlefield, true)[0] : null;
    return hit ? hit.point : root.localToWorld(new THREE.Vector3(x * STUD, y * STUD, 0));
  }
  function screenBox(id) {
    const box = new THREE.Box3().setFromObject(nodes[id]);
    if (box.isEmpty()) return null;
    const xs = [], ys = [];
    for (const cx of [box.min.x, box.max.x]) for (const cy of [box.min.y, box.max.y]) for (const cz of [box.min.z, box.max.z]) {
      const s = toScreen(new THREE.Vector3(cx, cy, cz));
      xs.push(s.x); ys.push(s.y);
    }
    return {x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys),
      centre: toScreen(box.getCenter(new THREE.Vector3()))};
  }
  function figureAt(clientX, clientY) {   // the figure under a finger: inside its outline, nearest centre first
    let best = null, bestDistance = Infinity;
    for (const id of Object.keys(nodes)) {
      if (!(id in scenePlacement) || !nodes[id].visible) continue;
      const s = screenBox(id);
      if (!s || clientX < s.x0 - PICK_PX || clientX > s.x1 + PICK_PX || clientY < s.y0 - PICK_PX || clientY > s.y1 + PICK_PX) continue;
      const d = Math.hypot(clientX - s.centre.x, clientY - s.centre.y);
      if (d < bestDistance) { best = id; bestDistance = d; }
    }
    return best;
  }
  function freeCell(id, x, y) {           // the stud centre nearest [x, y] on the battlefield that no other figure holds
    const taken = new Set(Object.keys(scenePlacement).filter((o) => o !== id)
      .map((o) => `${Math.floor(current(o)[0])},${Math.floor(current(o)[1])}`));
    const i0 = Math.floor(x), j0 = Math.floor(y);
    for (let ring = 0; ring < 64; ring++) {
      let best = null, bestDistance = Infinity;
      for (let i = i0 - ring; i <= i0 + ring; i++) for (let j = j0 - ring; j <= j0 + ring; j++) {
        if (Math.max(Math.abs(i - i0), Math.abs(j - j0)) !== ring) continue;
        const cx = i + 0.5, cy = j + 0.5;
        if (cx < extent.x0 || cx > extent.x1 || cy < extent.y0 || cy > extent.y1 || taken.has(`${i},${j}`)) continue;
        const d = Math.hypot(cx - x, cy - y);
        if (d < bestDistance) { best = [cx, cy]; bestDistance = d; }
      }
      if (best) return best;
    }
    return null;
  }

  // -- a finger (or the mouse) on the battlefield ----------------------------------------------
  let drag = null;
  canvas.addEventListener("pointerdown", (event) => {
    if (drag || !event.isPrimary) return;
    const id = ref.tape ? null : figureAt(event.clientX, event.clientY);
    drag = {id, x: event.clientX, y: event.clientY, pointer: event.pointerId, moved: false};
    if (id || ref.tape) {
      event.stopImmediatePropagation();   // OrbitControls does not see it: the finger holds a figure
      event.preventDefault();
      canvas.setPointerCapture(event.pointerId);
    }
  }, {capture: true});
  canvas.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > TAP_PX) drag.moved = true;
    if (!drag.id || !drag.moved) return;
    const at = ground(event.clientX, event.clientY);
    if (!at) return;
    nodes[drag.id].position.set(at[0] * STUD, at[1] * STUD, at[2]);
    redraw();
  });
  const release = (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const held = drag;
    drag = null;
    if (ref.tape && !held.moved) return measure(event.clientX, event.clientY);
    if (!held.moved) {                   // a tap: select what is under it (or nothing)
      select(figureAt(event.clientX, event.clientY));
      return;
    }
    if (!held.id) return;
    const at = ground(event.clientX, event.clientY);
    const cell = at && freeCell(held.id, at[0], at[1]);
    select(held.id);
    if (cell) moved[held.id] = [cell[0], cell[1], current(held.id)[2]];
    ask();
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", (event) => { if (drag && event.pointerId === drag.pointer) { drag = null; ask(); } });

  // -- the tape ---------------------------------------------------------------------------------
  const tape = new THREE.Group();
  overlay.add(tape);
  function measure(clientX, clientY) {
    raycaster.setFromCamera(pointer(clientX, clientY), camera);
    const hit = battlefield ? raycaster.intersectObject(battlefield, true)[0] : null;
    const point = hit ? root.worldToLocal(hit.point.clone()) : null;
    if (!point) return;
    ref.tape.push(point);
    if (ref.tape.length > 2) ref.tape.splice(0, ref.tape.length - 1);
    tape.clear();
    for (const p of ref.tape) tape.add(dot(p, 0xffc107));
    if (ref.tape.length === 2) {
      tape.add(line(ref.tape, 0xffc107));
      const studs = ref.tape[0].distanceTo(ref.tape[1]) / STUD;
      $("tape-result").textContent = `${say("Tape")}: ${distanceWords(studs)}`;
    } else {
      $("tape-result").textContent = say("Tap a second point.");
    }
    $("tape-result").hidden = false;
    redraw();
  }
  function toggleTape() {
    ref.tape = ref.tape ? null : [];
    $("tape").setAttribute("aria-pressed", String(!!ref.tape));
    tape.clear();
    $("tape-result").hidden = !ref.tape;
    $("tape-result").textContent = ref.tape ? say("Tap two points to measure.") : "";
    redraw();
  }

  // -- overlays (LDU, Z up) ---------------------------------------------------------------------
  function line(points, colour) {
    const geometry = new THREE.BufferGeometry().setFromPoints(points);
    return new THREE.Line(geometry, new THREE.LineBasicMaterial({color: colour, depthTest: false, transparent: true}));
  }
  function dot(p, colour) {
    const mesh = new THREE.Mesh(new THREE.SphereGeometry(16, 12, 8), new THREE.MeshBasicMaterial({color: colour, depthTest: false}));
    mesh.position.copy(p);
    mesh.renderOrder = 3;
    return mesh;
  }
  function circle(x, y, z, r, colour, segments = 96) {
    const points = [];
    for (let k = 0; k <= segments; k++) {
      const t = (k / segments) * Math.PI * 2;
      points.push(new THREE.Vector3(x + r * Math.cos(t), y + r * Math.sin(t), z));
    }
    const l = line(points, colour);
    l.renderOrder = 2;
    return l;
  }
  const marks = new THREE.Group();
  overlay.add(marks);
  const sight = new THREE.Group();
  overlay.add(sight);
  function feet(id) { return nodes[id] ? nodes[id].position.z : 0; }
  function showMarks() {
    marks.clear();
    for (const [id, colour] of [[ref.firer, 0x1565c0], [ref.target, 0xc62828], [ref.selected, 0xffc107]]) {
      if (!id || !current(id)) continue;
      const [x, y] = current(id);
      marks.add(circle(x * STUD, y * STUD, feet(id) + 2, (id === ref.selected ? 1.3 : 1.0) * STUD, colour, 48));
    }
    redraw();
  }
  function showSight(v) {
    sight.clear();
    outlines.clear();
    if (v && current(v.firer) && current(v.target)) {
      const [fx, fy, facing] = current(v.firer);
      const [tx, ty] = current(v.target);
      const z = v.firer_feet_ldu + 1;
      const eye = new THREE.Vector3(...v.eye_ldu);
      const aim = new THREE.Vector3(tx * STUD, ty * STUD, (v.target_feet_ldu + v.target_top_ldu) / 2);
      const fire = line([eye, aim], v.visible ? 0x2e7d32 : 0xc62828);
      fire.renderOrder = 4;
      sight.add(fire);
      const colours = [0x43a047, 0xfdd835, 0xfb8c00, 0xe53935, 0x8e24aa];
      v.rings.forEach(([r], k) => sight.add(circle(fx * STUD, fy * STUD, z, r * STUD, colours[Math.min(k, colours.length - 1)])));
      const reach = (v.rings[0] ? v.rings[0][0] : 15) * STUD;
      const start = THREE.MathUtils.degToRad(facing - 90);
      const arc = new THREE.Mesh(new THREE.CircleGeometry(reach, 48, start, Math.PI),
        new THREE.MeshBasicMaterial({color: 0x42a5f5, transparent: true, opacity: 0.22, side: THREE.DoubleSide, depthWrite: false}));
      arc.position.set(fx * STUD, fy * STUD, z);
      sight.add(arc);
      for (const b of v.blockers) {
        const found = b.kind === "decor" ? decor[`${b.file}:${b.line}`] || [] : (nodes[b.id] ? [nodes[b.id]] : []);
        for (const node of found) {
          const helper = new THREE.BoxHelper(node, 0xff6d00);
          helper.material.depthTest = false;
          helper.renderOrder = 5;
          outlines.add(helper);
        }
      }
    }
    redraw();
  }
  function pose(poses) {
    for (const [id, trs] of Object.entries(poses || {})) {
      const node = nodes[id];
      if (!node) continue;
      node.visible = !!trs;
      if (trs) {
        node.position.fromArray(trs[0]);
        node.quaternion.fromArray(trs[1]);
        node.scale.fromArray(trs[2]);
      }
    }
    gltf.scene.updateMatrixWorld(true);
    showMarks();
  }

  $("tape").addEventListener("click", toggleTape);
  // The view from the firer's eye: the camera at the eye the rays leave from, looking at the target's middle.
  let away = null;   // the orbit camera's place while the eye view is on
  function eyeView(on) {
    const v = ref.verdict;
    if (on && v && current(v.target)) {
      if (!away) away = [camera.position.clone(), controls.target.clone(), camera.fov];
      const [tx, ty] = current(v.target);
      root.updateWorldMatrix(true, false);
      camera.position.copy(root.localToWorld(new THREE.Vector3(...v.eye_ldu)));
      controls.target.copy(root.localToWorld(new THREE.Vector3(tx * STUD, ty * STUD, (v.target_feet_ldu + v.target_top_ldu) / 2)));
      camera.fov = 30;
      camera.near = radius / 2000;
      for (const [id, node] of Object.entries(nodes)) node.visible = id !== v.firer && node.visible;  // its own head is no wall
    } else if (away) {
      [camera.position, controls.target, camera.fov] = [away[0], away[1], away[2]];
      camera.near = radius / 100;
      away = null;
      if (ref.verdict && nodes[ref.verdict.firer]) nodes[ref.verdict.firer].visible = true;
    }
    camera.updateProjectionMatrix();
    controls.update();
    $("eye").setAttribute("aria-pressed", String(!!away));
    redraw();
    return !!away;
  }
  $("eye").addEventListener("click", () => eyeView(!away));
  return {
    pose, marks: showMarks, verdict: (v) => { showSight(v); if (away) eyeView(!!v); }, redraw, eyeView,
    screenOf: (x, y) => toScreen(surface(x, y)),
    screenOfFigure: (id) => (nodes[id] ? screenBox(id) : null),
    figureAt,
  };
}

// --- the buttons -------------------------------------------------------------------------------
$("make-firer").addEventListener("click", () => ref.selected && choose("firer", ref.selected));
$("make-target").addEventListener("click", () => ref.selected && choose("target", ref.selected));
$("turn-left").addEventListener("click", () => turn(TURN));
$("turn-right").addEventListener("click", () => turn(-TURN));
$("reset").addEventListener("click", () => { for (const id of Object.keys(moved)) delete moved[id]; ask(); });
$("copy-link").addEventListener("click", async () => {
  writeFragment();
  const link = $("link");
  link.value = location.href;
  link.hidden = false;
  link.select();
  try {
    await navigator.clipboard.writeText(location.href);
    $("copy-link").textContent = say("Link copied");
  } catch (e) { /* no clipboard here (plain http): the link is shown, selected */ }
});
$("save-scene").addEventListener("click", async () => {
  try {
    const text = await post("scene", {placements: moved});
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], {type: "application/yaml"}));
    a.download = `${data.scene}-referee.yaml`;
    document.body.append(a);
    a.click();
    a.remove();
  } catch (error) {
    showError(say("The referee could not answer: ") + error.message);
  }
});

ref.place = (id, x, y, facing) => { moved[id] = [x, y, facing]; return ask(); };   // for scripts only
ref.choose = choose;
ref.select = select;
ref.current = (id) => current(id);

// the language links keep the figures where they were moved (the address's fragment, as it is when clicked)
for (const link of document.querySelectorAll("nav.languages a")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    writeFragment();
    location.href = link.getAttribute("href") + location.hash;
  });
}
label();
readFragment();
showSelected();
showVerdict(null);
start3d().then((v) => {
  view = v;
  ref.screenOf = v.screenOf;
  ref.screenOfFigure = v.screenOfFigure;
  ref.figureAt = v.figureAt;
  ref.eyeView = v.eyeView;
  return ask();
}).then(() => { ref.ready = true; }).catch((error) => {
  ref.error = String(error && error.message || error);
  $("view-status").textContent = say("The 3D view could not start: ") + ref.error;
  $("view-status").classList.add("error");
  console.warn("bow3d referee: " + ref.error);
});
