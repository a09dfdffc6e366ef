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

/// Bytes as a quantity: "4Gi", "512Mi", else the number.
std::string qty(std::uint64_t b) {
  for (auto [unit, name] : {std::pair{1ull << 30, "Gi"}, std::pair{1ull << 20, "Mi"}, std::pair{1ull << 10, "Ki"}})
    if (b && b % unit == 0) return std::to_string(b / unit) + name;
  return std::to_string(b);
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
  // The kubelet reads one Pod per file (pkg/kubelet/config/common.go tryDecodeSinglePod: the
  // YAML is converted to JSON, which keeps the first document only). YAML::Load reads the first
  // document too; LoadAll is not used: yaml-cpp 0.7 loops forever in it on some invalid input
  // (jbeder/yaml-cpp issue 1040, fixed by PR 1319 after 0.7.0).
  YAML::Node first;
  try {
    first = YAML::Load(body);
  } catch (const YAML::Exception& e) {
    return rk::unexpected(ErrorKind::malformed_input,
                          "line " + std::to_string(e.mark.line + 1) + ": not YAML: " + e.msg);
  }
  if (!first || first.IsNull()) return rk::unexpected(ErrorKind::malformed_input, "empty YAML: no Kubernetes Pod");
  // A "---" after the first document's content starts a document the kubelet does not read.
  bool content = false;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view l = ls[i];
    if (l.starts_with("---") && (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r')) {
      if (content) {
        out.warnings.push_back({i + 1, "ignored_document",
                                "a further YAML document: the kubelet reads only the first of a static pod file"});
        break;
      }
      continue;
    }
    std::string_view t = text::trim(l);
    if (!t.empty() && !t.starts_with("#") && !(i == 0 && parse_prompt_line(t))) content = true;
  }
  const YAML::Node& d = first;
  try {
    if (!d.IsMap() || scalar(child(d, "kind")).value_or("") != "Pod")
      return rk::unexpected(ErrorKind::malformed_input,
                            "line " + std::to_string(d.Mark().line + 1) + ": not a Kubernetes Pod (kind: " +
                                scalar(child(d, "kind")).value_or("none") + "); the kubelet runs only Pods from /etc/kubelet.d");
    std::string name = scalar(child(child(d, "metadata"), "name")).value_or("");
    const YAML::Node spec = child(d, "spec");
    for (const char* list : {"initContainers", "containers"}) {
      const YAML::Node containers = child(spec, list);
      if (!containers) continue;
      if (!containers.IsSequence()) {
        out.warnings.push_back({static_cast<std::size_t>(containers.Mark().line + 1), "bad_value",
                                std::string("spec.") + list + " is not a list"});
        continue;
      }
      for (const YAML::Node& c : containers) {
        if (!c.IsMap()) continue;
        PodContainerAsk a;
        a.pod = name;
        a.init = std::string_view(list) == "initContainers";
        a.container = scalar(child(c, "name")).value_or("");
        a.image = scalar(child(c, "image"));
        a.line = static_cast<std::size_t>(c.Mark().line + 1);
        const YAML::Node r = child(c, "resources");
        const YAML::Node req = child(r, "requests");
        const YAML::Node lim = child(r, "limits");
        // One resource quantity; a value that is not one (or is negative) is said, and kept as
        // unreadable so the rule does not judge without it.
        auto read = [&](const YAML::Node& n, const std::string& what, double unit) -> std::optional<std::uint64_t> {
          if (!n) return std::nullopt;
          std::optional<std::uint64_t> v = whole(n, unit);
          if (!v) {
            std::string shown = scalar(n).value_or("(not a scalar)");
            out.warnings.push_back({static_cast<std::size_t>(n.Mark().line + 1), "bad_quantity",
                                    what + " of container " + a.container + " is not a quantity: " + shown});
            a.unreadable.push_back(what + " " + shown);
          }
          return v;
        };
        a.cpu_request_millicores = read(child(req, "cpu"), "requests.cpu", 1e-3);
        a.memory_request_bytes = read(child(req, "memory"), "requests.memory", 1);
        a.cpu_limit_millicores = read(child(lim, "cpu"), "limits.cpu", 1e-3);
        a.memory_limit_bytes = read(child(lim, "memory"), "limits.memory", 1);
        std::map<std::string, std::uint64_t> huge_req, huge_lim;
        for (auto [side, into] : {std::pair{req, &huge_req}, std::pair{lim, &huge_lim}})
          if (side && side.IsMap())
            for (const auto& kv : side) {
              std::optional<std::string> key = scalar(kv.first);
              if (!key || !key->starts_with("hugepages-")) continue;
              if (std::optional<std::uint64_t> b = read(kv.second, (into == &huge_req ? "requests." : "limits.") + *key, 1))
                (*into)[*key] = *b;
            }
        // What the API validation the kubelet applies to a static pod refuses
        // (pkg/apis/core/validation ValidateResourceRequirements, after defaulting a missing
        // request to its limit).
        auto over = [&](const char* what, const std::optional<std::uint64_t>& rq, const std::optional<std::uint64_t>& lm,
                        const std::string& unit_rq, const std::string& unit_lm) {
          if (rq && lm && *rq > *lm)
            a.invalid.push_back(std::string("requests.") + what + " " + unit_rq + " is above limits." + what + " " + unit_lm +
                                " (must be less than or equal to the limit)");
        };
        if (a.cpu_request_millicores && a.cpu_limit_millicores)
          over("cpu", a.cpu_request_millicores, a.cpu_limit_millicores, std::to_string(*a.cpu_request_millicores) + "m",
               std::to_string(*a.cpu_limit_millicores) + "m");
        if (a.memory_request_bytes && a.memory_limit_bytes)
          over("memory", a.memory_request_bytes, a.memory_limit_bytes, qty(*a.memory_request_bytes),
               qty(*a.memory_limit_bytes));
        for (const auto& [key, rq] : huge_req) {
          auto it = huge_lim.find(key);
          if (it == huge_lim.end())
            a.invalid.push_back("requests." + key + " without limits." + key +
                                " (a limit must be set for hugepages, a non-overcommitable resource)");
          else if (it->second != rq)
            a.invalid.push_back("requests." + key + " " + qty(rq) + " differs from limits." + key + " " +
                                qty(it->second) + " (hugepages: the request must equal the limit)");
        }
        for (const auto& [key, lm] : huge_lim) a.hugepages_bytes[key] = lm;
        for (const auto& [key, rq] : huge_req) a.hugepages_bytes.try_emplace(key, rq);
        bool cpu_or_memory = child(req, "cpu") || child(req, "memory") || child(lim, "cpu") || child(lim, "memory");
        if (!a.hugepages_bytes.empty() && !cpu_or_memory)
          a.invalid.push_back("hugepages without a cpu or memory request or limit (HugePages require cpu or memory)");
        out.value.containers.push_back(std::move(a));
      }
    }
  } catch (const YAML::Exception& e) {
    return rk::unexpected(ErrorKind::malformed_input, "line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
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
                  {"init", a.init},
                  {"unreadable", a.unreadable},
                  {"invalid", a.invalid},
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
