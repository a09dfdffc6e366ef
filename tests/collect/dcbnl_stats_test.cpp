// dcbnl (RTM_GETDCB / DCB_CMD_IEEE_GET) decoding over hand-built netlink messages, the MLNX_OFED
// qos sysfs reader over a tree written from a real mlnx_qos capture, ethtool -S pairing, and
// both against this machine's kernel.
#include <linux/dcbnl.h>
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/collect/collect.hpp"
#include "rocekit/collect/dcbnl.hpp"
#include "rocekit/collect/ethtool.hpp"
#include "rocekit/core/text.hpp"

namespace rk::collect {
namespace {

using Bytes = std::vector<std::uint8_t>;

void pad4(Bytes& b) {
  while (b.size() % 4) b.push_back(0);
}

template <class T>
void put(Bytes& b, const T& v) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
  b.insert(b.end(), p, p + sizeof v);
}

/// One attribute (header + payload, padded to 4 bytes).
Bytes attr(std::uint16_t type, const Bytes& payload) {
  Bytes b;
  nlattr a{};
  a.nla_len = static_cast<std::uint16_t>(sizeof(nlattr) + payload.size());
  a.nla_type = type;
  put(b, a);
  b.insert(b.end(), payload.begin(), payload.end());
  pad4(b);
  return b;
}

template <class T>
Bytes raw(const T& v) {
  Bytes b;
  put(b, v);
  return b;
}

Bytes app(std::uint8_t selector, std::uint16_t protocol, std::uint8_t priority) {
  dcb_app a{};
  a.selector = selector;
  a.protocol = protocol;
  a.priority = priority;
  return attr(DCB_ATTR_IEEE_APP, raw(a));
}

/// A whole RTM_GETDCB reply: nlmsghdr + dcbmsg + IFNAME + DCB_ATTR_IEEE{ieee}.
Bytes reply(const Bytes& ieee_nest) {
  Bytes body;
  dcbmsg d{};
  d.cmd = DCB_CMD_IEEE_GET;
  put(body, d);
  pad4(body);
  Bytes name{'e', 't', 'h', '4', 0};
  Bytes a1 = attr(DCB_ATTR_IFNAME, name);
  Bytes a2 = attr(NLA_F_NESTED | DCB_ATTR_IEEE, ieee_nest);
  body.insert(body.end(), a1.begin(), a1.end());
  body.insert(body.end(), a2.begin(), a2.end());
  nlmsghdr h{};
  h.nlmsg_len = static_cast<std::uint32_t>(NLMSG_HDRLEN + body.size());
  h.nlmsg_type = RTM_GETDCB;
  Bytes b = raw(h);
  b.insert(b.end(), body.begin(), body.end());
  return b;
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes b;
  for (const Bytes& p : parts) b.insert(b.end(), p.begin(), p.end());
  return b;
}

TEST(Dcbnl, EncodesTheIeeeGetRequest) {
  Bytes req = encode_dcb_ieee_get("eth4", 7);
  ASSERT_EQ(req.size(), NLMSG_HDRLEN + 4u + 12u);  // dcbmsg 4, IFNAME attr 4 + "eth4\0" padded to 8
  nlmsghdr h{};
  std::memcpy(&h, req.data(), sizeof h);
  EXPECT_EQ(h.nlmsg_len, req.size());
  EXPECT_EQ(h.nlmsg_type, RTM_GETDCB);
  EXPECT_EQ(h.nlmsg_flags, NLM_F_REQUEST);  // a get: no NLM_F_ACK, nothing that writes
  EXPECT_EQ(h.nlmsg_seq, 7u);
  EXPECT_EQ(req[NLMSG_HDRLEN + 1], DCB_CMD_IEEE_GET);
  nlattr a{};
  std::memcpy(&a, req.data() + NLMSG_HDRLEN + 4, sizeof a);
  EXPECT_EQ(a.nla_type, DCB_ATTR_IFNAME);
  EXPECT_EQ(a.nla_len, 9);
  EXPECT_STREQ(reinterpret_cast<const char*>(req.data() + NLMSG_HDRLEN + 8), "eth4");
}

TEST(Dcbnl, DecodesAppTablePfcAndEts) {
  ieee_pfc pfc{};
  pfc.pfc_cap = 8;
  pfc.pfc_en = 0x08;
  ieee_ets ets{};
  const std::uint8_t prio_tc[8] = {1, 0, 2, 3, 4, 5, 6, 7};  // mlnx_qos default (netarbiter capture)
  std::memcpy(ets.prio_tc, prio_tc, 8);
  Bytes table = concat({app(IEEE_8021QAZ_APP_SEL_DSCP, 26, 3), app(IEEE_8021QAZ_APP_SEL_DSCP, 48, 6),
                        app(IEEE_8021QAZ_APP_SEL_ETHERTYPE, 0x8915, 3)});  // RoCE v1 ethertype: not DSCP
  Bytes ieee = concat({attr(DCB_ATTR_IEEE_ETS, raw(ets)), attr(DCB_ATTR_IEEE_PFC, raw(pfc)),
                       attr(NLA_F_NESTED | DCB_ATTR_IEEE_APP_TABLE, table)});
  Result<QosState> q = decode_dcb_ieee_reply(reply(ieee), "eth4");
  ASSERT_TRUE(q) << q.error().describe();
  EXPECT_EQ(q->trust, Trust::dscp);
  EXPECT_EQ(q->dscp_to_priority, (std::map<int, int>{{26, 3}, {48, 6}}));
  ASSERT_TRUE(q->pfc_enabled);
  EXPECT_EQ(*q->pfc_enabled, (std::vector<bool>{false, false, false, true, false, false, false, false}));
  ASSERT_TRUE(q->priority_to_tc);
  EXPECT_EQ(*q->priority_to_tc, (std::vector<int>{1, 0, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(q->pfc_source.file, "dcbnl IEEE_GET eth4");
  EXPECT_EQ(q->pfc_source.text, "pfc_en 0x08 (priority 0..7: 0 0 0 1 0 0 0 0)");
  EXPECT_EQ(q->dscp_source.text, "APP DSCP->priority 26->3, 48->6");
  EXPECT_EQ(q->trust_source.text, "2 DSCP-selector APP entries");
}

TEST(Dcbnl, DecodesEtsSchedulingCableLengthAndBuffers) {
  // The shapes of mlx5e_dcbnl_ieee_getets (tc_tsa, tc_tx_bw), getpfc (delay = dcbx.cable_len)
  // and getbuffer (prio2buffer, buffer_size, total_size), linux/dcbnl.h layouts.
  ieee_ets ets{};
  for (int i = 0; i < 8; ++i) {
    ets.prio_tc[i] = static_cast<std::uint8_t>(i);
    ets.tc_tsa[i] = IEEE_8021QAZ_TSA_VENDOR;
  }
  ets.tc_tsa[0] = ets.tc_tsa[3] = IEEE_8021QAZ_TSA_ETS;
  ets.tc_tx_bw[0] = ets.tc_tx_bw[3] = 50;
  ets.tc_tsa[6] = IEEE_8021QAZ_TSA_STRICT;
  ieee_pfc pfc{};
  pfc.pfc_en = 0x08;
  pfc.delay = 30;
  dcbnl_buffer buf{};
  buf.prio2buffer[3] = 1;
  buf.buffer_size[0] = 130944;
  buf.buffer_size[1] = 130944;
  buf.total_size = 262016;
  Bytes ieee = concat({attr(DCB_ATTR_IEEE_ETS, raw(ets)), attr(DCB_ATTR_IEEE_PFC, raw(pfc)),
                       attr(DCB_ATTR_DCB_BUFFER, raw(buf))});
  Result<QosState> q = decode_dcb_ieee_reply(reply(ieee), "eth4");
  ASSERT_TRUE(q) << q.error().describe();
  ASSERT_EQ(q->tc_schedule.size(), 8u);
  EXPECT_EQ(q->tc_schedule[3].tsa, "ets");
  EXPECT_EQ(q->tc_schedule[3].bandwidth_percent, 50);
  EXPECT_EQ(q->tc_schedule[6].tsa, "strict");
  EXPECT_FALSE(q->tc_schedule[6].bandwidth_percent.has_value());
  EXPECT_EQ(q->tc_schedule[7].tsa, "vendor");
  EXPECT_EQ(q->tc_schedule[3].source.text, "IEEE_ETS tc 3: ets 50%");
  EXPECT_EQ(q->cable_length_m, 30);
  ASSERT_TRUE(q->priority_to_buffer);
  EXPECT_EQ(*q->priority_to_buffer, (std::vector<int>{0, 0, 0, 1, 0, 0, 0, 0}));
  ASSERT_TRUE(q->receive_buffer_bytes);
  EXPECT_EQ((*q->receive_buffer_bytes)[1], 130944u);
}

TEST(Dcbnl, NoDscpEntriesMeansTrustPcp) {
  ieee_pfc pfc{};
  Bytes ieee = concat({attr(DCB_ATTR_IEEE_PFC, raw(pfc)), attr(DCB_ATTR_IEEE_APP_TABLE, {})});
  Result<QosState> q = decode_dcb_ieee_reply(reply(ieee), "eth4");
  ASSERT_TRUE(q) << q.error().describe();
  EXPECT_EQ(q->trust, Trust::pcp);
  EXPECT_TRUE(q->dscp_to_priority.empty());
  EXPECT_EQ(*q->pfc_enabled, std::vector<bool>(8, false));
  EXPECT_FALSE(q->priority_to_tc);  // no ETS attribute: not shown, not defaulted
}

TEST(Dcbnl, EopnotsuppIsTheDriverWithoutDcb) {
  nlmsgerr e{};
  e.error = -EOPNOTSUPP;
  Bytes body = raw(e);
  nlmsghdr h{};
  h.nlmsg_len = static_cast<std::uint32_t>(NLMSG_HDRLEN + body.size());
  h.nlmsg_type = NLMSG_ERROR;
  Bytes b = concat({raw(h), body});
  Result<QosState> q = decode_dcb_ieee_reply(b, "eth0");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().kind, ErrorKind::unsupported);
  EXPECT_EQ(q.error().message, "the driver has no DCB support (dcbnl EOPNOTSUPP)");
  EXPECT_EQ(q.error().context, "dcbnl IEEE_GET eth0");
}

TEST(Dcbnl, RejectsTruncatedAndOverrunningMessages) {
  Bytes full = reply(attr(DCB_ATTR_IEEE_PFC, raw(ieee_pfc{})));
  EXPECT_EQ(decode_dcb_ieee_reply(Bytes(full.begin(), full.begin() + 10), "x").error().kind, ErrorKind::malformed_input);
  Bytes cut(full.begin(), full.end() - 8);  // header still claims the full length
  EXPECT_EQ(decode_dcb_ieee_reply(cut, "x").error().kind, ErrorKind::malformed_input);
  Bytes no_ieee = reply({});
  // An empty DCB_ATTR_IEEE nest is still a nest: decodes to no values.
  ASSERT_TRUE(decode_dcb_ieee_reply(no_ieee, "x"));
  EXPECT_FALSE(decode_dcb_ieee_reply(no_ieee, "x")->trust);
}

// ------------------------------------------------------------------ OFED sysfs -------------

/// Writes /sys/class/net/eth4/qos/{trust,dscp2prio,pfc} from the netarbiter mlnx_qos capture
/// (testdata/hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt) into a fresh root.
std::filesystem::path ofed_root() {
  const std::string capture =
      test::read_file(test::testdata_dir() / "hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt");
  auto block = [&](const std::string& from, const std::string& to) {
    std::size_t a = capture.find(from), b = capture.find(to, a);
    return capture.substr(a, b - a);
  };
  std::filesystem::path root = std::filesystem::temp_directory_path() /
                               ("rk-ofed-qos-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "sys/class/net/eth4/qos");
  std::ofstream(root / "sys/class/net/eth4/qos/trust") << "Priority trust state: dscp\n";
  std::ofstream(root / "sys/class/net/eth4/qos/dscp2prio") << block("dscp2prio mapping:", "Cable len");
  std::ofstream(root / "sys/class/net/eth4/qos/pfc") << block("PFC configuration:", "tc: 0");
  return root;
}

TEST(OfedQosSysfs, ReadsTrustDscpMapAndPfcFromTheCapturedBlocks) {
  std::filesystem::path root = ofed_root();
  Result<QosState> q = read_ofed_qos_sysfs(HostView(root), "eth4");
  std::filesystem::remove_all(root);
  ASSERT_TRUE(q) << q.error().describe();
  EXPECT_EQ(q->trust, Trust::dscp);
  EXPECT_EQ(q->trust_source.file, "/sys/class/net/eth4/qos/trust");
  EXPECT_EQ(q->dscp_to_priority.size(), 64u);
  EXPECT_EQ(q->dscp_to_priority.at(26), 3);
  EXPECT_EQ(q->dscp_to_priority.at(48), 6);
  EXPECT_EQ(*q->pfc_enabled, (std::vector<bool>{false, false, false, true, false, false, false, false}));
  EXPECT_EQ(q->pfc_source.file, "/sys/class/net/eth4/qos/pfc");
}

TEST(OfedQosSysfs, AbsentOnInboxDriverTrees) {
  Result<QosState> q = read_ofed_qos_sysfs(HostView(test::testdata_dir() / "sysroots/cx4lx-4port"), "eth01");
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().kind, ErrorKind::not_found);
}

TEST(OfedQosSysfs, FixtureCollectSaysWhyQosIsUnknown) {
  NoToolsRunner runner("vendor tools not requested");
  Snapshot s = collect_snapshot(CollectRequest{}, HostView(test::testdata_dir() / "sysroots/cx4lx-4port"), runner);
  const NetDev* n = s.find_netdev("eth01");
  ASSERT_NE(n, nullptr);
  EXPECT_FALSE(n->qos.has_value());
  EXPECT_EQ(n->qos.reason,
            "DCB QoS (trust, DSCP map, PFC) unknown: dcbnl reads the running kernel only (not used with "
            "--root); capture `mlnx_qos -i eth01` instead");
}

TEST(OfedQosSysfs, CollectUnderRootUsesTheSysfsTree) {
  std::filesystem::path root = ofed_root();
  // Make eth4 a device-backed netdev so the collector audits it.
  std::filesystem::create_directories(root / "sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/net");
  std::filesystem::rename(root / "sys/class/net/eth4",
                          root / "sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/net/eth4");
  std::filesystem::create_directory_symlink("../../devices/pci0000:00/0000:00:02.0/0000:3b:00.0/net/eth4",
                                            root / "sys/class/net/eth4");
  std::ofstream(root / "sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/net/eth4/mtu") << "9000\n";
  NoToolsRunner runner("vendor tools not requested");
  Snapshot s = collect_snapshot(CollectRequest{}, HostView(root), runner);
  std::filesystem::remove_all(root);
  const NetDev* n = s.find_netdev("eth4");
  ASSERT_NE(n, nullptr);
  ASSERT_TRUE(n->qos.has_value()) << n->qos.reason;
  EXPECT_EQ(n->qos->trust, Trust::dscp);
  EXPECT_EQ(n->qos->dscp_to_priority.at(26), 3);
  EXPECT_EQ(n->qos.source.file, "/sys/class/net/eth4/qos");
  ASSERT_EQ(n->qos.notes.size(), 1u);
  EXPECT_EQ(n->qos.notes[0], "dcbnl not used: dcbnl reads the running kernel only (not used with --root)");
}

// ------------------------------------------------------------------ ethtool -S -------------

TEST(EthtoolStats, PairsNamesWithValuesAndFlagsRepeats) {
  Bytes names(3 * ETH_GSTRING_LEN, 0);
  std::strcpy(reinterpret_cast<char*>(names.data()), "rx_pause_ctrl_phy");
  std::strcpy(reinterpret_cast<char*>(names.data() + ETH_GSTRING_LEN), "rx_prio3_pause");
  std::strcpy(reinterpret_cast<char*>(names.data() + 2 * ETH_GSTRING_LEN), "rx_pause_ctrl_phy");
  const std::uint64_t values[3] = {12, 34567890123ULL, 99};
  std::vector<std::string> dups;
  auto m = to_stats(names, values, &dups);
  EXPECT_EQ(m, (std::map<std::string, std::uint64_t>{{"rx_pause_ctrl_phy", 12}, {"rx_prio3_pause", 34567890123ULL}}));
  EXPECT_EQ(dups, std::vector<std::string>{"rx_pause_ctrl_phy"});
  // Fewer values than names: the extra names are dropped, not paired with garbage.
  EXPECT_EQ(to_stats(names, std::span<const std::uint64_t>(values, 1), nullptr).size(), 1u);
}

// ------------------------------------------------------------------ this machine -----------

TEST(CollectLiveQos, DcbnlAnswersOrSaysWhy) {
  if (!std::filesystem::exists("/sys/class/net")) GTEST_SKIP() << "no /sys/class/net here";
  NoToolsRunner runner("vendor tools not requested");
  CollectRequest req;
  req.kernel_ioctls = true;
  Snapshot s = collect_snapshot(req, HostView("/"), runner);
  if (s.netdevs.empty()) GTEST_SKIP() << "no device-backed netdev on this machine";
  for (const NetDev& n : s.netdevs) {
    if (n.qos.has_value()) {
      EXPECT_TRUE(n.qos->trust) << n.name;
      continue;
    }
    EXPECT_TRUE(text::contains(n.qos.reason, "DCB QoS (trust, DSCP map, PFC) unknown: ")) << n.qos.reason;
    // virtio_net (this build machine) registers no dcbnl_ops: the kernel answers EOPNOTSUPP.
    if (n.driver.has_value() && n.driver->driver == "virtio_net") {
      EXPECT_EQ(n.qos.reason,
                "DCB QoS (trust, DSCP map, PFC) unknown: the driver has no DCB support (dcbnl EOPNOTSUPP)");
      Result<QosState> direct = query_dcb_ieee(n.name);
      ASSERT_FALSE(direct);
      EXPECT_EQ(direct.error().kind, ErrorKind::unsupported);
    }
  }
}

TEST(CollectLiveStats, EthtoolStatisticsFromTheKernel) {
  if (!std::filesystem::exists("/sys/class/net")) GTEST_SKIP() << "no /sys/class/net here";
  NoToolsRunner runner("vendor tools not requested");
  CollectRequest req;
  req.kernel_ioctls = true;
  Snapshot s = collect_snapshot(req, HostView("/"), runner);
  if (s.netdevs.empty()) GTEST_SKIP() << "no device-backed netdev on this machine";
  for (const NetDev& n : s.netdevs) {
    if (!n.stats.has_value()) {
      EXPECT_FALSE(n.stats.reason.empty()) << n.name;
      continue;
    }
    EXPECT_EQ(n.stats.source.file, "ioctl SIOCETHTOOL ETHTOOL_GSTATS " + n.name);
    EXPECT_EQ(n.stats.source.text, std::to_string(n.stats->size()) + " counters");
    EXPECT_FALSE(n.stats->empty());
    if (n.driver.has_value() && n.driver->driver == "virtio_net") {
      // virtio_net names its per-queue counters rx<N>_/tx<N>_ and totals rx_/tx_ (or rx_queue_<N>_).
      bool queue0 = n.stats->count("rx0_kicks") || n.stats->count("rx_queue_0_kicks");
      EXPECT_TRUE(queue0) << n.name;
    }
  }
}

}  // namespace
}  // namespace rk::collect
