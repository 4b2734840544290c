# Builds the .deb with CPack (shlibdeps on), checks its Depends, extracts it into a temporary
# root, checks the installed files and runs the installed programs.
#   cmake -DBUILD_DIR=<build> -DSOURCE_DIR=<repo> -DGUI=ON|OFF -DVERSION=<x.y.z>
#         -DLINTIAN=<exe> [-DDESKTOP_FILE_VALIDATE=<exe>] -P test_deb.cmake
set(work ${BUILD_DIR}/packaging-test)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
execute_process(COMMAND cpack -G DEB -B ${work} WORKING_DIRECTORY ${BUILD_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cpack failed: ${out}${err}")
endif()
file(GLOB debs ${work}/*.deb)
list(LENGTH debs n)
if(NOT n EQUAL 1)
    message(FATAL_ERROR "expected one .deb, found: ${debs}")
endif()

# Control fields: shlibdeps filled Depends with the C++ runtime and, for the viewer, Qt3D.
execute_process(COMMAND dpkg-deb --field ${debs} Package Version Architecture Depends
                OUTPUT_VARIABLE fields RESULT_VARIABLE rc)
message(STATUS "control:\n${fields}")
execute_process(COMMAND dpkg-deb --field ${debs} Depends OUTPUT_VARIABLE depends)
set(required libc6 libstdc\\+\\+6 libqt6core6)
if(GUI)
    list(APPEND required libqt6widgets6 libqt63dcore6 libqt63drender6 libqt63dextras6
         qt6-image-formats-plugins)
endif()
foreach(dep ${required})
    if(NOT depends MATCHES "(^|, )${dep}( |,|$)")
        message(FATAL_ERROR "Depends lacks ${dep} (shlibdeps?): '${depends}'")
    endif()
endforeach()
if(depends MATCHES "-dev[ ,]|-dev$")
    message(FATAL_ERROR "Depends names a -dev package: '${depends}'")
endif()

execute_process(COMMAND dpkg-deb -x ${debs} ${work}/root RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb -x failed")
endif()
set(root ${work}/root)
set(expected usr/bin/rigscope-cli usr/share/man/man1/rigscope-cli.1.gz
    usr/share/doc/rigscope/copyright usr/share/doc/rigscope/changelog.gz
    usr/share/doc/rigscope/guide/README.md usr/share/doc/rigscope/guide/checks.md)
if(GUI)
    set(id io.github.rigscope.RigScope)
    list(APPEND expected usr/bin/rigscope usr/share/man/man1/rigscope.1.gz
         usr/share/applications/${id}.desktop usr/share/metainfo/${id}.metainfo.xml
         usr/share/mime/packages/${id}.xml usr/share/thumbnailers/${id}.thumbnailer
         usr/share/icons/hicolor/scalable/apps/${id}.svg
         usr/share/rigscope/samples/sample_ref.smd)
    foreach(size 16 32 48 64 128 256)
        list(APPEND expected usr/share/icons/hicolor/${size}x${size}/apps/${id}.png)
    endforeach()
endif()
foreach(f ${expected})
    if(NOT EXISTS ${root}/${f})
        message(FATAL_ERROR "package lacks /${f}")
    endif()
endforeach()
list(LENGTH expected n)
message(STATUS "package holds all ${n} expected files")

# The copyright file is DEP-5 and says MIT, like LICENSE and the AppStream metadata; the
# changelog's newest entry is this version.
file(READ ${root}/usr/share/doc/rigscope/copyright copyright)
if(NOT copyright MATCHES "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
   OR NOT copyright MATCHES "\nFiles: \\*\nCopyright: [^\n]+\nLicense: MIT\n")
    message(FATAL_ERROR "usr/share/doc/rigscope/copyright is not a DEP-5 file licensing * as MIT")
endif()
file(READ ${SOURCE_DIR}/LICENSE license)
file(READ ${SOURCE_DIR}/packaging/linux/io.github.rigscope.RigScope.metainfo.xml metainfo)
if(NOT license MATCHES "^MIT License" OR NOT metainfo MATCHES "<project_license>MIT</project_license>")
    message(FATAL_ERROR "LICENSE and the metainfo's project_license must both say MIT")
endif()
execute_process(COMMAND gzip -dc ${root}/usr/share/doc/rigscope/changelog.gz OUTPUT_VARIABLE changelog)
if(NOT changelog MATCHES "^rigscope \\(${VERSION}\\) ")
    message(FATAL_ERROR "changelog.gz does not start with 'rigscope (${VERSION})': "
            "add an entry to packaging/debian/changelog")
endif()

# lintian: no error; warnings and informational tags are listed.
if(NOT LINTIAN)
    message(FATAL_ERROR "needs lintian (apt-get install lintian)")
endif()
execute_process(COMMAND ${LINTIAN} --tag-display-limit 0 --display-info ${debs}
                RESULT_VARIABLE rc OUTPUT_VARIABLE lint ERROR_VARIABLE lint_err)
message(STATUS "lintian (exit ${rc}):\n${lint}${lint_err}")
string(REGEX MATCHALL "(^|\n)E: [^\n]*" lint_errors "${lint}")
if(lint_errors OR NOT rc EQUAL 0)
    message(FATAL_ERROR "lintian reports errors:${lint_errors}")
endif()

execute_process(COMMAND ${root}/usr/bin/rigscope-cli --version RESULT_VARIABLE rc OUTPUT_VARIABLE ver)
if(NOT rc EQUAL 0 OR NOT ver MATCHES "rigscope-cli [0-9]")
    message(FATAL_ERROR "installed rigscope-cli --version failed: ${ver}")
endif()
message(STATUS "installed: ${ver}")
execute_process(COMMAND ${root}/usr/bin/rigscope-cli info ${SOURCE_DIR}/resources/samples/sample_ref.smd
                RESULT_VARIABLE rc OUTPUT_VARIABLE info)
if(NOT rc EQUAL 0 OR NOT info MATCHES "triangles")
    message(FATAL_ERROR "installed rigscope-cli info failed (${rc}): ${info}")
endif()

if(GUI)
    if(DESKTOP_FILE_VALIDATE)
        execute_process(COMMAND ${DESKTOP_FILE_VALIDATE} ${root}/usr/share/applications/${id}.desktop
                        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
        if(NOT rc EQUAL 0)
            message(FATAL_ERROR "installed desktop entry does not validate: ${out}")
        endif()
    endif()
    execute_process(COMMAND ${root}/usr/bin/rigscope --version RESULT_VARIABLE rc OUTPUT_VARIABLE ver)
    if(NOT rc EQUAL 0 OR NOT ver MATCHES "rigscope [0-9]")
        message(FATAL_ERROR "installed rigscope --version failed: ${ver}")
    endif()
    # The installed viewer makes a thumbnail of the sample as a file manager calls it: the
    # Exec line of the installed .thumbnailer, with no display at all (sandboxed thumbnailers
    # get none).
    set(thumb ${work}/thumbnail.png)
    file(STRINGS ${root}/usr/share/thumbnailers/${id}.thumbnailer exec REGEX "^Exec=")
    string(REGEX REPLACE "^Exec=rigscope " "" exec "${exec}")
    string(REPLACE "%i" "${SOURCE_DIR}/resources/samples/sample_ref.smd" exec "${exec}")
    string(REPLACE "%o" "${thumb}" exec "${exec}")
    string(REPLACE "%s" "128" exec "${exec}")
    separate_arguments(exec UNIX_COMMAND "${exec}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY
                            --unset=QT_QPA_PLATFORM ${root}/usr/bin/rigscope ${exec}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0 OR NOT EXISTS ${thumb})
        message(FATAL_ERROR "installed thumbnailer failed (${rc}): ${out}")
    endif()
    file(READ ${thumb} magic LIMIT 24 HEX)
    if(NOT magic MATCHES "^89504e470d0a1a0a0000000d4948445200000080") # PNG, 128 wide
        message(FATAL_ERROR "installed thumbnailer wrote no 128 px PNG: ${magic}")
    endif()
    message(STATUS "installed thumbnailer wrote ${thumb}")
endif()
