#!/bin/sh
# Runs a command under a virtual X server (xvfb-run, 1280x1024x24) when xvfb-run is installed, else on the current
# DISPLAY. Decided when the command runs, not when CMake configures: scripts/test.sh installs xvfb (the test list)
# while the build runs, so a configure-time search could miss it (docs/CMakeLists.txt, the guide's pictures).
if command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 1280x1024x24" "$@"
fi
exec "$@"
