#pragma once
// A contact model that only the tests register (registerTestOnlyContactModel): the proof that a model with a
// setting of its own appears wherever a registered model does — contactModelNames(), --contact-model, the
// settings file, the settings dialog, --model-param — with no edit outside its file and the one registration
// call (src/contact/README.md §Model parameters).
//
// "test-only": every contact a point contact with friction (as "point"); its one parameter "gain" (a number in
// [0, 10], default 1, kept in the generic store) is the normal force it reports at each contact, in N, and its
// result describes itself ({"gain_N"} per contact, {"contactCount"} for the grasp), so it also reaches the model
// comparison, the analysis JSON and the Model Result dock (tests/grasp/tst_test_only_model.cpp).
namespace sgtest {

inline constexpr const char* kTestOnlyModel = "test-only";

// Registers the model once per process (later calls do nothing).
void registerTestOnlyContactModel();

}  // namespace sgtest
