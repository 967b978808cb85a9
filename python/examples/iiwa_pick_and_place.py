#!/usr/bin/env python3
"""The lecture notes' pick and place on the KUKA iiwa: joint torques along a quintic motion
with and without a 0.851 kg object in the gripper, and the object identified back from the
torques with PayloadIdentification; writes the motion as a viewer page (chaindyn.view).

    python3 -m chaindyn.examples.iiwa_pick_and_place [--out DIR]
    (from the build tree: PYTHONPATH=build/release/python)
"""
import argparse
import os

import numpy as np

import chaindyn as cd

parser = argparse.ArgumentParser()
parser.add_argument("--out", default="chaindyn_output")
out = parser.parse_args().out
os.makedirs(out, exist_ok=True)

empty = cd.robots.kuka_iiwa()
loaded = empty.copy()
loaded.set_payload(6, 0.851, [0.0, 0.0, 0.05], np.diag([1e-3, 1e-3, 5e-4]))
q0 = np.array([0.0, 0.5, 0.0, -1.2, 0.0, 0.8, 0.0])
qf = np.array([1.2, 0.9, 0.3, -0.6, 0.4, 1.1, -0.5])
traj = cd.QuinticTrajectory(q0, qf, 2.0)
t = np.linspace(0.0, 2.0, 101)
q, qd, qdd = traj.sample(t)
tau_empty = np.array([cd.rnea(empty, *s) for s in zip(q, qd, qdd)])
tau_loaded = np.array([cd.rnea(loaded, *s) for s in zip(q, qd, qdd)])
extra = np.max(np.abs(tau_loaded - tau_empty), axis=0)
print("iiwa pick and place, max extra torque of the 0.851 kg object per joint (N m):")
print("  " + "  ".join(f"{x:6.3f}" for x in extra))

ident = cd.PayloadIdentification(empty)
for s in zip(q, qd, qdd, tau_loaded):
    ident.add_sample(*s)
e = ident.estimate()
print(f"identified from the torques: mass {e['mass']:.6f} kg, centre of mass "
      f"{np.round(e['com'], 6)} m (condition number {e['condition_number']:.0f})")
assert e["ok"] and abs(e["mass"] - 0.851) < 1e-6

# The motion in the browser: the loaded arm, the object's weight as the external wrench on link 7
# (link frame, at the link origin: [c x f; f] with f the weight in link coordinates).
weight = np.zeros((len(t), 7, 6))
for k in range(len(t)):
    f = cd.frame_pose(loaded, q[k], 6)[:3, :3].T @ np.array([0.0, 0.0, -0.851 * 9.81])
    weight[k, 6] = np.concatenate([np.cross([0.0, 0.0, 0.05], f), f])
try:
    cd.view(loaded, (t, q), wrenches=weight, title="iiwa pick and place (0.851 kg object)",
            out=os.path.join(out, "py_iiwa_pick_and_place.html"), open_browser=False)
except cd.viewer.ViewerError as error:
    print("no viewer page:", error)

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib not installed: no plot")
    raise SystemExit(0)
fig, ax = plt.subplots(figsize=(8, 5))
for j in range(7):
    line, = ax.plot(t, tau_loaded[:, j], label=f"joint {j + 1}")
    ax.plot(t, tau_empty[:, j], "--", color=line.get_color(), linewidth=0.8)
ax.set(xlabel="t (s)", ylabel="torque (N m)",
       title="iiwa pick and place: with the 0.851 kg object (solid) and without (dashed)")
ax.legend(ncol=4, fontsize=8)
fig.tight_layout()
path = os.path.join(out, "py_iiwa_pick_and_place.png")
fig.savefig(path)
print("plot:", os.path.abspath(path))
