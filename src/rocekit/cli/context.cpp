// The CLI context helpers shared by every subcommand (commands.hpp): error reporting and atomic
// output files. Its own file so that rocekit-exporter links it without the check command.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "rocekit/cli/commands.hpp"

namespace rk::cli {

namespace {
std::map<const CLI::App*, std::vector<ExitDoc>>& exit_code_registry() {
  static std::map<const CLI::App*, std::vector<ExitDoc>> r;
  return r;
}
}  // namespace

void document_exit_codes(CLI::App& cmd, std::vector<ExitDoc> codes) {
  std::string footer = "Exit status:";
  for (const ExitDoc& d : codes) footer += "\n  " + std::to_string(static_cast<int>(d.code)) + "  " + d.meaning;
  cmd.footer(footer);
  exit_code_registry()[&cmd] = std::move(codes);
}

std::vector<ExitDoc> exit_codes_of(const CLI::App& cmd) {
  auto it = exit_code_registry().find(&cmd);
  if (it != exit_code_registry().end()) return it->second;
  return {{ExitCode::ok, "done"}, {ExitCode::usage, "usage or input error (the message on stderr names the file)"}};
}

void report_error(Context& ctx, const Error& e) {
  ctx.err << "rocekit: error: " << e.describe() << "\n";
  ctx.exit_code = ExitCode::usage;
}

bool write_output(Context& ctx, const std::string& path, const std::string& text) {
  return write_output(ctx, path, [&text](std::ostream& os) { return static_cast<bool>(os << text); });
}

bool write_output(Context& ctx, const std::string& path, const std::function<bool(std::ostream&)>& write) {
  if (path.empty() || path == "-") {
    write(ctx.out);
    return true;
  }
  std::error_code ec;
  std::filesystem::file_status st = std::filesystem::status(path, ec);  // follows symlinks
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    if (std::filesystem::is_directory(st)) {
      report_error(ctx, Error{ErrorKind::io, "is a directory", path});
      return false;
    }
    // A device, FIFO or terminal (/dev/stdout, a pipe): write through it, never replace it.
    std::ofstream dev(path, std::ios::binary);
    if (!dev || !write(dev) || !dev.flush()) {
      report_error(ctx, Error{ErrorKind::io, std::string("cannot write: ") + std::strerror(errno), path});
      return false;
    }
    return true;
  }
  // Replace a regular file atomically; through a symlink, replace the file it points to.
  std::string real = path;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))) {
    std::filesystem::path target = std::filesystem::weakly_canonical(path, ec);
    if (ec) {
      report_error(ctx, Error{ErrorKind::io, "cannot resolve symbolic link", path});
      return false;
    }
    real = target.string();
  }
  std::string tmp = real + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !write(out) || !out.flush()) {
      int err = errno;
      std::remove(tmp.c_str());
      report_error(ctx, Error{ErrorKind::io, std::string("cannot write: ") + std::strerror(err), path});
      return false;
    }
  }
  if (std::rename(tmp.c_str(), real.c_str()) != 0) {
    int err = errno;
    std::remove(tmp.c_str());
    report_error(ctx, Error{ErrorKind::io,
                            std::string("cannot rename temporary file into place: ") + std::strerror(err),
                            path});
    return false;
  }
  return true;
}

int run_app(CLI::App& app, int argc, char** argv, Context& ctx) {
  // CLI11's own errors (a value not in a set, a missing argument) read like rocekit's.
  app.failure_message([](const CLI::App* root, const CLI::Error& e) {
    std::string where = "rocekit";
    for (const CLI::App* sub = root; sub;) {
      std::vector<const CLI::App*> parsed = sub->get_subcommands([](const CLI::App* a) { return a->parsed(); });
      sub = parsed.empty() ? nullptr : parsed.front();
      if (sub) where += " " + sub->get_name();
    }
    return "rocekit: error: " + std::string(e.what()) + "\nRun `" + where + " --help` for more information.\n";
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : static_cast<int>(ExitCode::usage);
  }
  ctx.out.flush();
  if (!ctx.out) {
    ctx.err << "rocekit: error: cannot write to standard output\n";
    return static_cast<int>(ExitCode::usage);
  }
  return static_cast<int>(ctx.exit_code);
}

}  // namespace rk::cli
