#!/usr/bin/env bash
# The installed SoftGrasp as a user gets it (tests/install/README.md): install_test.sh STEP BUILD_DIR WORK_DIR VERSION
# SOURCE_DIR, STEP one of
#   tree      cmake --install into WORK_DIR/destdir (prefix /usr) and check every installed part is there
#   cli       the installed softgrasp-cli from another directory: --version, the bundled world and models by
#             relative name, the working directory first, the same ε as the build tree's binary
#   app       the installed softgrasp: --version and a screenshot of the bundled world from another directory
#   consumer  a project outside the tree finds the installed package and links SoftGrasp::engine
#   deb       cpack -G DEB: control fields, contents, and the packaged CLI run from another directory
# Nothing is built here: the steps use what the build made (run after it, as ctest is).
set -euo pipefail
step=$1 build=$2 work=$3 version=$4 source=$5
destdir=$work/destdir
unset SOFTGRASP_DATA_DIR  # the installed tree must find its data by itself

fail() { echo "FAIL: $*" >&2; exit 1; }
# A fresh directory with nothing of SoftGrasp's in it, to run the installed binaries from.
elsewhere() { local d; d=$(mktemp -d "$work/elsewhere.XXXXXX"); echo "$d"; }

# Every path the install must hold, relative to the prefix; $1: a listing of the installed files (one a line,
# relative to the prefix).
check_listing() {
  local listing=$1 want
  local wanted=(bin/softgrasp bin/softgrasp-cli
    share/applications/softgrasp.desktop share/icons/hicolor/scalable/apps/softgrasp.svg
    share/man/man1/softgrasp.1.gz share/man/man1/softgrasp-cli.1.gz
    lib/cmake/SoftGrasp/SoftGraspConfig.cmake lib/cmake/SoftGrasp/SoftGraspConfigVersion.cmake
    lib/cmake/SoftGrasp/SoftGraspTargets.cmake include/softgrasp/grasp/Analysis.h include/softgrasp/core/Version.h
    share/softgrasp/models/robots/ThreeFinger/ThreeFinger.xml share/softgrasp/models/objects/mug.xml)
  for size in 16 22 24 32 48 64 128 256; do wanted+=("share/icons/hicolor/${size}x${size}/apps/softgrasp.png"); done
  for layer in core geometry model io contact grasp planner batch render; do wanted+=("lib/libsg_$layer.a"); done
  for world in "$source"/worlds/*.xml; do wanted+=("share/softgrasp/worlds/$(basename "$world")"); done
  for want in "${wanted[@]}"; do grep -qxF "$want" "$listing" || fail "not installed: $want"; done
  # Only model files go to share/softgrasp: not the generator's sources nor CMake files.
  if grep -E '^share/softgrasp/.*(CMakeLists\.txt|\.cpp|/generator/)' "$listing"; then fail "build files installed"; fi
}

# The value of "measures/epsilon-l1/value" in softgrasp-cli quality --json output on stdin.
epsilon_of() { python3 -c 'import json,sys; print(repr(json.load(sys.stdin)["measures"]["epsilon-l1"]["value"]))'; }

case $step in
tree)
  rm -rf "$destdir"
  DESTDIR=$destdir cmake --install "$build" --prefix /usr >/dev/null
  (cd "$destdir/usr" && find . -type f -o -type l | sed 's|^\./||' | sort) >"$work/installed.txt"
  check_listing "$work/installed.txt"
  # The desktop entry starts the installed binary and names the installed icon.
  grep -qx 'Exec=softgrasp %f' "$destdir/usr/share/applications/softgrasp.desktop" || fail "desktop Exec"
  grep -qx 'Icon=softgrasp' "$destdir/usr/share/applications/softgrasp.desktop" || fail "desktop Icon"
  # The PNG icons are square PNGs of their directory's size.
  for png in "$destdir"/usr/share/icons/hicolor/*x*/apps/softgrasp.png; do
    size=$(basename "$(dirname "$(dirname "$png")")")
    python3 - "$png" "${size%x*}" <<'PY' || fail "icon $png"
import struct, sys
data = open(sys.argv[1], "rb").read(24)
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert w == h == int(sys.argv[2]), (w, h)
PY
  done
  # The man pages come from the binaries' --help and --version (help2man).
  # Decompressed to files first: under pipefail, `zcat | grep -q` fails at random when grep exits at its first
  # match while zcat is still writing (SIGPIPE), and the CLI's page is longer than a pipe's buffer.
  zcat "$destdir/usr/share/man/man1/softgrasp-cli.1.gz" >"$work/softgrasp-cli.1"
  zcat "$destdir/usr/share/man/man1/softgrasp.1.gz" >"$work/softgrasp.1"
  grep -q "softgrasp-cli $version" "$work/softgrasp-cli.1" || fail "man: version"
  # softgrasp-cli(1) has a subsection per command, each with that command's options.
  commands=$("$destdir/usr/bin/softgrasp-cli" --help | sed -n '/^commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
  [ -n "$commands" ] || fail "no commands in softgrasp-cli --help"
  for command in $commands; do
    grep -qx ".SS $command" "$work/softgrasp-cli.1" || fail "man: no section for $command"
  done
  grep -q 'usage: softgrasp\\-cli quality .*\\-\\-json' "$work/softgrasp-cli.1" || fail "man: quality's options"
  grep -q 'screenshot' "$work/softgrasp.1" || fail "man: softgrasp options"
  ;;
cli)
  cli=$destdir/usr/bin/softgrasp-cli
  data=$destdir/usr/share/softgrasp
  here=$(elsewhere) && cd "$here"
  [ "$("$cli" --version)" = "softgrasp-cli $version" ] || fail "--version: $("$cli" --version)"
  # The bundled world by its relative name, its models from the installed tree (not the source checkout).
  "$cli" info worlds/default.xml --json >info.json
  python3 - "$data" <<'PY' || fail "info: files"
import json, os, sys
data = os.path.realpath(sys.argv[1])
info = json.load(open("info.json"))
assert os.path.realpath(info["file"]) == os.path.join(data, "worlds", "default.xml"), info["file"]
files = [r["sourceFile"] for r in info["robots"]] + [b["sourceFile"] for b in info["graspables"] + info["obstacles"]]
assert files and all(os.path.realpath(f).startswith(data + "/models/") for f in files), files
PY
  "$cli" fk models/robots/ThreeFinger/ThreeFinger.xml --dofs 0,0,0,0 >/dev/null || fail "fk by relative name"
  # ε of the installed binary on the installed world = ε of the build tree's binary on the source world.
  installed=$("$cli" quality worlds/default.xml --approach --autograsp --json | epsilon_of)
  built=$("$build/ui/cli/softgrasp-cli" quality "$source/worlds/default.xml" --approach --autograsp --json | epsilon_of)
  [ "$installed" = "$built" ] || fail "epsilon-l1 installed $installed, build tree $built"
  python3 -c "import sys; assert float(sys.argv[1]) > 0" "$installed" || fail "no force closure: $installed"
  # The working directory comes first: a worlds/default.xml here (the parallel jaw's world) wins.
  mkdir worlds && cp "$data/worlds/paralleljaw_box.xml" worlds/default.xml && ln -s "$data/models" models
  "$cli" info worlds/default.xml --json >local.json
  python3 -c 'import json,os; d=json.load(open("local.json")); assert os.path.realpath(d["file"]) == os.path.realpath("worlds/default.xml"), d["file"]' \
    || fail "the working directory's file did not win"
  # A name found nowhere: exit 3, the message names what was typed.
  set +e; "$cli" info worlds/no_such_world.xml 2>err.txt; rc=$?; set -e
  [ $rc -eq 3 ] && grep -q 'worlds/no_such_world.xml' err.txt || fail "missing world: exit $rc, $(cat err.txt)"
  ;;
app)
  app=$destdir/usr/bin/softgrasp
  here=$(elsewhere) && cd "$here"
  [ "$(QT_QPA_PLATFORM=offscreen "$app" --version)" = "softgrasp $version" ] || fail "softgrasp --version"
  "$app" worlds/default.xml --screenshot shot.png --size 160x120 --approach --autograsp || fail "screenshot"
  python3 - <<'PY' || fail "screenshot size"
import struct
data = open("shot.png", "rb").read(24)
assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (160, 120)
PY
  ;;
consumer)
  rm -rf "$work/consumer"
  launcher=(); command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  configure() {
    cmake -S "$source/tests/install/consumer" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$destdir/usr" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "${launcher[@]}" "$@"
  }
  # A version the package is not: refused by SoftGraspConfigVersion.cmake.
  if configure -DSG_REQUIRED_VERSION=$(( ${version%%.*} + 1 )).0 >"$work/refused.log" 2>&1; then
    fail "find_package(SoftGrasp $(( ${version%%.*} + 1 )).0) accepted version $version"
  fi
  grep -q 'SoftGrasp' "$work/refused.log" || fail "refusal does not name the package"
  rm -rf "$work/consumer"
  configure -DSG_REQUIRED_VERSION="$version" >"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "configure"; }
  grep -qx "SoftGrasp_DIR:PATH=$destdir/usr/lib/cmake/SoftGrasp" "$work/consumer/CMakeCache.txt" \
    || fail "not the installed package: $(grep SoftGrasp_DIR "$work/consumer/CMakeCache.txt")"
  cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "build"; }
  here=$(elsewhere) && cd "$here"
  out=$("$work/consumer/consumer" "$destdir/usr/share/softgrasp/worlds/default.xml") || fail "consumer: $out"
  echo "$out"
  # The same analysis as the installed CLI's: the same ε.
  cli_epsilon=$("$destdir/usr/bin/softgrasp-cli" quality worlds/default.xml --approach --autograsp --json | epsilon_of)
  python3 - "$out" "$cli_epsilon" <<'PY' || fail "consumer and CLI disagree"
import sys
lines = dict(line.split() for line in sys.argv[1].splitlines())
assert lines["forceClosure"] == "1"
mine, cli = float(lines["epsilon-l1"]), float(sys.argv[2])
assert abs(mine - cli) <= 1e-12 * max(1.0, abs(cli)), (mine, cli)
PY
  ;;
deb)
  rm -rf "$build/packages"
  (cd "$build" && cpack -G DEB >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
  debs=("$build"/packages/softgrasp_"$version"_*.deb)
  [ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "no softgrasp_${version}_*.deb in $build/packages"
  deb=${debs[0]}
  field() { dpkg-deb -f "$deb" "$1"; }
  [ "$(field Package)" = softgrasp ] || fail "Package: $(field Package)"
  [ "$(field Version)" = "$version" ] || fail "Version: $(field Version), project() says $version"
  for f in Maintainer Description Section Architecture; do [ -n "$(field $f)" ] || fail "empty $f"; done
  # Depends comes from dpkg-shlibdeps (the libraries the binaries link, with versions, among them the C library, Qt
  # and Coin) and names Gmsh's runtime package, which the binaries dlopen (resources/packaging/CMakeLists.txt).
  depends=$(field Depends)
  for lib in libc6 libqt6widgets6 libcoin80c libtinyxml2; do
    grep -q "$lib[^,]* (>= " <<<"$depends" || fail "Depends lacks $lib: $depends"
  done
  grep -q -E "(^|, )libgmsh[0-9.]+(,|$| )" <<<"$depends" || fail "Depends lacks Gmsh's runtime package: $depends"
  dpkg-deb -c "$deb" | awk '{print $6}' | sed -n 's|^\./usr/||p' | grep -v '/$' | sort >"$work/deb.txt"
  check_listing "$work/deb.txt"
  # The packaged CLI works from another directory on its own bundled world.
  rm -rf "$work/deb-root" && dpkg-deb -x "$deb" "$work/deb-root"
  here=$(elsewhere) && cd "$here"
  "$work/deb-root/usr/bin/softgrasp-cli" info worlds/default.xml >/dev/null || fail "packaged CLI"
  echo "$deb: Version $(field Version), Depends $depends"
  ;;
*)
  fail "unknown step '$step'"
  ;;
esac
echo "install $step: ok"
