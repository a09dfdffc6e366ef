// rocekit-docgen: writes the man pages and bash completion of rocekit and rocekit-exporter from
// their command trees (app.cpp). Run by the build (src/CMakeLists.txt); not installed.
//   rocekit-docgen MAN_DIR COMPLETION_DIR [DOCS_DIR]
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "rocekit/cli/app.hpp"
#include "rocekit/cli/docgen.hpp"
#include "rocekit/pipeline.hpp"

namespace fs = std::filesystem;

namespace {

/// Writes `text` unless the file already holds it (the build's outputs keep their time stamps).
bool write_if_changed(const fs::path& p, const std::string& text) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream old;
  if (in) old << in.rdbuf();
  if (in && old.str() == text) return true;
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (!(out << text) || !out.flush()) {
    std::cerr << "rocekit-docgen: error: " << p.string() << ": cannot write\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: rocekit-docgen MAN_DIR COMPLETION_DIR [DOCS_DIR]\n";
    return 2;
  }
  std::ostringstream sink;
  rk::cli::Context ctx{sink, sink, rk::cli::ExitCode::ok};
  CLI::App rocekit;
  rk::cli::build_rocekit_app(rocekit, ctx, /*with_exporter=*/true);
  rk::cli::add_exporter_command(rocekit, ctx);

  rk::cli::docgen::ManOptions mo;
  mo.version = std::string(rk::version());
  if (argc == 4) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(argv[3], ec))
      if (e.path().extension() == ".md") mo.doc_files.push_back(e.path().filename().string());
    std::sort(mo.doc_files.begin(), mo.doc_files.end());
  }
  std::error_code ec;
  fs::create_directories(argv[1], ec);
  fs::create_directories(argv[2], ec);
  bool ok = true;
  for (const rk::cli::docgen::ManPage& p : rk::cli::docgen::man_pages(rocekit, mo))
    ok = write_if_changed(fs::path(argv[1]) / (p.name + ".1"), p.text) && ok;
  ok = write_if_changed(fs::path(argv[2]) / "rocekit", rk::cli::docgen::bash_completion(rocekit, "rocekit", "")) && ok;
  ok = write_if_changed(fs::path(argv[2]) / "rocekit-exporter",
                        rk::cli::docgen::bash_completion(rocekit, "rocekit-exporter", "exporter")) && ok;
  return ok ? 0 : 1;
}
