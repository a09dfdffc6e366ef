#include "rocekit/parse/system_checks.hpp"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json sc_json(std::string_view body) {
  auto r = parse_system_checks(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

constexpr const char* k_corpus = "misc/aerial-21-4-cubb-system-checks-a100-cx6dx.txt";
constexpr const char* k_host = "../hosts/aerial-21-4-a100-cx6dx/system_checks.txt";

TEST(SystemChecksGolden, CorpusAndHost) {
  rk::test::check_golden(k_corpus, sc_json);
  rk::test::check_golden(k_host, sc_json);
}

TEST(SystemChecks, AerialInterfaces) {
  auto r = parse_system_checks(rk::test::corpus_body(k_host));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty()) << warnings_to_json(r->warnings).dump();
  const SystemChecks& s = r->value;
  ASSERT_EQ(s.interfaces.size(), 2u);
  const SystemChecksInterface& i0 = s.interfaces[0];
  EXPECT_EQ(i0.netdev, "ens6f0");
  EXPECT_EQ(i0.rdma_device, "mlx5_0");
  EXPECT_EQ(i0.pcie_bdf, "0000:b5:00.0");
  EXPECT_EQ(i0.mtu_bytes, 1536u);
  EXPECT_EQ(i0.rx_flow_control, false);
  EXPECT_EQ(i0.tx_flow_control, false);
  EXPECT_EQ(i0.trust, "dscp");
  EXPECT_EQ(i0.max_read_request_bytes, 4096u);
  EXPECT_EQ(s.interfaces[1].netdev, "ens6f1");
  EXPECT_EQ(s.interfaces[1].mtu_bytes, 1514u);
  EXPECT_EQ(s.interfaces[1].pcie_bdf, "0000:b5:00.1");
}

TEST(SystemChecks, AerialHostWide) {
  auto r = parse_system_checks(rk::test::corpus_body(k_corpus));
  ASSERT_TRUE(r);
  const SystemChecks& s = r->value;
  EXPECT_EQ(s.hostname, "host01");
  EXPECT_EQ(s.kernel_version, "5.4.0-65-lowlatency");
  EXPECT_EQ(s.gpu_driver_version, "470.57.02");
  EXPECT_EQ(s.cuda_version, "11.4");
  EXPECT_EQ(s.mofed_version, "5.4-1.0.3.0");
  EXPECT_EQ(s.loaded_modules, (std::vector<std::string>{"gdrdrv", "nvidia_peermem", "nvidia"}));
  ASSERT_EQ(s.nics.size(), 1u);
  EXPECT_EQ(s.nics[0].fw_version, "22.31.1014");
  EXPECT_EQ(s.nics[0].part_number, "MCX623106AE-CDA_Ax");
  EXPECT_EQ(s.nics[0].params.size(), 5u);
  ASSERT_EQ(s.gpu_nic_links.size(), 2u);
  EXPECT_EQ(s.gpu_nic_links[0].gpu, "GPU0");
  EXPECT_EQ(s.gpu_nic_links[0].nic, "mlx5_0");
  EXPECT_EQ(s.gpu_nic_links[0].connection, "PIX");
  EXPECT_EQ(s.gpu_nic_links[1].nic, "mlx5_1");
}

TEST(SystemChecks, EmptyAndForeignAreErrors) {
  EXPECT_FALSE(parse_system_checks(""));
  EXPECT_FALSE(parse_system_checks(rk::test::corpus_body("mlnx_qos/netarbiter-eth4-dscp-pfc3.txt")));
}

TEST(SystemChecks, GarbledLineAndCrlf) {
  std::string t =
      "-----Mellanox NIC Interfaces----------------------\r\n"
      "Interface0\r\n"
      "  Name                             : ens6f0\r\n"
      "  ??? garbled\r\n"
      "  MTU                              : 9000\r\n";
  auto r = parse_system_checks(t);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 4u);
  ASSERT_EQ(r->value.interfaces.size(), 1u);
  EXPECT_EQ(r->value.interfaces[0].mtu_bytes, 9000u);
  EXPECT_EQ(r->value.interfaces[0].netdev, "ens6f0");
  EXPECT_FALSE(r->value.interfaces[0].max_read_request_bytes);
}

TEST(SystemChecks, LooksLike) {
  EXPECT_TRUE(looks_like_system_checks(rk::test::corpus_body(k_corpus)));
  EXPECT_TRUE(looks_like_system_checks(rk::test::corpus_body(k_host)));
  EXPECT_FALSE(looks_like_system_checks(rk::test::corpus_body("mlnx_qos/netarbiter-eth4-dscp-pfc3.txt")));
  EXPECT_FALSE(looks_like_system_checks(rk::test::corpus_body("nvidia_smi_topo/aerial-21-4-a100-cx6dx-pix.txt")));
}

TEST(SystemChecks, OddInputDoesNotCrash) {
  for (std::string_view s : {"-----", "------x", "-----GPUDirect topology---\nGPU0 X\n", " : ", "a :"}) {
    auto r = parse_system_checks(s);
    // None of these fragments holds an interface record.
    if (r) {
      EXPECT_TRUE(r->value.interfaces.empty()) << s;
    }
  }
}

}  // namespace
}  // namespace rk::parse
