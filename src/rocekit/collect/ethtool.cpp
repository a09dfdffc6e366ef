#include "rocekit/collect/ethtool.hpp"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

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

void read_ethtool(const std::string& ifname, NetDev& n) {
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
    n.coalesce.reason = why_errno(err, "ETHTOOL_GCOALESCE", driver);
  }
  ethtool_channels ch{};
  ch.cmd = ETHTOOL_GCHANNELS;
  if (int err = ethtool_get(fd, ifname, &ch); err == 0) {
    n.channels.value = to_channels(ch);
    n.channels.reason.clear();
    n.channels.source = source("ETHTOOL_GCHANNELS", "combined " + std::to_string(ch.combined_count) +
                                                        " of max " + std::to_string(ch.max_combined));
  } else {
    n.channels.reason = why_errno(err, "ETHTOOL_GCHANNELS", driver);
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
    n.pause.reason = why_errno(err, "ETHTOOL_GPAUSEPARAM", driver);
  }
  ::close(fd);
}

}  // namespace rk::collect
