#!/usr/bin/env python3
"""The lecture notes' pick and place on the KUKA iiwa: joint torques along a quintic motion
with and without a 0.851 kg object in the gripper, and the object identified back from the
torques with PayloadIdentification.

    PYTHONPATH=build/release/python python3 python/examples/iiwa_pick_and_place.py [--out DIR]
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
