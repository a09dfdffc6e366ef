#include "golden.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "rocekit/parse/common.hpp"

namespace rk::test {

std::filesystem::path testdata_dir() { return std::filesystem::path(RK_TESTDATA_DIR); }

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string corpus_body(std::string_view corpus_path) {
  std::string text = read_file(testdata_dir() / "corpus" / std::string(corpus_path));
  return std::string(rk::parse::strip_capture_header(text).body);
}

void check_golden(std::string_view corpus_path,
                  const std::function<nlohmann::json(std::string_view body)>& parse_to_json) {
  SCOPED_TRACE(std::string(corpus_path));
  std::string body = corpus_body(corpus_path);
  nlohmann::json got = parse_to_json(body);
  // "../hosts/<bundle>/<file>" (a host-bundle capture) maps to expected/hosts/<bundle>/<file>.
  std::string rel(corpus_path);
  while (rel.starts_with("../")) rel.erase(0, 3);
  std::filesystem::path expected_path = testdata_dir() / "expected" / std::filesystem::path(rel);
  expected_path.replace_extension(".json");
  const char* update = std::getenv("RK_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::filesystem::create_directories(expected_path.parent_path());
    std::ofstream out(expected_path, std::ios::binary | std::ios::trunc);
    out << got.dump(2) << "\n";
    return;
  }
  std::string expected_text;
  try {
    expected_text = read_file(expected_path);
  } catch (const std::exception& e) {
    FAIL() << "missing golden " << expected_path << " (run with RK_UPDATE_GOLDEN=1 and review)";
  }
  nlohmann::json expected = nlohmann::json::parse(expected_text);
  EXPECT_EQ(got, expected) << "golden mismatch for " << corpus_path << "\n--- got:\n"
                           << got.dump(2);
}

}  // namespace rk::test
