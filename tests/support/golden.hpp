// Golden-file support for parser tests.
//
// check_golden("mlnx_qos/netarbiter-eth4-dscp-pfc3.txt", fn): reads
// testdata/corpus/<path>, strips the capture header, calls fn(body) and compares the returned
// JSON with testdata/expected/<path with .json>. With RK_UPDATE_GOLDEN=1 in the environment the
// expected file is (re)written instead; review every rewritten file by eye before committing.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rk::test {

std::filesystem::path testdata_dir();

/// Whole file as bytes; throws std::runtime_error when missing.
std::string read_file(const std::filesystem::path& path);

/// The body (header stripped) of testdata/corpus/<corpus_path>.
std::string corpus_body(std::string_view corpus_path);

void check_golden(std::string_view corpus_path,
                  const std::function<nlohmann::json(std::string_view body)>& parse_to_json);

}  // namespace rk::test
