// Renderers for `rocekit select` and `rocekit catalog`: text, JSON and Markdown. They format
// only; every decision comes from select_nics / judge_host.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/select/host.hpp"
#include "rocekit/select/select.hpp"

namespace rk::select {

enum class Format { text, json, markdown };

/// The JSON form (schema "rocekit-select/1"): the golden files in testdata/select/ are this.
nlohmann::json to_json(const Selection& s);
nlohmann::json to_json(const HostJudgement& h);

std::string render(const Selection& s, Format f);
std::string render(const HostJudgement& h, Format f);

/// `rocekit catalog list`: key, name, kind, max port Gb/s, PCIe, Arm cores.
std::string render_catalog_list(const catalog::Catalog& c, Format f);
/// `rocekit catalog show MODEL`: every field of one model with its sources.
std::string render_catalog_model(const catalog::NicModel& m, Format f);

}  // namespace rk::select
