// Selection: golden JSON per preset (testdata/select/<preset>.json; regenerate with
// RK_UPDATE_GOLDEN=1 and review), the values each golden asserts checked against catalog.md, and
// the warnings the seed names on purpose-built descriptions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/select/description.hpp"
#include "rocekit/select/render.hpp"
#include "rocekit/select/select.hpp"

namespace sel = rk::select;
using nlohmann::json;

namespace {

sel::Selection run_preset(const std::string& name) {
  rk::Result<sel::Description> d = sel::load_preset(name);
  EXPECT_TRUE(d) << name;
  rk::Result<sel::Selection> s = sel::select_nics(*d, rk::catalog::Catalog::builtin());
  EXPECT_TRUE(s) << name << ": " << (s ? "" : s.error().describe());
  return *s;
}

sel::Selection run_yaml(const std::string& yaml) {
  rk::Result<sel::Description> d = sel::load_description_text(yaml, "test.yaml");
  EXPECT_TRUE(d) << (d ? "" : d.error().describe());
  rk::Result<sel::Selection> s = sel::select_nics(*d, rk::catalog::Catalog::builtin());
  EXPECT_TRUE(s) << (s ? "" : s.error().describe());
  return *s;
}

bool has_warning(const sel::Selection& s, const std::string& id) {
  for (const sel::Warning& w : s.warnings)
    if (w.id == id) return true;
  return false;
}

const sel::BillLine& bill(const sel::Selection& s, const std::string& role) {
  for (const sel::BillLine& b : s.bill)
    if (b.role == role) return b;
  ADD_FAILURE() << "no " << role << " line";
  return s.bill.front();
}

}  // namespace

class PresetGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(PresetGolden, MatchesGolden) {
  const std::string name = GetParam();
  json got = sel::to_json(run_preset(name));
  std::string path = std::string(RK_TESTDATA_DIR) + "/select/" + name + ".json";
  if (std::getenv("RK_UPDATE_GOLDEN")) {
    std::ofstream(path) << got.dump(2) << "\n";
    GTEST_SKIP() << "golden rewritten: " << path;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << "missing golden " << path << " (RK_UPDATE_GOLDEN=1)";
  json want = json::parse(in);
  EXPECT_EQ(got, want) << "diff: " << json::diff(want, got).dump(2);
}

INSTANTIATE_TEST_SUITE_P(AllPresets, PresetGolden,
                         ::testing::Values("dgx-h100", "dgx-h200", "dgx-b200", "hgx-b300", "gb200-tray",
                                           "gb300-tray", "mgx-pcie-cx8", "generic-2s-pcie"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

// catalog.md 4: DGX H100 = 8 x single-port ConnectX-7 400G, 1 per GPU, PCIe 5.0;
// 3.3: CX-7 1x400G on Gen5 x16 = 1.04 OK (~4% headroom).
TEST(SelectPreset, DgxH100IsEightConnectX7At400) {
  sel::Selection s = run_preset("dgx-h100");
  const sel::BillLine& c = bill(s, "compute");
  EXPECT_EQ(c.model_key, "connectx-7");
  EXPECT_EQ(c.count, 8);
  EXPECT_EQ(c.ports, 1);
  EXPECT_EQ(c.port_gbps, 400);
  ASSERT_EQ(s.pcie.front().role, "compute");
  EXPECT_EQ(s.pcie.front().link_gen, 5);
  EXPECT_EQ(s.pcie.front().link_lanes, 16);
  EXPECT_DOUBLE_EQ(s.pcie.front().effective_gbps, 415.8);
  EXPECT_DOUBLE_EQ(s.pcie.front().ratio, 1.04);
  for (const sel::GpuPlacement& p : s.placement) {
    EXPECT_EQ(p.path, "PIX") << "gpu " << p.gpu;
    EXPECT_EQ(p.rail, p.gpu);
  }
  EXPECT_EQ(s.decision.choice, "nic");
  EXPECT_TRUE(has_warning(s, "select.thin-margin"));
  EXPECT_FALSE(has_warning(s, "select.gen4-slot-400g"));
}

// catalog.md 3.3: CX-8 800G on Gen6 x16 (~888) = 1.11 OK; B300 uses CX-8 (secondary sources).
TEST(SelectPreset, HgxB300IsConnectX8OnGen6) {
  sel::Selection s = run_preset("hgx-b300");
  EXPECT_EQ(bill(s, "compute").model_key, "connectx-8");
  EXPECT_EQ(bill(s, "compute").count, 8);
  EXPECT_EQ(s.pcie.front().link_gen, 6);
  EXPECT_DOUBLE_EQ(s.pcie.front().ratio, 1.11);
  EXPECT_FALSE(has_warning(s, "select.gen5-x16-800g"));
}

TEST(SelectPreset, Gb200TrayIsFourConnectX7) {
  sel::Selection s = run_preset("gb200-tray");
  EXPECT_EQ(bill(s, "compute").model_key, "connectx-7");
  EXPECT_EQ(bill(s, "compute").count, 4);
  EXPECT_EQ(s.gpus_per_nic, 1);
}

// MGX: 4 CX-8, two GPUs per CX-8: 2 x 400G per NIC = 800 Gb/s.
TEST(SelectPreset, MgxSharesEachConnectX8BetweenTwoGpus) {
  sel::Selection s = run_preset("mgx-pcie-cx8");
  EXPECT_EQ(bill(s, "compute").model_key, "connectx-8");
  EXPECT_EQ(bill(s, "compute").count, 4);
  EXPECT_EQ(s.gpus_per_nic, 2);
  EXPECT_EQ(s.need_per_nic_gbps, 800);
  EXPECT_FALSE(has_warning(s, "select.nic-shared-by-gpus"));  // 2 per NIC is the design
}

// catalog.md 3.3: 1x200G on Gen4 x16 = 1.04 OK (tight); 400G parts are 0.52 there.
TEST(SelectPreset, Generic2SocketGen4Is200G) {
  sel::Selection s = run_preset("generic-2s-pcie");
  const sel::BillLine& c = bill(s, "compute");
  EXPECT_EQ(c.ports * c.port_gbps, 200);
  EXPECT_DOUBLE_EQ(s.pcie.front().effective_gbps, 207.9);
  EXPECT_DOUBLE_EQ(s.pcie.front().ratio, 1.04);
  bool cx7_400_lost_on_pcie = false;
  for (const sel::Alternative& a : s.alternatives)
    if (a.model_key == "connectx-7" && a.ports == 1 && a.port_gbps == 400)
      cx7_400_lost_on_pcie = a.why_lost.find("over-provisioned") != std::string::npos ||
                             a.why_lost.find("oversubscribed") != std::string::npos;
  EXPECT_TRUE(cx7_400_lost_on_pcie);
}

TEST(SelectWarnings, FourHundredGigInGen4Slot) {
  sel::Selection s = run_yaml(R"(gpus: [{index: 0, numa: 0, switch: a}, {index: 1, numa: 0, switch: b}]
slots:
  - {name: s0, gen: 4, lanes: 16, numa: 0, switch: a}
  - {name: s1, gen: 4, lanes: 16, numa: 0, switch: b}
fabric: {type: roce, gpu_bandwidth_gbps: 400}
)");
  EXPECT_TRUE(has_warning(s, "select.gen4-slot-400g"));
  EXPECT_TRUE(has_warning(s, "select.no-feasible-nic"));
  // The least-bad choice is still reported, with its real ratio: 207.9 / 400 = 0.52.
  EXPECT_DOUBLE_EQ(s.pcie.front().ratio, 0.52);
}

TEST(SelectWarnings, EightHundredGigOnPlainGen5x16) {
  sel::Selection s = run_yaml(R"(gpus: [{index: 0, numa: 0}]
slots: [{name: s0, gen: 5, lanes: 16, numa: 0}]
fabric: {type: infiniband, gpu_bandwidth_gbps: 800}
)");
  EXPECT_TRUE(has_warning(s, "select.gen5-x16-800g"));
  EXPECT_DOUBLE_EQ(s.pcie.front().ratio, 0.52);
}

TEST(SelectWarnings, EightHundredGigWithX16ExtensionIsFed) {
  sel::Selection s = run_yaml(R"(gpus: [{index: 0, numa: 0}]
slots: [{name: s0, gen: 5, lanes: 16, numa: 0, x16_extension: true}]
fabric: {type: infiniband, gpu_bandwidth_gbps: 800}
)");
  EXPECT_FALSE(has_warning(s, "select.gen5-x16-800g"));
  EXPECT_EQ(bill(s, "compute").model_key, "connectx-8");
  EXPECT_EQ(s.pcie.front().link_lanes, 16);
  EXPECT_EQ(s.pcie.front().links, 2);
  EXPECT_DOUBLE_EQ(s.pcie.front().ratio, 1.04);  // catalog.md 3.3: Gen5 2x x16 = 1.04 OK
}

TEST(SelectWarnings, OneNicForEightGpusOnOneNumaNode) {
  std::string yaml = "gpus:\n";
  for (int i = 0; i < 8; ++i) yaml += "  - {index: " + std::to_string(i) + ", numa: " + (i < 4 ? "0" : "1") + "}\n";
  yaml += "slots: [{name: s0, gen: 5, lanes: 16, numa: 0}]\nfabric: {type: roce, gpu_bandwidth_gbps: 100, rails: 1}\n";
  sel::Selection s = run_yaml(yaml);
  EXPECT_EQ(s.gpus_per_nic, 8);
  EXPECT_EQ(s.need_per_nic_gbps, 800);
  EXPECT_TRUE(has_warning(s, "select.nic-shared-by-gpus"));
  EXPECT_TRUE(has_warning(s, "select.nics-one-numa-node"));
  EXPECT_TRUE(has_warning(s, "select.cross-socket-path"));
  EXPECT_TRUE(has_warning(s, "select.gen5-x16-800g"));
}

TEST(SelectDecision, MultiTenantNvmeOfPicksBlueField3DpuWithCosts) {
  sel::Selection s = run_yaml("preset: gb200-tray\ntenancy: multi-tenant\nstorage: nvme-of\n");
  EXPECT_EQ(s.decision.choice, "dpu");
  EXPECT_EQ(s.decision.applies_to, "frontend");
  const sel::BillLine& f = bill(s, "frontend");
  EXPECT_EQ(f.model_key, "bluefield-3-dpu");
  EXPECT_EQ(f.count, 2);
  // B3220 2x200G: 400 Gb/s on Gen5 x16 = 1.04; B3240 2x400G would be 0.52 without the extension.
  EXPECT_EQ(f.ports * f.port_gbps, 400);
  std::string costs;
  for (const std::string& c : s.decision.costs) costs += c + "\n";
  EXPECT_NE(costs.find("16 Arm cores"), std::string::npos) << costs;
  EXPECT_NE(costs.find("32 GB on-card DRAM"), std::string::npos) << costs;
  EXPECT_NE(costs.find("typical power: unknown"), std::string::npos) << costs;
  EXPECT_NE(costs.find("complexity"), std::string::npos) << costs;
  // The compute NICs stay ConnectX-7: the DPU needs apply to the frontend.
  EXPECT_EQ(bill(s, "compute").model_key, "connectx-7");
}

TEST(SelectDecision, MultiTenantWithoutFrontendMakesComputeDpu) {
  sel::Selection s = run_yaml(R"(gpus: [{index: 0, numa: 0}]
slots: [{name: s0, gen: 5, lanes: 16, numa: 0}]
fabric: {type: roce, gpu_bandwidth_gbps: 400}
tenancy: multi-tenant
)");
  EXPECT_EQ(s.decision.applies_to, "compute");
  EXPECT_EQ(bill(s, "compute").kind, "dpu");
  EXPECT_EQ(bill(s, "compute").model_key, "bluefield-3-dpu");
}

TEST(SelectRender, TextAndMarkdownCarryTheTables) {
  sel::Selection s = run_preset("dgx-h100");
  std::string t = sel::render(s, sel::Format::text);
  EXPECT_NE(t.find("compute   8 x ConnectX-7 (nic), 1 x 400G"), std::string::npos) << t;
  EXPECT_NE(t.find("ratio 1.04 (+4.0%) ok"), std::string::npos) << t;
  std::string m = sel::render(s, sel::Format::markdown);
  EXPECT_NE(m.find("| compute | 8 | ConnectX-7 | nic | 1 x 400G |"), std::string::npos) << m;
  EXPECT_NE(m.find("| Gen5 x16 | 415.8 | 1.04 | +4.0% | ok |"), std::string::npos) << m;
}

TEST(SelectDecision, DpuWithoutManagementNetworkWarns) {
  sel::Selection s = run_yaml("preset: gb200-tray\ntenancy: multi-tenant\nmanagement_network: false\n");
  EXPECT_EQ(s.decision.choice, "dpu");
  EXPECT_TRUE(has_warning(s, "select.dpu-without-management-network"));
  sel::Selection plain = run_yaml("preset: gb200-tray\nmanagement_network: false\n");
  EXPECT_FALSE(has_warning(plain, "select.dpu-without-management-network"));
}

TEST(SelectDecision, IpsecAloneKeepsANicWithCrypto) {
  sel::Selection s = run_yaml(R"(gpus: [{index: 0, numa: 0}]
slots: [{name: s0, gen: 4, lanes: 16, numa: 0}]
fabric: {type: roce, gpu_bandwidth_gbps: 200}
security: {ipsec: true, tls: true}
)");
  EXPECT_EQ(s.decision.choice, "nic");
  // ConnectX-6 Dx: IPsec + TLS inline on crypto OPNs [CX6DX] (catalog features ipsec_inline, tls_inline).
  EXPECT_EQ(bill(s, "compute").model_key, "connectx-6-dx");
}

// --catalog FILE: a site overlay replaces the model by key; the decision's costs use its values.
TEST(SelectCatalogOverlay, SitePowerFigureReachesTheCosts) {
  rk::Result<rk::catalog::Catalog> c = rk::catalog::Catalog::load_builtin();
  ASSERT_TRUE(c);
  rk::Result<rk::catalog::Catalog> site =
      rk::catalog::Catalog::load_file(std::string(RK_TESTDATA_DIR) + "/select/site-catalog.json");
  ASSERT_TRUE(site) << site.error().describe();
  c->merge(*site);
  rk::Result<sel::Description> d =
      sel::load_description_text("preset: gb200-tray\ntenancy: multi-tenant\n", "t.yaml");
  ASSERT_TRUE(d);
  rk::Result<sel::Selection> s = sel::select_nics(*d, *c);
  ASSERT_TRUE(s);
  EXPECT_EQ(bill(*s, "frontend").model_name, "BlueField-3 DPU (site-measured)");
  std::string costs;
  for (const std::string& x : s->decision.costs) costs += x + "\n";
  EXPECT_NE(costs.find("typical power 120 W"), std::string::npos) << costs;
}
