# Debian packages with CPack's DEB generator (scripts/package-deb.sh builds them, with
# dpkg-buildflags' hardening flags): `rocekit` (the CLI) and `rocekit-exporter` (the node agent
# with its systemd unit). Two packages because an auditing workstation or a CI runner wants the
# CLI without a daemon, and a node wants the exporter without the planner's writers.
# Runtime dependencies come from dpkg-shlibdeps, never hand-listed versions.
set(RK_DEB_MAINTAINER "rocekit developers <rocekit@example.org>")
set(RK_DEB_REVISION 1)

# Each package's /usr/share/doc/<package>: copyright and changelog.Debian.gz (Debian policy
# 12.5 and 12.7). The changelog entry is dated by the commit (rk_commit_facts in Version.cmake).
foreach(pkg rocekit rocekit-exporter)
  if(pkg STREQUAL "rocekit")
    set(comp cli)
  else()
    set(comp exporter)
  endif()
  file(WRITE ${RK_GEN}/${pkg}.changelog
       "${pkg} (${RK_VERSION}-${RK_DEB_REVISION}) unstable; urgency=medium\n\n"
       "  * Built from ${RK_COMMIT}. What changed: the project's git history.\n\n"
       " -- ${RK_DEB_MAINTAINER}  ${RK_COMMIT_DATE}\n")
  add_custom_command(OUTPUT ${RK_GEN}/${pkg}/changelog.Debian.gz
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${RK_GEN}/${pkg}
                     COMMAND sh -c "gzip -9n -c \"$1\" > \"$2\"" sh ${RK_GEN}/${pkg}.changelog ${RK_GEN}/${pkg}/changelog.Debian.gz
                     DEPENDS ${RK_GEN}/${pkg}.changelog VERBATIM)
  add_custom_target(rk_changelog_${comp} ALL DEPENDS ${RK_GEN}/${pkg}/changelog.Debian.gz)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright ${RK_GEN}/${pkg}/changelog.Debian.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${pkg} COMPONENT ${comp})
endforeach()

set(CPACK_PACKAGE_NAME rocekit)
set(CPACK_PACKAGE_VERSION ${RK_VERSION})
set(CPACK_PACKAGE_CONTACT ${RK_DEB_MAINTAINER})
set(CPACK_PACKAGE_VENDOR "rocekit developers")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL cli exporter)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${RK_DEB_REVISION})
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${RK_DEB_MAINTAINER})
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_DEBIAN_CLI_PACKAGE_NAME rocekit)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION net)
# mstflint ships the mlxconfig parameter database `rocekit plan` checks firmware names against;
# ethtool, iproute2 (dcb, rdma) and pciutils are the tools plans run.
set(CPACK_DEBIAN_CLI_PACKAGE_RECOMMENDS "mstflint, ethtool, iproute2, pciutils")
set(CPACK_DEBIAN_CLI_PACKAGE_SUGGESTS "rocekit-exporter")
# The first line is the synopsis; the rest is the extended description (lines under 80 columns).
# CPACK_PACKAGE_DESCRIPTION_SUMMARY stays unset: CPack would prepend it to both packages.
set(CPACK_DEBIAN_CLI_DESCRIPTION "audit RoCE GPU-cluster hosts (ConnectX NICs, BlueField DPUs)
rocekit checks a host of a RoCE (RDMA over Converged Ethernet) GPU cluster
against a policy: trust DSCP, DSCP to priority, PFC and ECN on the RoCE
priority, CNP, ETS, PFC headroom, MTU, PCIe link and MaxReadReq, the PCIe path
between GPU and NIC, GPUDirect RDMA and firmware. It reads a live host or the
outputs rocekit-capture saved, reports every finding with its evidence and the
exact fix, plans and applies the host configuration, diagnoses counter deltas
and compares fleets and switch configurations.")

set(CPACK_DEBIAN_EXPORTER_PACKAGE_NAME rocekit-exporter)
set(CPACK_DEBIAN_EXPORTER_PACKAGE_SECTION net)
set(CPACK_DEBIAN_EXPORTER_PACKAGE_SUGGESTS "rocekit, prometheus")
set(CPACK_DEBIAN_EXPORTER_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/exporter/conffiles)
set(CPACK_DEBIAN_EXPORTER_DESCRIPTION "Prometheus exporter of RoCE counters, QoS state and rocekit rule outcomes
rocekit-exporter serves a host's RoCE counters (pause, ECN, CNP,
retransmissions, discards) widened to 64 bits, its link, PCIe and QoS state,
and the outcomes of rocekit's rules as Prometheus metrics, over HTTP or as a
node_exporter textfile. The package has a hardened systemd unit (not enabled
on install), Prometheus alerting rules and Grafana dashboards.")

include(CPack)
