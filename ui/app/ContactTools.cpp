#include "FeatureTools.h"

namespace sg::app {

void installContactTools(MainWindow*) {}

}  // namespace sg::app
