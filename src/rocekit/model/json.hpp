// JSON form of the snapshot (docs/snapshot-schema.md). to_json/from_json for every model type,
// found by ADL; load/save helpers with errors that name the file.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk {

#define RK_JSON(Type, ...) NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Type, __VA_ARGS__)
RK_JSON(Evidence, file, line, text)

/// The vocabulary enums as the strings of model/vocab.cpp; an unknown string is an error
/// naming the field (JSON_DIAGNOSTICS) and the accepted values.
[[noreturn]] void throw_bad_enum(const nlohmann::json& j, std::string_view what);
#define RK_JSON_ENUM(Enum, from_string, what)                                     \
  inline void to_json(nlohmann::json& j, Enum v) { j = std::string(to_string(v)); } \
  inline void from_json(const nlohmann::json& j, Enum& v) {                        \
    std::optional<Enum> e = j.is_string() ? from_string(j.get<std::string>()) : std::nullopt; \
    if (!e) throw_bad_enum(j, what);                                                \
    v = *e;                                                                         \
  }
RK_JSON_ENUM(PortState, port_state_from_string, "a port state (ACTIVE, DOWN, INIT, ARMED, ...)")
RK_JSON_ENUM(LinkLayer, link_layer_from_string, "a link layer (Ethernet, InfiniBand)")
RK_JSON_ENUM(GidType, gid_type_from_string, "a GID type (IB, RoCE v1, RoCE v2)")
RK_JSON_ENUM(Trust, trust_from_string, "a trust state (pcp, dscp)")
RK_JSON_ENUM(ReasonKind, reason_kind_from_string, "a reason kind (not_captured, needs_root, ...)")
inline void to_json(nlohmann::json& j, SourceKind v) { j = std::string(to_string(v)); }
/// An empty kind (hand-written snapshots) reads as "snapshot".
inline void from_json(const nlohmann::json& j, SourceKind& v) {
  if (j.is_string() && j.get<std::string>().empty()) {
    v = SourceKind::snapshot;
    return;
  }
  std::optional<SourceKind> e = j.is_string() ? source_kind_from_string(j.get<std::string>()) : std::nullopt;
  if (!e) throw_bad_enum(j, "a source kind (capture_dir, capture_tarball, capture_file, snapshot, live)");
  v = *e;
}
#undef RK_JSON_ENUM

template <class T>
void to_json(nlohmann::json& j, const Collected<T>& c) {
  j = nlohmann::json::object();
  if (c.value) {
    j["value"] = *c.value;
  } else {
    j["value"] = nullptr;
    j["reason"] = c.reason;
    if (c.reason_kind != ReasonKind::none) j["reason_kind"] = c.reason_kind;
    if (!c.needs.empty()) j["needs"] = c.needs;
  }
  if (!c.source.file.empty() || !c.source.text.empty()) j["source"] = c.source;
  if (!c.notes.empty()) j["notes"] = c.notes;
}

template <class T>
void from_json(const nlohmann::json& j, Collected<T>& c) {
  c = Collected<T>{};
  if (!j.is_object()) return;
  if (j.contains("value") && !j.at("value").is_null()) c.value = j.at("value").get<T>();
  if (j.contains("reason")) c.reason = j.at("reason").get<std::string>();
  if (j.contains("reason_kind")) c.reason_kind = j.at("reason_kind").get<ReasonKind>();
  if (j.contains("needs")) c.needs = j.at("needs").get<std::string>();
  if (j.contains("source")) c.source = j.at("source").get<Evidence>();
  if (j.contains("notes")) c.notes = j.at("notes").get<std::vector<std::string>>();
}


RK_JSON(TcSchedule, tc, tsa, bandwidth_percent, source)
RK_JSON(DriverStack, stack, release, version)
RK_JSON(QosState, trust, dscp_to_priority, pfc_enabled, priority_to_tc, priority_to_buffer, dcbx_mode, tc_schedule,
        cable_length_m, receive_buffer_bytes, trust_source, dscp_source, pfc_source, buffer_source, cable_source)
RK_JSON(PauseState, autoneg, rx, tx)
RK_JSON(CoalesceState, adaptive_rx, adaptive_tx, rx_usecs, tx_usecs, rx_frames, tx_frames)
RK_JSON(ChannelState, combined, combined_max, rx, tx)
RK_JSON(DriverInfo, driver, version, firmware_version, psid, bus_info)
RK_JSON(EcnState, rp_enabled, np_enabled)
RK_JSON(LinkSettings, speed_mbps, link_detected)
RK_JSON(DevlinkPortInfo, handle, flavour, controller, pfnum, vfnum, sfnum, external, port, function_roce,
        function_state, source)
RK_JSON(NetDev, name, bdf, rdma_device, rdma_port, numa_node, mtu_bytes, operstate, driver, qos,
        pause, coalesce, channels, ecn, link, stats, devlink_port)
inline void to_json(nlohmann::json& j, const Gid& g) {
  j = nlohmann::json{{"index", g.index}, {"gid", g.gid}, {"ipv4", g.ipv4}, {"type", g.type}, {"netdev", g.netdev}};
}
/// Snapshots of rocekit before the typed vocabulary wrote an untyped GID as "type": "".
inline void from_json(const nlohmann::json& j, Gid& g) {
  const Gid d;
  g.index = j.value("index", d.index);
  g.gid = j.value("gid", d.gid);
  g.ipv4 = j.contains("ipv4") ? j.at("ipv4").get<std::optional<std::string>>() : d.ipv4;
  if (j.contains("type") && !(j.at("type").is_string() && j.at("type").get<std::string>().empty()))
    g.type = j.at("type").get<std::optional<GidType>>();
  g.netdev = j.contains("netdev") ? j.at("netdev").get<std::optional<std::string>>() : d.netdev;
}
RK_JSON(RdmaPort, port, state, phys_state, link_layer, active_mtu_bytes, max_mtu_bytes, mtu_source,
        netdev, gids,
        default_roce_mode, default_roce_tos, global_traffic_class, counters)
RK_JSON(RdmaDevice, name, bdf, fw_ver, board_id, node_guid, sys_image_guid, vendor_part_id,
        transport, ports, source)
RK_JSON(PcieLinkEnd, speed_gts, width_lanes, downgraded)
RK_JSON(PcieLinkState, capability, status, max_payload_bytes, max_payload_cap_bytes)
RK_JSON(FirmwareImage, version, stored_version, psid, part_number, description, update_status)
RK_JSON(NvParam, name, default_value, current_value, next_boot_value, new_value, marked_modified,
        line)
RK_JSON(NvConfig, params, has_current_column, is_set_transcript, set_applied, reboot_requested,
        description, part_number)
RK_JSON(IommuGroup, number, type)
RK_JSON(BlueFieldMode, mode, column, internal_cpu_model, offload_engine, eswitch_manager, page_supplier,
        ib_vport0, next_boot_mode, why, source)
RK_JSON(PciFunction, bdf, vendor_id, device_id, device_name, is_vf, flash_recovery, numa_node, driver,
        vpd_part_number, vpd_product_name, board_serial_number, function_uid, link, max_read_request_bytes,
        relaxed_ordering, ats_enabled, iommu_group, firmware, nv_config, bluefield_mode,
        parent_bdf, source)
// Required keys: an ACS register with a bit left out must not read as "redirect off".
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(AcsBits, source_validation, translation_blocking, request_redirect,
                                   completion_redirect, upstream_forwarding, egress_control, direct_translated)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PciAcs, capability, control)
RK_JSON(PciBridge, bdf, vendor_id, device_id, name, port_type, secondary_bus, subordinate_bus, parent_bdf,
        link, acs, source)
RK_JSON(GpuNicLink, nic, relation, source)
RK_JSON(Gpu, index, bdf, parent_bdf, model, numa_node, cpu_affinity, memory_numa_node, nics, ats_enabled, iommu_group, source)
RK_JSON(GpuDirectState, peermem_loaded, peer_memory_registered, gdrdma_in_use, dmabuf_available, source)
RK_JSON(NvidiaDriver, version, open_module)
RK_JSON(IommuState, mode, decided_by, parameters)
RK_JSON(PersistenceState, units, enabled_links, udev_rules, other_scripts)
RK_JSON(AppSetting, name, value, origin, conditional, literal, source, unset)
RK_JSON(AppSettings, settings)
RK_JSON(NcclHca, rdma_device, port, link_layer)
RK_JSON(NcclRun, version, network, network_source, hcas, hcas_source, net_channels, gdrdma_channels, channel_source,
        elided, connected_source)
RK_JSON(InputFile, file, tool, target, status, messages)
RK_JSON(ToolRun, tool, target, status, command)
RK_JSON(UnplacedFirmware, mst_device, version, source)
RK_JSON(SnapshotSource, kind, path)
#undef RK_JSON

nlohmann::json snapshot_to_json(const Snapshot& s);
/// Errors: malformed_input when the document is not a snapshot or its schema_version is newer
/// than this build understands.
Result<Snapshot> snapshot_from_json(const nlohmann::json& j);

Result<Snapshot> load_snapshot_file(const std::filesystem::path& path);

}  // namespace rk
