# What `cmake --install` puts where (GNUInstallDirs under CMAKE_INSTALL_PREFIX), in two
# components that are the two Debian packages of cmake/Package.cmake:
#   cli:      rocekit, rocekit-capture, man pages, bash completion, the guides
#   exporter: rocekit-exporter, its systemd unit and /etc/default file, Prometheus rules,
#             Grafana dashboards, an example policy
include(GNUInstallDirs)

set(RK_GEN ${PROJECT_BINARY_DIR}/install-gen)
file(MAKE_DIRECTORY ${RK_GEN})

# rocekit-capture is a POSIX sh script copied to hosts as it is; the installed copy carries the
# build's version in its log ("version:" line) and file headers.
file(READ ${PROJECT_SOURCE_DIR}/scripts/rocekit-capture rk_capture_text)
string(REGEX REPLACE "\nVERSION=[^\n]*\n" "\nVERSION=${RK_VERSION}\n" rk_capture_text "${rk_capture_text}")
file(WRITE ${RK_GEN}/rocekit-capture "${rk_capture_text}")
file(CHMOD ${RK_GEN}/rocekit-capture PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# Its man page comes from its --help by help2man (Debian's help2man), as the executables' come
# from their command trees.
find_program(RK_HELP2MAN help2man)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scripts/rocekit-capture)

# The systemd unit names the installed executable and reads /etc/default/rocekit-exporter.
file(READ ${PROJECT_SOURCE_DIR}/deploy/systemd/rocekit-exporter.service rk_unit_text)
string(REPLACE "/usr/local/bin/rocekit-exporter" "${CMAKE_INSTALL_FULL_BINDIR}/rocekit-exporter" rk_unit_text "${rk_unit_text}")
# The source's "Install: cp ..." line is for a copy by hand; the installed unit is in place.
string(REGEX REPLACE "# Install: cp [^\n]*\n" "" rk_unit_text "${rk_unit_text}")
# ... and the options file where the default file is installed (/etc with prefix /usr).
string(REPLACE "EnvironmentFile=-/etc/default/rocekit-exporter"
       "EnvironmentFile=-${CMAKE_INSTALL_FULL_SYSCONFDIR}/default/rocekit-exporter" rk_unit_text "${rk_unit_text}")
file(WRITE ${RK_GEN}/rocekit-exporter.service "${rk_unit_text}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/deploy/systemd/rocekit-exporter.service)

# Man pages gzip-compressed (Debian policy 12.1), after rocekit-docgen wrote them; the example
# policy is the built-in one as `rocekit policy show` prints it.
set(rk_capture_man_cmd)
if(RK_HELP2MAN)
  set(rk_capture_man_cmd COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${RK_COMMIT_EPOCH} ${RK_HELP2MAN}
      --no-info --name "read-only capture of the command outputs rocekit checks" --section 1
      --output ${PROJECT_BINARY_DIR}/man/man1/rocekit-capture.1 ${RK_GEN}/rocekit-capture)
else()
  message(WARNING "help2man not found: no rocekit-capture(1) (apt-get install help2man; scripts/install-deps.sh does)")
endif()
add_custom_command(
  OUTPUT ${RK_GEN}/man.stamp ${RK_GEN}/policy.example.yaml
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${RK_GEN}/man1
  ${rk_capture_man_cmd}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${RK_GEN}/man1
  COMMAND sh -c "for f in \"$1\"/*.1; do gzip -9n -c \"$f\" > \"$2/$(basename \"$f\").gz\" || exit 1; done" sh
          ${PROJECT_BINARY_DIR}/man/man1 ${RK_GEN}/man1
  COMMAND sh -c "ASAN_OPTIONS=detect_leaks=0 \"$1\" policy show > \"$2\"" sh $<TARGET_FILE:rocekit> ${RK_GEN}/policy.example.yaml
  COMMAND ${CMAKE_COMMAND} -E touch ${RK_GEN}/man.stamp
  DEPENDS ${PROJECT_BINARY_DIR}/man/docgen.stamp rocekit ${PROJECT_SOURCE_DIR}/scripts/rocekit-capture
  COMMENT "Compressed man pages and the example policy for installation"
  VERBATIM)
add_custom_target(rk_install_gen ALL DEPENDS ${RK_GEN}/man.stamp)
add_dependencies(rk_install_gen rk_docgen)

set(RK_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/rocekit)
set(RK_EXPORTER_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/rocekit-exporter)

install(TARGETS rocekit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(PROGRAMS ${RK_GEN}/rocekit-capture DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(DIRECTORY ${RK_GEN}/man1/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT cli
        FILES_MATCHING PATTERN "*.1.gz" PATTERN "rocekit-exporter.1.gz" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/completions/rocekit
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT cli)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${RK_DOCDIR} COMPONENT cli)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${RK_DOCDIR} COMPONENT cli FILES_MATCHING PATTERN "*.md")

install(TARGETS rocekit-exporter RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT exporter)
install(FILES ${RK_GEN}/man1/rocekit-exporter.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT exporter)
install(FILES ${PROJECT_BINARY_DIR}/completions/rocekit-exporter
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT exporter)
# Debian's own units live in /lib/systemd/system on bookworm; elsewhere under the prefix.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(RK_UNITDIR /lib/systemd/system)
else()
  set(RK_UNITDIR ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)
endif()
install(FILES ${RK_GEN}/rocekit-exporter.service DESTINATION ${RK_UNITDIR} COMPONENT exporter)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/rocekit-exporter.default DESTINATION ${CMAKE_INSTALL_FULL_SYSCONFDIR}/default
        RENAME rocekit-exporter COMPONENT exporter)
install(FILES ${PROJECT_SOURCE_DIR}/deploy/prometheus/rocekit-rules.yml ${PROJECT_SOURCE_DIR}/deploy/prometheus/rocekit-fleet-rules.yml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/rocekit-exporter/prometheus COMPONENT exporter)
install(FILES ${PROJECT_SOURCE_DIR}/deploy/grafana/rocekit-host.json ${PROJECT_SOURCE_DIR}/deploy/grafana/rocekit-fleet.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/rocekit-exporter/grafana COMPONENT exporter)
install(FILES ${RK_GEN}/policy.example.yaml ${PROJECT_SOURCE_DIR}/docs/exporter.md
        DESTINATION ${RK_EXPORTER_DOCDIR} COMPONENT exporter)
