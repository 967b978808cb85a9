#!/usr/bin/env python3
"""The spherical (3D) pendulum of the lecture notes (Asfour, Robotics I ch. 4, "Method of
Lagrange: 3D-Pendulum"): a point mass m on a massless rod of length l, q = (theta, phi), theta
the polar angle from the downward vertical, phi the azimuth. m = 1 kg, l = 1 m, released at
theta = 60 deg with an azimuthal rate of 2 rad/s (below the conical pendulum's 4.43 rad/s, so
theta swings down to a lower turning point while the orbit precesses), 10 s, no torque.

The robot is closed_form.SphericalPendulum.to_robot(): two revolute joints whose coordinates
are (phi, theta), the reverse of the notes' q. Checked (the script exits with status 1 if a
check fails):
  - aba's accelerations at every sample, in one chaindyn.batch.aba call, against the Lagrangian
    closed form (the notes' equation of motion);
  - the bob's position by frame_pose against r = l (sin th cos ph, sin th sin ph, -cos th);
  - the invariants: the energy E = T + V and the angular momentum about the vertical,
    p_phi = m l^2 sin^2(theta) phid (phi does not appear in L), against their initial values;
  - the lower turning point of theta against the root of
    E = p_phi^2 / (2 m l^2 sin^2 theta) - m g l cos theta (thetad = 0) below theta0.

    python3 -m chaindyn.examples.spherical_pendulum [--out DIR]
    (from the build tree: PYTHONPATH=build/release/python)
"""
import argparse
import math
import os
import sys

import numpy as np

import chaindyn as cd

parser = argparse.ArgumentParser()
parser.add_argument("--out", default="chaindyn_output")
out = parser.parse_args().out
os.makedirs(out, exist_ok=True)

m, l, g, t_end = 1.0, 1.0, 9.81, 10.0
theta0, phid0 = math.pi / 3, 2.0
pendulum = cd.closed_form.SphericalPendulum(m, l, g)
robot = pendulum.to_robot()  # coordinates (phi, theta)

run = cd.simulate(robot, [0.0, theta0], [phid0, 0.0], None, t_end, integrator="rk45",
                  rtol=1e-11, atol=1e-12, output_interval=1e-3)
t = run["t"]
q, qd = run["q"][:, ::-1], run["qd"][:, ::-1]  # (theta, phi), the notes' order
theta, phi = q[:, 0], q[:, 1]

# aba at every sample in one batch call (states as columns), against the closed form
n = len(t)
qdd_aba = cd.batch.aba(robot, run["q"].T, run["qd"].T, np.zeros((2, n)))[::-1].T
qdd_closed = np.array([pendulum.forward_dynamics(x, xd, [0.0, 0.0]) for x, xd in zip(q, qd)])
err_qdd = float(np.max(np.abs(qdd_aba - qdd_closed)) / np.max(np.abs(qdd_closed)))

# the bob: (l, 0, 0) in link 1's frame
bob = np.array([l, 0.0, 0.0, 1.0])
r_fk = np.array([cd.frame_pose(robot, x, 1) @ bob for x in run["q"]])[:, :3]
r = l * np.column_stack([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), -np.cos(theta)])
err_r = float(np.max(np.abs(r_fk - r)))

# the invariants, from the closed form's energies and from chaindyn's
energy = np.array([pendulum.kinetic_energy(x, xd) + pendulum.potential_energy(x)
                   for x, xd in zip(q, qd)])
energy_robot = np.array([cd.kinetic_energy(robot, x, xd) + cd.potential_energy(robot, x)
                         for x, xd in zip(run["q"], run["qd"])])
p_phi = m * l**2 * np.sin(theta) ** 2 * qd[:, 1]
e0, p0 = energy[0], p_phi[0]
drift_e = float(np.max(np.abs(energy - e0)) / (m * g * l))
drift_p = float(np.max(np.abs(p_phi - p0)) / p0)
err_energies = float(np.max(np.abs(energy_robot - energy)) / (m * g * l))


# the lower turning point from the conserved quantities (bisection) ...
def f(th):
    return p0**2 / (2 * m * l**2 * math.sin(th) ** 2) - m * g * l * math.cos(th) - e0


lo, hi = 1e-6, theta0 - 1e-6  # f(lo) > 0 > f(hi)
for _ in range(200):
    mid = 0.5 * (lo + hi)
    lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
theta_turn = 0.5 * (lo + hi)
# ... and from the motion: each local minimum of theta from the Taylor polynomial at the sample
# where thetad turns from - to +
thetadd = qdd_aba[:, 0]
turns = np.nonzero((qd[:-1, 0] < 0) & (qd[1:, 0] >= 0))[0] + 1
minima = [theta[k] - qd[k, 0] ** 2 / (2 * thetadd[k]) for k in turns]
err_turn = float(max(abs(x - theta_turn) for x in minima)) if minima else float("inf")

print(f"spherical pendulum (m = {m} kg, l = {l} m), released at theta = 60 deg with phid = "
      f"{phid0} rad/s, {t_end} s: {run['steps']} rk45 steps")
print(f"  theta swings between {math.degrees(min(minima)):.6f} and "
      f"{math.degrees(theta.max()):.6f} deg ({len(minima)} lower turning points); from E and "
      f"p_phi: {math.degrees(theta_turn):.6f} deg")
print(f"  phi advances {math.degrees(phi[-1]):.1f} deg in {t_end} s\n")

checks = [
    ("max |qdd batch aba - qdd closed form| / max |qdd|", err_qdd, 1e-12),
    ("max |bob by frame_pose - l (sin th cos ph, sin th sin ph, -cos th)| [m]", err_r, 1e-14),
    ("max |E - E0| / (m g l)", drift_e, 1e-8),
    ("max |p_phi - p_phi0| / p_phi0 (angular momentum about the vertical)", drift_p, 1e-8),
    ("max |E chaindyn - E closed form| / (m g l)", err_energies, 1e-14),
    ("max |theta's lower turning point - the conserved quantities' root| [rad]", err_turn, 1e-7),
]
failed = 0
for name, value, tol in checks:
    ok = value <= tol
    failed += not ok
    print(f"  {'ok  ' if ok else 'FAIL'}  {name}: {value:.2e} (tolerance {tol:.0e})")
if failed:
    print(f"spherical_pendulum: {failed} check(s) failed", file=sys.stderr)
    sys.exit(1)

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib not installed: no plot")
    raise SystemExit(0)
fig = plt.figure(figsize=(11, 7))
ax = fig.add_subplot(2, 2, 1)
ax.plot(t, np.degrees(theta), label="theta")
ax.axhline(math.degrees(theta_turn), color="k", ls=":", lw=0.8, label="turning point (E, p_phi)")
ax.axhline(math.degrees(theta0), color="k", ls="--", lw=0.8, label="theta0")
ax.set(xlabel="t (s)", ylabel="deg", title="Polar angle")
ax.legend(fontsize=8)
ax = fig.add_subplot(2, 2, 2)
ax.plot(r[:, 0], r[:, 1], lw=0.6)
ax.set(xlabel="x (m)", ylabel="y (m)", title="Bob seen from above (precessing orbit)")
ax.set_aspect("equal")
ax = fig.add_subplot(2, 2, 3)
ax.plot(t, energy - e0, label="E - E0 (J)")
ax.plot(t, p_phi - p0, label="p_phi - p_phi0 (kg m^2/s)")
ax.set(xlabel="t (s)", title="Invariants (rk45, rtol 1e-11)")
ax.legend(fontsize=8)
ax = fig.add_subplot(2, 2, 4, projection="3d")
ax.plot(r[:, 0], r[:, 1], r[:, 2], lw=0.6)
ax.plot([0, r[0, 0]], [0, r[0, 1]], [0, r[0, 2]], "k-", lw=1.5)
ax.set(xlabel="x", ylabel="y", zlabel="z", title="Bob in 3D (rod at t = 0)")
fig.suptitle("Spherical pendulum (notes' 3D pendulum), chaindyn Robot from the closed form")
fig.tight_layout()
path = os.path.join(out, "py_spherical_pendulum.png")
fig.savefig(path)
print("plot:", os.path.abspath(path))
