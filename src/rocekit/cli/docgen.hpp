// Man pages (roff, man(7) macros) and bash completion rendered from the CLI11 command tree
// (app.cpp), so that neither can drift from the options the executables accept.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace rk::cli::docgen {

struct ManPage {
  std::string name;  ///< "rocekit-check": the file is <name>.1
  std::string text;  ///< roff source
};

struct ManOptions {
  std::string version;                    ///< "rocekit <version>" in the footer
  std::vector<std::string> doc_files;     ///< installed Markdown guides (SEE ALSO), e.g. "check.md"
  std::string doc_dir = "/usr/share/doc/rocekit";
};

/// One page per command of the tree under `root` (named "rocekit"): rocekit.1, rocekit-check.1,
/// rocekit-rules-list.1, ...; the `exporter` command's page is rocekit-exporter.1 and also
/// documents the rocekit-exporter executable.
std::vector<ManPage> man_pages(const CLI::App& root, const ManOptions& o);

/// A bash completion script for `program` whose command tree is `root`. `base` is the
/// subcommand path the program starts in ("" for rocekit, "exporter" for rocekit-exporter).
std::string bash_completion(const CLI::App& root, const std::string& program, const std::string& base);

/// The choices of an option validated by CLI::IsMember ("TEXT:{text,json}" -> text, json).
std::vector<std::string> choices_of(const CLI::Option& opt);

}  // namespace rk::cli::docgen
