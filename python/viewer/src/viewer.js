// chaindyn's robot viewer: the script of the page chaindyn.view writes (python/chaindyn/viewer).
// Bundled at build time with three.js and urdf-loader (npm, pinned in ../package-lock.json) into
// one classic script, chaindyn_viewer.js, which the page inlines: the page needs no network and
// no server (file:// blocks ES modules and fetch, so nothing is loaded at run time).
//
// The page's data (a <script type="application/json" id="chaindyn-data">, written by
// chaindyn/viewer/__init__.py) holds the URDF text, the mesh files it names (base64), the URDF
// link of each chaindyn joint, the inertia boxes, the motion, the ghosts and the wrenches.
// URDF is z-up, three.js y-up: the robot hangs in a group turned so that its up (against its
// gravity, data.up) is three.js' y.
//
// window.chaindyn is the page's interface for tests and the console: setFrame(k),
// linkPoses() (each chaindyn link's 4x4 pose in the robot's base frame, row-major, computed by
// urdf-loader's joints and three.js' matrices in double precision), frameCount, ready. With
// #test=k1,k2,... in the URL the page writes {"frames": {k: poses}, "canvas": the rendered
// picture as a PNG data URL} into <pre id="chaindyn-test"> for `chromium --dump-dom`; #frame=k
// shows frame k, paused; #show=frames,com,inertia,wrenches,path chooses the overlays. In a frame (#page=NAME), the page also posts the result to its parent.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { ColladaLoader } from 'three/examples/jsm/loaders/ColladaLoader.js';
import URDFLoader from 'urdf-loader';

const data = JSON.parse(document.getElementById('chaindyn-data').textContent);
const hash = new URLSearchParams(location.hash.slice(1));

function decodeBase64(text) {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; ++i) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

// --- the robot, from its URDF text; meshes from the page's data, never from the network -----
const meshErrors = [];
function loadRobot(opacity) {
  const loader = new URDFLoader();
  loader.parseCollision = false;
  loader.packages = (pkg) => 'package://' + pkg;  // keep package:// paths: they key data.meshes
  loader.loadMeshCb = (path, manager, material, done) => {
    const encoded = data.meshes[path];
    if (!encoded) {
      if (!meshErrors.includes(path)) meshErrors.push(path);
      done(null);  // no mesh: the link gets the simple shapes below
      return;
    }
    const bytes = decodeBase64(encoded);
    const ext = path.split('.').pop().toLowerCase();
    try {
      if (ext === 'stl') {
        done(new THREE.Mesh(new STLLoader().parse(bytes.buffer), material));
      } else if (ext === 'dae') {
        done(new ColladaLoader().parse(new TextDecoder().decode(bytes), '').scene);
      } else {
        meshErrors.push(path + ' (only STL and COLLADA are read)');
        done(null);
      }
    } catch (e) {
      meshErrors.push(path + ': ' + e);
      done(null);
    }
  };
  const robot = loader.parse(data.urdf);
  for (const joint of Object.values(robot.joints)) joint.ignoreLimits = true;  // show q as given
  if (opacity < 1) {
    robot.traverse((o) => {
      if (o.isMesh) {
        o.material = o.material.clone();
        o.material.transparent = true;
        o.material.opacity = opacity;
        o.material.depthWrite = false;
      }
    });
  }
  return robot;
}

// The joint that moves chaindyn's link i is the URDF joint whose child is data.links[i].
function chaindynJoints(robot) {
  return data.links.map((name) => {
    const link = robot.links[name];
    if (!link) throw new Error('chaindyn viewer: the URDF has no link ' + name);
    let o = link.parent;
    while (o && !(o.isURDFJoint && o.jointType !== 'fixed')) o = o.parent;
    return o;
  });
}

function setConfiguration(robot, joints, q) {
  joints.forEach((joint, i) => { if (joint) joint.setJointValue(q[i]); });
}

// Simple shapes for the links that have no visual geometry (no <visual>, or a mesh the page does
// not have): a rod from the link's origin to each child joint (to twice the centre of mass on a
// link without children) and a ball at the joint.
function addSimpleShapes(robot, color, opacity) {
  const material = new THREE.MeshPhongMaterial({ color, transparent: opacity < 1, opacity });
  let reach = 0;  // the rods' thickness follows the robot's size
  for (const joint of Object.values(robot.joints)) reach += joint.position.length();
  const radius = Math.min(0.08, Math.max(0.015, 0.015 * reach));
  for (const link of Object.values(robot.links)) {
    let hasVisual = false;
    for (const visual of link.children.filter((c) => c.isURDFVisual)) {
      visual.traverse((o) => { if (o.isMesh) hasVisual = true; });
    }
    if (hasVisual) continue;
    const ends = link.children.filter((c) => c.isURDFJoint).map((j) => j.position.clone());
    const box = data.inertia[data.links.indexOf(link.name)];
    if (ends.length === 0 && box) ends.push(new THREE.Vector3(...box.com).multiplyScalar(2));  // a tip link
    const ball = new THREE.Mesh(new THREE.SphereGeometry(1.5 * radius, 20, 12), material);
    link.add(ball);
    for (const end of ends) {
      const length = end.length();
      if (length < 1e-6) continue;
      const rod = new THREE.Mesh(new THREE.CylinderGeometry(radius, radius, length, 16), material);
      rod.position.copy(end).multiplyScalar(0.5);
      rod.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), end.clone().normalize());
      link.add(rod);
    }
  }
}

// --- scene -----------------------------------------------------------------------------------
// Without WebGL the page still loads the robot and computes its poses (the test hooks below),
// and says why it shows nothing.
let renderer = null;
try {
  renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio);
  renderer.setSize(window.innerWidth, window.innerHeight);
  document.body.appendChild(renderer.domElement);
} catch (e) {
  document.getElementById('notes').textContent = 'no WebGL in this browser: ' + e.message;
}
const scene = new THREE.Scene();
scene.background = new THREE.Color(0xf2f2ee);
scene.add(new THREE.HemisphereLight(0xffffff, 0x8d8d8d, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 2.0);
sun.position.set(3, 6, 4);
scene.add(sun);
// The robot's up (against its gravity; URDF's z without gravity) is three.js' y.
const world = new THREE.Group();
const up = new THREE.Vector3(...(data.up || [0, 0, 1])).normalize();
world.quaternion.setFromUnitVectors(up, new THREE.Vector3(0, 1, 0));
scene.add(world);
world.updateMatrixWorld(true);  // the links' world matrices below then include the turn

const robot = loadRobot(1);
world.add(robot);
const joints = chaindynJoints(robot);
addSimpleShapes(robot, 0xe07a1f, 1);

const motion = data.motion || { t: [0], q: [new Array(data.links.length).fill(0)] };
const frameCount = motion.q.length;

const ghosts = (data.ghosts || []).map((g) => {
  const r = loadRobot(0.18);
  addSimpleShapes(r, 0x3a6fd8, 0.18);
  world.add(r);
  return { robot: r, joints: chaindynJoints(r), motion: g };
});

// --- overlays --------------------------------------------------------------------------------
const overlays = { frames: new THREE.Group(), com: new THREE.Group(), inertia: new THREE.Group(),
                   wrenches: new THREE.Group(), path: new THREE.Group() };
data.links.forEach((name, i) => {
  const link = robot.links[name];
  const axes = new THREE.AxesHelper(0.12);
  axes.userData.link = link;
  overlays.frames.add(axes);
  const box = data.inertia[i];
  if (!box || box.mass <= 0) return;
  const com = new THREE.Mesh(new THREE.SphereGeometry(0.02, 16, 10),
                             new THREE.MeshBasicMaterial({ color: 0x111111, depthTest: false }));
  com.position.fromArray(box.com);
  com.renderOrder = 2;
  com.userData.link = link;
  overlays.com.add(com);
  // The box of uniform density with the link's mass and rotational inertia (principal axes),
  // red where no such box exists (the inertia breaks the triangle inequality).
  const size = box.size.map((s) => Math.max(s, 1e-3));
  const mesh = new THREE.Mesh(new THREE.BoxGeometry(size[0], size[1], size[2]),
    new THREE.MeshBasicMaterial({ color: box.ok ? 0x2a9d8f : 0xd62828, wireframe: true }));
  const r = box.rotation;  // columns: principal axes in link coordinates
  const m = new THREE.Matrix4().set(r[0], r[1], r[2], box.com[0], r[3], r[4], r[5], box.com[1],
                                    r[6], r[7], r[8], box.com[2], 0, 0, 0, 1);
  mesh.matrixAutoUpdate = false;
  mesh.matrix.copy(m);
  mesh.userData.link = link;
  overlays.inertia.add(mesh);
});
// Overlay objects live in the link they describe (added after urdf-loader built the link).
for (const group of [overlays.frames, overlays.com, overlays.inertia]) {
  for (const o of [...group.children]) {
    const holder = new THREE.Group();
    holder.add(o);
    o.userData.link.add(holder);
    group.userData.holders = (group.userData.holders || []).concat([holder]);
  }
}

// External wrenches (link frame, at the link origin): force arrows (N, scaled) and torque arrows.
const wrenchArrows = data.links.map((name) => {
  const force = new THREE.ArrowHelper(new THREE.Vector3(1, 0, 0), new THREE.Vector3(), 0.1, 0xc1121f);
  const torque = new THREE.ArrowHelper(new THREE.Vector3(1, 0, 0), new THREE.Vector3(), 0.1, 0x7b2cbf);
  robot.links[name].add(force, torque);
  force.visible = torque.visible = false;
  return { force, torque };
});

function tipPosition(r, jointsOf) {
  const tip = r.links[data.links[data.path_link]];
  r.updateMatrixWorld(true);
  const inv = new THREE.Matrix4().copy(r.matrixWorld).invert();
  return new THREE.Vector3().setFromMatrixPosition(new THREE.Matrix4().multiplyMatrices(inv, tip.matrixWorld));
}
function pathLine(r, jointsOf, m, color) {
  const points = m.q.map((q) => { setConfiguration(r, jointsOf, q); return tipPosition(r, jointsOf); });
  const line = new THREE.Line(new THREE.BufferGeometry().setFromPoints(points),
                              new THREE.LineBasicMaterial({ color }));
  overlays.path.add(line);
}
pathLine(robot, joints, motion, 0x1d3557);
for (const g of ghosts) pathLine(g.robot, g.joints, g.motion, 0x7aa0e8);
world.add(overlays.path);

// --- frames of the motion --------------------------------------------------------------------
let frame = 0;
function frameAt(m, t) {  // the last sample at or before t
  let lo = 0, hi = m.t.length - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (m.t[mid] <= t) lo = mid; else hi = mid - 1; }
  return lo;
}
function setFrame(k) {
  frame = Math.max(0, Math.min(frameCount - 1, k));
  setConfiguration(robot, joints, motion.q[frame]);
  const t = motion.t[frame];
  for (const g of ghosts) setConfiguration(g.robot, g.joints, g.motion.q[frameAt(g.motion, t)]);
  const w = data.wrenches ? data.wrenches[frame] : null;
  wrenchArrows.forEach((a, i) => {
    const f = w ? w[i] : null;
    for (const [arrow, v] of [[a.torque, f && f.slice(0, 3)], [a.force, f && f.slice(3, 6)]]) {
      const n = v ? Math.hypot(...v) : 0;
      arrow.visible = overlays.wrenches.visible && n > 0;
      if (n > 0) {
        arrow.setDirection(new THREE.Vector3(...v).normalize());
        arrow.setLength(Math.min(0.5, 0.05 + 0.02 * n));
      }
    }
  });
  robot.updateMatrixWorld(true);
  ui.time.textContent = `t = ${t.toFixed(3)} s  (${frame + 1}/${frameCount})`;
  ui.slider.value = frame;
}

// Each chaindyn link's pose in the robot's base frame, row-major 4x4.
function linkPoses() {
  robot.updateMatrixWorld(true);
  const inv = new THREE.Matrix4().copy(robot.matrixWorld).invert();
  return data.links.map((name) => {
    const m = new THREE.Matrix4().multiplyMatrices(inv, robot.links[name].matrixWorld).elements;
    return [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => m[c * 4 + r]));
  });
}

// --- controls --------------------------------------------------------------------------------
const ui = {};
const panel = document.getElementById('chaindyn-panel');
ui.play = panel.querySelector('#play');
ui.slider = panel.querySelector('#slider');
ui.time = panel.querySelector('#time');
ui.slider.max = frameCount - 1;
let playing = frameCount > 1 && !hash.has('frame') && !hash.has('test');
let clockStart = performance.now() / 1000 - motion.t[0];
ui.play.textContent = playing ? 'pause' : 'play';
ui.play.onclick = () => {
  playing = !playing;
  if (frame >= frameCount - 1) frame = 0;
  clockStart = performance.now() / 1000 - motion.t[frame];
  ui.play.textContent = playing ? 'pause' : 'play';
};
ui.slider.oninput = () => { playing = false; ui.play.textContent = 'play'; setFrame(+ui.slider.value); };
const showOverlays = hash.has('show') ? hash.get('show').split(',') : null;  // #show=frames,inertia,...
for (const [name, group] of Object.entries(overlays)) {
  const box = panel.querySelector('#show-' + name);
  if (showOverlays) box.checked = showOverlays.includes(name);
  const apply = () => {
    group.visible = box.checked;
    for (const h of group.userData.holders || []) h.visible = box.checked;
    setFrame(frame);
  };
  box.onchange = apply;
  apply();
}
if (meshErrors.length) {
  document.getElementById('notes').textContent = `${meshErrors.length} mesh file(s) not in the ` +
    `page, simple shapes drawn instead (${meshErrors[0]}${meshErrors.length > 1 ? ', ...' : ''})`;
  document.getElementById('notes').title = meshErrors.join('\n');
}

const camera = new THREE.PerspectiveCamera(40, window.innerWidth / window.innerHeight, 0.01, 100);
const controls = renderer ? new OrbitControls(camera, renderer.domElement) : null;
{ // frame the robot over the whole motion
  // the link origins and visuals over the motion (not the overlays: an inertia box of a bad URDF
  // can be huge)
  const bounds = new THREE.Box3();
  for (const k of [0, frameCount >> 2, frameCount >> 1, (3 * frameCount) >> 2, frameCount - 1]) {
    setFrame(k);
    for (const link of Object.values(robot.links)) {
      bounds.expandByPoint(new THREE.Vector3().setFromMatrixPosition(link.matrixWorld));
      for (const visual of link.children.filter((c) => c.isURDFVisual)) bounds.expandByObject(visual);
    }
  }
  bounds.expandByScalar(0.1);
  const centre = bounds.getCenter(new THREE.Vector3());
  const radius = Math.max(0.3, bounds.getSize(new THREE.Vector3()).length() / 2);
  // a 40-degree view holds a sphere of this radius at 2.9 radii: a little closer, the robot fills it
  camera.position.copy(centre).add(new THREE.Vector3(1.6, 1.0, 1.9).normalize().multiplyScalar(radius * 2.4));
  if (controls) { controls.target.copy(centre); controls.update(); } else camera.lookAt(centre);
  const grid = new THREE.GridHelper(Math.max(2, Math.ceil(radius * 3)), 20, 0x999999, 0xcccccc);
  grid.position.y = Math.min(0, bounds.min.y);  // the floor under the robot, where it hangs
  scene.add(grid);
}

window.addEventListener('resize', () => {
  camera.aspect = window.innerWidth / window.innerHeight;
  camera.updateProjectionMatrix();
  if (renderer) renderer.setSize(window.innerWidth, window.innerHeight);
});

function animate() {
  if (playing) {
    const t = performance.now() / 1000 - clockStart;
    const k = frameAt(motion, t);
    if (k !== frame) setFrame(k);
    if (t > motion.t[frameCount - 1]) { playing = false; ui.play.textContent = 'play'; }
  }
  controls.update();
  renderer.render(scene, camera);
  requestAnimationFrame(animate);
}

setFrame(hash.has('frame') ? +hash.get('frame') : 0);
if (renderer) renderer.render(scene, camera);
if (hash.has('test')) {
  // the rendered picture of the shown frame (a test checks it is not blank), then the poses
  const canvas = renderer ? renderer.domElement.toDataURL('image/png') : null;
  const shown = frame;
  const frames = {};
  for (const k of hash.get('test').split(',').map(Number)) { setFrame(k); frames[k] = linkPoses(); }
  setFrame(shown);
  const result = { frames, meshErrors, canvas,
                   size: renderer ? [renderer.domElement.width, renderer.domElement.height] : null };
  const out = document.createElement('pre');
  out.id = 'chaindyn-test';
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
  // in a test's frame (one browser for several pages), to the page that holds it
  if (window.parent !== window) window.parent.postMessage({ chaindynTest: result, page: hash.get('page') }, '*');
}
// #test renders once, with no animation loop for a headless browser to run through (a
// screenshot needs the loop: a headless screenshot does not show a canvas drawn only once).
if (renderer && !hash.has('test')) requestAnimationFrame(animate);
window.chaindyn = { setFrame, linkPoses, frameCount, ready: true, meshErrors };
