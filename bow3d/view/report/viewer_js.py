"""The battle report's scripts: the module loader and the 3D view (JavaScript, as text).

Layer: view (text only). The page's one inline module script is VIEWER_JS with LOADER_JS before it.
It reads three JSON blocks of the page: `bow3d-three` (the module graph, bow3d.view.report.three),
`bow3d-battle` (rounds and units) and `bow3d-glb` (the battle's .glb, base64). It exposes
`window.bow3dView` for scripts and tests: {ready, error, rounds, setRound(i), time(), unitPosition(id)}.
"""

import json

from bow3d.i18n import _

LOADER_JS = r"""
// Each module's text (inline, or fetched with its integrity checked) becomes a blob URL once the
// specifiers it imports point at the blob URLs of the modules it names.
async function loadThree(spec) {
  const urls = {};
  const quote = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const m of spec.modules) {
    let text = m.source;
    if (text === undefined) {
      const response = await fetch(spec.base + m.path, {integrity: m.integrity, mode: "cors", credentials: "omit"});
      if (!response.ok) throw new Error(`three.js ${m.path}: HTTP ${response.status}`);
      text = await response.text();
    }
    for (const [specifier, path] of Object.entries(m.deps)) {
      const pattern = new RegExp(`(\\bfrom\\s*|\\bimport\\s*)(['"])${quote(specifier)}\\2`, "g");
      text = text.replace(pattern, (all, before, q) => before + q + urls[path] + q);
    }
    urls[m.path] = URL.createObjectURL(new Blob([text], {type: "text/javascript"}));
  }
  const loaded = {};
  for (const [name, path] of Object.entries(spec.entries)) loaded[name] = await import(urls[path]);
  return loaded;
}
"""

VIEWER_JS = r"""
const view = window.bow3dView = {ready: false, error: null, rounds: [], round: 0};
const status = document.getElementById("view-status");
function fail(error) {
  view.error = String(error && error.message || error);
  status.textContent = "The 3D view could not start: " + view.error +
    (document.getElementById("bow3d-three").dataset.mode === "cdn"
      ? " (it loads three.js from the internet: make the report with --offline to carry it in the page)" : "");
  status.classList.add("error");
  console.warn("bow3d report: " + view.error);
}
function bytesOf(id) {
  const text = document.getElementById(id).textContent.trim();
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
async function start() {
  const spec = JSON.parse(document.getElementById("bow3d-three").textContent);
  const battle = JSON.parse(document.getElementById("bow3d-battle").textContent);
  const m = await loadThree(spec);
  const THREE = m.three;
  const canvas = document.getElementById("battle-canvas");
  const renderer = new THREE.WebGLRenderer({canvas, antialias: true, preserveDrawingBuffer: true});
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xdde6ee);
  const environment = new THREE.PMREMGenerator(renderer).fromScene(new m.RoomEnvironment.RoomEnvironment(), 0.04);
  scene.environment = environment.texture;
  scene.add(new THREE.HemisphereLight(0xffffff, 0x556655, 1.2));
  const sun = new THREE.DirectionalLight(0xffffff, 2.0);
  sun.position.set(0.6, 1.0, 0.4);
  scene.add(sun);
  const gltf = await new Promise((resolve, reject) =>
    new m.GLTFLoader.GLTFLoader().parse(bytesOf("bow3d-glb").buffer, "", resolve, reject));
  scene.add(gltf.scene);
  const box = new THREE.Box3().setFromObject(gltf.scene);
  const centre = box.getCenter(new THREE.Vector3());
  const size = box.getSize(new THREE.Vector3()).length();
  const camera = new THREE.PerspectiveCamera(40, 16 / 9, size / 200, size * 10);
  camera.position.copy(centre).add(new THREE.Vector3(0.55, 0.5, 0.75).multiplyScalar(size * 0.9));
  const controls = new m.OrbitControls.OrbitControls(camera, canvas);
  controls.target.copy(centre);
  controls.update();
  const units = {};
  gltf.scene.traverse((node) => { if (node.userData && node.userData.id) units[node.userData.id] = node; });
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const clip = gltf.animations[0];
  if (clip) mixer.clipAction(clip).play();
  let time = 0;
  function draw() {
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (canvas.width !== Math.floor(width * renderer.getPixelRatio())) {
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
    }
    renderer.render(scene, camera);
  }
  const slider = document.getElementById("round-slider");
  const label = document.getElementById("round-label");
  const rounds = battle.rounds;
  view.rounds = rounds;
  function seek(t, chosen) {
    time = Math.max(0, Math.min(t, battle.duration_s));
    mixer.setTime(time);
    let index = 0;
    rounds.forEach((r, i) => { if (r.time_s <= time + 1e-6 && r.shown !== false) index = i; });
    if (chosen !== undefined) index = chosen;
    view.round = index;
    slider.value = String(index);
    const r = rounds[index];
    const name = r ? (r.round === 0 ? "Before the battle" : `Round ${r.round}`) : "";
    const cut = r && r.shown === false ? ", not in the film" : "";
    label.textContent = r ? `${name} (${time.toFixed(1)} s of ${battle.duration_s.toFixed(1)} s${cut})` : "";
    draw();
  }
  slider.max = String(Math.max(0, rounds.length - 1));
  slider.disabled = rounds.length < 2;
  slider.addEventListener("input", () => {
    playing = false;
    play.textContent = "Play";
    const index = Number(slider.value);
    seek(rounds[index].time_s, index);
  });
  const play = document.getElementById("play-button");
  let playing = false, last = 0;
  function tick(now) {
    if (!playing) return;
    seek(time + Math.min(0.1, (now - last) / 1000));
    last = now;
    if (time >= battle.duration_s) { playing = false; play.textContent = "Play"; return; }
    requestAnimationFrame(tick);
  }
  play.disabled = !clip;
  play.addEventListener("click", () => {
    playing = !playing;
    play.textContent = playing ? "Pause" : "Play";
    if (playing) { if (time >= battle.duration_s) time = 0; last = performance.now(); requestAnimationFrame(tick); }
  });
  controls.addEventListener("change", draw);
  window.addEventListener("resize", draw);
  view.setRound = (i) => seek(rounds[i].time_s, i);
  view.time = () => time;
  view.unitPosition = (id) => {
    const node = units[id];
    if (!node) return null;
    node.updateWorldMatrix(true, false);
    const p = new THREE.Vector3().setFromMatrixPosition(node.matrixWorld);
    return [p.x, p.y, p.z];
  };
  view.units = Object.keys(units);
  seek(0);
  status.textContent = "Drag to turn, right-drag to pan, wheel to zoom; the slider moves the armies round by round.";
  view.ready = true;
}
start().catch(fail);
"""


def viewer_js() -> str:
    """VIEWER_JS with its words in the language spoken (the English script itself when English is spoken)."""
    words = {
        '"The 3D view could not start: "': _("The 3D view could not start: "),
        '" (it loads three.js from the internet: make the report with --offline to carry it in the page)"':
            _(" (it loads three.js from the internet: make the report with --offline to carry it in the page)"),
        '"Before the battle"': _("Before the battle"),
        '", not in the film"': _(", not in the film"),
        '"Play"': _("Play"),
        '"Pause"': _("Pause"),
        '"Drag to turn, right-drag to pan, wheel to zoom; the slider moves the armies round by round."':
            _("Drag to turn, right-drag to pan, wheel to zoom; the slider moves the armies round by round."),
    }
    script = VIEWER_JS
    for english, said in words.items():
        script = script.replace(english, json.dumps(said, ensure_ascii=False))
    # the two templates: `Round ${r.round}` and `${name} (${time} s of ${duration} s${cut})`
    script = script.replace("`Round ${r.round}`", "`" + _js_template(_("Round {number}"), number="${r.round}") + "`")
    of = _js_template(_("{time} s of {duration} s"), time="${time.toFixed(1)}",
                      duration="${battle.duration_s.toFixed(1)}")
    return script.replace("${time.toFixed(1)} s of ${battle.duration_s.toFixed(1)} s", of)


def _js_template(words: str, **slots: str) -> str:
    """A translation as the text of a JavaScript template literal, its {placeholders} the script's ${...}."""
    text = words.replace("\\", "\\\\").replace("`", "\\`").replace("$", "\\$")
    return text.format(**slots)
