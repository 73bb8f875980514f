"""Prints the system Python's site directory for modules with C extensions (platlib), relative to the
install prefix given as the argument (ui/python/CMakeLists.txt): Debian's own scheme for /usr
(lib/python3/dist-packages), its local scheme for /usr/local (lib/python3.X/dist-packages), else the
standard posix_prefix scheme (lib/python3.X/site-packages)."""
import os
import sys
import sysconfig

prefix = os.path.normpath(sys.argv[1])
schemes = sysconfig.get_scheme_names()
base = "/PREFIX"
if prefix == "/usr" and "deb_system" in schemes:
    scheme, root = "deb_system", base
elif prefix == "/usr/local" and "posix_local" in schemes:
    scheme, root = "posix_local", base + "/local"  # the scheme puts "local/" under the base it is given
else:
    scheme, root = "posix_prefix", base
path = sysconfig.get_path("platlib", scheme, vars={"base": base, "platbase": base})
print(os.path.relpath(path, root))
