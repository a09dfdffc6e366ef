// Parser for `cma_roce_mode [-d <ibdev>] [-p <port>] [-m 1|2]` (mlnx-tools), tool id
// "cma_roce_mode". The tool prints the content of
// /sys/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_mode: "IB/RoCE v1" or "RoCE v2".
// A capture may be a bare output (one line) or a transcript with "$ cma_roce_mode ..." prompt
// lines, each followed by its output; the device and port then come from the command line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// Default RoCE version rdma_cm uses for new connections on the port.
enum class CmRoceMode { v1, v2 };
std::string_view to_string(CmRoceMode v);

/// One printed mode, with the invocation it answers when the transcript shows it.
struct CmaRoceModeReading {
  std::optional<std::string> rdma_device;   ///< "-d" of the prompt line (tool default mlx5_0)
  std::optional<std::uint32_t> port;        ///< "-p" of the prompt line (tool default 1)
  std::optional<std::uint32_t> set_mode;    ///< "-m" when the invocation changed the mode
  CmRoceMode mode = CmRoceMode::v2;         ///< the printed mode
  std::size_t line = 0;
};

struct CmaRoceMode {
  std::vector<CmaRoceModeReading> readings;  ///< in printed order
  /// The first reading of an invocation without "-m": the mode before any change in the capture.
  std::optional<CmRoceMode> initial_mode;
  /// The last reading: the state the capture ends in.
  std::optional<CmRoceMode> final_mode;
  /// Error lines the tool printed (e.g. "Module rdma_cm is not loaded ...").
  std::vector<std::string> errors;
};

/// Errors when neither a mode line nor a cma_roce_mode prompt/error is present.
Result<Parsed<CmaRoceMode>> parse_cma_roce_mode(std::string_view text);
nlohmann::json to_json(const CmaRoceMode& v);
bool looks_like_cma_roce_mode(std::string_view text);

}  // namespace rk::parse
