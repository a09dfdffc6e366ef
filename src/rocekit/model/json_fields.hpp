// The snapshot's JSON field lists, declared once (docs/snapshot-schema.md): model/json.hpp turns
// each entry into nlohmann to_json/from_json, model/json_fast.cpp into the simdjson reader
// `rocekit fleet` loads snapshots with. Plain macros, no JSON library included.
//
// RK_SNAPSHOT_JSON_TYPES(X) calls X(Type, field, ...) for every struct whose JSON form is its
// fields under their own names, a missing key keeping the default. Order matters: a type comes
// after the types of its fields. Types with their own rules are not listed (model/json.hpp:
// SourceKind, Collected<T>, Gid, AcsBits and PciAcs).
#pragma once

/// The vocabulary enums (model/vocab.hpp) written as their strings: X(Enum, from_string, what).
/// SourceKind has its own rule (an empty string reads as "snapshot").
#define RK_SNAPSHOT_JSON_ENUMS(X)                                                                          \
  X(PortState, port_state_from_string, "a port state (ACTIVE, DOWN, INIT, ARMED, ...)")                    \
  X(LinkLayer, link_layer_from_string, "a link layer (Ethernet, InfiniBand)")                              \
  X(GidType, gid_type_from_string, "a GID type (IB, RoCE v1, RoCE v2)")                                    \
  X(Trust, trust_from_string, "a trust state (pcp, dscp)")                                                 \
  X(ReasonKind, reason_kind_from_string, "a reason kind (not_captured, needs_root, ...)")

/// Evidence comes first, by itself: Collected<T>'s own rule (model/json.hpp) reads it.
#define RK_SNAPSHOT_JSON_EVIDENCE(X) X(Evidence, file, line, text)

#define RK_SNAPSHOT_JSON_TYPES(X)                                                                          \
  X(TcSchedule, tc, tsa, bandwidth_percent, source)                                                        \
  X(DriverStack, stack, release, version)                                                                  \
  X(QosState, trust, dscp_to_priority, pfc_enabled, priority_to_tc, priority_to_buffer, dcbx_mode,         \
    tc_schedule, cable_length_m, receive_buffer_bytes, trust_source, dscp_source, pfc_source,              \
    buffer_source, cable_source)                                                                           \
  X(PauseState, autoneg, rx, tx)                                                                           \
  X(CoalesceState, adaptive_rx, adaptive_tx, rx_usecs, tx_usecs, rx_frames, tx_frames)                     \
  X(ChannelState, combined, combined_max, rx, tx)                                                          \
  X(DriverInfo, driver, version, firmware_version, psid, bus_info)                                         \
  X(EcnState, rp_enabled, np_enabled)                                                                      \
  X(LinkSettings, speed_mbps, link_detected)                                                               \
  X(DevlinkPortInfo, handle, flavour, controller, pfnum, vfnum, sfnum, external, port, function_roce,      \
    function_state, source)                                                                                \
  X(NetDev, name, bdf, rdma_device, rdma_port, numa_node, mtu_bytes, operstate, driver, qos, pause,         \
    coalesce, channels, ecn, link, stats, devlink_port)                                                    \
  X(RdmaPort, port, state, phys_state, link_layer, active_mtu_bytes, max_mtu_bytes, mtu_source, netdev,    \
    gids, default_roce_mode, default_roce_tos, global_traffic_class, counters)                             \
  X(RdmaDevice, name, bdf, fw_ver, board_id, node_guid, sys_image_guid, vendor_part_id, transport, ports,   \
    source)                                                                                                \
  X(PcieLinkEnd, speed_gts, width_lanes, downgraded)                                                       \
  X(PcieLinkState, capability, status, max_payload_bytes, max_payload_cap_bytes)                           \
  X(FirmwareImage, version, stored_version, psid, part_number, description, update_status)                 \
  X(NvParam, name, default_value, current_value, next_boot_value, new_value, marked_modified, line)        \
  X(NvConfig, params, has_current_column, is_set_transcript, set_applied, reboot_requested, description,   \
    part_number)                                                                                           \
  X(IommuGroup, number, type)                                                                              \
  X(BlueFieldMode, mode, column, internal_cpu_model, offload_engine, eswitch_manager, page_supplier,       \
    ib_vport0, next_boot_mode, why, source)                                                                \
  X(DevlinkEswitchInfo, mode, inline_mode, encap_mode, kernel_error, source)                             \
  X(PciFunction, bdf, vendor_id, device_id, device_name, is_vf, flash_recovery, numa_node, driver,         \
    vpd_part_number, vpd_product_name, board_serial_number, function_uid, link, max_read_request_bytes,    \
    relaxed_ordering, ats_enabled, iommu_group, firmware, nv_config, bluefield_mode, eswitch, parent_bdf,  \
    source)                                                                                                \
  X(PciBridge, bdf, vendor_id, device_id, name, port_type, secondary_bus, subordinate_bus, parent_bdf,     \
    link, acs, source)                                                                                     \
  X(GpuNicLink, nic, relation, source)                                                                     \
  X(Gpu, index, bdf, parent_bdf, model, numa_node, cpu_affinity, memory_numa_node, nics, ats_enabled,      \
    iommu_group, source)                                                                                   \
  X(GpuDirectState, peermem_loaded, peer_memory_registered, gdrdma_in_use, dmabuf_available, source)       \
  X(NvidiaDriver, version, open_module)                                                                    \
  X(IommuState, mode, decided_by, parameters)                                                              \
  X(PersistenceState, units, enabled_links, udev_rules, other_scripts)                                     \
  X(AppSetting, name, value, origin, conditional, literal, source, unset)                                  \
  X(AppSettings, settings)                                                                                 \
  X(NcclHca, rdma_device, port, link_layer)                                                                \
  X(NcclRun, version, network, network_source, hcas, hcas_source, net_channels, gdrdma_channels,           \
    channel_source, elided, connected_source)                                                              \
  X(HugepagePool, page_kib, total, free, source)                                                           \
  X(MemoryState, total_kib, available_kib, hugepages)                                                      \
  X(HugepageReservation, app, page_kib, pages, state, source)                                              \
  X(PodContainer, pod, container, file, image, cpu_request_millicores, cpu_limit_millicores,               \
    memory_request_bytes, memory_limit_bytes, hugepages_bytes, init, unreadable, invalid, source)          \
  X(InputFile, file, tool, target, status, messages)                                                       \
  X(ToolRun, tool, target, status, command)                                                                \
  X(UnplacedFirmware, mst_device, version, source)                                                         \
  X(SnapshotSource, kind, path)

/// The snapshot's own keys after `schema_version` (which is read first, by itself): each is
/// optional, a missing key keeping the default.
#define RK_SNAPSHOT_TOP_FIELDS(X)                                                                          \
  X(tool_version) X(collected_at) X(hostname) X(source) X(netdevs) X(rdma_devices) X(pci_functions)        \
  X(pci_bridges) X(gpus) X(gpudirect) X(nvidia_driver) X(kernel_release) X(driver_stack) X(iommu)         \
  X(kernel_modules) X(numa_cpu_count) X(persistence) X(app_settings) X(nccl_run) X(memory)               \
  X(doca_hugepages) X(static_pods) X(tool_runs) X(inputs) X(notes) X(unplaced_firmware)
