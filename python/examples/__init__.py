"""chaindyn's examples, each a program: `python3 -m chaindyn.examples.two_link_falling [--out DIR]`
(one_link_cycloid, two_link_falling, spherical_pendulum, iiwa_pick_and_place)."""
