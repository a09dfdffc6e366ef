// Generates a synthetic fleet for bench/fleet_bench.sh: HOSTS snapshot JSON files of NICS
// ConnectX-7 ports each, cloned from a real capture (default testdata/fleet/multihost/host-a:
// netarbiter mlnx_qos, devlink dev info and ethtool -i of a ConnectX-7 PF, mlxconfig query),
// with injected outliers at known hosts (printed on stdout, one per line).
// With a snapshot .json as BASE (`rocekit collect -o` output: counters and evidence kept), every
// host is a copy of it with its own hostname, board serials and GUIDs, and nothing injected.
// Files are compact JSON, as `rocekit collect -o` writes them.
// Usage: rk_fleet_gen BASE_CAPTURE|BASE_SNAPSHOT.json OUT_DIR [HOSTS=10000] [NICS=8]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "rocekit/fleet/fleet.hpp"
#include "rocekit/model/json.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s BASE_CAPTURE OUT_DIR [HOSTS] [NICS]\n", argv[0]);
    return 2;
  }
  const int hosts = argc > 3 ? std::atoi(argv[3]) : 10000;
  const int nics = argc > 4 ? std::atoi(argv[4]) : 8;
  const std::string base_path = argv[1];
  const bool clone = base_path.size() > 5 && base_path.compare(base_path.size() - 5, 5, ".json") == 0;
  rk::Result<rk::Snapshot> base = clone ? rk::load_snapshot_file(base_path) : rk::fleet::load_host(base_path);
  if (!base) {
    std::fprintf(stderr, "rk_fleet_gen: %s\n", base.error().describe().c_str());
    return 2;
  }
  std::filesystem::create_directories(argv[2]);
  auto write = [&](const rk::Snapshot& s) {
    std::ofstream out(std::string(argv[2]) + "/" + s.hostname + ".json", std::ios::binary);
    out << rk::snapshot_to_json(s).dump() << "\n";
    return static_cast<bool>(out);
  };
  if (clone) {
    for (int i = 0; i < hosts; ++i) {
      rk::Snapshot s = *base;
      char tag[16];
      std::snprintf(tag, sizeof tag, "%05d", i);
      s.hostname = std::string("node") + tag;
      for (rk::PciFunction& p : s.pci_functions)
        if (p.board_serial_number) *p.board_serial_number += tag;
      char guid_tail[8];  // the GUIDs' last 4 hex digits (unique up to 65,536 hosts)
      std::snprintf(guid_tail, sizeof guid_tail, "%04x", i & 0xffff);
      for (rk::RdmaDevice& d : s.rdma_devices)
        for (std::optional<std::string>* g : {&d.node_guid, &d.sys_image_guid})
          if (*g && (*g)->size() >= 4) (*g)->replace((*g)->size() - 4, 4, guid_tail);
      if (!write(s)) {
        std::fprintf(stderr, "rk_fleet_gen: cannot write %s\n", s.hostname.c_str());
        return 2;
      }
    }
    return 0;
  }
  const rk::NetDev* port = base->find_netdev("eth4");
  if (!port || !port->bdf || !base->find_pci(*port->bdf)) {
    std::fprintf(stderr, "rk_fleet_gen: the base capture needs netdev eth4 with its PCI function\n");
    return 2;
  }
  // One host template with NICS ports: eth0..eth<n-1> on 0000:<0x10+k>:00.0.
  rk::Snapshot tmpl = *base;
  tmpl.netdevs.clear();
  tmpl.pci_functions.clear();
  for (int k = 0; k < nics; ++k) {
    char bdf[32];
    std::snprintf(bdf, sizeof bdf, "0000:%02x:00.0", 0x10 + k);
    rk::NetDev n = *port;
    n.name = "eth" + std::to_string(k);
    n.bdf = bdf;
    n.mtu_bytes.value = 9000;
    n.mtu_bytes.reason.clear();
    rk::EcnState ecn;
    ecn.rp_enabled = {{3, true}};
    ecn.np_enabled = {{3, true}};
    n.ecn.value = ecn;
    n.ecn.reason.clear();
    n.driver.value->bus_info = bdf;
    tmpl.netdevs.push_back(n);
    rk::PciFunction p = *base->find_pci(*port->bdf);
    p.bdf = bdf;
    p.max_read_request_bytes.value = 4096;
    p.max_read_request_bytes.reason.clear();
    tmpl.pci_functions.push_back(p);
  }
  for (int i = 0; i < hosts; ++i) {
    rk::Snapshot s = tmpl;
    char name[32];
    std::snprintf(name, sizeof name, "node%05d", i);
    s.hostname = name;
    for (int k = 0; k < nics; ++k) {
      char serial[32];
      std::snprintf(serial, sizeof serial, "MT%05dX%02d", i, k);
      s.pci_functions[static_cast<std::size_t>(k)].board_serial_number = serial;
    }
    // Injected outliers (the fleet report must list exactly these).
    if (i % 1000 == 17) {
      s.netdevs[3 % nics].qos.value->pfc_enabled = std::vector<bool>(8, false);
      std::printf("pfc %s eth%d none\n", name, 3 % nics);
    }
    if (i % 2500 == 100) {
      s.netdevs[5 % nics].qos.value->trust = rk::Trust::pcp;
      std::printf("trust %s eth%d pcp\n", name, 5 % nics);
    }
    if (i % 5000 == 1) {
      s.netdevs[0].mtu_bytes.value = 1500;
      std::printf("mtu %s eth0 1500\n", name);
    }
    if (i == 4242) {
      for (rk::NetDev& n : s.netdevs) n.driver.value->firmware_version = "28.39.1002";
      std::printf("firmware %s all 28.39.1002\n", name);
    }
    if (!write(s)) {
      std::fprintf(stderr, "rk_fleet_gen: cannot write %s\n", name);
      return 2;
    }
  }
  return 0;
}
