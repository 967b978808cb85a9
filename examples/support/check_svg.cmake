# Checks with xmllint that every SVG plot in DIR is well-formed XML (the examples also check
# their own files with a small checker of theirs; xmllint is a complete parser).
#   cmake -DXMLLINT=/usr/bin/xmllint -DDIR=<dir> -P check_svg.cmake
file(GLOB plots "${DIR}/*.svg")
if(NOT plots)
  message(FATAL_ERROR "no .svg files in ${DIR}")
endif()
list(LENGTH plots count)
execute_process(COMMAND "${XMLLINT}" --noout ${plots} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "xmllint found malformed SVG files in ${DIR}")
endif()
message(STATUS "${count} SVG files in ${DIR} are well-formed XML")
