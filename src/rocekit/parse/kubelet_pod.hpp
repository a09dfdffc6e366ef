// Parser for a kubelet static pod manifest, tool id "kubelet_pod": `cat /etc/kubelet.d/<name>.yaml`
// on a BlueField's Arm side, where the BFB's standalone kubelet runs the DOCA services (NVIDIA
// DOCA "Container Deployment": a service starts when its .yaml is copied to /etc/kubelet.d).
// The file is a Kubernetes Pod (core/v1 Pod: metadata.name, spec.containers[].name, .image,
// .resources.requests / .limits); each container's cpu, memory and hugepages-<size> asks are read
// as resource quantities (k8s.io/apimachinery pkg/api/resource/quantity.go: a decimal number
// with a binary suffix Ki Mi Gi Ti Pi Ei, a decimal suffix n u m k M G T P E, or an exponent).
// The kubelet reads the first YAML document of a file; a further one is a warning. Init containers
// are read too (a pod's effective request is the larger of its biggest init container and the sum
// of its containers), and what the API validation refuses is listed (requests above limits,
// hugepages whose request is not their limit, hugepages without cpu or memory).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct PodContainerAsk {
  std::string pod;
  std::string container;
  std::optional<std::string> image;
  std::optional<std::uint64_t> cpu_request_millicores, cpu_limit_millicores;
  std::optional<std::uint64_t> memory_request_bytes, memory_limit_bytes;
  /// "hugepages-2Mi" -> bytes: the request, else the limit (Kubernetes defaults a missing
  /// request to the limit, and requires the two to be equal for hugepages)
  std::map<std::string, std::uint64_t> hugepages_bytes;
  bool init = false;  ///< spec.initContainers (they run before the others, one at a time)
  /// Asks that are not resource quantities ("requests.memory 6GB"): the container's asks are
  /// not fully known.
  std::vector<std::string> unreadable;
  /// What the API validation the kubelet applies refuses: the pod is not run.
  std::vector<std::string> invalid;
  std::size_t line = 0;  ///< the container's "name:" line
};

struct KubeletPod {
  std::vector<PodContainerAsk> containers;
};

/// A Kubernetes resource quantity in base units ("6Gi" -> 6442450944, "500m" -> 0.5, "2" -> 2);
/// nullopt when it is not one.
std::optional<double> k8s_quantity(std::string_view q);

/// Errors when the text is not YAML, its first document is not a Pod, or the Pod has no container.
Result<Parsed<KubeletPod>> parse_kubelet_pod(std::string_view text);
nlohmann::json to_json(const KubeletPod& v);
bool looks_like_kubelet_pod(std::string_view text);

}  // namespace rk::parse
