#include "rocekit/parse/nccl_log.hpp"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

std::optional<std::uint32_t> u32(std::string_view s) {
  auto n = text::parse_uint(s);
  if (!n || *n > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

/// Leading decimal digits of `s` as a number.
std::optional<std::uint32_t> leading_u32(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && n < 10 && s[n] >= '0' && s[n] <= '9') ++n;
  return n == 0 ? std::nullopt : u32(s.substr(0, n));
}

/// "[0]mlx5_0:1/RoCE" items after "Using".
/// Open MPI's --tag-output prefix "[1,3]<stdout>:" (job,rank) before NCCL's "host:pid:tid".
std::string_view strip_mpi_tag(std::string_view t) {
  if (t.empty() || t[0] != '[') return t;
  std::size_t close = t.find("]<std");
  if (close == std::string_view::npos || close > 24) return t;
  std::size_t colon = t.find(">:", close);
  return colon == std::string_view::npos ? t : t.substr(colon + 2);
}

/// "dev:port/LinkLayer" (a trailing ',' or '}' of the merged form removed) into `d`.
void device_item(std::string_view rest, NcclIbDevice& d) {
  while (!rest.empty() && (rest.back() == ',' || rest.back() == '}')) rest.remove_suffix(1);
  std::size_t slash = rest.find('/');
  if (slash != std::string_view::npos) {
    d.link_layer = std::string(rest.substr(slash + 1));
    rest = rest.substr(0, slash);
  }
  std::size_t colon = rest.find(':');
  if (colon != std::string_view::npos) {
    d.port = u32(rest.substr(colon + 1));
    rest = rest.substr(0, colon);
  }
  d.rdma_device = std::string(rest);
}

void using_line(std::string_view msg, NcclLog& out) {
  // NCCL_IB_MERGE_NICS (2.19+): "[0]={[0] mlx5_2:1/RoCE, [1] mlx5_3:1/RoCE} [1]={...}", one
  // virtual device per brace group (net_ib/init.cc): each physical device listed, with the
  // virtual device's index.
  if (msg.find("={") != std::string_view::npos) {
    std::vector<std::string_view> ws = text::words(msg);
    std::optional<std::uint32_t> outer;
    for (std::size_t k = 0; k < ws.size(); ++k) {
      std::string_view w = ws[k];
      if (std::size_t eq = w.find("={"); eq != std::string_view::npos && w[0] == '[' && eq >= 2) {
        outer = u32(w.substr(1, eq - 2));
        w = w.substr(eq + 2);
      }
      if (!outer || w.size() < 3 || w[0] != '[' || w.back() != ']' || k + 1 >= ws.size()) continue;
      NcclIbDevice d;
      d.index = *outer;
      device_item(ws[++k], d);
      if (!d.rdma_device.empty()) out.ib_devices.push_back(std::move(d));
    }
    return;
  }
  for (std::string_view w : text::words(msg)) {
    if (w.size() < 4 || w[0] != '[') continue;
    std::size_t close = w.find(']');
    if (close == std::string_view::npos) continue;
    auto idx = u32(w.substr(1, close - 1));
    if (!idx) continue;
    std::string_view rest = w.substr(close + 1);
    if (rest.empty()) continue;
    NcclIbDevice d;
    d.index = *idx;
    device_item(rest, d);
    out.ib_devices.push_back(std::move(d));
  }
}

/// "<NAME> set by environment to <value>" (param.cc prints "%s set by environment to %lld." for
/// numeric parameters, other call sites print the value without the dot).
void env_line(std::string_view msg, std::size_t set, std::size_t line, NcclLog& out) {
  std::string_view name = msg.substr(0, set);
  if (name.empty() || name.find(' ') != std::string_view::npos) return;
  std::string_view value = text::trim(msg.substr(set + 23));
  if (value.size() > 1 && value.back() == '.') value.remove_suffix(1);
  for (const NcclEnvEcho& e : out.env)
    if (e.name == name) return;
  out.env.push_back({std::string(name), std::string(value), line});
}

void gdr_line(std::string_view msg, NcclLog& out) {
  // "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'"
  std::vector<std::string_view> w = text::words(msg);
  for (std::size_t i = 0; i + 4 < w.size(); ++i) {
    if (w[i] == "RDMA" && (w[i + 1] == "Enabled" || w[i + 1] == "Disabled") && w[i + 3] == "HCA") {
      NcclGdrStatus g;
      g.enabled = w[i + 1] == "Enabled";
      if (auto n = u32(w[i + 4])) g.hca_index = *n;
      if (i + 5 < w.size()) {
        std::string_view dev = w[i + 5];
        if (!dev.empty() && dev.front() == '\'') dev.remove_prefix(1);
        if (!dev.empty() && dev.back() == '\'') dev.remove_suffix(1);
        g.rdma_device = std::string(dev);
      }
      out.gdr_status.push_back(std::move(g));
      return;
    }
  }
}

void channel_line(std::string_view host, std::string_view msg, std::size_t line, NcclLog& out) {
  std::size_t via = msg.find(" via ");
  if (via == std::string_view::npos) return;
  NcclChannel c;
  c.host = std::string(host);
  c.line = line;
  if (auto n = leading_u32(msg.substr(8))) c.channel = *n;  // after "Channel "
  if (text::contains(msg.substr(0, via), "[send]")) c.direction = "send";
  if (text::contains(msg.substr(0, via), "[receive]")) c.direction = "receive";
  std::vector<std::string_view> tw = text::words(msg.substr(via + 5));
  if (tw.empty()) return;
  c.transport = std::string(tw[0]);
  std::vector<std::string_view> parts = text::split(tw[0], '/');
  // "NET/IB/1/GDRDMA"; with PXN "NET/IB/1(2)/GDRDMA/Shared" (the proxy rank in parentheses);
  // 2.2x also "/GDRDMA(PCI)". NCCL src/transport/net.cc, sendSetup/recvSetup: "via
  // NET/%s/%d(%d)%s%s%s" with useGdr ? "/GDRDMA" : "", useGdr == ncclTopoGdrModePci ? "(PCI)",
  // shared ? "/Shared".
  if (parts.size() >= 3 && parts[0] == "NET") c.net_device = leading_u32(parts[2]);
  c.gdrdma = std::any_of(parts.begin(), parts.end(), [](std::string_view p) { return text::starts_with(p, "GDRDMA"); });
  out.channels.push_back(std::move(c));
}

void warn_line(std::string_view host, std::string_view between, std::string_view msg,
               std::size_t line, NcclLog& out) {
  NcclWarn w;
  w.host = std::string(host);
  w.line = line;
  std::string_view src = text::trim(between);
  if (!src.empty()) w.source = std::string(src);
  w.message = std::string(msg);
  std::size_t st = msg.find("status=");
  if (st != std::string_view::npos) w.status = leading_u32(msg.substr(st + 7));
  std::size_t ve = msg.find("vendor err ");
  if (ve != std::string_view::npos) w.vendor_err = leading_u32(msg.substr(ve + 11));
  out.warns.push_back(std::move(w));
}

/// What nccl-tests prints around NCCL's lines: its '#' banner and table header, its result rows
/// ("1073741824  268435456  float  sum  -1  71024  15.12 ..."), and NCCL 2.2x's "Enabled NCCL
/// Func/Proto/Algo Matrix" rows ("AllReduce |  1  2  1 |  ..."). Not NCCL's, and not a problem.
bool nccl_tests_line(std::string_view t) {
  if (t.starts_with('#')) return true;
  if (t.find(" | ") != std::string_view::npos) return true;
  std::vector<std::string_view> w = text::words(t);
  return w.size() >= 6 && text::parse_uint(w[0]).has_value() && text::parse_uint(w[1]).has_value();
}

}  // namespace

bool any_gdrdma(const NcclLog& v) {
  for (const NcclChannel& c : v.channels) {
    if (c.gdrdma) return true;
  }
  return false;
}

Result<Parsed<NcclLog>> parse_nccl_log(std::string_view text) {
  NcclLog out;
  std::vector<Warning> warnings;
  std::size_t nccl_lines = 0;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::size_t line_no = i + 1;
    std::string_view t = strip_mpi_tag(text::trim(ls[i]));
    if (t.empty()) continue;
    if (t == "[...]" || t == "..." || t == "[..]") {
      out.elided = true;
      continue;
    }
    std::size_t info = t.find(" NCCL INFO ");
    std::size_t warn = t.find(" NCCL WARN ");
    std::size_t at = info < warn ? info : warn;
    if (at == std::string_view::npos && text::starts_with(t, "NCCL version ")) {
      // The version banner may come without the host:pid:tid prefix (a VERSION-level print, as
      // in the log of NVIDIA/nccl-tests#293).
      if (!out.version) out.version = std::string(text::trim(t.substr(13)));
      continue;
    }
    if (at == std::string_view::npos && nccl_tests_line(t)) continue;
    if (at == std::string_view::npos) {
      warnings.push_back(Warning{line_no, "unrecognised_line",
                                 "not an NCCL log line: " + std::string(t.substr(0, 80))});
      continue;
    }
    ++nccl_lines;
    std::string_view prefix = t.substr(0, at);
    std::string_view msg = text::trim(t.substr(at + 11));
    std::vector<std::string_view> pw = text::words(prefix);
    std::string_view host;
    if (!pw.empty()) host = text::split(pw[0], ':')[0];
    if (!host.empty() && std::find(out.hosts.begin(), out.hosts.end(), host) == out.hosts.end())
      out.hosts.emplace_back(host);
    // the text between "[dev]" and "NCCL" (WARN lines: source location)
    std::string_view between;
    std::size_t bracket = prefix.find("] ");
    if (bracket != std::string_view::npos) between = prefix.substr(bracket + 2);
    if (at == warn) {
      warn_line(host, between, msg, line_no, out);
      continue;
    }
    ++out.info_lines;
    if (text::starts_with(msg, "NCCL version ")) {
      out.version = std::string(text::trim(msg.substr(13)));
    } else if (text::starts_with(msg, "NET/IB") && text::contains(msg, " Using ")) {
      using_line(msg.substr(msg.find(" Using ") + 7), out);
    } else if (text::contains(msg, "GPU Direct RDMA")) {
      gdr_line(msg, out);
    } else if (text::starts_with(msg, "DMA-BUF is available on GPU device ")) {
      std::optional<std::uint64_t> n = text::parse_uint(text::trim(msg.substr(35)));
      if (n && *n < 1024) {
        if (!out.dmabuf_line) out.dmabuf_line = line_no;
        if (std::find(out.dmabuf_gpus.begin(), out.dmabuf_gpus.end(), *n) == out.dmabuf_gpus.end())
          out.dmabuf_gpus.push_back(static_cast<std::uint32_t>(*n));
      }
    } else if (text::starts_with(msg, "Channel ")) {
      channel_line(host, msg, line_no, out);
    } else if (text::starts_with(msg, "Connected all ")) {
      if (!out.connected_line) out.connected_line = line_no;
    } else if (text::starts_with(msg, "Using network ")) {
      if (!out.network) {
        out.network = std::string(text::trim(msg.substr(14)));
        out.network_line = line_no;
      }
    } else if (text::starts_with(msg, "NCCL_IB_HCA set to ")) {  // net_ib/init.cc
      NcclEnvEcho e{"NCCL_IB_HCA", std::string(text::trim(msg.substr(19))), line_no};
      if (std::none_of(out.env.begin(), out.env.end(), [](const NcclEnvEcho& x) { return x.name == "NCCL_IB_HCA"; }))
        out.env.push_back(std::move(e));
    } else if (std::size_t set = msg.find(" set by environment to "); set != std::string_view::npos) {
      env_line(msg, set, line_no, out);
    }
  }
  if (nccl_lines == 0) return rk::unexpected(ErrorKind::malformed_input, "no NCCL log line found");
  return Parsed<NcclLog>{std::move(out), std::move(warnings)};
}

std::string nccl_log_of_host(std::string_view text, std::string_view host) {
  std::string out;
  out.reserve(text.size());
  for (std::string_view l : text::lines(text)) {
    std::string_view t = strip_mpi_tag(text::trim(l));
    std::size_t at = std::min(t.find(" NCCL INFO "), t.find(" NCCL WARN "));
    bool other = false;
    if (at != std::string_view::npos) {
      std::vector<std::string_view> pw = text::words(t.substr(0, at));
      other = !pw.empty() && text::split(pw[0], ':')[0] != host;
    }
    if (!other) out.append(l);
    out.push_back('\n');
  }
  return out;
}

nlohmann::json to_json(const NcclLog& v) {
  nlohmann::json devs = nlohmann::json::array();
  for (const NcclIbDevice& d : v.ib_devices) {
    devs.push_back({{"index", d.index},
                    {"rdma_device", d.rdma_device},
                    {"port", d.port},
                    {"link_layer", d.link_layer}});
  }
  nlohmann::json gdr = nlohmann::json::array();
  for (const NcclGdrStatus& g : v.gdr_status) {
    gdr.push_back({{"hca_index", g.hca_index}, {"rdma_device", g.rdma_device}, {"enabled", g.enabled}});
  }
  nlohmann::json chans = nlohmann::json::array();
  for (const NcclChannel& c : v.channels) {
    chans.push_back({{"host", c.host},
                     {"channel", c.channel},
                     {"direction", c.direction},
                     {"transport", c.transport},
                     {"net_device", c.net_device},
                     {"gdrdma", c.gdrdma},
                     {"line", c.line}});
  }
  nlohmann::json warns = nlohmann::json::array();
  for (const NcclWarn& w : v.warns) {
    warns.push_back({{"host", w.host},
                     {"source", w.source},
                     {"message", w.message},
                     {"status", w.status},
                     {"vendor_err", w.vendor_err},
                     {"line", w.line}});
  }
  nlohmann::json env = nlohmann::json::array();
  for (const NcclEnvEcho& e : v.env) env.push_back({{"name", e.name}, {"value", e.value}, {"line", e.line}});
  return {{"version", v.version},       {"ib_devices", devs},         {"gdr_status", gdr},
          {"dmabuf_gpus", v.dmabuf_gpus},  {"dmabuf_line", v.dmabuf_line},
          {"channels", chans},          {"warns", warns},             {"info_lines", v.info_lines},
          {"elided", v.elided},         {"any_gdrdma", any_gdrdma(v)},
          {"env", env},                 {"network", v.network},       {"network_line", v.network_line},
          {"hosts", v.hosts},           {"connected_line", v.connected_line}};
}

bool looks_like_nccl_log(std::string_view text) {
  std::string_view head = text.substr(0, 8192);
  return text::contains(head, " NCCL INFO ") || text::contains(head, " NCCL WARN ");
}

}  // namespace rk::parse
