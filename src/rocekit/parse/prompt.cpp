#include "rocekit/parse/prompt.hpp"

#include <cstddef>
#include <vector>

namespace rk::parse {
namespace {

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  char quote = 0;
  bool in_word = false;
  for (char c : s) {
    if (quote != 0) {
      if (c == quote) quote = 0;
      else cur += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
      continue;
    }
    if (c == ' ' || c == '\t') {
      if (in_word) out.push_back(cur);
      cur.clear();
      in_word = false;
      continue;
    }
    if (c == '|' || c == ';' || c == '>' || c == '<' || c == '&') {  // the first command of a pipeline
      // "2>&1", "2>/dev/null": the digits are the redirected descriptor, not an argument.
      if ((c == '>' || c == '<') && in_word && cur.find_first_not_of("0123456789") == std::string::npos) in_word = false;
      break;
    }
    cur += c;
    in_word = true;
  }
  if (in_word) out.push_back(cur);
  return out;
}

// Length of the prompt before the command, or npos when `line` does not start with one.
std::size_t prompt_length(std::string_view line) {
  std::size_t i = 0;
  // A conda or virtualenv name before the prompt: "(base) user@gpu01:~$ ".
  if (line.starts_with("(")) {
    std::size_t close = line.find(") ");
    if (close != std::string_view::npos && line.substr(1, close - 1).find(' ') == std::string_view::npos) {
      std::size_t skip = close + 2;
      while (skip < line.size() && line[skip] == ' ') ++skip;
      std::size_t rest = prompt_length(line.substr(skip));
      return rest == std::string_view::npos ? rest : skip + rest;
    }
  }
  if (!line.empty() && line[0] == '[') {  // [user@host dir]# or [user@host dir]$
    std::size_t close = line.find(']');
    if (close == std::string_view::npos) return std::string_view::npos;
    i = close + 1;
  } else {
    // user@host:~/dir$ — a run of characters that prompts use, no spaces
    while (i < line.size()) {
      char c = line[i];
      bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                c == '-' || c == '.' || c == '@' || c == ':' || c == '~' || c == '/' || c == '(' || c == ')';
      if (!ok) break;
      ++i;
    }
  }
  if (i >= line.size() || (line[i] != '$' && line[i] != '#')) return std::string_view::npos;
  ++i;
  if (i >= line.size() || (line[i] != ' ' && line[i] != '\t')) return std::string_view::npos;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

std::string basename_of(const std::string& s) {
  std::size_t slash = s.find_last_of('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

// Value of option `opt` ("-i") as "-i X", "-iX" or "--long=X"/"--long X".
std::string option_value(const std::vector<std::string>& a, std::string_view opt, std::string_view long_opt = {}) {
  for (std::size_t k = 1; k < a.size(); ++k) {
    if (a[k] == opt || (!long_opt.empty() && a[k] == long_opt)) return k + 1 < a.size() ? a[k + 1] : "";
    if (!long_opt.empty() && a[k].starts_with(std::string(long_opt) + "=")) return a[k].substr(long_opt.size() + 1);
    if (opt.size() == 2 && a[k].size() > 2 && a[k].starts_with(opt)) return a[k].substr(a[k][2] == '=' ? 3 : 2);
  }
  return "";
}

bool has_word(const std::vector<std::string>& a, std::string_view w) {
  for (std::size_t k = 1; k < a.size(); ++k)
    if (a[k] == w) return true;
  return false;
}

std::string last_plain_arg(const std::vector<std::string>& a) {
  for (std::size_t k = a.size(); k > 1; --k)
    if (!a[k - 1].starts_with("-")) return a[k - 1];
  return "";
}

std::optional<PromptCommand> classify(const std::vector<std::string>& a) {
  const std::string cmd = basename_of(a[0]);
  auto make = [](std::string tool, std::string target) {
    return std::optional<PromptCommand>(PromptCommand{std::move(tool), std::move(target), {}});
  };
  if (cmd == "mlnx_qos") return make("mlnx_qos", option_value(a, "-i", "--interface"));
  if (cmd == "ethtool") {
    struct Mode {
      std::string_view s, l, tool;
    };
    static constexpr Mode k_modes[] = {{"-S", "--statistics", "ethtool_S"}, {"-c", "--show-coalesce", "ethtool_c"},
                                       {"-l", "--show-channels", "ethtool_l"}, {"-g", "--show-ring", "ethtool_g"},
                                       {"-a", "--show-pause", "ethtool_a"},   {"-i", "--driver", "ethtool_i"}};
    for (const Mode& m : k_modes)
      if (has_word(a, m.s) || has_word(a, m.l)) return make(std::string(m.tool), last_plain_arg(a));
    for (std::size_t k = 1; k < a.size(); ++k)
      if (a[k].starts_with("-")) return std::nullopt;  // another ethtool mode rocekit does not parse
    return make("ethtool", last_plain_arg(a));
  }
  if (cmd == "ibv_devinfo") return make("ibv_devinfo", option_value(a, "-d", "--ib-dev"));
  if (cmd == "ibstat" || cmd == "show_gids" || cmd == "ibdev2netdev" || cmd == "lsmod" || cmd == "mlxfwmanager")
    return make(cmd, cmd == "ibstat" || cmd == "show_gids" ? last_plain_arg(a) : "");
  if (cmd == "show_counters") return make("show_counters", last_plain_arg(a));
  if (cmd == "cma_roce_mode") return make("cma_roce_mode", option_value(a, "-d"));
  if (cmd == "rdma" && a.size() >= 2) {
    std::string obj = a[1];
    if (obj == "statistic" || obj == "stat") return make("rdma_statistic", "");
    if (obj == "resource" || obj == "res") return make("rdma_res", "");
    if (obj == "link") return make("rdma_link", "");
    return std::nullopt;
  }
  if (cmd == "mlxconfig" || cmd == "mstconfig") {
    if (has_word(a, "q") || has_word(a, "query")) return make("mlxconfig_q", option_value(a, "-d", "--dev"));
    return std::nullopt;
  }
  if (cmd == "flint" || cmd == "mstflint") {
    if (has_word(a, "q") || has_word(a, "query")) return make("flint_q", option_value(a, "-d", "--device"));
    return std::nullopt;
  }
  if (cmd == "mst" && has_word(a, "status")) return make("mst_status", "");
  // mlxlink / mstlink: only the PCIe view (the port view is another output rocekit does not read).
  if ((cmd == "mlxlink" || cmd == "mstlink") &&
      (option_value(a, "--port_type") == "PCIE" || has_word(a, "--port_type=PCIE")))
    return make("mlxlink_pcie", option_value(a, "-d", "--device"));
  if (cmd == "devlink" && has_word(a, "dev") && has_word(a, "info")) return make("devlink_dev_info", "");
  if (cmd == "devlink" && has_word(a, "dev") && has_word(a, "eswitch") && has_word(a, "show")) {
    std::string handle = last_plain_arg(a);  // pci/0000:03:00.0
    return make("devlink_dev_eswitch", handle.starts_with("pci/") ? handle.substr(4) : "");
  }
  if (cmd == "devlink" && has_word(a, "port") && !has_word(a, "set") && !has_word(a, "add") && !has_word(a, "del") &&
      !has_word(a, "split") && !has_word(a, "unsplit") && !has_word(a, "function"))
    return make("devlink_port", "");
  if (cmd == "lspci") return make("lspci_vvv", option_value(a, "-s"));
  // `nvidia-smi -L` is pasted above the matrix: the GPU models topo -m does not print.
  if (cmd == "nvidia-smi" && (has_word(a, "topo") || has_word(a, "-L") || has_word(a, "--list-gpus")))
    return make("nvidia_smi_topo", "");
  if (cmd == "uname") return make("uname", "");
  if (cmd == "ofed_info") return make("ofed_info", "");
  if (cmd == "cat" && a.size() == 2 && a[1] == "/proc/driver/nvidia/version") return make("nvidia_version", "");
  if (cmd == "cat" && a.size() == 2 && a[1] == "/etc/nccl.conf") return make("nccl_conf", "");
  if (cmd == "cat" && a.size() == 2 && a[1] == "/proc/meminfo") return make("host_resources", "");
  if (cmd == "grep" && a.size() >= 3 && has_word(a, "/proc/meminfo")) return make("host_resources", "");
  if (cmd == "doca-hugepages" && has_word(a, "show")) return make("doca_hugepages", "");
  // A static pod manifest: the target is the file's name without .yaml ("doca_hbn").
  if (cmd == "cat" && a.size() == 2 && a[1].find("/kubelet.d/") != std::string::npos &&
      (a[1].ends_with(".yaml") || a[1].ends_with(".yml"))) {
    std::string base = a[1].substr(a[1].rfind('/') + 1);
    return make("kubelet_pod", base.substr(0, base.rfind('.')));
  }
  // cat of the RDMA device files whose reads have a tool: the device is the path's component
  // before "tc" or "ports" (none when it is a shell pattern such as mlx5_{1..8}).
  if (cmd == "cat" && a.size() == 2) {
    const std::string& path = a[1];
    auto device_before = [&](std::string_view dir) -> std::string {
      std::size_t at = path.find(dir);
      if (at == std::string::npos || at == 0) return "";
      std::size_t start = path.rfind('/', at - 1);
      std::string dev = path.substr(start == std::string::npos ? 0 : start + 1, at - (start == std::string::npos ? 0 : start + 1));
      return dev.find_first_of("{}*?[]") == std::string::npos ? dev : "";
    };
    if (path.ends_with("/traffic_class")) return make("sysfs_traffic_class", device_before("/tc/"));
    if (path.ends_with("/default_roce_tos")) return make("cma_roce_tos", device_before("/ports/"));
    if (path.ends_with("/default_roce_mode")) return make("cma_roce_mode", device_before("/ports/"));
  }
  if (cmd == "cat" && a.size() == 2 && a[1].ends_with("/.nccl.conf")) return make("nccl_conf", "user");
  if (cmd == "cma_roce_tos") return make("cma_roce_tos", option_value(a, "-d"));
  if (cmd == "printenv" || (cmd == "export" && has_word(a, "-p"))) return make("app_env", "");
  if (cmd == "ip" && has_word(a, "link")) {
    std::string dev = option_value(a, "dev");
    return make("ip_link", dev);
  }
  if (cmd.starts_with("ib_") && (cmd.ends_with("_bw") || cmd.ends_with("_lat"))) return make("perftest", "");
  return std::nullopt;
}

}  // namespace

bool shell_prompt_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::size_t p = prompt_length(line);
  // A bare "# " is also how comments start: only a prompt when the command is one rocekit reads.
  return p != std::string_view::npos && p < line.size() && !line.starts_with("#");
}

std::optional<PromptCommand> parse_prompt_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::size_t p = prompt_length(line);
  if (p == std::string_view::npos || p >= line.size()) return std::nullopt;
  std::string_view command = line.substr(p);
  std::vector<std::string> words = split_words(command);
  std::size_t first = 0;
  // Skip sudo and its flags, env and VAR=value assignments.
  while (first < words.size()) {
    const std::string& w = words[first];
    if (w == "env" && first + 1 == words.size()) {  // `env`, `env | grep NCCL`: the environment itself
      PromptCommand pc{"app_env", "", std::string(command)};
      return pc;
    }
    if (w == "sudo" || w == "env") {
      ++first;
      while (first < words.size() && words[first].starts_with("-")) ++first;
      continue;
    }
    if (w.find('=') != std::string::npos && !w.starts_with("-")) {
      ++first;
      continue;
    }
    break;
  }
  if (first >= words.size()) return std::nullopt;
  std::vector<std::string> argv(words.begin() + static_cast<std::ptrdiff_t>(first), words.end());
  std::optional<PromptCommand> out = classify(argv);
  if (out) out->command = std::string(command);
  return out;
}

}  // namespace rk::parse
