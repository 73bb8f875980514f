"""Plain result types of the softgrasp module (built by the extension, documented here).

Frames and units as in the engine (docs/ARCHITECTURE.md, Rules): W is the world frame, lengths in mm, forces
in N, torques in N·mm, pressures in Pa; `p_WC_mm` is a contact point C in W, `n_W` a unit normal in W.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import numpy as np


class Measure(float):
    """A quality measure's value (a float: NaN when it could not be computed) with what the engine knows of
    it: `ok`, `message` (why not ok), and for iterative measures (the ε's) the certified bounds `lower` ≤
    value ≤ `upper`, the support `iterations` and whether the run `converged` (src/grasp/QUALITY.md).
    Without bounds, `lower` and `upper` are the value itself."""

    def __new__(cls, value, name="", ok=True, message="", lower=None, upper=None, iterations=0,
                converged=True, has_bounds=False):
        self = super().__new__(cls, value if (ok and value is not None) else float("nan"))
        self.name = name
        self.ok = ok
        self.message = message
        self.has_bounds = has_bounds
        self.lower = float(self) if lower is None else lower
        self.upper = float(self) if upper is None else upper
        self.iterations = iterations
        self.converged = converged
        return self

    def __reduce__(self):
        return (Measure, (float(self), self.name, self.ok, self.message, self.lower, self.upper,
                          self.iterations, self.converged, self.has_bounds))


@dataclass
class Contacts:
    """Every contact found, in the engine's canonical order (the hand's contacts first). Side 1 and side 2
    are the two bodies; each normal points into its own body. Arrays have one row per contact."""
    body1: List[str]
    body2: List[str]
    p_WC_mm: np.ndarray        # (n, 3) side 1's contact point in world, mm
    n_W: np.ndarray            # (n, 3) side 1's unit inward normal in world
    p2_WC_mm: np.ndarray       # (n, 3) side 2's contact point
    n2_W: np.ndarray           # (n, 3) side 2's normal
    separation_mm: np.ndarray  # (n,) signed distance; negative = penetration
    penetrating: np.ndarray    # (n,) bool
    mu_static: np.ndarray      # (n,)
    mu_kinetic: np.ndarray     # (n,)

    def __len__(self):
        return len(self.body1)


@dataclass
class ModelContacts:
    """What one contact model made of the grasp's contacts (one row per model contact; `source_contacts`
    index Analysis.contacts). `details` holds each contact's model-specific data (the soft finger's
    neighbourhood, paraboloid fits, patch semi-axes; hydroelastic pressures) as the model describes it,
    numeric lists as arrays (src/contact/README.md)."""
    source_contacts: List[List[int]]
    kind: List[str]                        # "frictionless", "point-with-friction", "soft-finger"
    body: List[str]                        # the hand body touching the object
    p_WC_mm: np.ndarray                    # (n, 3) contact point on the object, world, mm
    n_W: np.ndarray                        # (n, 3) inward normal of the object, world
    mu: np.ndarray                         # (n,) friction coefficient
    torsion_mm: np.ndarray                 # (n,) e_n = τmax / (μ N); 0 without torsional friction
    max_torsional_friction_Nmm: np.ndarray  # (n,) μ N e_n at the model's normal force
    patch_shape: List[str]                 # "ellipse", "circle", "polygon", "surface" or ""
    patch_area_mm2: np.ndarray             # (n,)
    normal_force_N: np.ndarray             # (n,)
    peak_pressure_Pa: np.ndarray           # (n,)
    patch_outline_W_mm: List[np.ndarray]   # per contact a (k, 3) boundary polygon in world, mm
    friction_edges: List[np.ndarray]       # per contact (m, 6): contact frame, unit normal force
    wrenches: List[np.ndarray]             # per contact (m, 6): object frame, [f; τ/ρ]
    details: List[dict]                    # per contact the model's own description

    def __len__(self):
        return len(self.kind)


@dataclass
class ModelResult:
    """One contact model's evaluation of the grasp: its contacts, measures (name → Measure) and force
    closure (ε L1's verdict); `description` is the model's own model-wide data (e.g. hydroelastic contact
    surfaces: polygon vertices and pressures as arrays); `error` is set when the model failed."""
    contact_model: str
    force_closure: bool
    torque_scale_mm: float
    measures: Dict[str, Measure]
    contacts: ModelContacts
    description: dict
    error: str = ""


@dataclass
class ManyResults:
    """evaluate_many's results for N states: per measure an (N,) array of values (NaN where not computed),
    the certified lower / upper bounds (equal to the value for measures without bounds), force closure
    and the number of grasp contacts per state, and per state "" or the error that stopped its analysis."""
    measures: Dict[str, np.ndarray]
    lower: Dict[str, np.ndarray]
    upper: Dict[str, np.ndarray]
    force_closure: np.ndarray
    grasp_contacts: np.ndarray
    errors: List[str] = field(default_factory=list)


@dataclass
class Grasp:
    """One planned grasp: its energy (lower is better), the hand before closing (`pre_grasp`) and after
    (`state`, its joints in break-away included: src/grasp/planner/PLANNER.md §Grasp list file) as WorldStates
    of the list's World (None when the list has no world), the same as palm poses
    (4x4, mm) and DOF arrays, the final grasp's measures (name → Measure), force closure and the number of
    hand contacts."""
    energy: float
    state: object
    pre_grasp: object
    X_WP: np.ndarray
    dofs: np.ndarray
    pre_X_WP: np.ndarray
    pre_dofs: np.ndarray
    measures: Dict[str, "Measure"]
    force_closure: bool
    contacts: int
    variables: np.ndarray


@dataclass
class Comparison:
    """compare(): every model on the same contacts (rows: the grasp's contacts, labelled "hand ↔ object").
    Per model: `ok`/`errors`, measures (name → Measure) and per row arrays (NaN where the model has no
    contact at that row: merged into another)."""
    models: List[str]
    rows: List[str]
    ok: Dict[str, bool]
    errors: Dict[str, str]
    measures: Dict[str, Dict[str, "Measure"]]
    kind: Dict[str, List[str]]
    patch_area_mm2: Dict[str, np.ndarray]
    normal_force_N: Dict[str, np.ndarray]
    peak_pressure_Pa: Dict[str, np.ndarray]
    mu: Dict[str, np.ndarray]
    torsion_mm: Dict[str, np.ndarray]
    max_torsional_friction_Nmm: Dict[str, np.ndarray]
    csv: str


@dataclass
class Sweep:
    """sweep(): the comparison at each value of one parameter ("youngs" in Pa, "force" in N, "mu"). Per
    model: per measure an array over `values` (NaN where not computed), the mean patch area and the mean
    torsional limit; `cancelled` when Ctrl+C stopped it early (the values done are kept)."""
    parameter: str
    unit: str
    values: np.ndarray
    models: List[str]
    measures: Dict[str, Dict[str, np.ndarray]]
    mean_patch_area_mm2: Dict[str, np.ndarray]
    mean_torsional_limit_Nmm: Dict[str, np.ndarray]
    csv: str
    cancelled: bool = False


class PlanInterrupted(KeyboardInterrupt):
    """plan() stopped by Ctrl+C or by its progress callable raising KeyboardInterrupt: `grasps` holds the
    GraspList of what was found so far (closed and measured, as softgrasp-cli plan keeps it)."""

    def __init__(self, grasps):
        super().__init__("plan interrupted; the grasps found so far are in .grasps")
        self.grasps = grasps
