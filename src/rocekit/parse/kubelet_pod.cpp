#include "rocekit/parse/kubelet_pod.hpp"

#include <cmath>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
namespace {

struct Suffix {
  std::string_view s;
  double factor;
};
constexpr Suffix k_suffixes[] = {
    {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
    {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0},
    {"n", 1e-9}, {"u", 1e-6}, {"m", 1e-3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}};

/// n[key] when n is a mapping, else an undefined node (yaml-cpp's const operator[] on a missing
/// key gives a node whose every accessor but operator bool throws).
YAML::Node child(const YAML::Node& n, const char* key) {
  if (!n || !n.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  return n[key];
}

std::optional<std::string> scalar(const YAML::Node& n) {
  if (!n || !n.IsScalar()) return std::nullopt;
  return n.Scalar();
}

/// A quantity as a whole number of `unit`s, rounded up (as Kubernetes rounds CPU to millicores).
std::optional<std::uint64_t> whole(const YAML::Node& n, double unit) {
  std::optional<std::string> s = scalar(n);
  if (!s) return std::nullopt;
  std::optional<double> q = k8s_quantity(*s);
  if (!q || *q < 0 || *q / unit > 1.8e19) return std::nullopt;
  return static_cast<std::uint64_t>(std::ceil(*q / unit - 1e-9));
}

}  // namespace

std::optional<double> k8s_quantity(std::string_view q) {
  q = text::trim(q);
  std::size_t i = 0;
  if (i < q.size() && (q[i] == '+' || q[i] == '-')) ++i;
  std::size_t digits = 0;
  while (i < q.size() && ((q[i] >= '0' && q[i] <= '9') || q[i] == '.')) {
    if (q[i] != '.') ++digits;
    ++i;
  }
  if (digits == 0 || digits > 30) return std::nullopt;
  std::optional<double> number = text::parse_double(q.substr(0, i));
  if (!number) return std::nullopt;
  std::string_view suffix = q.substr(i);
  if (suffix.empty()) return *number;
  for (const Suffix& s : k_suffixes)
    if (suffix == s.s) return *number * s.factor;
  if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    std::optional<std::int64_t> e = text::parse_int(suffix.substr(1));
    if (e && *e >= -30 && *e <= 30) return *number * std::pow(10.0, static_cast<double>(*e));
  }
  return std::nullopt;
}

Result<Parsed<KubeletPod>> parse_kubelet_pod(std::string_view text) {
  Parsed<KubeletPod> out;
  // A pasted prompt line is not YAML: blank it, keeping the line numbers.
  std::string body(text);
  std::vector<std::string_view> ls = text::lines(text);
  if (!ls.empty() && parse_prompt_line(text::trim(ls.front()))) {
    std::size_t end = body.find('\n');
    body.replace(0, end == std::string::npos ? body.size() : end, "");
  }
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(body);
  } catch (const YAML::Exception& e) {
    return rk::unexpected(ErrorKind::malformed_input,
                          "line " + std::to_string(e.mark.line + 1) + ": not YAML: " + e.msg);
  }
  bool pod = false;
  try {
  for (const YAML::Node& d : docs) {
    if (!d.IsMap() || scalar(child(d, "kind")).value_or("") != "Pod") continue;
    pod = true;
    std::string name = scalar(child(child(d, "metadata"), "name")).value_or("");
    const YAML::Node containers = child(child(d, "spec"), "containers");
    if (!containers || !containers.IsSequence()) {
      out.warnings.push_back({static_cast<std::size_t>(d.Mark().line + 1), "no_containers",
                              "Pod " + name + " has no spec.containers list"});
      continue;
    }
    for (const YAML::Node& c : containers) {
      if (!c.IsMap()) continue;
      PodContainerAsk a;
      a.pod = name;
      a.container = scalar(child(c, "name")).value_or("");
      a.image = scalar(child(c, "image"));
      a.line = static_cast<std::size_t>(c.Mark().line + 1);
      const YAML::Node r = child(c, "resources");
      const YAML::Node req = child(r, "requests");
      const YAML::Node lim = child(r, "limits");
      auto bad = [&](const YAML::Node& n, const std::string& what) {
        if (n && !whole(n, 1e-3))
          out.warnings.push_back({static_cast<std::size_t>(n.Mark().line + 1), "bad_quantity",
                                  what + " of container " + a.container + " is not a quantity: " + scalar(n).value_or("(not a scalar)")});
      };
      if (req && req.IsMap()) {
        a.cpu_request_millicores = whole(child(req, "cpu"), 1e-3);
        a.memory_request_bytes = whole(child(req, "memory"), 1);
        bad(child(req, "cpu"), "requests.cpu");
        bad(child(req, "memory"), "requests.memory");
      }
      if (lim && lim.IsMap()) {
        a.cpu_limit_millicores = whole(child(lim, "cpu"), 1e-3);
        a.memory_limit_bytes = whole(child(lim, "memory"), 1);
        bad(child(lim, "cpu"), "limits.cpu");
        bad(child(lim, "memory"), "limits.memory");
      }
      for (const YAML::Node& side : {lim, req})  // the request wins: read last
        if (side && side.IsMap())
          for (const auto& kv : side) {
            std::optional<std::string> key = scalar(kv.first);
            if (!key || !key->starts_with("hugepages-")) continue;
            if (std::optional<std::uint64_t> b = whole(kv.second, 1)) a.hugepages_bytes[*key] = *b;
            else bad(kv.second, *key);
          }
      out.value.containers.push_back(std::move(a));
    }
  }
  } catch (const YAML::Exception& e) {
    return rk::unexpected(ErrorKind::malformed_input, "line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!pod) return rk::unexpected(ErrorKind::malformed_input, "no Kubernetes Pod (kind: Pod) in the YAML");
  if (out.value.containers.empty())
    return rk::unexpected(ErrorKind::malformed_input, "the Pod has no container (spec.containers)");
  return out;
}

nlohmann::json to_json(const KubeletPod& v) {
  nlohmann::json cs = nlohmann::json::array();
  for (const PodContainerAsk& a : v.containers)
    cs.push_back({{"pod", a.pod},
                  {"container", a.container},
                  {"image", a.image},
                  {"cpu_request_millicores", a.cpu_request_millicores},
                  {"cpu_limit_millicores", a.cpu_limit_millicores},
                  {"memory_request_bytes", a.memory_request_bytes},
                  {"memory_limit_bytes", a.memory_limit_bytes},
                  {"hugepages_bytes", a.hugepages_bytes},
                  {"line", a.line}});
  return {{"containers", cs}};
}

bool looks_like_kubelet_pod(std::string_view text) {
  std::string_view head = text.substr(0, 8192);
  for (std::string_view l : text::lines(head)) {
    std::string_view t = text::trim(l);
    if (t.empty() || t.starts_with("#") || t == "---") continue;
    if (std::optional<PromptCommand> p = parse_prompt_line(t)) return p->tool == "kubelet_pod";
    break;
  }
  // A Pod manifest: "apiVersion: v1" and "kind: Pod" lines at the top level.
  bool api = false, kind = false;
  for (std::string_view l : text::lines(head)) {
    if (l.starts_with("kind: Pod") && text::trim(l.substr(9)).empty()) kind = true;
    if (l.starts_with("apiVersion: v1") && text::trim(l.substr(14)).empty()) api = true;
  }
  return api && kind;
}

}  // namespace rk::parse
