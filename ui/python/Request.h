#pragma once
// The keyword arguments that shape one analysis (analyze, evaluate_many, compare, plan), read into an
// AnalysisRequest the way softgrasp-cli reads its options (ui/cli/AnalysisOptions.cpp): the same defaults,
// the same registered names; bad values are ValueError.
#include "Common.h"
#include "grasp/Analysis.h"

namespace sg::python {

struct RequestArgs {
  py::object approach = py::bool_(false);  // False, True (30 mm) or a distance in mm
  bool autograsp = false;
  std::vector<std::string> contactModels = {"soft-finger"};
  py::object measures = py::none();        // None: every registered measure
  py::object settings = py::none();        // None or a dict (README.md §Settings)
  int robot = 0;
  py::object graspable = py::none();       // None: the first graspable a hand touches, else 0
  double threshold_mm = 0.2;
  std::string contactScope = "world";
};

AnalysisRequest analysisRequest(const World& world, const RequestArgs& args);

// Settings dict → QualitySettings (and the threshold): "force_N", "edges", "torque_length_mm", "curvature"
// ("jet" or "graspit") and "MODEL.KEY" (a model's declared parameter, as --model-param MODEL.KEY=VALUE).
void applySettings(const py::object& settings, AnalysisRequest& request);

// The analysis keyword arguments' documentation, shared by the functions that take them.
extern const char* const kRequestDoc;

}  // namespace sg::python
