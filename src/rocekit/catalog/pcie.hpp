// PCIe bandwidth model: how many Gb/s of DMA payload a negotiated link can move.
//
// Source: shared/reference/catalog.md section 3 ("PCIe math"). Gen1-5 follow the pcie-bench model
// of Neugebauer et al. (SIGCOMM'18, [PCIE-MODEL]) that produced the section 3.2 table: 64-bit
// addressing, no ECRC, 4 KiB transfers, completions split at MPS, ACK / flow-control-update DLLPs
// at the PCIe Base Spec recommended rates, SKP ordered sets. Gen6 uses catalog.md's FLIT-mode
// estimate (section 3.1/3.2 notes). All rates are one direction, in Gb/s (10^9 bit/s).
#pragma once

#include <optional>
#include <string_view>

#include "rocekit/core/result.hpp"

namespace rk::catalog {

/// A negotiated PCIe link as read from LnkSta / DevCtl (lspci -vv).
struct PcieLink {
  int gen = 0;                 ///< 1..6 (2.5, 5, 8, 16, 32, 64 GT/s).
  int width_lanes = 0;         ///< 1, 2, 4, 8, 16 or 32.
  int max_payload_bytes = 0;   ///< DevCtl MaxPayload (MPS): 128..4096, a power of two.
  /// DevCtl MaxReadReq (MRRS), 128..4096. Unset = not captured; the model then assumes reads are
  /// not limited by it (MRRS >= MPS), which is what catalog.md 3.2 tabulates.
  std::optional<int> max_read_request_bytes;
};

/// Payload throughput of one link in each direction of DMA, Gb/s.
struct PcieThroughput {
  double write_gbps = 0;  ///< Device writes host memory (MWr; NIC receive path).
  double read_gbps = 0;   ///< Device reads host memory (MRd + CplD; NIC transmit path).
  double min_gbps() const { return write_gbps < read_gbps ? write_gbps : read_gbps; }
};

/// Signalling rate per lane in Gb/s before line encoding: 2.5, 5, 8, 16, 32, 64 for Gen1..6
/// (catalog.md 3.1 "Transfer rate"). nullopt for a generation outside 1..6.
std::optional<double> raw_gbps_per_lane(int gen);

/// Fraction of the signalling rate left after line encoding (catalog.md 3.1): 8b/10b = 0.8 for
/// Gen1/2, 128b/130b for Gen3-5, and for Gen6 the TLP share of a 256-byte FLIT, 236/256
/// (6 B DLP + 8 B CRC + 6 B FEC per FLIT). nullopt for a generation outside 1..6.
std::optional<double> encoding_efficiency(int gen);

/// Checks a link against the model's domain: gen 1..6, width 1/2/4/8/16/32 lanes, MPS and MRRS
/// powers of two in 128..4096 bytes. The error (unsupported / malformed_input) says which field.
Result<PcieLink> validate(const PcieLink& link);

/// Gb/s per direction after line encoding = raw_gbps_per_lane * encoding_efficiency * lanes
/// (catalog.md 3.1 "x8"/"x16" columns, 3.2 "Raw after encoding"). Gen3 x16 = 126.0.
Result<double> encoded_gbps(const PcieLink& link);

/// Modelled DMA payload rate for large (4 KiB) transfers, per direction, Gb/s (catalog.md 3.2).
/// Gen1-5: encoded rate less ACK, flow-control-update and SKP overhead (PCIe Base Spec 5.0
/// tables 2-46..48 and 3-7..9), times payload / (payload + per-TLP overhead): 24 B per 64-bit MWr
/// (8 B framing/sequence/LCRC + 4 B + 12 B header), 20 B per CplD, with completions split at
/// min(MPS, MRRS). Gen6: FLIT TLP rate x MPS / (MPS + 16 B header), both directions (estimate).
Result<PcieThroughput> effective_throughput(const PcieLink& link);

/// The rate a NIC can count on: min(write, read) of effective_throughput, Gb/s. This is the number
/// catalog.md 3.2 and the pcie.bandwidth-feeds-ports rule use (Gen3 x8 MPS 256 = 52.9).
Result<double> effective_gbps(const PcieLink& link);

/// "8GT/s", "8 GT/s", "2.5GT/s", "16.0 GT/s" -> generation 1..6. nullopt for anything else,
/// including lspci's "unknown" (a VF or a link that is down).
std::optional<int> speed_gts_to_gen(std::string_view speed);

/// effective_gbps(link) / total_port_gbps: >= 1.0 means the link can feed every port at line
/// rate at once. total_port_gbps is the sum of port line rates in Gb/s and must be > 0.
Result<double> feeds_ports(const PcieLink& link, double total_port_gbps);

/// Buckets of the feeds_ports ratio, from catalog.json pcie.rule: >= 1.0 ok, 0.9..1.0 marginal,
/// below 0.9 oversubscribed.
enum class FeedVerdict { ok, marginal, oversubscribed };
std::string_view to_string(FeedVerdict verdict);
FeedVerdict classify_feed_ratio(double ratio);

}  // namespace rk::catalog
