"""chaindyn's command line (`python3 -m chaindyn`, or `chaindyn` when pip installed it):

    chaindyn --version
    chaindyn info robot.urdf [--tip LINK] [--inertia strict|repair|accept]
    chaindyn view robot.urdf [--motion run.csv] [--out page.html] [--no-open]   (= chaindyn-view)
"""
import argparse
import sys

import numpy as np

import chaindyn


def info(args):
    """The chain (or, for a file whose joints branch, the tree) chaindyn reads from a URDF:
    joints, masses, frames, and the parser's report."""
    if not hasattr(chaindyn, "load_urdf_report"):
        print("chaindyn info: this chaindyn was built without the URDF parser (tinyxml2)",
              file=sys.stderr)
        return 2
    try:
        robot, report = chaindyn.load_urdf_report(args.urdf, args.tip, inertia=args.inertia)
    except (chaindyn.ModelError, OSError, ValueError) as e:
        print(f"chaindyn info: {e}", file=sys.stderr)
        return 1
    links = robot.links
    total = sum(link.mass for link in links)
    print(f"{args.urdf}: {robot.nq} joints, {total:.6g} kg moving"
          + ("" if robot.has_dynamics else " (kinematics only: no inertias)"))
    print(f"  {'#':>2}  {'link':<24} {'joint':<10} {'axis':<22} {'mass (kg)':>10}  com (m)")
    for i, (link, kind) in enumerate(zip(links, robot.joint_kinds)):
        axis = "-" if link.axis is None else np.array2string(np.asarray(link.axis), precision=4)
        com = np.array2string(np.asarray(link.com), precision=4)
        print(f"  {i:>2}  {link.name:<24} {kind:<10} {axis:<22} {link.mass:>10.6g}  {com}")
    if isinstance(robot, chaindyn.TreeRobot):  # a file whose joints branch: the whole tree
        print(f"  parents (joint order, -1: the base): {robot.parents}")
    extra = [f for f in robot.frame_names if f not in {link.name for link in links}]
    if extra:
        print(f"  frames: {', '.join(extra)}")
    print(f"  gravity: {np.array2string(np.asarray(robot.gravity), precision=4)} m/s^2")
    for finding in report:
        print(f"  {finding['text']}")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="chaindyn", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"chaindyn {chaindyn.__version__}")
    commands = parser.add_subparsers(dest="command")
    p = commands.add_parser("info", help="the chain chaindyn reads from a URDF")
    p.add_argument("urdf")
    p.add_argument("--tip", default="", help="the chain's last link (default: the only leaf)")
    p.add_argument("--inertia", default="strict", choices=["strict", "repair", "accept"])
    commands.add_parser("view", help="a browser page that shows the robot and plays a motion "
                                     "(chaindyn view --help)", add_help=False)
    args, rest = parser.parse_known_args(argv)
    if args.command == "view":
        from . import viewer
        return viewer.main(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "info":
        return info(args)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
