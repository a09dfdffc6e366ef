#include "rocekit/parse/mlxconfig_query.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<MlxconfigQuery>> r = parse_mlxconfig_query(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(MlxconfigQueryGolden, CorpusFiles) {
  for (const char* f : {"mlxconfig/dpservice-issue26-cx5-q-dcqcn-fragment.txt",
                        "mlxconfig/homelab-host01-cx4lx-q-next-boot.txt",
                        "mlxconfig/jiegec-cx4-vpi-set-link-type-eth.txt",
                        "mlxconfig/ocp-nno-cx7-q-egrep-sriov.txt",
                        "mlxconfig/rdma-notes-cx6dx-mstconfig-q-grep-roce.txt",
                        "mlxconfig/rdma-notes-cx6dx-mstconfig-set-legacy-dcqcn.txt",
                        "mlxconfig/mstflint-issue830-bf2-mbf2h512c-e-q-dpu-mode.txt"}) {
    test::check_golden(f, run);
  }
}

// Host-bundle captures are byte-identical to corpus files; they are compared with their twin
// rather than given a golden inside the bundle directory.
TEST(MlxconfigQueryGolden, HostBundleFiles) {
  const std::pair<const char*, const char*> k_twins[] = {
      {"../hosts/cx6dx-mstconfig-set-pending-reboot/mlxconfig_q@0000:3d:00.1.txt",
       "mlxconfig/rdma-notes-cx6dx-mstconfig-set-legacy-dcqcn.txt"},
      {"../hosts/homelab-host01-cx4lx-fw14.32/mlxconfig_q@0000:01:00.0.txt",
       "mlxconfig/homelab-host01-cx4lx-q-next-boot.txt"},
  };
  for (const auto& [host, twin] : k_twins) {
    SCOPED_TRACE(host);
    EXPECT_EQ(run(test::corpus_body(host)), run(test::corpus_body(twin)));
  }
}


TEST(MlxconfigQueryBehaviour, SetTranscriptPendingReboot) {
  Result<Parsed<MlxconfigQuery>> r = parse_mlxconfig_query(
      test::corpus_body("mlxconfig/rdma-notes-cx6dx-mstconfig-set-legacy-dcqcn.txt"));
  ASSERT_TRUE(r.has_value());
  const MlxconfigQuery& q = r->value;
  EXPECT_TRUE(q.is_set_transcript);
  EXPECT_EQ(q.apply_answer, true);
  EXPECT_TRUE(q.applied);
  EXPECT_TRUE(q.reboot_required);
  EXPECT_EQ(q.device->name, "MCX623106AN-CDA_Ax");
  EXPECT_EQ(q.device->device, "3d:00.1");
  const MlxconfigParam* p = find_param(q, "ROCE_CC_LEGACY_DCQCN");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->next_boot->alias, "False");
  EXPECT_EQ(p->next_boot->number, 0);
  EXPECT_EQ(p->new_value->text, "True(1)");
  EXPECT_EQ(p->new_value->number, 1);
}

TEST(MlxconfigQueryBehaviour, Host01DcqcnDefaults) {
  Result<Parsed<MlxconfigQuery>> r = parse_mlxconfig_query(
      test::corpus_body("mlxconfig/homelab-host01-cx4lx-q-next-boot.txt"));
  ASSERT_TRUE(r.has_value());
  const MlxconfigQuery& q = r->value;
  EXPECT_FALSE(q.is_set_transcript);
  ASSERT_EQ(q.columns.size(), 1u);
  EXPECT_EQ(q.columns[0], MlxconfigColumn::next_boot);
  EXPECT_EQ(find_param(q, "ROCE_CC_PRIO_MASK_P1")->next_boot->number, 255);
  EXPECT_EQ(find_param(q, "CNP_DSCP_P1")->next_boot->number, 48);
  EXPECT_EQ(find_param(q, "CNP_802P_PRIO_P1")->next_boot->number, 6);
  EXPECT_EQ(find_param(q, "ROCE_CONTROL")->next_boot->alias, "ROCE_ENABLE");
  EXPECT_EQ(find_param(q, "PCI_DOWNSTREAM_PORT_OWNER")->next_boot->number, std::nullopt);
  EXPECT_EQ(find_param(q, "LINK_TYPE_P1"), nullptr);  // Ethernet-only card
}

TEST(MlxconfigQueryBehaviour, VerboseColumnsAndMarkers) {
  std::string text =
      "Configurations:                              Default         Current         Next Boot\r\n"
      "*        SRIOV_EN                            False(0)        False(0)        True(1)\r\n"
      "RO       NUM_OF_PF                           2               2               2\r\n"
      "         NUM_OF_VFS                          8               8\r\n";
  Result<Parsed<MlxconfigQuery>> r = parse_mlxconfig_query(text);
  ASSERT_TRUE(r.has_value());
  const MlxconfigQuery& q = r->value;
  ASSERT_EQ(q.params.size(), 3u);
  EXPECT_TRUE(q.params[0].modified);
  EXPECT_EQ(q.params[0].current->number, 0);
  EXPECT_EQ(q.params[0].next_boot->number, 1);
  EXPECT_TRUE(q.params[1].read_only);
  EXPECT_FALSE(q.params[1].modified);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
  EXPECT_EQ(r->warnings[0].line, 4u);
}

TEST(MlxconfigQueryBehaviour, ErrorsAndGarbage) {
  EXPECT_FALSE(parse_mlxconfig_query("").has_value());
  EXPECT_FALSE(parse_mlxconfig_query("lorem ipsum\n").has_value());
  Result<Parsed<MlxconfigQuery>> r =
      parse_mlxconfig_query("         SRIOV_EN      True(1)\nbad line !!\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 2u);
}

}  // namespace
}  // namespace rk::parse

namespace rk::parse {
namespace {

// A loop over devices (`for device in ...; do mlxconfig -d $device --yes q ATS_ENABLED; done`, a
// Red Hat H200 + BlueField-3 post) prints one block per device: refused, not merged into the
// last device.
TEST(MlxconfigQueryBehaviour, TwoDevicesInOneFileAreRefused) {
  const std::string block = "Device #1:\n----------\n\nDevice type:        BlueField3\n"
                            "Name:               900-9D3D4-00EN-HA0_Ax\nDevice:             ";
  const std::string rows = "\n\nConfigurations:                                          Next Boot\n"
                           "        ATS_ENABLED                                 False(0)\n\n";
  auto r = parse_mlxconfig_query(block + "cc:00.0" + rows + block + "ba:00.0" + rows);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "line 16: a second device (ba:00.0 after cc:00.0): save each device's query as its own file, "
            "mlxconfig_q@<BDF>.txt (mlxconfig -d <BDF> q)");
  EXPECT_TRUE(parse_mlxconfig_query(block + "cc:00.0" + rows));
}

}  // namespace
}  // namespace rk::parse
