"""accel_bridge: the old name of accel.bridge (the Python package `accel`, ports/python), kept for
one release (0.1.x); it goes in 0.2.0. Write `from accel.bridge import Bridge` instead.

Imports the installed package, or, from a checkout with ports/bridge/python on sys.path, the
checkout's ports/python. accel_bridge.link and accel_bridge.tsp1 are accel.bridge's modules.
"""
import os
import sys
import warnings

try:
    import accel.bridge as _impl
except ImportError as _e:
    if getattr(_e, "name", None) not in ("accel", "accel.bridge"):
        raise  # accel.bridge is there but something it needs is not: say what
    sys.path.insert(0, os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     os.pardir, os.pardir, os.pardir, "python")))
    import accel.bridge as _impl

warnings.warn("accel_bridge is now accel.bridge; the old name goes in 0.2.0", PendingDeprecationWarning,
              stacklevel=2)
from accel.bridge import *  # noqa: E402,F401,F403
from accel.bridge import __all__  # noqa: E402,F401
from accel.bridge import link, tsp1  # noqa: E402,F401

sys.modules[__name__ + ".link"] = link
sys.modules[__name__ + ".tsp1"] = tsp1
