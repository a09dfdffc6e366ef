// rk_fleet: which PFs are one physical NIC. Placeholder serials join nothing; PFs that share a
// serial but not a NIC model are reported, not joined. Inputs: real captures copied to a temp
// dir with one serial line edited.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fleet_support.hpp"

using namespace rk;
using namespace rk::fleet;
using namespace rk::fleet::test;

namespace {

/// cx7-host: testdata/fleet/multihost/host-a (ConnectX-7, PSID MT_0000000894, devlink board
/// serial); cx4-host: testdata/hosts/homelab-host02-cx4-100g-pcie-x8 (ConnectX-4, PSID
/// MT_2150110033, lspci VPD [SN] MT0000X00000). Each gets `serial` as its board serial.
void cx7_and_cx4(const TempDir& dir, const std::string& serial) {
  copy_capture("fleet/multihost/host-a", dir.path / "cx7-host");
  copy_capture("hosts/homelab-host02-cx4-100g-pcie-x8", dir.path / "cx4-host");
  edit_line(dir.path / "cx7-host/devlink_dev_info.txt", "\n  board.serial_number MT0000XZ00AA\n",
            "\n  board.serial_number " + serial + "\n");
  if (serial != "MT0000X00000")
    edit_line(dir.path / "cx4-host/lspci_vvv@0000:81:00.0.txt", "[SN] Serial number: MT0000X00000",
              "[SN] Serial number: " + serial);
}

std::size_t multi_host_checks(const FleetReport& r) {
  std::size_t n = 0;
  for (const Consistency& c : r.cross.checks) n += c.rule == "fleet.multi-host-qos-identical";
  return n;
}

}  // namespace

TEST(FleetPhysicalNic, PlaceholderIds) {
  for (const char* id : {"", "  ", "MT0000X00000", "MT0000000000", "mt0000x00000", "MTXXXXXXXXXX", "N/A", "NA",
                         "Not Available", "not specified", "To be filled by O.E.M.", "Default string", "None",
                         "Unknown", "00000000000000000000000000000000", "0000:0000:0000:0000",
                         "0x0000000000000000", "ffff:ffff:ffff:ffff", "XXXXXXXX"})
    EXPECT_TRUE(is_placeholder_id(id)) << '"' << id << '"';
  for (const char* id : {"MT0000XZ00AA", "MT2145X12345", "MT2231X", "IL020NJD000000C00000", "0002:c903:00a1:b2c4",
                         "MT", "SYN1000"})
    EXPECT_FALSE(is_placeholder_id(id)) << '"' << id << '"';
}

// The new-user trial: a ConnectX-7 and a ConnectX-4 that both show the unprogrammed-VPD serial
// MT0000X00000 were reported as one Multi-Host NIC.
TEST(FleetPhysicalNic, PlaceholderSerialsJoinNothing) {
  TempDir dir;
  cx7_and_cx4(dir, "MT0000X00000");
  FleetReport r = run_fleet(discover_inputs({dir.path}), Options{});
  ASSERT_EQ(r.hosts_loaded, 2u);
  EXPECT_TRUE(r.cross.multi_host.empty());
  EXPECT_EQ(multi_host_checks(r), 0u);
  for (const HostSummary& h : r.hosts) {
    ASSERT_EQ(h.nics.size(), 1u) << h.host;
    EXPECT_EQ(h.nics[0].physical_id, "") << h.host;
    ASSERT_EQ(h.physical.size(), h.host == "cx7-host" ? 1u : 0u) << h.host;
    if (!h.physical.empty()) {
      EXPECT_FALSE(h.physical[0].global_id);
      EXPECT_EQ(h.physical[0].key, "cx7-host/0000:08:00");
    }
  }
  nlohmann::json j = render_json(r, {});
  EXPECT_EQ(j["summary"]["multi_host_nics"], 0);
}

// Two PFs that share a real serial but show different PSIDs are not one card: an unknown check
// names both hosts and models; no Multi-Host NIC, no QoS comparison between them.
TEST(FleetPhysicalNic, SharedSerialOfTwoModelsIsReportedNotJoined) {
  TempDir dir;
  cx7_and_cx4(dir, "MT2145X12345");
  FleetReport r = run_fleet(discover_inputs({dir.path}), Options{});
  ASSERT_EQ(r.hosts_loaded, 2u);
  EXPECT_TRUE(r.cross.multi_host.empty());
  ASSERT_EQ(multi_host_checks(r), 1u);
  const Consistency* c = find_check(r, "fleet.multi-host-qos-identical", "model");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->group, "board serial MT2145X12345");
  EXPECT_EQ(c->outcome, Outcome::unknown);
  EXPECT_EQ(c->message,
            "board serial MT2145X12345 is shown by cx4-host 0000:81:00.0 (PSID MT_2150110033, part number "
            "MCX416A-CCA_Ax); cx7-host eth4 (PSID MT_0000000894, part number MCX715105AS-WEAT_Ax): different NIC "
            "models (PSID, part number differ); not joined into one Multi-Host NIC and not compared (two boards with one serial: check their VPD)");
  ASSERT_EQ(c->unknown.size(), 2u);
  EXPECT_EQ(c->unknown[0].host, "cx4-host");
  EXPECT_EQ(c->unknown[0].value, "PSID MT_2150110033, part number MCX416A-CCA_Ax");
  EXPECT_EQ(c->unknown[1].host, "cx7-host");
  EXPECT_EQ(c->unknown[1].subject, "eth4");
  EXPECT_EQ(c->unknown[1].value, "PSID MT_0000000894, part number MCX715105AS-WEAT_Ax");  // mlxconfig q
  // The NICs keep their serial; only joining them is refused.
  for (const HostSummary& h : r.hosts)
    for (const NicRecord& n : h.nics) EXPECT_EQ(n.physical_id, "board serial MT2145X12345");
  std::string text = fleet::render(r, Format::text, {});
  EXPECT_NE(text.find("UNKNOWN  fleet.multi-host-qos-identical     model (board serial MT2145X12345): board "
                      "serial MT2145X12345 is shown by cx4-host"),
            std::string::npos) << text;
  EXPECT_NE(text.find("0 Multi-Host NICs"), std::string::npos) << text;
}

// Two hosts of one real Multi-Host ConnectX-7 still join: same serial, same PSID.
TEST(FleetPhysicalNic, SharedSerialOfOneModelJoins) {
  FleetReport r = run_fleet(discover_inputs({td() / "fleet/multihost/host-a", td() / "fleet/multihost/host-b"}),
                            Options{});
  ASSERT_EQ(r.cross.multi_host.size(), 1u);
  EXPECT_EQ(r.cross.multi_host[0].key, "board serial MT0000XZ00AA");
  EXPECT_EQ(r.cross.multi_host[0].pfs.size(), 2u);
  EXPECT_EQ(find_check(r, "fleet.multi-host-qos-identical", "model"), nullptr);
  const Consistency* pfc = find_check(r, "fleet.multi-host-qos-identical", "pfc");
  ASSERT_NE(pfc, nullptr);
  EXPECT_EQ(pfc->outcome, Outcome::pass);
  EXPECT_EQ(pfc->message, "all 2 PFs: 3");
}
