#pragma once
// The run record the store suites begin their runs with (src/store/README.md §Writing): a fixed version, host
// and start time, so what a suite writes does not depend on the machine or the clock.
#include <cstdint>
#include <string>

#include "store/Records.h"

namespace sg::test {

inline sg::store::RunRecord testRunRecord(const std::string& key, const std::string& kind, const std::string& command,
                                          std::int64_t rowsTotal) {
  sg::store::RunRecord run;
  run.key = key;
  run.kind = kind;
  run.softgraspVersion = "test";
  run.command = command;
  run.settings = "{}";
  run.host = "host";
  run.startedAt = "2026-11-29T05:00:00Z";
  run.rowsTotal = rowsTotal;
  return run;
}

}  // namespace sg::test
