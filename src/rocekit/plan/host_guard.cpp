// Route tables as the kernel prints them:
// - /proc/net/route: net/ipv4/fib_trie.c fib_route_seq_show(), one line per route,
//   "%s\t%08X\t%08X\t%04X\t%d\t%u\t%d\t%08X\t%d\t%u\t%u" = Iface, Destination, Gateway, Flags,
//   RefCnt, Use, Metric, Mask, MTU, Window, IRTT; the addresses are the raw __be32 printed as a
//   host integer (so 192.0.2.0 prints 000200C0 on little-endian), Flags RTF_UP = 0x1.
// - /proc/net/ipv6_route: net/ipv6/route.c ipv6_route_native_seq_show(),
//   "%pi6 %02x %pi6 %02x %pi6 %08x %08x %08x %08x %8s" = dest, dest prefix length, source,
//   source prefix length, next hop, metric, refcnt, use, flags, device.
#include "rocekit/plan/host_guard.hpp"

#include <arpa/inet.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

namespace rk::plan {

namespace {

struct Route4 {
  std::string dev;
  std::uint32_t dest = 0, mask = 0;  // as printed (raw network-order words)
  unsigned flags = 0;
};

struct Route6 {
  std::string dev;
  std::array<std::uint8_t, 16> dest{};
  int plen = 0;
  unsigned flags = 0;
};

std::optional<std::vector<Route4>> read_route4(const std::filesystem::path& p) {
  std::ifstream f(p);
  if (!f) return std::nullopt;
  std::vector<Route4> out;
  std::string line;
  std::getline(f, line);  // header
  while (std::getline(f, line)) {
    std::istringstream ss(line);
    std::string dev, dest, gw, flags, refcnt, use, metric, mask;
    if (!(ss >> dev >> dest >> gw >> flags >> refcnt >> use >> metric >> mask)) continue;
    try {
      out.push_back({dev, static_cast<std::uint32_t>(std::stoul(dest, nullptr, 16)),
                     static_cast<std::uint32_t>(std::stoul(mask, nullptr, 16)),
                     static_cast<unsigned>(std::stoul(flags, nullptr, 16))});
    } catch (const std::exception&) {
      continue;
    }
  }
  return out;
}

std::optional<std::vector<Route6>> read_route6(const std::filesystem::path& p) {
  std::ifstream f(p);
  if (!f) return std::nullopt;
  std::vector<Route6> out;
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream ss(line);
    std::string dest, plen, src, splen, nh, metric, refcnt, use, flags, dev;
    if (!(ss >> dest >> plen >> src >> splen >> nh >> metric >> refcnt >> use >> flags >> dev)) continue;
    if (dest.size() != 32) continue;
    Route6 r;
    r.dev = dev;
    try {
      for (std::size_t i = 0; i < 16; ++i) r.dest[i] = static_cast<std::uint8_t>(std::stoul(dest.substr(2 * i, 2), nullptr, 16));
      r.plen = static_cast<int>(std::stoul(plen, nullptr, 16));
      r.flags = static_cast<unsigned>(std::stoul(flags, nullptr, 16));
    } catch (const std::exception&) {
      continue;
    }
    out.push_back(r);
  }
  return out;
}

constexpr unsigned k_rtf_up = 0x1, k_rtf_reject = 0x200;

bool prefix_match6(const std::array<std::uint8_t, 16>& a, const std::array<std::uint8_t, 16>& b, int plen) {
  for (int bit = 0; bit < plen; ++bit) {
    int byte = bit / 8, shift = 7 - bit % 8;
    if (((a[byte] >> shift) & 1) != ((b[byte] >> shift) & 1)) return false;
  }
  return true;
}

}  // namespace

std::map<std::string, std::string> live_protected_netdevs(const std::filesystem::path& root,
                                                          std::string_view ssh_connection,
                                                          std::string& unchecked) {
  std::map<std::string, std::string> out;
  auto mark = [&](const std::string& dev, const std::string& why) {
    if (dev == "lo" || dev == "*") return;
    auto [it, fresh] = out.emplace(dev, why);
    if (!fresh && it->second.find(why) == std::string::npos) it->second += " and " + why;
  };
  std::optional<std::vector<Route4>> r4 = read_route4(root / "proc/net/route");
  std::optional<std::vector<Route6>> r6 = read_route6(root / "proc/net/ipv6_route");
  if (!r4 && !r6) {
    unchecked = "the interfaces carrying the default route and the ssh session could not be checked "
                "(/proc/net/route and /proc/net/ipv6_route unreadable): review each step's netdev";
    return out;
  }
  for (const Route4& r : r4.value_or(std::vector<Route4>{}))
    if ((r.flags & k_rtf_up) && r.dest == 0 && r.mask == 0) mark(r.dev, "carries the default route (/proc/net/route)");
  for (const Route6& r : r6.value_or(std::vector<Route6>{}))
    if ((r.flags & k_rtf_up) && !(r.flags & k_rtf_reject) && r.plen == 0)
      mark(r.dev, "carries the IPv6 default route (/proc/net/ipv6_route)");
  // SSH_CONNECTION: the session's packets to the client leave through the best route to it.
  std::istringstream ss{std::string(ssh_connection)};
  std::string client;
  if (!(ss >> client)) return out;
  std::string why = "carries this ssh session (to " + client + ")";
  in_addr a4{};
  in6_addr a6{};
  if (::inet_pton(AF_INET, client.c_str(), &a4) == 1 && r4) {
    std::uint32_t ip = 0;
    std::memcpy(&ip, &a4.s_addr, 4);  // the same raw word the kernel prints
    const Route4* best = nullptr;
    for (const Route4& r : *r4)
      if ((r.flags & k_rtf_up) && (ip & r.mask) == r.dest && (!best || std::popcount(r.mask) > std::popcount(best->mask)))
        best = &r;
    if (best) mark(best->dev, why);
  } else if (::inet_pton(AF_INET6, client.c_str(), &a6) == 1 && r6) {
    std::array<std::uint8_t, 16> ip{};
    std::memcpy(ip.data(), a6.s6_addr, 16);
    const Route6* best = nullptr;
    for (const Route6& r : *r6)
      if ((r.flags & k_rtf_up) && !(r.flags & k_rtf_reject) && prefix_match6(ip, r.dest, r.plen) &&
          (!best || r.plen > best->plen))
        best = &r;
    if (best) mark(best->dev, why);
  } else {
    unchecked = "the interface of this ssh session (SSH_CONNECTION " + std::string(ssh_connection) +
                ") could not be found in the route tables: review each step's netdev";
  }
  return out;
}

}  // namespace rk::plan
