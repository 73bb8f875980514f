#pragma once
// Atomic file replacement: the content goes to a temporary file in the target's directory, is flushed to
// disk, and is renamed over the target, so readers see either the old or the new file, never half of one.
#include <string>
#include <string_view>

namespace sg {

// Throws sg::Error naming `path` on failure; the temporary file is removed and the target left untouched.
// After the rename the directory is synced too, so the new name survives a crash.
void writeFileAtomically(const std::string& path, std::string_view content);

namespace testing {
// Test hook: makes every later writeFileAtomically fail with EIO once `bytes` bytes of the content have
// been written (a save failing half way); std::string::npos turns it off.
void failAtomicWritesAfter(std::size_t bytes);
}  // namespace testing

}  // namespace sg
