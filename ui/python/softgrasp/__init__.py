"""SoftGrasp's grasp-analysis engine from Python: load worlds, move hands, analyse grasps with soft contacts,
evaluate many states at once, plan, compare contact models (ui/python/README.md).

    import softgrasp
    world = softgrasp.load_world("worlds/default.xml")
    a = softgrasp.analyze(world, approach=True, autograsp=True)
    print(a.measures["epsilon-l1"], a.measures["epsilon-l1"].lower, a.contacts.p_WC_mm)

Units and frames: lengths in mm, angles in rad, forces in N; poses are 4x4 arrays of a body frame in the
world frame W (X_WO obstacles, X_WG graspables, X_WP palms); points p_WC_mm and normals n_W in W.
Thread safety: a World is read-only (except World.state); the functions release the GIL while the engine
works, so several Python threads may analyse states of one World at once; a WorldState or an Analysis is a
value owned by one thread at a time.
"""
from ._softgrasp import *  # noqa: F401,F403
from ._softgrasp import Error, __version__  # noqa: F401
from ._types import (Comparison, Contacts, Grasp, ManyResults, Measure, ModelContacts, ModelResult,  # noqa: F401
                     PlanInterrupted, Sweep)
