// NvParamDb against the real mlxconfig_host.db that Debian's mstflint package installs
// (scripts/install-deps.sh). Every expected value below was read from that DB with sqlite3.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "rocekit/plan/nv_db.hpp"
#include "rocekit/plan/plan.hpp"

namespace rk::plan {
namespace {

const std::filesystem::path k_db{std::string(k_default_mlxconfig_db)};

class NvDbReal : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(k_db)) GTEST_SKIP() << k_db << " not installed (apt install mstflint)";
    Result<NvParamDb> db = NvParamDb::open(k_db);
    ASSERT_TRUE(db.has_value()) << db.error().describe();
    m_db = std::move(*db);
  }
  std::optional<NvParamDb> m_db;
};

TEST_F(NvDbReal, ReadsTheRoceCcRowsAsTheDbHasThem) {
  EXPECT_GT(m_db->size(), 300u);  // 322 named parameters in mstflint 4.21's DB
  const NvParamInfo* dscp = m_db->find("CNP_DSCP");
  ASSERT_NE(dscp, nullptr);
  EXPECT_EQ(dscp->tlv, "nv_roce_cc_ecn");
  EXPECT_EQ(dscp->tlv_class, 1);
  EXPECT_EQ(dscp->type, "UNSIGNED");
  EXPECT_EQ(dscp->width_bits, 6);  // size 0x0.6
  const NvParamInfo* mask = m_db->find("ROCE_CC_PRIO_MASK");
  ASSERT_NE(mask, nullptr);
  EXPECT_EQ(mask->tlv, "nv_roce_cc");
  EXPECT_EQ(mask->width_bits, 8);
  const NvParamInfo* link = m_db->find("LINK_TYPE");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->type, "ENUM");
  EXPECT_EQ(link->enum_values,
            (std::vector<std::pair<std::string, std::int64_t>>{{"IB", 1}, {"ETH", 2}}));
  const NvParamInfo* ar = m_db->find("ROCE_ADAPTIVE_ROUTING_EN");
  ASSERT_NE(ar, nullptr);
  EXPECT_EQ(ar->tlv_class, 0);
  EXPECT_EQ(ar->type, "BOOL");
}

TEST_F(NvDbReal, AcceptsLegalValues) {
  EXPECT_EQ(m_db->validate("CNP_DSCP_P1", "48").value(), 48);
  EXPECT_EQ(m_db->validate("CNP_DSCP_P2", "63").value(), 63);
  EXPECT_EQ(m_db->validate("CNP_802P_PRIO_P1", "6").value(), 6);
  EXPECT_EQ(m_db->validate("ROCE_CC_PRIO_MASK_P1", "0xff").value(), 255);
  EXPECT_EQ(m_db->validate("LINK_TYPE_P1", "ETH").value(), 2);
  EXPECT_EQ(m_db->validate("LINK_TYPE_P2", "2").value(), 2);
  EXPECT_EQ(m_db->validate("ROCE_ADAPTIVE_ROUTING_EN", "True").value(), 1);
  EXPECT_EQ(m_db->validate("ADVANCED_PCI_SETTINGS", "1").value(), 1);
  EXPECT_EQ(m_db->validate("NUM_OF_PF", "0").value(), 0);  // DB min_val 0, max symbolic
}

TEST_F(NvDbReal, RefusesBogusNamesAndValuesWithTheReason) {
  auto msg = [&](std::string_view n, std::string_view v) {
    Result<std::int64_t> r = m_db->validate(n, v);
    EXPECT_FALSE(r.has_value()) << n << "=" << v;
    return r ? std::string() : r.error().describe();
  };
  EXPECT_EQ(msg("CNP_DSCP_P1", "64"),
            "CNP_DSCP_P1=64: out of range 0..63 (6-bit UNSIGNED) (mlxconfig_host.db)");
  EXPECT_EQ(msg("CNP_802P_PRIO_P1", "8"),
            "CNP_802P_PRIO_P1=8: out of range 0..7 (3-bit UNSIGNED) (mlxconfig_host.db)");
  EXPECT_EQ(msg("ROCE_CC_PRIO_MASK_P1", "256"),
            "ROCE_CC_PRIO_MASK_P1=256: out of range 0..255 (8-bit UNSIGNED) (mlxconfig_host.db)");
  EXPECT_EQ(msg("CNP_DSCP_P1", "3; reboot"), "CNP_DSCP_P1=3; reboot: not a number (mlxconfig_host.db)");
  EXPECT_EQ(msg("LINK_TYPE_P1", "3"), "LINK_TYPE_P1=3: not one of IB=1, ETH=2 (mlxconfig_host.db)");
  EXPECT_EQ(msg("ROCE_ADAPTIVE_ROUTING_EN", "2"),
            "ROCE_ADAPTIVE_ROUTING_EN=2: BOOL takes True, False, 1 or 0 (mlxconfig_host.db)");
  // Names host-facts.md §A lists as absent from the DB, and suffix mistakes.
  EXPECT_EQ(msg("ROCE_ADAPTIVE_ROUTING", "1"),
            "ROCE_ADAPTIVE_ROUTING: no such firmware parameter (mlxconfig_host.db)");
  EXPECT_EQ(msg("PCIE_MAX_READ_REQ", "4096"),
            "PCIE_MAX_READ_REQ: no such firmware parameter (mlxconfig_host.db)");
  EXPECT_EQ(msg("MULTI_HOST_EN", "1"), "MULTI_HOST_EN: no such firmware parameter (mlxconfig_host.db)");
  EXPECT_EQ(msg("CNP_DSCP", "48"),
            "CNP_DSCP: port parameter (TLV nv_roce_cc_ecn) needs the _P<n> suffix, e.g. CNP_DSCP_P1 "
            "(mlxconfig_host.db)");
  EXPECT_EQ(msg("ROCE_ADAPTIVE_ROUTING_EN_P1", "1"),
            "ROCE_ADAPTIVE_ROUTING_EN_P1: ROCE_ADAPTIVE_ROUTING_EN is not a port parameter (TLV "
            "nv_sw_offload_conf): no _P<n> suffix (mlxconfig_host.db)");
  EXPECT_FALSE(m_db->validate("CNP_DSCP_P0", "48"));
  EXPECT_FALSE(m_db->validate("CNP_DSCP_P9", "48"));
}

TEST_F(NvDbReal, MaxAccOutReadNeedsAdvancedPciSettings) {
  // params.dependency of MAX_ACC_OUT_READ: "($nv_pci_conf.advanced_pci_settings!=0) && ...".
  const NvParamInfo* p = m_db->find("MAX_ACC_OUT_READ");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->prerequisites, (std::vector<std::string>{"ADVANCED_PCI_SETTINGS"}));
  EXPECT_TRUE(m_db->find("CNP_DSCP")->prerequisites.empty());  // "ignore_dependency"
}

TEST(NvDbOpen, MissingFileMeansNotValidated) {
  Result<NvDbChoice> c = open_nv_db_if_present("/nonexistent/mlxconfig_host.db");
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(c->db.has_value());
  EXPECT_EQ(c->missing, "not validated: /nonexistent/mlxconfig_host.db not found");
}

TEST(NvDbOpen, ANonDatabaseFileIsAnError) {
  std::filesystem::path p = std::filesystem::temp_directory_path() / "rk_nv_db_not_sqlite.db";
  std::ofstream(p) << "CNP_DSCP 48\n";
  Result<NvDbChoice> c = open_nv_db_if_present(p);
  std::filesystem::remove(p);
  ASSERT_FALSE(c.has_value());
  EXPECT_EQ(c.error().kind, ErrorKind::malformed_input);
  EXPECT_EQ(c.error().context, p.string());
}

// The planner with the DB: an out-of-range policy value is refused, not planned.
Snapshot two_port_cx(const std::string& dscp, const std::string& prio, const std::string& mask) {
  Snapshot s;
  PciFunction& f = s.pci("0000:3b:00.0");
  NvConfig nv;
  std::size_t line = 1;
  for (const char* port : {"_P1", "_P2"}) {
    nv.params.push_back(NvParam{std::string("CNP_DSCP") + port, std::nullopt, std::nullopt, dscp, std::nullopt, false, line++});
    nv.params.push_back(NvParam{std::string("CNP_802P_PRIO") + port, std::nullopt, std::nullopt, prio, std::nullopt, false, line++});
    nv.params.push_back(NvParam{std::string("ROCE_CC_PRIO_MASK") + port, std::nullopt, std::nullopt, mask, std::nullopt, false, line++});
  }
  f.nv_config.value = nv;
  f.nv_config.source.file = "mstconfig_q@0000:3b:00.0.txt";
  return s;
}

TEST_F(NvDbReal, PlanRefusesAnOutOfRangeCnpPriority) {
  Policy pol = default_policy();
  pol.cnp_priority = 9;  // a hand-built policy; the YAML loader would refuse it earlier
  PlanOptions o;
  o.nv_db = &*m_db;
  Plan p = make_plan(two_port_cx("48", "6", "255"), pol, o);
  EXPECT_TRUE(p.actions.empty());
  ASSERT_EQ(p.unplanned.size(), 2u);
  EXPECT_EQ(p.unplanned[0].rule, "qos.cnp-firmware");
  EXPECT_EQ(p.unplanned[0].reason,
            "CNP_802P_PRIO_P1=9 refused: out of range 0..7 (3-bit UNSIGNED) (mlxconfig_host.db)");
}

TEST_F(NvDbReal, PlanValidatesCnpAndRoceCcMaskSteps) {
  PlanOptions o;
  o.nv_db = &*m_db;
  // plan acts where check fails: the ECN rule judges a netdev of the NIC (port 1 by its
  // phys_port_name np0) whose runtime DCQCN is on, so the firmware mask 0x10 is what fails.
  Snapshot s = two_port_cx("4", "6", "16");
  NetDev& n = s.netdev("enp59s0f0np0");
  n.bdf = "0000:3b:00.0";
  EcnState ecn;
  for (int prio = 0; prio < 8; ++prio) ecn.rp_enabled[prio] = ecn.np_enabled[prio] = true;
  n.ecn.value = ecn;
  n.ecn.source.file = "sysfs_ecn@enp59s0f0np0.txt";
  Plan p = make_plan(s, default_policy(), o);  // NCO's CNP_DSCP 4; mask 0x10
  ASSERT_EQ(p.actions.size(), 2u);
  EXPECT_EQ(p.actions[0].rule, "qos.cnp-firmware");
  EXPECT_EQ(p.actions[0].argv, (std::vector<std::string>{"mstconfig", "-y", "-d", "0000:3b:00.0", "set",
                                                         "CNP_DSCP_P1=48", "CNP_DSCP_P2=48"}));
  EXPECT_EQ(p.actions[1].rule, "qos.ecn-roce-priority");
  EXPECT_EQ(p.actions[1].current, "ROCE_CC_PRIO_MASK_P1=16 ROCE_CC_PRIO_MASK_P2=16");
  EXPECT_EQ(p.actions[1].desired, "ROCE_CC_PRIO_MASK_P1=24 ROCE_CC_PRIO_MASK_P2=24");  // bit 3 added, bit 4 kept
  EXPECT_EQ(p.actions[1].undo_argv, (std::vector<std::string>{"mstconfig", "-y", "-d", "0000:3b:00.0", "set",
                                                              "ROCE_CC_PRIO_MASK_P1=16", "ROCE_CC_PRIO_MASK_P2=16"}));
  EXPECT_EQ(p.nv_validation, "validated against " + k_db.string() + " (" + std::to_string(m_db->size()) +
                                 " parameters)");
  EXPECT_NE(p.actions[0].note.find("validated against " + k_db.string()), std::string::npos);
}

TEST(PlanNvNoDb, PlanSaysNotValidated) {
  PlanOptions o;
  o.nv_db_missing = "not validated: /x/mlxconfig_host.db not found";
  Plan p = make_plan(two_port_cx("4", "6", "255"), default_policy(), o);
  ASSERT_EQ(p.actions.size(), 1u);
  EXPECT_EQ(p.nv_validation, "not validated: /x/mlxconfig_host.db not found");
  EXPECT_NE(render_sh(p).find("# firmware parameters: not validated: /x/mlxconfig_host.db not found"),
            std::string::npos);
  EXPECT_NE(render_json(p).find("\"nv_validation\": \"not validated: /x/mlxconfig_host.db not found\""),
            std::string::npos);
}

}  // namespace
}  // namespace rk::plan

namespace rk::plan {
namespace {

TEST_F(NvDbReal, PlanSetsVpiPortsToEthAndAdaptiveRoutingPerPolicy) {
  // A ConnectX VPI card as `mstconfig -d 0000:81:00.0 q` prints it (jiegec's CX-4 VPI capture
  // shows LINK_TYPE_P1 IB(1)); adaptive routing support off, the policy wants it on.
  Snapshot s;
  for (std::string fn : {"0000:81:00.0", "0000:81:00.1"}) {
    PciFunction& f = s.pci(fn);
    NvConfig nv;
    nv.params.push_back(NvParam{"LINK_TYPE_P1", std::nullopt, std::nullopt, "IB(1)", std::nullopt, false, 1});
    nv.params.push_back(NvParam{"LINK_TYPE_P2", std::nullopt, std::nullopt, "ETH(2)", std::nullopt, false, 2});
    nv.params.push_back(NvParam{"ROCE_ADAPTIVE_ROUTING_EN", std::nullopt, std::nullopt, "False(0)", std::nullopt, false, 3});
    f.nv_config.value = nv;
    f.nv_config.source.file = "mlxconfig_q@" + fn + ".txt";
  }
  Policy pol = default_policy();
  pol.adaptive_routing = true;
  PlanOptions o;
  o.nv_db = &*m_db;
  Plan p = make_plan(s, pol, o);
  ASSERT_EQ(p.actions.size(), 2u);
  EXPECT_EQ(p.actions[0].rule, "fw.link-type-eth");
  EXPECT_EQ(p.actions[0].subject, "0000:81:00");
  EXPECT_EQ(p.actions[0].current, "LINK_TYPE_P1=IB(1)");
  EXPECT_EQ(p.nv_backend, NvBackend::mlxconfig);
  EXPECT_EQ(p.actions[0].argv, (std::vector<std::string>{"mlxconfig", "-y", "-d", "0000:81:00.0", "set", "LINK_TYPE_P1=2"}));
  EXPECT_EQ(p.actions[0].undo_argv, (std::vector<std::string>{"mlxconfig", "-y", "-d", "0000:81:00.0", "set", "LINK_TYPE_P1=1"}));
  EXPECT_EQ(p.actions[1].rule, "fw.adaptive-routing");
  EXPECT_EQ(p.actions[1].argv.back(), "ROCE_ADAPTIVE_ROUTING_EN=1");
  // The read-back regex accepts the query's "ALIAS(n)" form.
  std::regex re(p.actions[1].check_regex[0], std::regex::extended);
  EXPECT_TRUE(std::regex_search("        ROCE_ADAPTIVE_ROUTING_EN                    True(1)", re));
  EXPECT_FALSE(std::regex_search("        ROCE_ADAPTIVE_ROUTING_EN                    False(0)", re));
  // Once per physical device, with the multi-host warning naming both functions.
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("0000:81:00.0, 0000:81:00.1"), std::string::npos);
  EXPECT_NE(p.warnings[0].find("every host sharing the NIC (multi-host)"), std::string::npos);
}

}  // namespace
}  // namespace rk::plan
