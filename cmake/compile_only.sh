#!/bin/sh
# The compiler launcher of the targets compiled with -fsyntax-only (CXX_COMPILER_LAUNCHER; the
# examples under CHAINDYN_EXAMPLES_COMPILE_ONLY), which write no object file: runs the compile
# command it is given, then creates its -o file, empty, so that the build tool counts the step
# as done and runs it again only when one of its inputs changes.
#   compile_only.sh <compiler> <arguments>...
out=
prev=
for arg in "$@"; do
  if [ "$prev" = "-o" ]; then out=$arg; fi
  prev=$arg
done
"$@" || exit
if [ -n "$out" ]; then : > "$out"; fi
