#include "rocekit/catalog/pcie.hpp"

#include <array>
#include <string>

#include "rocekit/core/text.hpp"

namespace rk::catalog {
namespace {

constexpr std::array<int, 6> k_widths_lanes = {1, 2, 4, 8, 16, 32};
constexpr std::array<int, 6> k_payload_sizes_bytes = {128, 256, 512, 1024, 2048, 4096};

// Recommended ACK latency limit / flow-control update interval in symbol times, by width
// (rows x1..x32) and MPS (columns 128..4096): PCIe Base Spec 5.0 tables 3-7..3-9 (ACK) and
// 2-46..2-48 (FC), as used by pcie-bench/pcie-model model/pcie.py [PCIE-MODEL]. The model keeps
// two copies that agree except in two x32 cells, each a typo in one copy (the rows step by
// +12, +7, +32, +64, +128); the consistent values 148 (Gen1 x32 2048) and 327 (Gen2 x32 4096) are
// used for both. Gen3, Gen4 and Gen5 share one table.
using UpdateTable = std::array<std::array<int, 6>, 6>;
constexpr UpdateTable k_gen1_interval = {{
    {237, 416, 559, 1071, 2095, 4143},
    {128, 217, 289, 545, 1057, 2081},
    {73, 118, 154, 282, 538, 1050},
    {67, 107, 86, 150, 278, 534},
    {48, 72, 86, 150, 278, 534},
    {33, 45, 52, 84, 148, 276},
}};
constexpr UpdateTable k_gen2_interval = {{
    {288, 467, 610, 1122, 2146, 4194},
    {179, 268, 340, 596, 1108, 2132},
    {124, 169, 205, 333, 589, 1101},
    {118, 158, 137, 201, 329, 585},
    {99, 123, 137, 201, 329, 585},
    {84, 96, 103, 135, 199, 327},
}};
constexpr UpdateTable k_gen3_to_5_interval = {{
    {333, 512, 655, 1167, 2191, 4239},
    {224, 313, 385, 641, 1153, 2177},
    {169, 214, 250, 378, 634, 1146},
    {163, 203, 182, 246, 374, 630},
    {144, 168, 182, 246, 374, 630},
    {129, 141, 148, 180, 244, 372},
}};

constexpr double k_dllp_bytes = 8.0;        // ACK or FC-update DLLP incl. framing and CRC.
constexpr double k_skp_bytes = 4.0;         // SKP ordered set ...
constexpr double k_skp_interval = 1538.0;   // ... every 1538 symbols.
constexpr double k_tlp_framing_bytes = 8;   // STP/END framing, sequence number, LCRC.
constexpr double k_tlp_common_hdr_bytes = 4;
constexpr double k_mwr64_hdr_bytes = 12;    // 64-bit address + requester/tag/BE.
constexpr double k_cpld_hdr_bytes = 8;
constexpr double k_gen6_flit_hdr_bytes = 16;  // catalog.md 3.2 Gen6 estimate: 4 DW header.
constexpr int k_transfer_bytes = 4096;        // catalog.md 3.2: 4 KiB transfers.

std::optional<std::size_t> index_of(const std::array<int, 6>& values, int v) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] == v) return i;
  }
  return std::nullopt;
}

int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace

std::optional<double> raw_gbps_per_lane(int gen) {
  switch (gen) {
    case 1: return 2.5;
    case 2: return 5.0;
    case 3: return 8.0;
    case 4: return 16.0;
    case 5: return 32.0;
    case 6: return 64.0;
    default: return std::nullopt;
  }
}

std::optional<double> encoding_efficiency(int gen) {
  if (gen == 1 || gen == 2) return 8.0 / 10.0;
  if (gen >= 3 && gen <= 5) return 128.0 / 130.0;
  if (gen == 6) return 236.0 / 256.0;
  return std::nullopt;
}

Result<PcieLink> validate(const PcieLink& link) {
  if (!raw_gbps_per_lane(link.gen)) {
    return unexpected(ErrorKind::unsupported,
                      "pcie generation " + std::to_string(link.gen) + " is outside 1..6");
  }
  if (!index_of(k_widths_lanes, link.width_lanes)) {
    return unexpected(ErrorKind::unsupported,
                      "link width x" + std::to_string(link.width_lanes) +
                          " is not modelled (x1, x2, x4, x8, x16, x32)");
  }
  if (!index_of(k_payload_sizes_bytes, link.max_payload_bytes)) {
    return unexpected(ErrorKind::malformed_input,
                      "max payload " + std::to_string(link.max_payload_bytes) +
                          " bytes is not a power of two in 128..4096");
  }
  if (link.max_read_request_bytes &&
      !index_of(k_payload_sizes_bytes, *link.max_read_request_bytes)) {
    return unexpected(ErrorKind::malformed_input,
                      "max read request " + std::to_string(*link.max_read_request_bytes) +
                          " bytes is not a power of two in 128..4096");
  }
  return link;
}

Result<double> encoded_gbps(const PcieLink& link) {
  auto valid = validate(link);
  if (!valid) return unexpected(valid.error());
  return *raw_gbps_per_lane(link.gen) * *encoding_efficiency(link.gen) * link.width_lanes;
}

Result<PcieThroughput> effective_throughput(const PcieLink& link) {
  auto encoded = encoded_gbps(link);
  if (!encoded) return unexpected(encoded.error());
  const double mps = link.max_payload_bytes;
  if (link.gen == 6) {
    // FLIT mode: per-TLP framing/LCRC/sequence are gone and DLLPs ride in the DLP bytes, so only
    // the TLP header costs (catalog.md 3.2, own estimate, +-3 %).
    const double g = *encoded * mps / (mps + k_gen6_flit_hdr_bytes);
    return PcieThroughput{g, g};
  }
  const std::size_t w = *index_of(k_widths_lanes, link.width_lanes);
  const std::size_t m = *index_of(k_payload_sizes_bytes, link.max_payload_bytes);
  const UpdateTable& table = link.gen == 1   ? k_gen1_interval
                             : link.gen == 2 ? k_gen2_interval
                                             : k_gen3_to_5_interval;
  const double interval = table[w][m];
  // One ACK and one FC update per interval, plus SKP ordered sets.
  const double dllp_overhead = 2 * k_dllp_bytes / interval + k_skp_bytes / k_skp_interval;
  const double tlp_gbps = *encoded * (1.0 - dllp_overhead);

  const double bytes = k_transfer_bytes;
  const int writes = ceil_div(k_transfer_bytes, link.max_payload_bytes);
  const double mwr_overhead = k_tlp_framing_bytes + k_tlp_common_hdr_bytes + k_mwr64_hdr_bytes;
  const double write_gbps = tlp_gbps * bytes / (bytes + writes * mwr_overhead);

  // Reads: requests of at most MRRS go out, completions come back in chunks of min(MPS, MRRS).
  // The request direction (24 B per MRRS) never limits a 4 KiB transfer; completions do.
  int cpl_chunk = link.max_payload_bytes;
  if (link.max_read_request_bytes && *link.max_read_request_bytes < cpl_chunk) {
    cpl_chunk = *link.max_read_request_bytes;
  }
  const int completions = ceil_div(k_transfer_bytes, cpl_chunk);
  const double cpld_overhead = k_tlp_framing_bytes + k_tlp_common_hdr_bytes + k_cpld_hdr_bytes;
  const double read_gbps = tlp_gbps * bytes / (bytes + completions * cpld_overhead);
  return PcieThroughput{write_gbps, read_gbps};
}

Result<double> effective_gbps(const PcieLink& link) {
  auto t = effective_throughput(link);
  if (!t) return unexpected(t.error());
  return t->min_gbps();
}

std::optional<int> speed_gts_to_gen(std::string_view speed) {
  std::string s = text::to_lower(text::trim(speed));
  if (!s.ends_with("gt/s")) return std::nullopt;
  auto number = text::parse_double(s.substr(0, s.size() - 4));
  if (!number) return std::nullopt;
  for (int gen = 1; gen <= 6; ++gen) {
    if (*number == *raw_gbps_per_lane(gen)) return gen;
  }
  return std::nullopt;
}

Result<double> feeds_ports(const PcieLink& link, double total_port_gbps) {
  if (!(total_port_gbps > 0)) {
    return unexpected(ErrorKind::malformed_input, "total port rate must be > 0 Gb/s");
  }
  auto g = effective_gbps(link);
  if (!g) return unexpected(g.error());
  return *g / total_port_gbps;
}

std::string_view to_string(FeedVerdict verdict) {
  switch (verdict) {
    case FeedVerdict::ok: return "ok";
    case FeedVerdict::marginal: return "marginal";
    case FeedVerdict::oversubscribed: return "oversubscribed";
  }
  return "unknown";
}

FeedVerdict classify_feed_ratio(double ratio) {
  if (ratio >= 1.0) return FeedVerdict::ok;
  if (ratio >= 0.9) return FeedVerdict::marginal;
  return FeedVerdict::oversubscribed;
}

}  // namespace rk::catalog
