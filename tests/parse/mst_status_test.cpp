#include "rocekit/parse/mst_status.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<MstStatus>> r = parse_mst_status(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(MstStatusGolden, CorpusFiles) {
  for (const char* f : {"misc/jiegec-mst-status-redacted.txt",
                        "misc/ocp-nno-mst-status-v-cx7-vfs.txt",
                        "misc/aerial-dgx-spark-mst-status-v-gb100-gpu-rows-vfio-column.txt"}) {
    test::check_golden(f, run);
  }
}


TEST(MstStatusBehaviour, Cx7VfsTable) {
  Result<Parsed<MstStatus>> r =
      parse_mst_status(test::corpus_body("misc/ocp-nno-mst-status-v-cx7-vfs.txt"));
  ASSERT_TRUE(r.has_value());
  const MstStatus& s = r->value;
  EXPECT_EQ(s.pci_module_loaded, false);
  ASSERT_EQ(s.pci_devices.size(), 9u);
  std::size_t pfs = 0;
  for (const MstPciDevice& d : s.pci_devices) pfs += d.device_type ? 1 : 0;
  EXPECT_EQ(pfs, 2u);
  EXPECT_EQ(s.pci_devices[1].bdf, "0000:37:00.2");
  EXPECT_EQ(s.pci_devices[1].rdma, "mlx5_3");
  EXPECT_EQ(s.pci_devices[1].netdev, "net1");
  EXPECT_EQ(s.pci_devices[7].device_type, "ConnectX7(rev:0)");
  EXPECT_EQ(s.pci_devices[7].rdma, "mlx5_0");
  EXPECT_EQ(s.pci_devices[7].numa_node, 0);
}

TEST(MstStatusBehaviour, ErrorsGarbageCrlf) {
  EXPECT_FALSE(parse_mst_status("").has_value());
  EXPECT_FALSE(parse_mst_status("random\n").has_value());
  Result<Parsed<MstStatus>> r = parse_mst_status(
      "MST modules:\r\n------------\r\n    MST PCI module loaded\r\nMST devices:\r\n"
      "/dev/mst/mt4125_pciconf0  - PCI configuration cycles access.\r\nzzz\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.pci_module_loaded, true);
  ASSERT_EQ(r->value.mst_devices.size(), 1u);
  EXPECT_EQ(r->value.mst_devices[0].path, "/dev/mst/mt4125_pciconf0");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].line, 6u);
}

}  // namespace
}  // namespace rk::parse
