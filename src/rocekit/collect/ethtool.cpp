#include "rocekit/collect/ethtool.hpp"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "rocekit/collect/ethtool_netlink.hpp"
#include "rocekit/core/text.hpp"

namespace rk::collect {

namespace {

std::string cstr(const char* s, std::size_t max) { return std::string(s, ::strnlen(s, max)); }

/// One SIOCETHTOOL get on `ifname`; `data` starts with the command word.
int ethtool_get(int fd, const std::string& ifname, void* data) {
  ifreq ifr{};
  std::memcpy(ifr.ifr_name, ifname.c_str(), std::min(ifname.size(), sizeof(ifr.ifr_name) - 1));
  ifr.ifr_data = static_cast<char*>(data);
  return ::ioctl(fd, SIOCETHTOOL, &ifr) == 0 ? 0 : errno;
}

std::string why_errno(int err, const std::string& what, const std::string& driver) {
  if (err == EOPNOTSUPP) return what + ": not supported by driver " + (driver.empty() ? "?" : driver);
  if (err == EPERM || err == EACCES) return what + ": needs root (permission denied)";
  return what + ": " + std::strerror(err);
}

ReasonKind kind_of_errno(int err) {
  if (err == EOPNOTSUPP) return ReasonKind::not_supported;
  if (err == EPERM || err == EACCES) return ReasonKind::needs_root;
  return ReasonKind::unreadable;
}

/// Marks `c` absent because the ioctl `what` failed with `err`.
template <class T>
void set_failed(Collected<T>& c, int err, const std::string& what, const std::string& driver) {
  c.set_missing(why_errno(err, what, driver), kind_of_errno(err));
}

}  // namespace

DriverInfo to_driver_info(const ethtool_drvinfo& d) {
  DriverInfo out;
  std::string drv = cstr(d.driver, sizeof d.driver);
  std::string ver = cstr(d.version, sizeof d.version);
  std::string fw = cstr(d.fw_version, sizeof d.fw_version);
  std::string bus = cstr(d.bus_info, sizeof d.bus_info);
  if (!drv.empty()) out.driver = drv;
  if (!ver.empty()) out.version = ver;
  if (!fw.empty() && fw != "N/A") {
    // "14.32.1010 (MT_2420110034)" -> version + PSID.
    std::size_t open = fw.find(" (");
    if (open != std::string::npos && fw.back() == ')') {
      out.firmware_version = fw.substr(0, open);
      out.psid = fw.substr(open + 2, fw.size() - open - 3);
    } else {
      out.firmware_version = fw;
    }
  }
  if (std::optional<std::string> b = normalize_bdf(bus)) out.bus_info = *b;
  // An mlx5 SF's netdev: its auxiliary device (mlx5_core.sf.2), kept as ethtool -i prints it.
  else if (bus.starts_with("mlx5_core.sf.")) out.bus_info = bus;
  return out;
}

CoalesceState to_coalesce(const ethtool_coalesce& c) {
  CoalesceState out;
  out.adaptive_rx = c.use_adaptive_rx_coalesce != 0;
  out.adaptive_tx = c.use_adaptive_tx_coalesce != 0;
  out.rx_usecs = c.rx_coalesce_usecs;
  out.tx_usecs = c.tx_coalesce_usecs;
  out.rx_frames = c.rx_max_coalesced_frames;
  out.tx_frames = c.tx_max_coalesced_frames;
  return out;
}

ChannelState to_channels(const ethtool_channels& c) {
  ChannelState out;
  out.combined = c.combined_count;
  out.combined_max = c.max_combined;
  out.rx = c.rx_count;
  out.tx = c.tx_count;
  return out;
}

PauseState to_pause(const ethtool_pauseparam& p) {
  PauseState out;
  out.autoneg = p.autoneg != 0;
  out.rx = p.rx_pause != 0;
  out.tx = p.tx_pause != 0;
  return out;
}

void read_ethtool(const std::string& ifname, NetDev& n, bool channels_via_netlink) {
  if (ifname.size() >= IFNAMSIZ) return;
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  auto source = [&](const char* cmd, std::string text) {
    return Evidence{std::string("ioctl SIOCETHTOOL ") + cmd + " " + ifname, 0, std::move(text)};
  };
  std::string driver = n.driver.has_value() && n.driver->driver ? *n.driver->driver : "";

  ethtool_drvinfo di{};
  di.cmd = ETHTOOL_GDRVINFO;
  if (int err = ethtool_get(fd, ifname, &di); err == 0) {
    DriverInfo d = to_driver_info(di);
    if (!d.version && n.driver.has_value()) d.version = n.driver->version;
    if (d.driver) driver = *d.driver;
    n.driver.value = d;
    n.driver.reason.clear();
    n.driver.notes.clear();
    n.driver.source = source("ETHTOOL_GDRVINFO", "driver " + d.driver.value_or("?") + ", firmware-version " +
                                                     cstr(di.fw_version, sizeof di.fw_version));
  }
  ethtool_coalesce co{};
  co.cmd = ETHTOOL_GCOALESCE;
  if (int err = ethtool_get(fd, ifname, &co); err == 0) {
    n.coalesce.value = to_coalesce(co);
    n.coalesce.reason.clear();
    n.coalesce.source = source("ETHTOOL_GCOALESCE",
                               "adaptive-rx " + std::string(co.use_adaptive_rx_coalesce ? "on" : "off") +
                                   " rx-usecs " + std::to_string(co.rx_coalesce_usecs) + " tx-usecs " +
                                   std::to_string(co.tx_coalesce_usecs));
  } else {
    set_failed(n.coalesce, err, "ETHTOOL_GCOALESCE", driver);
  }
  // Channels: ethtool netlink first (what `ethtool -l` uses since kernel 5.6), the ioctl when
  // the netlink family is absent or not asked for.
  std::string netlink_why = "not used (--ethtool-ioctl)";
  if (channels_via_netlink) {
    if (Result<ChannelState> c = query_channels_netlink(ifname)) {
      n.channels.value = *c;
      n.channels.reason.clear();
      n.channels.source = Evidence{"ethtool netlink ETHTOOL_MSG_CHANNELS_GET " + ifname, 0,
                                   "combined " + std::to_string(c->combined.value_or(0)) + " of max " +
                                       std::to_string(c->combined_max.value_or(0))};
    } else {
      netlink_why = c.error().message;
    }
  }
  if (!n.channels.has_value()) {
    ethtool_channels ch{};
    ch.cmd = ETHTOOL_GCHANNELS;
    if (int err = ethtool_get(fd, ifname, &ch); err == 0) {
      n.channels.value = to_channels(ch);
      n.channels.reason.clear();
      n.channels.source = source("ETHTOOL_GCHANNELS", "combined " + std::to_string(ch.combined_count) +
                                                          " of max " + std::to_string(ch.max_combined));
      n.channels.notes.push_back("ethtool netlink: " + netlink_why + "; read with the ioctl");
    } else {
      set_failed(n.channels, err, "ETHTOOL_GCHANNELS", driver);
    }
  }
  ethtool_pauseparam pp{};
  pp.cmd = ETHTOOL_GPAUSEPARAM;
  if (int err = ethtool_get(fd, ifname, &pp); err == 0) {
    n.pause.value = to_pause(pp);
    n.pause.reason.clear();
    n.pause.source = source("ETHTOOL_GPAUSEPARAM", std::string("autoneg ") + (pp.autoneg ? "on" : "off") +
                                                       " rx " + (pp.rx_pause ? "on" : "off") + " tx " +
                                                       (pp.tx_pause ? "on" : "off"));
  } else {
    set_failed(n.pause, err, "ETHTOOL_GPAUSEPARAM", driver);
  }
  ::close(fd);
}

std::map<std::string, std::uint64_t> to_stats(std::span<const std::uint8_t> names,
                                              std::span<const std::uint64_t> values,
                                              std::vector<std::string>* duplicates) {
  std::map<std::string, std::uint64_t> out;
  const std::size_t count = std::min(names.size() / ETH_GSTRING_LEN, values.size());
  for (std::size_t i = 0; i < count; ++i) {
    std::string name = cstr(reinterpret_cast<const char*>(names.data() + i * ETH_GSTRING_LEN), ETH_GSTRING_LEN);
    if (!out.emplace(name, values[i]).second && duplicates) duplicates->push_back(name);
  }
  return out;
}

void read_ethtool_stats(const std::string& ifname, NetDev& n) {
  if (ifname.size() >= IFNAMSIZ) return;
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    n.stats.reason = std::string("ethtool -S: socket: ") + std::strerror(errno);
    return;
  }
  std::string driver = n.driver.has_value() && n.driver->driver ? *n.driver->driver : "";
  // How many counters: GSSET_INFO (the set mask is in/out), else GDRVINFO n_stats.
  std::uint32_t count = 0;
  // ethtool_sset_info ends in a flexible u32 array: one slot for the one set asked.
  std::array<std::uint64_t, sizeof(ethtool_sset_info) / 8 + 1> sbuf_info{};
  auto* sset = reinterpret_cast<ethtool_sset_info*>(sbuf_info.data());
  sset->cmd = ETHTOOL_GSSET_INFO;
  sset->sset_mask = 1ULL << ETH_SS_STATS;
  int err = ethtool_get(fd, ifname, sset);
  if (err == 0 && (sset->sset_mask & (1ULL << ETH_SS_STATS)) != 0) {
    count = sset->data[0];
  } else {
    ethtool_drvinfo di{};
    di.cmd = ETHTOOL_GDRVINFO;
    if (int e2 = ethtool_get(fd, ifname, &di); e2 == 0) count = di.n_stats;
    else err = e2;
  }
  if (count == 0 || count > 1000000) {
    ::close(fd);
    n.stats.reason = err != 0 && err != EOPNOTSUPP ? why_errno(err, "ETHTOOL_GSSET_INFO", driver)
                                                   : "ethtool -S: driver " + (driver.empty() ? std::string("?") : driver) +
                                                         " reports no statistics";
    return;
  }
  // ethtool_gstrings / ethtool_stats end in flexible arrays: one u64-aligned buffer each.
  std::vector<std::uint64_t> sbuf((sizeof(ethtool_gstrings) + std::size_t{count} * ETH_GSTRING_LEN) / 8 + 1, 0);
  auto* gs = reinterpret_cast<ethtool_gstrings*>(sbuf.data());
  gs->cmd = ETHTOOL_GSTRINGS;
  gs->string_set = ETH_SS_STATS;
  gs->len = count;
  std::vector<std::uint64_t> vbuf(sizeof(ethtool_stats) / 8 + 1 + count, 0);
  auto* st = reinterpret_cast<ethtool_stats*>(vbuf.data());
  st->cmd = ETHTOOL_GSTATS;
  st->n_stats = count;
  if (err = ethtool_get(fd, ifname, gs); err != 0) {
    ::close(fd);
    set_failed(n.stats, err, "ETHTOOL_GSTRINGS", driver);
    return;
  }
  err = ethtool_get(fd, ifname, st);
  ::close(fd);
  if (err != 0) {
    set_failed(n.stats, err, "ETHTOOL_GSTATS", driver);
    return;
  }
  // The kernel may shrink len/n_stats if the set changed between the calls.
  const std::size_t got = std::min(gs->len, st->n_stats);
  std::vector<std::string> dups;
  std::map<std::string, std::uint64_t> stats =
      to_stats(std::span<const std::uint8_t>(gs->data, got * ETH_GSTRING_LEN),
               std::span<const std::uint64_t>(reinterpret_cast<const std::uint64_t*>(st->data), got), &dups);
  n.stats.value = std::move(stats);
  n.stats.reason.clear();
  n.stats.source = Evidence{"ioctl SIOCETHTOOL ETHTOOL_GSTATS " + ifname, 0, std::to_string(got) + " counters"};
  if (!dups.empty())
    n.stats.notes.push_back(std::to_string(dups.size()) + " repeated counter names kept their first value (e.g. " +
                            dups.front() + ")");
}

}  // namespace rk::collect
