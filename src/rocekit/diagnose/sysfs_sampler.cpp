// Live sampling of netdev and RDMA counters from sysfs under a root directory (the I/O seam:
// tests point it at a fixture tree). Bounded: at most k_max_files files per sample.
#include <charconv>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "rocekit/diagnose/diagnose.hpp"

namespace rk::diagnose {

namespace {

namespace fs = std::filesystem;
constexpr std::size_t k_max_files = 20000;

std::optional<std::uint64_t> read_u64(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  if (!in || !std::getline(in, s)) return std::nullopt;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

/// name -> value of every numeric regular file in `dir` (non-recursive).
std::map<std::string, std::uint64_t> read_dir(const fs::path& dir, std::size_t& budget) {
  std::map<std::string, std::uint64_t> m;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (budget == 0) break;
    --budget;
    std::error_code ec2;
    if (!it->is_regular_file(ec2)) continue;
    if (auto v = read_u64(it->path())) m[it->path().filename().string()] = *v;
  }
  return m;
}

}  // namespace

Result<Snapshot> sample_sysfs(const std::string& root) {
  fs::path base = root.empty() ? fs::path("/") : fs::path(root);
  fs::path net = base / "sys/class/net";
  std::error_code ec;
  if (!fs::is_directory(net, ec))
    return unexpected(ErrorKind::not_found, "no sysfs network class directory", net.string());
  Snapshot s;
  s.source = {SourceKind::live, base.string()};
  std::size_t budget = k_max_files;
  for (fs::directory_iterator it(net, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    if (!it->is_directory(ec2)) continue;  // e.g. bonding_masters
    std::string name = it->path().filename().string();
    NetDev& n = s.netdev(name);
    fs::path stats = it->path() / "statistics";
    std::map<std::string, std::uint64_t> m = read_dir(stats, budget);
    if (m.empty()) {
      n.stats.reason = "no readable counters in " + stats.string();
    } else {
      n.stats.value = std::move(m);
      n.stats.source = {stats.string(), 0, ""};
    }
  }
  fs::path ib = base / "sys/class/infiniband";
  bool any_rdma = false;
  if (fs::is_directory(ib, ec)) {
    for (fs::directory_iterator it(ib, ec), end; !ec && it != end; it.increment(ec)) {
      std::string dev = it->path().filename().string();
      RdmaDevice& d = s.rdma(dev);
      any_rdma = true;
      // The netdev(s) of this device: <dev>/device/net/<ifname>.
      std::vector<std::string> nds;
      std::error_code ec2;
      for (fs::directory_iterator n(it->path() / "device/net", ec2), e2; !ec2 && n != e2;
           n.increment(ec2))
        nds.push_back(n->path().filename().string());
      for (fs::directory_iterator p(it->path() / "ports", ec2), e2; !ec2 && p != e2;
           p.increment(ec2)) {
        int port = 0;
        std::string pn = p->path().filename().string();
        auto [ptr, pec] = std::from_chars(pn.data(), pn.data() + pn.size(), port);
        if (pec != std::errc{} || ptr != pn.data() + pn.size()) continue;
        RdmaPort rp;
        rp.port = port;
        std::map<std::string, std::uint64_t> m = read_dir(p->path() / "hw_counters", budget);
        for (const auto& [k, v] : read_dir(p->path() / "counters", budget)) m.emplace(k, v);
        if (m.empty()) {
          rp.counters.reason = "no readable counters under " + p->path().string();
        } else {
          rp.counters.value = std::move(m);
          rp.counters.source = {p->path().string(), 0, ""};
        }
        if (nds.size() == 1 && s.find_netdev(nds.front())) rp.netdev = nds.front();
        d.ports.push_back(std::move(rp));
      }
    }
  }
  if (!any_rdma) s.notes.emplace_back("no RDMA devices found (" + ib.string() + " is absent or empty)");
  return s;
}

}  // namespace rk::diagnose
