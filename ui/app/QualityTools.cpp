#include "FeatureTools.h"

namespace sg::app {

void installQualityTools(MainWindow*) {}

}  // namespace sg::app
