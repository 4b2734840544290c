# Compiles the shared-mime-info XML into a scratch database (as the .deb's trigger does) and,
# when `gio` is present, checks what the samples are detected as, by extension and by content.
#   cmake -DXML=<file> -DWORK=<dir> -DSAMPLES=<dir> -DUPDATE_MIME_DATABASE=<exe> [-DGIO=<exe>]
#         -P test_mime.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/mime/packages ${WORK}/files)
file(COPY ${XML} DESTINATION ${WORK}/mime/packages)
execute_process(COMMAND ${UPDATE_MIME_DATABASE} ${WORK}/mime RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
# Its only expected chatter is the note that the scratch dir is not in XDG_DATA_DIRS.
string(REGEX REPLACE "Note that .*" "" err "${err}")
string(STRIP "${err}" err)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "update-mime-database rejected the XML (${rc}): ${out}${err}")
endif()
foreach(type x-valve-smd x-valve-vta x-binarysmd x-cod-xmodel-export x-cod-xanim-export
             x-cod-xmodel-bin x-cod-xanim-bin x-valve-dmx x-valve-qc x-valve-mdl)
    if(NOT EXISTS ${WORK}/mime/model/${type}.xml)
        message(FATAL_ERROR "model/${type} missing from the compiled database")
    endif()
endforeach()
if(NOT GIO)
    message(STATUS "gio not found: detection not checked")
    return()
endif()
# name in WORK/files, sample it copies, expected type
set(cases
    "ref.smd|sample_ref.smd|model/x-valve-smd"
    "REF.SMD|sample_ref.smd|model/x-valve-smd"
    "ref_no_extension|sample_ref.smd|model/x-valve-smd"
    "flex.vta|sample_flex.vta|model/x-valve-vta"
    "flex_no_extension|sample_flex.vta|model/x-valve-vta")
# Compiled models (issue 29): by extension and by their IDST / IDSQ magic alone. The bytes
# after the magic are text here (file(WRITE) writes no NUL); detection reads only the magic.
foreach(case "prop.mdl|IDST0000" "PROP.MDL|IDST0000" "prop_no_extension|IDST0000"
             "barney01_no_extension|IDSQ0000")
    string(REPLACE "|" ";" case "${case}")
    list(GET case 0 name)
    list(GET case 1 bytes)
    file(WRITE ${WORK}/files/${name} "${bytes}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E env XDG_DATA_DIRS=${WORK}:/usr/share
                            XDG_DATA_HOME=${WORK}/none
                            ${GIO} info -a standard::content-type ${WORK}/files/${name}
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
    if(NOT out MATCHES "content-type: model/x-valve-mdl")
        message(FATAL_ERROR "${name} (${bytes}) is not detected as model/x-valve-mdl: ${out}")
    endif()
    message(STATUS "${name}: model/x-valve-mdl")
endforeach()
foreach(case ${cases})
    string(REPLACE "|" ";" case "${case}")
    list(GET case 0 name)
    list(GET case 1 sample)
    list(GET case 2 type)
    configure_file(${SAMPLES}/${sample} ${WORK}/files/${name} COPYONLY)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env XDG_DATA_DIRS=${WORK}:/usr/share
                            XDG_DATA_HOME=${WORK}/none
                            ${GIO} info -a standard::content-type ${WORK}/files/${name}
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
    if(NOT out MATCHES "content-type: ${type}")
        message(FATAL_ERROR "${name} (copy of ${sample}) is not detected as ${type}: ${out}")
    endif()
    message(STATUS "${name}: ${type}")
endforeach()
