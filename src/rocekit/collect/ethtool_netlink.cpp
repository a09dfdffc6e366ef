#include "rocekit/collect/ethtool_netlink.hpp"

#include <linux/ethtool_netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace rk::collect {

namespace {

struct SockFree {
  void operator()(nl_sock* s) const { nl_socket_free(s); }
};
struct MsgFree {
  void operator()(nl_msg* m) const { nlmsg_free(m); }
};

struct Reply {
  ChannelState channels;
  bool got = false;
  bool done = false;
  int error = 0;  ///< negative errno from an NLMSG_ERROR
};

int on_valid(nl_msg* msg, void* arg) {
  auto* r = static_cast<Reply*>(arg);
  nlattr* tb[ETHTOOL_A_CHANNELS_MAX + 1] = {};
  if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, ETHTOOL_A_CHANNELS_MAX, nullptr) < 0) return NL_SKIP;
  // The kernel leaves out a MAX/COUNT pair whose max is 0 (net/ethtool/channels.c): absent
  // reads as 0, which is what the ioctl reports for it.
  auto u32 = [&](int a) -> std::uint32_t {
    if (tb[a] == nullptr || nla_len(tb[a]) < 4) return 0;
    return nla_get_u32(tb[a]);
  };
  r->channels.combined = u32(ETHTOOL_A_CHANNELS_COMBINED_COUNT);
  r->channels.combined_max = u32(ETHTOOL_A_CHANNELS_COMBINED_MAX);
  r->channels.rx = u32(ETHTOOL_A_CHANNELS_RX_COUNT);
  r->channels.tx = u32(ETHTOOL_A_CHANNELS_TX_COUNT);
  r->got = true;
  return NL_OK;
}

int on_ack(nl_msg*, void* arg) {
  static_cast<Reply*>(arg)->done = true;
  return NL_STOP;
}

int on_error(sockaddr_nl*, nlmsgerr* e, void* arg) {
  auto* r = static_cast<Reply*>(arg);
  r->error = e->error;
  r->done = true;
  return NL_STOP;
}

}  // namespace

Result<ChannelState> query_channels_netlink(const std::string& ifname) {
  const std::string ctx = "ethtool netlink CHANNELS_GET " + ifname;
  std::unique_ptr<nl_sock, SockFree> sock(nl_socket_alloc());
  if (!sock) return unexpected(ErrorKind::io, "cannot allocate a netlink socket", ctx);
  if (int e = genl_connect(sock.get()); e < 0)
    return unexpected(ErrorKind::io, std::string("generic netlink connect: ") + nl_geterror(e), ctx);
  const int family = genl_ctrl_resolve(sock.get(), ETHTOOL_GENL_NAME);
  if (family < 0)
    return unexpected(ErrorKind::unsupported,
                      "no ethtool generic netlink family (kernel before 5.6 or without "
                      "CONFIG_ETHTOOL_NETLINK)",
                      ctx);
  std::unique_ptr<nl_msg, MsgFree> msg(nlmsg_alloc());
  if (!msg || genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0, ETHTOOL_MSG_CHANNELS_GET,
                          ETHTOOL_GENL_VERSION) == nullptr)
    return unexpected(ErrorKind::io, "cannot build the request", ctx);
  nlattr* header = nla_nest_start(msg.get(), ETHTOOL_A_CHANNELS_HEADER);
  if (header == nullptr || nla_put_string(msg.get(), ETHTOOL_A_HEADER_DEV_NAME, ifname.c_str()) < 0)
    return unexpected(ErrorKind::io, "cannot build the request", ctx);
  nla_nest_end(msg.get(), header);
  Reply r;
  nl_socket_modify_cb(sock.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &r);
  nl_socket_modify_cb(sock.get(), NL_CB_ACK, NL_CB_CUSTOM, on_ack, &r);
  nl_socket_modify_err_cb(sock.get(), NL_CB_CUSTOM, on_error, &r);
  if (int e = nl_send_auto(sock.get(), msg.get()); e < 0)
    return unexpected(ErrorKind::io, std::string("netlink send: ") + nl_geterror(e), ctx);
  // libnl asks for an ACK: the reply, then the ACK (or one NLMSG_ERROR) end the exchange.
  for (int batches = 0; !r.done && batches < 16; ++batches)
    if (int e = nl_recvmsgs_default(sock.get()); e < 0 && !r.done) {
      if (r.got) break;
      return unexpected(ErrorKind::io, std::string("netlink receive: ") + nl_geterror(e), ctx);
    }
  if (r.error != 0) {
    const int err = -r.error;
    if (err == EOPNOTSUPP)
      return unexpected(ErrorKind::unsupported, "the driver does not report channels (EOPNOTSUPP)", ctx);
    if (err == ENODEV) return unexpected(ErrorKind::not_found, "no such netdev (ENODEV)", ctx);
    if (err == EPERM || err == EACCES) return unexpected(ErrorKind::permission_denied, "needs root", ctx);
    return unexpected(ErrorKind::io, std::strerror(err), ctx);
  }
  if (!r.got) return unexpected(ErrorKind::io, "no CHANNELS_GET reply", ctx);
  return r.channels;
}

}  // namespace rk::collect
