#pragma once
// Coin's global initialisation (SoDB, node kits, interaction/draggers). Idempotent; call it before
// creating any Coin node. Not thread-safe: call from the GUI (main) thread.

namespace sg {

void initCoin();

}  // namespace sg
