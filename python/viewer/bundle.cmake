# Bundles the viewer's script (cmake -P, from python/CMakeLists.txt's chaindyn_viewer_script):
# `npm ci` of package-lock.json's pinned three, urdf-loader and esbuild into WORK, then esbuild
# turns src/viewer.js and what it imports into OUTPUT, one minified classic script the viewer
# page inlines, with the packages' licences beside it (OUTPUT's name + .LICENSES.txt).
# Where npm cannot reach its registry this says so and leaves no OUTPUT: chaindyn.view then
# stops with a message, and the viewer's browser test is skipped; the build goes on.
#   cmake -DNPM=npm -DSOURCE=python/viewer -DWORK=<dir> -DOUTPUT=<file> -P bundle.cmake
foreach(var NPM SOURCE WORK OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "bundle.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE ${OUTPUT} ${OUTPUT}.LICENSES.txt)
file(MAKE_DIRECTORY ${WORK}/src)
file(COPY ${SOURCE}/package.json ${SOURCE}/package-lock.json DESTINATION ${WORK})
file(COPY ${SOURCE}/src/viewer.js DESTINATION ${WORK}/src)
# --prefer-offline: npm's cache first (a rebuild needs no network); short time-outs, so that a
# machine without the registry fails in seconds rather than minutes.
execute_process(
  COMMAND ${NPM} ci --no-audit --no-fund --prefer-offline --loglevel=error
          --fetch-timeout=20000 --fetch-retries=1 --fetch-retry-mintimeout=2000
          --fetch-retry-maxtimeout=5000
  WORKING_DIRECTORY ${WORK}
  RESULT_VARIABLE npm_result OUTPUT_VARIABLE npm_output ERROR_VARIABLE npm_output)
if(NOT npm_result EQUAL 0)
  message(WARNING "chaindyn: the viewer's script was not bundled: `npm ci` (three, urdf-loader, "
                  "esbuild from the npm registry) failed, so chaindyn.view cannot write pages "
                  "and the viewer test is skipped. npm said:\n${npm_output}")
  return()
endif()
execute_process(
  COMMAND ${WORK}/node_modules/.bin/esbuild src/viewer.js --bundle --format=iife --minify
          --target=es2020 --log-level=warning --outfile=${OUTPUT}
  WORKING_DIRECTORY ${WORK}
  RESULT_VARIABLE esbuild_result)
if(NOT esbuild_result EQUAL 0)
  message(FATAL_ERROR "chaindyn: esbuild could not bundle python/viewer/src/viewer.js")
endif()
set(licenses "The viewer's script bundles these npm packages; their licences:\n")
foreach(package three urdf-loader)
  file(READ ${WORK}/node_modules/${package}/package.json manifest)
  string(JSON version GET "${manifest}" version)
  string(JSON license GET "${manifest}" license)
  if(EXISTS ${WORK}/node_modules/${package}/LICENSE)
    file(READ ${WORK}/node_modules/${package}/LICENSE text)
  else()
    set(text "(the npm package has no LICENSE file; its package.json names the licence "
             "${license})\n")
  endif()
  string(APPEND licenses "\n==== ${package} ${version} (${license}) ====\n\n${text}")
endforeach()
file(WRITE ${OUTPUT}.LICENSES.txt "${licenses}")
