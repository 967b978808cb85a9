"""chaindyn: dynamics of serial robot manipulators (rnea, crba, aba, derivatives, Jacobians,
identification, simulation), the C++ library's runtime-sized chain from Python.

Conventions: spatial vectors [angular; linear], SI units, tau = M qdd + C qd + g + friction.
The algorithms and types come from the compiled module chaindyn._chaindyn (pybind11) and are
re-exported here; chaindyn.view writes a browser page that shows a robot and plays a motion.
Documentation: docs/python.md of the source tree.
"""
import sys as _sys

from . import _chaindyn
from ._chaindyn import *  # noqa: F401,F403  (the whole API, as `chaindyn.<name>`)
from ._chaindyn import __version__, batch, closed_form, robots  # noqa: F401


def _adopt(module, name):
    """Gives the classes and exceptions of a module of the compiled extension their public
    module name (`chaindyn.Robot`, `chaindyn.closed_form.TwoLinkArm`, not
    `chaindyn._chaindyn...`): tracebacks, reprs and pickles name them so."""
    for value in vars(module).values():
        if isinstance(value, type) and value.__module__ == module.__name__:
            value.__module__ = name


for _name in ("batch", "closed_form", "robots"):
    _submodule = getattr(_chaindyn, _name)
    _adopt(_submodule, __name__ + "." + _name)
    _submodule.__name__ = __name__ + "." + _name
    _sys.modules[_submodule.__name__] = _submodule  # `import chaindyn.batch` works too
_adopt(_chaindyn, __name__)
del _name, _submodule

from .viewer import view  # noqa: E402,F401
