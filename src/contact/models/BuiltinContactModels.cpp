// The registry's list of contact models, in the order the CLI and the settings dialog show them (the first
// is the default). A new model adds its factory here: declaration and list entry.
#include "contact/ContactModel.h"

namespace sg {

std::unique_ptr<ContactModel> makeSoftFingerContactModel();
std::unique_ptr<ContactModel> makeHertzContactModel();
std::unique_ptr<ContactModel> makePointContactModel();
std::unique_ptr<ContactModel> makeFrictionlessContactModel();
std::unique_ptr<ContactModel> makeHydroelasticContactModel();
std::unique_ptr<ContactModel> makePatchContactModel();
std::unique_ptr<ContactModel> makePenaltyContactModel();

std::vector<std::unique_ptr<ContactModel>> makeBuiltinContactModels() {
  std::vector<std::unique_ptr<ContactModel>> models;
  models.push_back(makeSoftFingerContactModel());
  models.push_back(makeHertzContactModel());
  models.push_back(makePointContactModel());
  models.push_back(makeFrictionlessContactModel());
  models.push_back(makeHydroelasticContactModel());
  models.push_back(makePatchContactModel());
  models.push_back(makePenaltyContactModel());
  return models;
}

}  // namespace sg
