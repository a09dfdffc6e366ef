#include "rocekit/parse/ibv_devinfo.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<IbvDevinfo>> r = parse_ibv_devinfo(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_files[] = {
    "ibv_devinfo/azure-ndh200v5-8ib-vf-plus-an0-eth.txt",
    "ibv_devinfo/bnxt_re2-v-gid-types-rdma-core-patch.txt",
    "ibv_devinfo/cn-notes-cx4lx-4port-fw-mismatch.txt",
    "ibv_devinfo/cx7-gb10-rocep-4dev.txt",
    "ibv_devinfo/rdma-notes-cx6dx-rocep61s0f1-v.txt",
    "ibv_devinfo/rdma-notes-irdma-e810-v-roce.txt",
    "ibv_devinfo/tensorflow-gdr-mlx4-roce-2port.txt",
    "../hosts/cx4lx-4port-fw-mismatch/ibv_devinfo.txt",
    "../hosts/cx7-rocep-2domain-ports-down/ibv_devinfo.txt",
    "../hosts/tf-gdr-k40-cx3-cross-socket/ibv_devinfo@mlx4_0.txt",
};

TEST(IbvDevinfoGolden, AllCaptures) {
  for (const char* f : k_files) rk::test::check_golden(f, golden_json);
}

IbvDevinfo parse_ok(std::string_view body) {
  Result<Parsed<IbvDevinfo>> r = parse_ibv_devinfo(body);
  EXPECT_TRUE(r.has_value());
  if (!r) return {};
  return r->value;
}

TEST(IbvDevinfo, Cx4LxFirmwareMismatchAndMtu) {
  std::string body = rk::test::corpus_body("ibv_devinfo/cn-notes-cx4lx-4port-fw-mismatch.txt");
  Result<Parsed<IbvDevinfo>> r = parse_ibv_devinfo(body);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  const IbvDevinfo& v = r->value;
  ASSERT_EQ(v.devices.size(), 4u);
  EXPECT_FALSE(v.verbose);
  EXPECT_EQ(v.devices[0].hca_id, "mlx5_0");
  EXPECT_EQ(v.devices[0].fw_ver, "14.28.2006");
  EXPECT_EQ(v.devices[2].fw_ver, "14.32.1010");
  EXPECT_EQ(v.devices[0].board_id, "MT_2420110034");
  EXPECT_EQ(v.devices[0].vendor_id, 0x02c9u);
  EXPECT_EQ(v.devices[0].vendor_part_id, 4117u);
  EXPECT_EQ(v.devices[0].transport, "InfiniBand");
  ASSERT_EQ(v.devices[1].ports.size(), 1u);
  EXPECT_EQ(v.devices[1].ports[0].port, 1u);
  EXPECT_EQ(v.devices[1].ports[0].state, PortState::down);
  EXPECT_EQ(v.devices[0].ports[0].state, PortState::active);
  EXPECT_EQ(v.devices[0].ports[0].max_mtu_bytes, 4096u);
  EXPECT_EQ(v.devices[0].ports[0].active_mtu_bytes, 1024u);
  EXPECT_EQ(v.devices[0].ports[0].link_layer, LinkLayer::ethernet);
  EXPECT_TRUE(v.devices[0].ports[0].gids.empty());
}

TEST(IbvDevinfo, AzureMixedIbAndEthernet) {
  IbvDevinfo v =
      parse_ok(rk::test::corpus_body("ibv_devinfo/azure-ndh200v5-8ib-vf-plus-an0-eth.txt"));
  ASSERT_EQ(v.devices.size(), 9u);
  EXPECT_EQ(v.devices[0].hca_id, "mlx5_ib0");
  EXPECT_EQ(v.devices[0].ports[0].link_layer, LinkLayer::infiniband);
  EXPECT_EQ(v.devices[0].ports[0].port_lid, 1227u);
  EXPECT_EQ(v.devices[8].hca_id, "mlx5_an0");
  EXPECT_EQ(v.devices[8].sys_image_guid, "0000:0000:0000:0000");
  EXPECT_EQ(v.devices[8].hw_ver, 0x80u);
  EXPECT_EQ(v.devices[8].ports[0].link_layer, LinkLayer::ethernet);
  EXPECT_EQ(v.devices[8].ports[0].active_mtu_bytes, 1024u);
}

TEST(IbvDevinfo, Mlx4TwoPortsOldFormat) {
  IbvDevinfo v = parse_ok(rk::test::corpus_body("ibv_devinfo/tensorflow-gdr-mlx4-roce-2port.txt"));
  ASSERT_EQ(v.devices.size(), 1u);
  ASSERT_EQ(v.devices[0].ports.size(), 2u);
  EXPECT_EQ(v.devices[0].ports[1].port, 2u);
  EXPECT_EQ(v.devices[0].ports[1].active_mtu_bytes, 1024u);
  EXPECT_EQ(v.devices[0].phys_port_cnt, 2u);
}

TEST(IbvDevinfo, Cx6DxVerboseGidTable) {
  IbvDevinfo v = parse_ok(rk::test::corpus_body("ibv_devinfo/rdma-notes-cx6dx-rocep61s0f1-v.txt"));
  ASSERT_EQ(v.devices.size(), 1u);
  const IbvDevice& d = v.devices[0];
  EXPECT_TRUE(v.verbose);
  EXPECT_EQ(d.hca_id, "rocep61s0f1");
  EXPECT_EQ(d.name_bdf, "0000:3d:00.1");  // mstconfig -d 3d:00.1 on the same host
  EXPECT_EQ(d.attributes.at("max_qp"), "131072");
  EXPECT_EQ(d.attributes.at("tso_caps.max_tso"), "262144");
  EXPECT_EQ(d.attributes.at("cq moderation caps.max_cq_period"), "4095 us");
  ASSERT_EQ(d.attribute_lists.count("rc_odp_caps"), 1u);
  EXPECT_EQ(d.attribute_lists.at("rc_odp_caps").size(), 5u);
  EXPECT_EQ(d.attribute_lists.at("device_cap_flags").back(), "Unknown flags: 0xC8400000");
  ASSERT_EQ(d.ports.size(), 1u);
  const IbvPort& p = d.ports[0];
  EXPECT_EQ(p.active_mtu_bytes, 1024u);
  EXPECT_EQ(p.active_width_lanes, 4u);
  EXPECT_EQ(p.active_speed_gbps, 25.0);
  EXPECT_EQ(p.phys_state, PhysState::link_up);
  EXPECT_EQ(p.gid_tbl_len, 255u);
  ASSERT_EQ(p.gids.size(), 4u);
  EXPECT_EQ(p.gids[3].index, 3u);
  EXPECT_EQ(p.gids[3].gid, "::ffff:192.0.2.221");
  EXPECT_EQ(p.gids[3].type, GidType::roce_v2);
  EXPECT_EQ(p.gids[3].ipv4, "192.0.2.221");
  EXPECT_EQ(p.gids[2].type, GidType::ib_roce_v1);
  EXPECT_EQ(p.gids[2].ipv4, "192.0.2.221");
  EXPECT_EQ(p.gids[0].ipv4, std::nullopt);
}

TEST(IbvDevinfo, IrdmaRoceV2AtIndexOne) {
  IbvDevinfo v = parse_ok(rk::test::corpus_body("ibv_devinfo/rdma-notes-irdma-e810-v-roce.txt"));
  ASSERT_EQ(v.devices.size(), 1u);
  EXPECT_EQ(v.devices[0].vendor_id, 0x8086u);
  EXPECT_EQ(v.devices[0].board_id, std::nullopt);
  EXPECT_EQ(v.devices[0].attribute_lists.at("general_odp_caps").size(), 0u);
  const IbvPort& p = v.devices[0].ports[0];
  ASSERT_EQ(p.gids.size(), 2u);
  EXPECT_EQ(p.gids[1].type, GidType::roce_v2);
  EXPECT_EQ(p.gids[1].ipv4, "192.0.2.221");
}

TEST(IbvDevinfo, BnxtElidedWithoutPortHeader) {
  Result<Parsed<IbvDevinfo>> r = parse_ibv_devinfo(
      rk::test::corpus_body("ibv_devinfo/bnxt_re2-v-gid-types-rdma-core-patch.txt"));
  ASSERT_TRUE(r.has_value());
  const IbvDevice& d = r->value.devices.at(0);
  EXPECT_EQ(d.hca_id, "bnxt_re2");
  EXPECT_EQ(d.fw_ver, "216.0.220.0");
  ASSERT_EQ(d.ports.size(), 1u);
  EXPECT_EQ(d.ports[0].port, std::nullopt);
  EXPECT_EQ(d.ports[0].gids.size(), 4u);
  EXPECT_EQ(d.ports[0].gids[0].type, GidType::ib_roce_v1);
  EXPECT_EQ(d.ports[0].gids[3].ipv4, "192.0.2.101");
  bool elided = false;
  bool missing_port = false;
  for (const Warning& w : r->warnings) {
    elided = elided || (w.code == "elided" && w.line == 6);
    missing_port = missing_port || w.code == "missing_port_header";
  }
  EXPECT_TRUE(elided);
  EXPECT_TRUE(missing_port);
}

TEST(IbvDevinfo, RocepNamesGiveBdf) {
  IbvDevinfo v = parse_ok(rk::test::corpus_body("ibv_devinfo/cx7-gb10-rocep-4dev.txt"));
  ASSERT_EQ(v.devices.size(), 4u);
  EXPECT_EQ(v.devices[0].name_bdf, "0000:01:00.0");
  EXPECT_EQ(v.devices[2].hca_id, "roceP2p1s0f0");
  EXPECT_EQ(v.devices[2].name_bdf, "0002:01:00.0");
  EXPECT_EQ(v.devices[3].ports[0].active_mtu_bytes, 4096u);
}

TEST(IbvDevinfo, EmptyAndForeignInputAreErrors) {
  EXPECT_FALSE(parse_ibv_devinfo("").has_value());
  EXPECT_FALSE(parse_ibv_devinfo("mlx5_0 port 1 ==> eth0 (Up)\n").has_value());
  EXPECT_FALSE(parse_ibv_devinfo(std::string_view("\0\0\0", 3)).has_value());
}

TEST(IbvDevinfo, NoDevicesFound) {
  IbvDevinfo v = parse_ok("No IB devices found\n");
  EXPECT_TRUE(v.no_devices_found);
  EXPECT_TRUE(v.devices.empty());
}

TEST(IbvDevinfo, TruncatedPortBlock) {
  Result<Parsed<IbvDevinfo>> r = parse_ibv_devinfo(
      "hca_id:\tmlx5_0\n\tphys_port_cnt:\t\t\t2\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE "
      "(4)\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
  EXPECT_EQ(r->warnings[1].code, "truncated");
  EXPECT_EQ(r->value.devices[0].ports[0].state, PortState::active);
}

TEST(IbvDevinfo, GarbledLineAndCrlf) {
  Result<Parsed<IbvDevinfo>> r = parse_ibv_devinfo(
      "hca_id:\tmlx5_0\r\n\tphys_port_cnt:\t1\r\n\t\tport:\t1\r\n\t\t\t@@garbage@@\r\n"
      "\t\t\tactive_mtu:\t4096 (5)\r\n\t\t\tlink_layer:\tEthernet\r\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 4u);
  EXPECT_EQ(r->value.devices[0].hca_id, "mlx5_0");
  EXPECT_EQ(r->value.devices[0].ports[0].active_mtu_bytes, 4096u);
  EXPECT_EQ(r->value.devices[0].ports[0].link_layer, LinkLayer::ethernet);
}

TEST(IbvDevinfo, LooksLike) {
  for (const char* f : k_files) {
    EXPECT_TRUE(looks_like_ibv_devinfo(rk::test::corpus_body(f))) << f;
  }
  EXPECT_FALSE(
      looks_like_ibv_devinfo(rk::test::corpus_body("gids/cn-notes-cx4lx-ibdev2netdev.txt")));
  EXPECT_FALSE(
      looks_like_ibv_devinfo(rk::test::corpus_body("misc/cn-blog-2019-ibstat-cx4lx-roce.txt")));
  EXPECT_FALSE(
      looks_like_ibv_devinfo(rk::test::corpus_body("gids/cn-notes-cx4lx-show_gids-4port.txt")));
}

TEST(RdmaNames, BdfFromName) {
  EXPECT_EQ(bdf_from_rdma_name("rocep61s0f1"), "0000:3d:00.1");
  EXPECT_EQ(bdf_from_rdma_name("roceP2p1s0f0"), "0002:01:00.0");
  EXPECT_EQ(bdf_from_rdma_name("ibp0s12f4"), "0000:00:0c.4");
  EXPECT_EQ(bdf_from_rdma_name("rocep1s0"), "0000:01:00.0");
  EXPECT_EQ(bdf_from_rdma_name("rocep5s1f12"), "0000:05:01.4");  // ARI: 1*8+4
  EXPECT_EQ(bdf_from_rdma_name("mlx5_0"), std::nullopt);
  EXPECT_EQ(bdf_from_rdma_name("rocex525400c0fe123455"), std::nullopt);
  EXPECT_EQ(bdf_from_rdma_name("roces5"), std::nullopt);
  EXPECT_EQ(bdf_from_rdma_name("rocep256s0f0"), std::nullopt);
  EXPECT_EQ(bdf_from_rdma_name("rocep1s0f0x"), std::nullopt);
  EXPECT_EQ(bdf_from_rdma_name("irdma1"), std::nullopt);
  EXPECT_EQ(bdf_from_rdma_name("rocep99999999999999999999s0"), std::nullopt);
}

TEST(RdmaNames, Ipv4FromGid) {
  EXPECT_EQ(ipv4_from_gid("::ffff:192.0.2.1"), "192.0.2.1");
  EXPECT_EQ(ipv4_from_gid("0000:0000:0000:0000:0000:ffff:c000:0265"), "192.0.2.101");
  EXPECT_EQ(ipv4_from_gid("::ffff:c000:0201"), "192.0.2.1");
  EXPECT_EQ(ipv4_from_gid("fe80::0000:00ff:fe00:0081"), std::nullopt);
  EXPECT_EQ(ipv4_from_gid("fe80:0000:0000:0000:0000:00ff:fe00:0011"), std::nullopt);
  EXPECT_EQ(ipv4_from_gid(":::"), std::nullopt);
  EXPECT_EQ(ipv4_from_gid("::ffff:1.2.3"), std::nullopt);
}

}  // namespace
}  // namespace rk::parse

// Robustness: every prefix (and a byte-flipped copy) of every group-C capture through every
// group-C parser must not crash; ASan/UBSan in the dev preset catch out-of-range access.
#include <filesystem>

#include "rocekit/parse/ibdev2netdev.hpp"
#include "rocekit/parse/ibstat.hpp"
#include "rocekit/parse/rdma_link.hpp"
#include "rocekit/parse/rdma_statistic.hpp"
#include "rocekit/parse/show_counters.hpp"
#include "rocekit/parse/show_gids.hpp"

namespace rk::parse {
namespace {

/// Runs every group-C parser and sniff; returns how many parsers accepted the text.
int run_all(std::string_view s) {
  int accepted = 0;
  accepted += parse_ibv_devinfo(s).has_value() ? 1 : 0;
  accepted += parse_show_gids(s).has_value() ? 1 : 0;
  accepted += parse_ibdev2netdev(s).has_value() ? 1 : 0;
  accepted += parse_rdma_link(s).has_value() ? 1 : 0;
  accepted += parse_rdma_res(s).has_value() ? 1 : 0;
  accepted += parse_rdma_statistic(s).has_value() ? 1 : 0;
  accepted += parse_show_counters(s).has_value() ? 1 : 0;
  accepted += parse_ibstat(s).has_value() ? 1 : 0;
  (void)looks_like_ibv_devinfo(s);
  (void)looks_like_show_gids(s);
  (void)looks_like_ibdev2netdev(s);
  (void)looks_like_rdma_link(s);
  (void)looks_like_rdma_res(s);
  (void)looks_like_rdma_statistic(s);
  (void)looks_like_show_counters(s);
  (void)looks_like_ibstat(s);
  return accepted;
}

TEST(RdmaGroupRobustness, PrefixesAndMutations) {
  const char* const files[] = {"ibv_devinfo/rdma-notes-cx6dx-rocep61s0f1-v.txt",
                               "ibv_devinfo/bnxt_re2-v-gid-types-rdma-core-patch.txt",
                               "gids/cn-notes-hiroce3-gids.txt",
                               "gids/cn-notes-show_gids-19-mixed-ib-eth.txt",
                               "gids/cx7-gb10-ibdev2netdev-rocep.txt",
                               "gids/rdma-notes-rdma-link-irdma.txt",
                               "misc/rdma-notes-rdma-res-show.txt",
                               "sysfs/cn-notes-rdma-statistic-show-4port.txt",
                               "sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt",
                               "misc/cn-blog-2019-ibstat-cx4lx-roce.txt"};
  const char k_bytes[] = {':', ' ', '\t', '\n', '[', ']', '(', ')', '/', '.', '0', 'x', '\'', '<'};
  for (const char* f : files) {
    std::string body = rk::test::corpus_body(f);
    // The real capture is accepted by at least its own parser; the empty prefix by none.
    EXPECT_GE(run_all(body), 1) << f;
    EXPECT_EQ(run_all(""), 0);
    for (std::size_t n = 0; n <= body.size(); n += (n < 200 ? 3 : 41)) {
      run_all(std::string_view(body).substr(0, n));
    }
    for (std::size_t i = 0; i < body.size(); i += 13) {
      std::string m = body;
      m[i] = k_bytes[i % sizeof k_bytes];
      run_all(m);
    }
  }
}

}  // namespace
}  // namespace rk::parse
