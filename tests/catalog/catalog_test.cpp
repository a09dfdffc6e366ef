#include "rocekit/catalog/catalog.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "rocekit/catalog/pcie.hpp"

namespace rk::catalog {
namespace {

const Catalog& cat() { return Catalog::builtin(); }

std::string read_file(const std::string& relative) {
  std::ifstream in(std::string(RK_TESTDATA_DIR) + "/" + relative);
  EXPECT_TRUE(in.good()) << relative;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The value after the first "<key>" line in a capture, trimmed; "" if none.
std::string field(const std::string& capture, const std::string& key) {
  std::istringstream in(capture);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t at = line.find(key);
    if (at == std::string::npos) continue;
    std::string v = line.substr(at + key.size());
    v.erase(0, v.find_first_not_of(" \t"));
    v.erase(v.find_last_not_of(" \t\r") + 1);
    return v;
  }
  return "";
}

class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content)
      : m_path(std::filesystem::temp_directory_path() /
               ("rk_catalog_test_" + std::to_string(::testing::UnitTest::GetInstance()
                                                        ->random_seed()) +
                "_" + name)) {
    std::ofstream(m_path) << content;
  }
  ~TempFile() { std::filesystem::remove(m_path); }
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

TEST(Catalog, BuiltinParsesAndMatchesTheFileOnDisk) {
  const Catalog& c = cat();
  ASSERT_EQ(c.models().size(), 12u);
  auto on_disk = Catalog::load_file(RK_CATALOG_JSON);
  ASSERT_TRUE(on_disk.has_value()) << on_disk.error().describe();
  ASSERT_EQ(on_disk->models().size(), c.models().size());
  ASSERT_EQ(on_disk->parts().size(), c.parts().size());
  for (std::size_t i = 0; i < c.models().size(); ++i) {
    EXPECT_EQ(on_disk->models()[i].key, c.models()[i].key);
    EXPECT_EQ(on_disk->models()[i].sources, c.models()[i].sources);
  }
  for (const NicModel& m : c.models()) {
    EXPECT_FALSE(m.sources.empty()) << m.key;
    EXPECT_EQ(m.pci_vendor_id, 0x15b3) << m.key;
  }
  for (const PartNumber& p : c.parts()) {
    EXPECT_FALSE(p.sources.empty()) << p.opn;
    EXPECT_NE(c.find_by_key(p.model_key), nullptr) << p.opn << " -> " << p.model_key;
  }
}

// catalog.md section 1 table (+ host-facts.md section I, pci.ids for the legacy rows).
struct IdRow {
  const char* key;
  std::uint16_t pf;
  std::uint16_t vf;
  int fw_major;
  const char* mst;
  NicKind kind;
};
const IdRow k_ids[] = {
    {"connectx-4", 0x1013, 0x1014, 12, "mt4115", NicKind::nic},
    {"connectx-4-lx", 0x1015, 0x1016, 14, "mt4117", NicKind::nic},
    {"connectx-5", 0x1017, 0x1018, 16, "mt4119", NicKind::nic},
    {"connectx-5-ex", 0x1019, 0x101a, 16, "mt4121", NicKind::nic},
    {"connectx-6", 0x101b, 0x101c, 20, "mt4123", NicKind::nic},
    {"connectx-6-dx", 0x101d, 0x101e, 22, "mt4125", NicKind::nic},
    {"connectx-6-lx", 0x101f, 0x101e, 26, "mt4127", NicKind::nic},
    {"connectx-7", 0x1021, 0x101e, 28, "mt4129", NicKind::nic},
    {"connectx-8", 0x1023, 0x101e, 40, "mt4131", NicKind::supernic},
    {"bluefield-2", 0xa2d6, 0x101e, 24, "mt41686", NicKind::dpu},
    {"bluefield-3-dpu", 0xa2dc, 0x101e, 32, "mt41692", NicKind::dpu},
    {"bluefield-3-supernic", 0xa2dc, 0x101e, 32, "mt41692", NicKind::supernic},
};

TEST(Catalog, IdentificationTable) {
  for (const IdRow& row : k_ids) {
    SCOPED_TRACE(row.key);
    const NicModel* m = cat().find_by_key(row.key);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->pci_device_id, row.pf);
    EXPECT_EQ(m->vf_device_id, row.vf);
    EXPECT_EQ(m->fw_major, row.fw_major);
    EXPECT_EQ(m->mst_name, row.mst);
    EXPECT_EQ(m->kind, row.kind);
    // mst name = "mt" + decimal PF ID (catalog.md 1).
    EXPECT_EQ(*m->mst_name, "mt" + std::to_string(row.pf));
    auto match = cat().find_by_pci_device_id(row.pf);
    ASSERT_TRUE(match.has_value());
    EXPECT_EQ(match->function, PciFunction::physical);
  }
}

TEST(Catalog, PhysicalFunctionIdsResolve) {
  // ibv_devinfo vendor_part_id values in the corpus: 4117 CX-4 Lx, 4125 CX-6 Dx, 4129 CX-7.
  auto cx4lx = cat().find_by_pci_device_id(4117);
  ASSERT_TRUE(cx4lx && cx4lx->unique());
  EXPECT_EQ(cx4lx->unique()->key, "connectx-4-lx");
  EXPECT_EQ(cat().find_by_pci_device_id(4125)->unique()->key, "connectx-6-dx");
  const NicModel* cx7 = cat().find_by_pci_device_id(0x1021)->unique();
  ASSERT_NE(cx7, nullptr);
  EXPECT_EQ(cx7->family, "ConnectX-7");
  EXPECT_EQ(cx7->pcie_gen, 5);
  EXPECT_EQ(cx7->pcie_lanes, 16);
  EXPECT_EQ(cx7->max_port_gbps, 400.0);
  EXPECT_EQ(cx7->options.socket_direct, true);
  EXPECT_EQ(cx7->options.x16_extension, true);
  EXPECT_EQ(cx7->pcie_bridge_device_id, 0x1979);
  // ConnectX-3 (4099, mlx4) is out of the catalog's scope: unknown, not a guess.
  EXPECT_FALSE(cat().find_by_pci_device_id(4099).has_value());
  EXPECT_FALSE(cat().find_by_pci_device_id(0x9999).has_value());
}

TEST(Catalog, SharedIdsListEveryCandidate) {
  // 4126 = 0x101e: the mlx5Gen VF (Azure ND H200 v5 VFs, CX-7 VF in the lspci corpus).
  auto vf = cat().find_by_pci_device_id(4126);
  ASSERT_TRUE(vf.has_value());
  EXPECT_EQ(vf->function, PciFunction::virtual_function);
  EXPECT_EQ(vf->candidates.size(), 7u);
  EXPECT_EQ(vf->unique(), nullptr);
  // 4122 = 0x101a: Azure accelerated-networking ConnectX-5 Ex VF.
  auto cx5ex_vf = cat().find_by_pci_device_id(4122);
  ASSERT_TRUE(cx5ex_vf && cx5ex_vf->unique());
  EXPECT_EQ(cx5ex_vf->function, PciFunction::virtual_function);
  EXPECT_EQ(cx5ex_vf->unique()->key, "connectx-5-ex");
  // BlueField-3 DPU and SuperNIC share silicon and ID (catalog.md 2.2 notes).
  auto bf3 = cat().find_by_pci_device_id(0xa2dc);
  ASSERT_TRUE(bf3.has_value());
  ASSERT_EQ(bf3->candidates.size(), 2u);
  EXPECT_EQ(bf3->candidates[0]->key, "bluefield-3-dpu");
  EXPECT_EQ(bf3->candidates[1]->key, "bluefield-3-supernic");
  EXPECT_EQ(bf3->candidates[0]->arm_cores, 16);
  EXPECT_EQ(bf3->candidates[1]->arm_cores, 8);
  auto bridge = cat().find_by_pci_device_id(0x197d);
  ASSERT_TRUE(bridge && bridge->unique());
  EXPECT_EQ(bridge->function, PciFunction::bridge);
  EXPECT_EQ(bridge->unique()->key, "connectx-8");
}

TEST(Catalog, FlashRecoveryIds) {
  // catalog.md 1 "Flash-recovery IDs" + pci.ids for ConnectX-4/4 Lx/5.
  const std::pair<std::uint16_t, const char*> k_recovery[] = {
      {0x0209, "connectx-4"},    {0x020b, "connectx-4-lx"},  {0x020f, "connectx-6"},
      {0x0210, "connectx-6"},    {0x0212, "connectx-6-dx"},  {0x0213, "connectx-6-dx"},
      {0x0216, "connectx-6-lx"}, {0x0217, "connectx-6-lx"},  {0x0218, "connectx-7"},
      {0x0219, "connectx-7"},    {0x021e, "connectx-8"},     {0x021f, "connectx-8"},
      {0x0214, "bluefield-2"},   {0x0215, "bluefield-2"},
  };
  for (auto [id, key] : k_recovery) {
    SCOPED_TRACE(id);
    EXPECT_TRUE(cat().is_flash_recovery_id(id));
    auto r = cat().recovery(id);
    ASSERT_TRUE(r && r->unique());
    EXPECT_EQ(r->function, PciFunction::flash_recovery);
    EXPECT_EQ(r->unique()->key, key);
  }
  // oci-h100-cx7-flash-recovery: "MT2910 Family [ConnectX-7 Flash Recovery]" is 0x0218.
  EXPECT_FALSE(cat().recovery(0x0218)->secure_recovery);
  EXPECT_TRUE(cat().recovery(0x0219)->secure_recovery);
  EXPECT_EQ(cat().recovery(0x021c)->candidates.size(), 2u);  // BlueField-3 DPU / SuperNIC
  EXPECT_EQ(cat().recovery(0x020d)->candidates.size(), 2u);  // ConnectX-5 / 5 Ex
  EXPECT_FALSE(cat().is_flash_recovery_id(0x1021));
  EXPECT_FALSE(cat().is_flash_recovery_id(0x101e));
  EXPECT_FALSE(cat().recovery(0x1021).has_value());
}

struct PartCase {
  const char* query;
  const char* model;
  const char* opn;
  std::optional<int> ports;
  std::optional<double> speed_gbps;
  std::optional<int> pcie_gen;
  std::optional<int> pcie_lanes;
};
const PartCase k_parts[] = {
    {"MCX4121A-ACAT", "connectx-4-lx", "MCX4121A-ACAT", 2, 25, 3, 8},
    {"MCX4121A-ACA_Ax", "connectx-4-lx", "MCX4121A-ACAT", 2, 25, 3, 8},
    {" mcx4121a-aca_ax ", "connectx-4-lx", "MCX4121A-ACAT", 2, 25, 3, 8},
    {"020NJD", "connectx-4-lx", "020NJD", 2, 25, 3, 8},
    {"020NJD_0MRT0D_Ax", "connectx-4-lx", "020NJD", 2, 25, 3, 8},
    {"MCX416A-CCAT", "connectx-4", "MCX416A-CCAT", 2, 100, 3, 16},
    {"MCX416A-CCA_Ax", "connectx-4", "MCX416A-CCAT", 2, 100, 3, 16},
    {"MCX454A-FCA", "connectx-4", "MCX454A-FCA", 2, 40, 3, 8},
    {"MCX623106AN-CDA_Ax", "connectx-6-dx", "MCX623106AN-CDA", 2, 100, 4, 16},
    {"MCX623106AE-CDA", "connectx-6-dx", "MCX623106AE-CDA", 2, 100, 4, 16},
    {"MCX715105AS-WEAT", "connectx-7", "MCX715105AS-WEAT", 1, 400, 5, 16},
    {"MCX715105AS-WEAT_Ax", "connectx-7", "MCX715105AS-WEAT", 1, 400, 5, 16},
};

TEST(Catalog, PartNumbersResolve) {
  for (const PartCase& c : k_parts) {
    SCOPED_TRACE(c.query);
    auto r = cat().find_by_part_number(c.query);
    ASSERT_TRUE(r.has_value()) << r.error().describe();
    ASSERT_NE(r->part, nullptr);
    EXPECT_EQ(r->model->key, c.model);
    EXPECT_EQ(r->part->opn, c.opn);
    EXPECT_EQ(r->part->port_count, c.ports);
    EXPECT_EQ(r->part->speed_gbps, c.speed_gbps);
    EXPECT_EQ(r->part->pcie_gen, c.pcie_gen);
    EXPECT_EQ(r->part->pcie_lanes, c.pcie_lanes);
  }
  EXPECT_EQ(cat().find_by_part_number("020NJD")->part->oem, "Dell");
  EXPECT_EQ(cat().find_by_part_number("MCX454A-FCA")->part->ib_speed_gbps, 56.0);
}

TEST(Catalog, PartNumberBasesAndUnknowns) {
  // "MCX4121A" is shared by the 25G (ACAT) and 10G (XCAT) cards: the model is known, the part not.
  auto base = cat().find_by_part_number("MCX4121A");
  ASSERT_TRUE(base.has_value()) << base.error().describe();
  EXPECT_EQ(base->part, nullptr);
  EXPECT_EQ(base->model->key, "connectx-4-lx");
  // "MCX516A" spans ConnectX-5 (CCAT) and ConnectX-5 Ex (CDAT): refuse.
  auto mixed = cat().find_by_part_number("MCX516A");
  ASSERT_FALSE(mixed.has_value());
  EXPECT_EQ(mixed.error().kind, ErrorKind::malformed_input);
  EXPECT_NE(mixed.error().message.find("ambiguous"), std::string::npos);
  // ConnectX-3 MCX353A-FCB (jiegec corpus) and mlxfwmanager's "N/A" are not in the catalog.
  EXPECT_EQ(cat().find_by_part_number("MCX353A-FCB").error().kind, ErrorKind::not_found);
  EXPECT_EQ(cat().find_by_part_number("N/A").error().kind, ErrorKind::not_found);
  EXPECT_EQ(cat().find_by_part_number("").error().kind, ErrorKind::not_found);
  // One wrong letter is a different part, not a bracket variant.
  EXPECT_FALSE(cat().find_by_part_number("MCX4121A-ACBT").has_value());
  EXPECT_EQ(normalize_part_number(" mcx416a-cca_Ax "), "MCX416A-CCA");
  EXPECT_EQ(normalize_part_number("020NJD_0MRT0D_Ax"), "020NJD_0MRT0D");
}

TEST(Catalog, PsidsResolve) {
  EXPECT_EQ(cat().find_by_psid("DEL2420110034")->part->opn, "020NJD");
  EXPECT_EQ(cat().find_by_psid("MT_2420110034")->part->opn, "MCX4121A-ACAT");
  EXPECT_EQ(cat().find_by_psid("MT_2150110033")->part->opn, "MCX416A-CCAT");
  EXPECT_EQ(cat().find_by_psid("MT_2170110021")->part->opn, "MCX454A-FCA");
  EXPECT_EQ(cat().find_by_psid("MT_0000001244")->model->key, "connectx-7");
  EXPECT_EQ(cat().find_by_psid("MT_1100120019").error().kind, ErrorKind::not_found);  // CX-3
}

// Each corpus capture that names a part: its part number resolves and the catalog's port layout
// agrees with the tool's own Description line.
struct CorpusCase {
  const char* file;
  const char* part_key;  // "Part Number:", "Name:", "[PN] Part number:" ...
  const char* description_key;
  const char* model;
  int ports;
  double speed_gbps;
};
const CorpusCase k_corpus[] = {
    {"corpus/mlxconfig/homelab-host01-cx4lx-q-next-boot.txt", "Name:", "Description:",
     "connectx-4-lx", 2, 25},
    {"corpus/flint/homelab-host01-mlxfwmanager-dell-cx4lx.txt", "Part Number:", "Description:",
     "connectx-4-lx", 2, 25},
    {"corpus/flint/homelab-host02-mlxfwmanager-cx4.txt", "Part Number:", "Description:",
     "connectx-4", 2, 100},
    {"corpus/mlxconfig/rdma-notes-cx6dx-mstconfig-set-legacy-dcqcn.txt", "Name:", "Description:",
     "connectx-6-dx", 2, 100},
    {"corpus/lspci/homelab-host01-cx4lx-dell-x8.txt", "[PN] Part number:", "Product Name:",
     "connectx-4-lx", 2, 25},
    {"corpus/lspci/homelab-host02-cx4-100g-x16-downgraded-x8.txt", "[PN] Part number:",
     "Subsystem:", "connectx-4", 2, 100},
};

TEST(Catalog, CorpusCapturesResolve) {
  for (const CorpusCase& c : k_corpus) {
    SCOPED_TRACE(c.file);
    const std::string capture = read_file(c.file);
    const std::string pn = field(capture, c.part_key);
    ASSERT_FALSE(pn.empty());
    auto part = cat().find_by_part_number(pn);
    ASSERT_TRUE(part.has_value()) << part.error().describe();
    EXPECT_EQ(part->model->key, c.model);
    ASSERT_NE(part->part, nullptr);
    EXPECT_EQ(part->part->port_count, c.ports);
    EXPECT_EQ(part->part->speed_gbps, c.speed_gbps);
    auto speeds = port_speeds_from_text(field(capture, c.description_key));
    ASSERT_TRUE(speeds.has_value()) << speeds.error().describe();
    EXPECT_EQ(speeds->port_count, c.ports);
    EXPECT_EQ(speeds->eth_speed_gbps, c.speed_gbps);
  }
  // The CX-7 part: PSID from flint, Description from mlxconfig on the same host.
  const std::string flint = read_file("corpus/flint/ocp-nno-cx7-flint-q-28.43.txt");
  auto cx7 = cat().find_by_psid(field(flint, "PSID:"));
  ASSERT_TRUE(cx7.has_value());
  const std::string q = read_file("corpus/mlxconfig/ocp-nno-cx7-q-egrep-sriov.txt");
  auto speeds = port_speeds_from_text(field(q, "Description:"));
  ASSERT_TRUE(speeds.has_value());
  EXPECT_EQ(speeds->port_count, cx7->part->port_count);
  EXPECT_EQ(speeds->eth_speed_gbps, cx7->part->speed_gbps);
  // Dell card whose old MFT printed "Part Number: N/A": the PSID still identifies it.
  const std::string dell = read_file("corpus/flint/cn-blog-mlxfwmanager-dell-psid.txt");
  EXPECT_FALSE(cat().find_by_part_number(field(dell, "Part Number:")).has_value());
  EXPECT_EQ(cat().find_by_psid(field(dell, "PSID:"))->model->key, "connectx-4-lx");
}

TEST(Catalog, HostBundleBandwidthFromCatalogAndModel) {
  // homelab-host02: MCX416A-CCAT (2 x 100G) trained Gen3 x8, MPS 256 -> fails to feed its ports.
  auto part = cat().find_by_part_number("MCX416A-CCAT");
  ASSERT_TRUE(part.has_value());
  const double total = *part->part->port_count * *part->part->speed_gbps;
  auto ratio = feeds_ports(PcieLink{3, 8, 256, 4096}, total);
  ASSERT_TRUE(ratio.has_value());
  EXPECT_LT(*ratio, 0.3);
  // At the card's own Gen3 x16 it is still short of 200G (104.0 Gb/s).
  EXPECT_NEAR(*feeds_ports(PcieLink{3, *part->part->pcie_lanes, 256, 4096}, total), 0.52, 0.01);
}

TEST(CatalogFile, MissingFileIsAnIoErrorNamingThePath) {
  auto r = Catalog::load_file("/nonexistent/rk/catalog.json");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::io);
  EXPECT_EQ(r.error().context, "/nonexistent/rk/catalog.json");
}

TEST(CatalogFile, SyntaxErrorNamesFileLineAndColumn) {
  TempFile f("syntax.json", "{\n  \"schema\": \"nic-catalog/1\",\n  \"nics\": [ ,]\n}\n");
  auto r = Catalog::load_file(f.path());
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::malformed_input);
  EXPECT_EQ(r.error().context, f.path().string());
  EXPECT_NE(r.error().message.find("line 3, column 13"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().describe().find(f.path().string()), std::string::npos);
}

TEST(CatalogFile, ContentErrorsNameTheJsonPointer) {
  TempFile bad_id("bad_id.json", R"({"schema": "nic-catalog/1", "nics": [
    {"key": "x", "name": "X", "family": "X", "kind": "nic", "device_id": "0x1021"},
    {"key": "y", "name": "Y", "family": "Y", "kind": "nic", "device_id": "4129"}]})");
  auto r = Catalog::load_file(bad_id.path());
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().context, bad_id.path().string());
  EXPECT_NE(r.error().message.find("/nics/1/device_id"), std::string::npos) << r.error().message;

  auto kind = Catalog::load_text(
      R"({"schema": "nic-catalog/1", "nics": [{"key": "x", "name": "X", "family": "X",
          "kind": "switch", "device_id": "0x1021"}]})",
      "user.json");
  ASSERT_FALSE(kind.has_value());
  EXPECT_EQ(kind.error().describe().rfind("user.json: at /nics/0/kind", 0), 0u)
      << kind.error().describe();

  auto schema = Catalog::load_text(R"({"schema": "nic-catalog/2", "nics": []})", "v2.json");
  ASSERT_FALSE(schema.has_value());
  EXPECT_NE(schema.error().message.find("/schema"), std::string::npos);

  auto dup = Catalog::load_text(
      R"({"schema": "nic-catalog/1", "nics": [
        {"key": "x", "name": "X", "family": "X", "kind": "nic", "device_id": "0x1021"},
        {"key": "x", "name": "X", "family": "X", "kind": "nic", "device_id": "0x1023"}]})",
      "dup.json");
  ASSERT_FALSE(dup.has_value());
  EXPECT_NE(dup.error().message.find("/nics/1/key"), std::string::npos);

  auto missing = Catalog::load_text(R"({"schema": "nic-catalog/1"})", "empty.json");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("/nics"), std::string::npos);
}

TEST(CatalogFile, UserFileOverridesAndExtendsByKey) {
  TempFile user("user.json", R"json({
    "schema": "nic-catalog/1",
    "nics": [
      {"key": "connectx-7", "name": "ConnectX-7 (site)", "family": "ConnectX-7", "kind": "nic",
       "device_id": "0x1021", "fw_major": 28, "max_port_gbps": 200,
       "flash_recovery": [{"device_id": "0x0218", "secure": false}],
       "sources": ["site inventory"]},
      {"key": "connectx-9", "name": "ConnectX-9", "family": "ConnectX-9", "kind": "supernic",
       "device_id": "0x1025", "sources": ["[K1] kernel mlx5 table"]}
    ],
    "parts": [
      {"opn": "MCX715105AS-WEAT", "model": "connectx-7", "ports": 1, "speed_gbps": 200,
       "sources": ["site"]},
      {"opn": "MCX9-TEST", "model": "connectx-9", "ports": 2, "speed_gbps": 800,
       "sources": ["site"]}
    ]})json");
  auto overlay = Catalog::load_file(user.path());
  ASSERT_TRUE(overlay.has_value()) << overlay.error().describe();
  auto merged = Catalog::load_builtin();
  ASSERT_TRUE(merged.has_value());
  const std::size_t models_before = merged->models().size();
  const std::size_t parts_before = merged->parts().size();
  merged->merge(*overlay);
  EXPECT_EQ(merged->models().size(), models_before + 1);
  EXPECT_EQ(merged->parts().size(), parts_before + 1);

  const NicModel* cx7 = merged->find_by_key("connectx-7");
  ASSERT_NE(cx7, nullptr);
  EXPECT_EQ(cx7->name, "ConnectX-7 (site)");
  EXPECT_EQ(cx7->max_port_gbps, 200.0);
  EXPECT_FALSE(merged->is_flash_recovery_id(0x0219));  // replaced whole: only 0x0218 left
  EXPECT_TRUE(merged->is_flash_recovery_id(0x0218));
  EXPECT_EQ(merged->find_by_pci_device_id(0x1025)->unique()->key, "connectx-9");
  EXPECT_EQ(merged->find_by_part_number("MCX715105AS-WEAT_Ax")->part->speed_gbps, 200.0);
  EXPECT_EQ(merged->find_by_part_number("MCX9-TEST")->model->kind, NicKind::supernic);
  // Untouched entries survive, and the builtin itself is unchanged.
  EXPECT_EQ(merged->find_by_key("connectx-6-dx")->fw_major, 22);
  EXPECT_EQ(cat().find_by_key("connectx-7")->max_port_gbps, 400.0);
  EXPECT_FALSE(cat().find_by_pci_device_id(0x1025).has_value());
}

TEST(Catalog, EnumNames) {
  EXPECT_EQ(to_string(NicKind::supernic), "supernic");
  EXPECT_EQ(to_string(PciFunction::flash_recovery), "flash_recovery");
}

}  // namespace
}  // namespace rk::catalog
