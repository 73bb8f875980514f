#include "render/CoinInit.h"

#include <Inventor/SoDB.h>
#include <Inventor/SoInteraction.h>
#include <Inventor/nodekits/SoNodeKit.h>

namespace sg {

void initCoin() {
  static bool done = false;
  if (done) return;
  SoDB::init();
  SoNodeKit::init();
  SoInteraction::init();  // draggers and manips
  done = true;
}

}  // namespace sg
