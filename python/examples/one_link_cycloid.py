#!/usr/bin/env python3
"""The lecture notes' one-link arm on the cycloid (Saha, "Inverse Dynamics of One-link Planar
Arm Using MATLAB"): m = 1 kg, a = 1 m, from 0 to pi in T = 10 s. The torque by rnea on the
chain equals the closed form tau = (1/3) m a^2 qdd + (1/2) m g a sin q; then the arm swings
freely from 0.5 rad (rk45, the ode45 equivalent) and its energy is kept.

    python3 -m chaindyn.examples.one_link_cycloid [--out DIR]
    (from the build tree: PYTHONPATH=build/release/python)
"""
import argparse
import math
import os

import numpy as np

import chaindyn as cd

parser = argparse.ArgumentParser()
parser.add_argument("--out", default="chaindyn_output")
out = parser.parse_args().out
os.makedirs(out, exist_ok=True)

m, a, g = 1.0, 1.0, 9.81
arm = cd.closed_form.OneLinkArm.uniform_rod(m, a, g)
robot = arm.to_robot()
traj = cd.CycloidalTrajectory([0.0], [math.pi], 10.0)
t = np.linspace(0.0, 10.0, 201)
q, qd, qdd = traj.sample(t)
tau = np.array([cd.rnea(robot, q[k], qd[k], qdd[k])[0] for k in range(len(t))])
closed = m * a * a / 3.0 * qdd[:, 0] + 0.5 * m * g * a * np.sin(q[:, 0])
err = float(np.max(np.abs(tau - closed)))
print(f"one-link arm on the cycloid: max |rnea - closed form| = {err:.2e} N m")
assert err < 1e-12

swing = cd.simulate(robot, [0.5], [0.0], None, 10.0, output_interval=0.05)
energy = np.array([cd.kinetic_energy(robot, qk, qdk) + cd.potential_energy(robot, qk)
                   for qk, qdk in zip(swing["q"], swing["qd"])])
drift = float(np.max(np.abs(energy - energy[0])) / abs(energy[0]))
print(f"free swing from 0.5 rad, rk45 rtol 1e-6: {swing['steps']} steps, relative energy "
      f"drift {drift:.1e}")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib not installed: no plot (Debian: apt install python3-matplotlib)")
    raise SystemExit(0)
fig, ax = plt.subplots(2, 1, figsize=(7, 6), sharex=False)
ax[0].plot(t, tau, label="rnea (chaindyn)")
ax[0].plot(t, closed, "--", label="closed form")
ax[0].set(xlabel="t (s)", ylabel="torque (N m)", title="One-link arm on the cycloid 0 -> pi")
ax[0].legend()
ax[1].plot(swing["t"], swing["q"][:, 0])
ax[1].set(xlabel="t (s)", ylabel="q (rad)", title="Free swing from 0.5 rad (rk45)")
fig.tight_layout()
path = os.path.join(out, "py_one_link_cycloid.png")
fig.savefig(path)
print("plot:", os.path.abspath(path))
