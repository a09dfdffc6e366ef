#include "rocekit/collect/dcbnl.hpp"

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>

#include "rocekit/core/text.hpp"
#include "rocekit/parse/mlnx_qos.hpp"

namespace rk::collect {

namespace {

constexpr std::size_t k_align = 4;  // NLMSG_ALIGNTO == NLA_ALIGNTO
constexpr std::size_t align4(std::size_t n) { return (n + k_align - 1) & ~(k_align - 1); }

/// One netlink attribute: type (flags masked off) and payload.
struct Attr {
  std::uint16_t type = 0;
  std::span<const std::uint8_t> payload;
};

/// Splits a run of netlink attributes; nullopt when an attribute overruns the buffer.
std::optional<std::vector<Attr>> attrs(std::span<const std::uint8_t> buf) {
  std::vector<Attr> out;
  std::size_t off = 0;
  while (off + sizeof(nlattr) <= buf.size()) {
    nlattr a{};
    std::memcpy(&a, buf.data() + off, sizeof a);
    if (a.nla_len < sizeof(nlattr) || off + a.nla_len > buf.size()) return std::nullopt;
    out.push_back(Attr{static_cast<std::uint16_t>(a.nla_type & NLA_TYPE_MASK),
                       buf.subspan(off + sizeof(nlattr), a.nla_len - sizeof(nlattr))});
    off += align4(a.nla_len);
  }
  return out;
}

const Attr* find(const std::vector<Attr>& as, std::uint16_t type) {
  for (const Attr& a : as)
    if (a.type == type) return &a;
  return nullptr;
}

Error dcb_errno(int err, const std::string& ifname) {
  std::string ctx = "dcbnl IEEE_GET " + ifname;
  if (err == EOPNOTSUPP) return Error{ErrorKind::unsupported, "the driver has no DCB support (dcbnl EOPNOTSUPP)", ctx};
  if (err == EPERM || err == EACCES) return Error{ErrorKind::permission_denied, "needs root (permission denied)", ctx};
  if (err == ENODEV) return Error{ErrorKind::not_found, "no such interface", ctx};
  return Error{ErrorKind::io, std::strerror(err), ctx};
}

std::string bits_text(const std::vector<bool>& v) {
  std::string s;
  for (bool b : v) s += std::string(s.empty() ? "" : " ") + (b ? "1" : "0");
  return s;
}

}  // namespace

std::vector<std::uint8_t> encode_dcb_ieee_get(const std::string& ifname, std::uint32_t seq) {
  const std::size_t name_len = ifname.size() + 1;  // with the NUL
  const std::size_t attr_len = sizeof(nlattr) + name_len;
  const std::size_t total = NLMSG_HDRLEN + align4(sizeof(dcbmsg)) + align4(attr_len);
  std::vector<std::uint8_t> buf(total, 0);
  nlmsghdr h{};
  h.nlmsg_len = static_cast<std::uint32_t>(total);
  h.nlmsg_type = RTM_GETDCB;
  h.nlmsg_flags = NLM_F_REQUEST;
  h.nlmsg_seq = seq;
  std::memcpy(buf.data(), &h, sizeof h);
  dcbmsg d{};
  d.dcb_family = AF_UNSPEC;
  d.cmd = DCB_CMD_IEEE_GET;
  std::memcpy(buf.data() + NLMSG_HDRLEN, &d, sizeof d);
  nlattr a{};
  a.nla_len = static_cast<std::uint16_t>(attr_len);
  a.nla_type = DCB_ATTR_IFNAME;
  std::uint8_t* p = buf.data() + NLMSG_HDRLEN + align4(sizeof(dcbmsg));
  std::memcpy(p, &a, sizeof a);
  std::memcpy(p + sizeof a, ifname.c_str(), name_len);
  return buf;
}

Result<QosState> decode_dcb_ieee_reply(std::span<const std::uint8_t> reply, const std::string& ifname) {
  const std::string ctx = "dcbnl IEEE_GET " + ifname;
  auto malformed = [&](std::string why) { return unexpected(ErrorKind::malformed_input, std::move(why), ctx); };
  if (reply.size() < NLMSG_HDRLEN) return malformed("reply shorter than a netlink header");
  nlmsghdr h{};
  std::memcpy(&h, reply.data(), sizeof h);
  if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > reply.size()) return malformed("bad netlink message length");
  reply = reply.first(h.nlmsg_len);
  if (h.nlmsg_type == NLMSG_ERROR) {
    if (reply.size() < NLMSG_HDRLEN + sizeof(int)) return malformed("short NLMSG_ERROR");
    int e = 0;
    std::memcpy(&e, reply.data() + NLMSG_HDRLEN, sizeof e);
    if (e == 0) return malformed("acknowledgement instead of a DCB reply");
    return unexpected(dcb_errno(-e, ifname));
  }
  if (h.nlmsg_type != RTM_GETDCB) return malformed("unexpected message type " + std::to_string(h.nlmsg_type));
  const std::size_t body = NLMSG_HDRLEN + align4(sizeof(dcbmsg));
  if (reply.size() < body) return malformed("reply has no dcbmsg");
  std::optional<std::vector<Attr>> top = attrs(reply.subspan(body));
  if (!top) return malformed("attribute overruns the message");
  const Attr* ieee = find(*top, DCB_ATTR_IEEE);
  if (!ieee) return malformed("reply has no DCB_ATTR_IEEE");
  std::optional<std::vector<Attr>> in = attrs(ieee->payload);
  if (!in) return malformed("DCB_ATTR_IEEE attribute overruns its nest");

  QosState q;
  const Evidence base{ctx, 0, ""};
  if (const Attr* app = find(*in, DCB_ATTR_IEEE_APP_TABLE)) {
    std::optional<std::vector<Attr>> entries = attrs(app->payload);
    if (!entries) return malformed("DCB_ATTR_IEEE_APP_TABLE entry overruns its nest");
    std::string shown;
    for (const Attr& e : *entries) {
      if (e.type != DCB_ATTR_IEEE_APP || e.payload.size() < sizeof(dcb_app)) continue;
      dcb_app a{};
      std::memcpy(&a, e.payload.data(), sizeof a);
      if (a.selector != IEEE_8021QAZ_APP_SEL_DSCP || a.protocol > 63 || a.priority > 7) continue;
      q.dscp_to_priority[a.protocol] = a.priority;
      if (shown.size() < 200) shown += std::string(shown.empty() ? "" : ", ") + std::to_string(a.protocol) + "->" +
                                       std::to_string(a.priority);
    }
    q.trust = q.dscp_to_priority.empty() ? Trust::pcp : Trust::dscp;
    q.trust_source = base;
    q.trust_source.text = q.dscp_to_priority.empty()
                              ? "IEEE APP table has no DSCP-selector entries"
                              : std::to_string(q.dscp_to_priority.size()) + " DSCP-selector APP entries";
    if (!q.dscp_to_priority.empty()) {
      q.dscp_source = base;
      q.dscp_source.text = "APP DSCP->priority " + shown;
    }
  }
  if (const Attr* pfc = find(*in, DCB_ATTR_IEEE_PFC)) {
    if (pfc->payload.size() < offsetof(ieee_pfc, pfc_en) + sizeof(std::uint8_t))
      return malformed("DCB_ATTR_IEEE_PFC shorter than struct ieee_pfc");
    ieee_pfc p{};
    std::memcpy(&p, pfc->payload.data(), std::min(sizeof p, pfc->payload.size()));
    std::vector<bool> en(8);
    for (int i = 0; i < 8; ++i) en[static_cast<std::size_t>(i)] = ((p.pfc_en >> i) & 1) != 0;
    q.pfc_enabled = en;
    q.pfc_source = base;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", p.pfc_en);
    q.pfc_source.text = std::string("pfc_en ") + hex + " (priority 0..7: " + bits_text(en) + ")";
    // mlx5e_dcbnl_ieee_getpfc reports dcbx.cable_len as the delay when the port buffer API
    // exists (MLX5_BUFFER_SUPPORTED), else 0; mlnx_qos prints it as "Cable len:".
    if (p.delay > 0 && p.delay < 1000) {
      q.cable_length_m = static_cast<int>(p.delay);
      q.cable_source = base;
      q.cable_source.text = "ieee_pfc delay " + std::to_string(p.delay) + " (mlx5: cable length in metres)";
    }
  }
  // mlx5e_dcbnl_getbuffer (when the port buffer API exists): what mlnx_qos prints as "Receive
  // buffer size" and the PFC "buffer" row (dcbnl_ieee_fill puts DCB_ATTR_DCB_BUFFER in the nest).
  if (const Attr* buf = find(*in, DCB_ATTR_DCB_BUFFER); buf && buf->payload.size() >= sizeof(dcbnl_buffer)) {
    dcbnl_buffer b{};
    std::memcpy(&b, buf->payload.data(), sizeof b);
    std::vector<int> p2b(8);
    std::vector<std::uint64_t> sizes(8);
    bool ok = true;
    for (std::size_t i = 0; i < 8; ++i) {
      p2b[i] = b.prio2buffer[i];
      sizes[i] = b.buffer_size[i];
      ok = ok && b.prio2buffer[i] < 8;
    }
    if (ok) {
      q.priority_to_buffer = p2b;
      q.receive_buffer_bytes = sizes;
      q.buffer_source = base;
      q.buffer_source.text = "DCB_ATTR_DCB_BUFFER buffer_size " + std::to_string(sizes[0]) + "," + std::to_string(sizes[1]) +
                             ",... total " + std::to_string(b.total_size);
    }
  }
  if (const Attr* ets = find(*in, DCB_ATTR_IEEE_ETS)) {
    if (ets->payload.size() >= offsetof(ieee_ets, prio_tc) + 8) {
      ieee_ets e{};
      std::memcpy(&e, ets->payload.data(), std::min(sizeof e, ets->payload.size()));
      std::vector<int> tc(8);
      for (std::size_t i = 0; i < 8; ++i) tc[i] = e.prio_tc[i];
      // A traffic class beyond 7 is no IEEE 802.1Qaz TC: not kept (a snapshot may not hold it).
      if (std::all_of(tc.begin(), tc.end(), [](int t) { return t < 8; })) q.priority_to_tc = tc;
      // tc_tsa / tc_tx_bw come before prio_tc in struct ieee_ets (linux/dcbnl.h); an ETS reply
      // shorter than the whole struct keeps only prio_tc.
      if (ets->payload.size() >= sizeof(ieee_ets)) {
        for (int i = 0; i < 8; ++i) {
          TcSchedule t;
          t.tc = i;
          switch (e.tc_tsa[i]) {
            case IEEE_8021QAZ_TSA_STRICT: t.tsa = "strict"; break;
            case IEEE_8021QAZ_TSA_ETS: t.tsa = "ets"; break;
            case IEEE_8021QAZ_TSA_VENDOR: t.tsa = "vendor"; break;
            case IEEE_8021QAZ_TSA_CB_SHAPER: t.tsa = "cbs"; break;
            default: t.tsa = "unknown(" + std::to_string(e.tc_tsa[i]) + ")"; break;
          }
          if (t.tsa == "ets" && e.tc_tx_bw[i] <= 100) t.bandwidth_percent = e.tc_tx_bw[i];
          t.source = base;
          t.source.text = "IEEE_ETS tc " + std::to_string(i) + ": " + t.tsa +
                          (t.bandwidth_percent ? " " + std::to_string(*t.bandwidth_percent) + "%" : "");
          q.tc_schedule.push_back(t);
        }
      }
    }
  }
  return q;
}

Result<QosState> query_dcb_ieee(const std::string& ifname) {
  const std::string ctx = "dcbnl IEEE_GET " + ifname;
  int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) return unexpected(Error{ErrorKind::io, std::string("netlink socket: ") + std::strerror(errno), ctx});
  timeval tv{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  const std::vector<std::uint8_t> req = encode_dcb_ieee_get(ifname, 1);
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  if (::sendto(fd, req.data(), req.size(), 0, reinterpret_cast<const sockaddr*>(&kernel), sizeof kernel) < 0) {
    int err = errno;
    ::close(fd);
    return unexpected(Error{ErrorKind::io, std::string("netlink send: ") + std::strerror(err), ctx});
  }
  alignas(nlmsghdr) std::array<std::uint8_t, 32768> buf{};
  ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
  int err = errno;
  ::close(fd);
  if (n < 0) return unexpected(Error{ErrorKind::io, std::string("netlink receive: ") + std::strerror(err), ctx});
  return decode_dcb_ieee_reply(std::span<const std::uint8_t>(buf.data(), static_cast<std::size_t>(n)), ifname);
}

Result<QosState> read_ofed_qos_sysfs(const HostView& host, const std::string& ifname) {
  const std::string dir = "/sys/class/net/" + ifname + "/qos";
  Result<std::string> trust = host.read_text(dir + "/trust");
  // OFED creates qos/trust with the qos directory: its absence is the inbox driver (one failed
  // open per netdev, no extra stat).
  if (!trust && trust.error().kind == ErrorKind::not_found)
    return unexpected(Error{ErrorKind::not_found, "not present (no MLNX_OFED qos sysfs)", dir});
  QosState q;
  std::vector<std::string> errors;
  if (trust) {
    std::string t = text::to_lower(*trust);
    if (text::contains(t, "dscp")) q.trust = Trust::dscp;
    else if (text::contains(t, "pcp")) q.trust = Trust::pcp;
    if (q.trust) q.trust_source = Evidence{dir + "/trust", 0, *trust};
  } else {
    errors.push_back(trust.error().describe());
  }
  if (Result<std::string> d = host.read_text(dir + "/dscp2prio")) {
    // The file prints the mlnx_qos block; give the parser its heading when the file has none.
    const std::string block = text::contains(*d, "dscp2prio mapping") ? *d : "dscp2prio mapping:\n" + *d;
    if (Result<parse::Parsed<parse::MlnxQos>> p = parse::parse_mlnx_qos(block); p && !p->value.dscp_to_priority.empty()) {
      for (const auto& [dscp, prio] : p->value.dscp_to_priority)
        q.dscp_to_priority[static_cast<int>(dscp)] = static_cast<int>(prio);
      q.dscp_source = Evidence{dir + "/dscp2prio", 0, std::to_string(q.dscp_to_priority.size()) + " DSCP values mapped"};
    }
  } else if (d.error().kind != ErrorKind::not_found) {
    errors.push_back(d.error().describe());
  }
  if (Result<std::string> f = host.read_text(dir + "/pfc")) {
    const std::string block = text::contains(*f, "PFC configuration") ? *f : "PFC configuration:\n" + *f;
    if (Result<parse::Parsed<parse::MlnxQos>> p = parse::parse_mlnx_qos(block); p && p->value.pfc_enabled) {
      q.pfc_enabled = std::vector<bool>(p->value.pfc_enabled->begin(), p->value.pfc_enabled->end());
      q.pfc_source = Evidence{dir + "/pfc", 0, "enabled " + bits_text(*q.pfc_enabled)};
    }
  } else if (f.error().kind != ErrorKind::not_found) {
    errors.push_back(f.error().describe());
  }
  if (!q.trust && q.dscp_to_priority.empty() && !q.pfc_enabled) {
    if (!errors.empty()) return unexpected(Error{trust ? ErrorKind::io : trust.error().kind, errors.front(), dir});
    return unexpected(Error{ErrorKind::malformed_input, "trust, dscp2prio and pfc give no value", dir});
  }
  return q;
}

}  // namespace rk::collect
