#pragma once
// The hydroelastic model's drawing (registered in ModelOverlays.cpp): every non-empty contact surface, its
// polygons coloured by pressure on one scale (the highest peak of all surfaces), the centre of pressure and
// the net force on the object as an arrow ending there (ContactSurfaceNodes.h), and their legend rows.
namespace sg {

struct GraspEvaluation;
struct HydroelasticModelResult;

// The hydroelastic model's result of the evaluation (its contact surfaces), or nullptr for another result type.
const HydroelasticModelResult* hydroelasticResult(const GraspEvaluation& evaluation);
// The highest peak pressure (Pa) over the surfaces: the top of the pressure colour scale.
double highestPeakPressure_Pa(const HydroelasticModelResult& result);
// Whether the object of surface `surface` is its body N (the net-force arrow then shows −force_W_N): from the
// object's inward normal at a contact whose force comes from it; N (the usual rigid side) when none does.
bool objectIsBodyN(const HydroelasticModelResult& result, int surface);

}  // namespace sg
