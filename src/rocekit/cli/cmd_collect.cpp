// `rocekit collect`: read this host's kernel interfaces into a snapshot JSON; also the live
// path of `rocekit check` with no input.
#include <ctime>
#include <filesystem>
#include <memory>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "rocekit/cli/commands.hpp"
#include "rocekit/collect/collect.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::cli {

namespace {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool collect_with(Context& ctx, const std::string& root, const LiveTools& tools,
                  const std::vector<std::string>& virtual_netdevs, bool ethtool_netlink, Snapshot& out);

}  // namespace

bool collect_live(Context& ctx, const std::string& root, const LiveTools& tools, Snapshot& out) {
  return collect_with(ctx, root, tools, {}, true, out);
}

namespace {

bool collect_with(Context& ctx, const std::string& root, const LiveTools& tools,
                  const std::vector<std::string>& virtual_netdevs, bool ethtool_netlink, Snapshot& out) {
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) {
    report_error(ctx, Error{ErrorKind::not_found, "not a directory", root});
    return false;
  }
  // A tree without sys/ is no host root: most often a capture directory, which check reads.
  if (!std::filesystem::is_directory(std::filesystem::path(root) / "sys", ec)) {
    report_error(ctx, Error{ErrorKind::malformed_input,
                            "no sys/ under this root, so it is no host's file tree; a directory of captured "
                            "command outputs is read by `rocekit check DIR`",
                            root});
    return false;
  }
  collect::CollectRequest req;
  req.tool_version = std::string(version());
  req.collected_at = utc_now();
  req.virtual_netdevs = virtual_netdevs;
  req.ethtool_netlink = ethtool_netlink;
  // ioctls and vendor tools read the running kernel and NICs: only when collecting this host,
  // never for a fixture tree under --root (its BDFs are not this machine's).
  req.kernel_ioctls = std::filesystem::canonical(root, ec) == "/";
  if ((tools.nv_config || tools.devlink) && !req.kernel_ioctls) {
    report_error(ctx, Error{ErrorKind::malformed_input,
                            std::string(tools.nv_config ? "--nv-config" : "--devlink") +
                                " queries this machine's NICs and cannot be combined with --root",
                            root});
    return false;
  }
  req.nv_config = tools.nv_config;
  req.devlink = tools.devlink;
  collect::HostView host(root);
  std::unique_ptr<collect::CommandRunner> runner;
  if (tools.nv_config || tools.devlink)
    runner = std::make_unique<collect::SystemRunner>(std::vector<std::string>{
        "/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin", "/usr/local/sbin"});
  else
    runner = std::make_unique<collect::NoToolsRunner>("tools not requested (--nv-config, --devlink)");
  out = collect::collect_snapshot(req, host, *runner);
  return true;
}

}  // namespace

void add_collect_command(CLI::App& app, Context& ctx) {
  struct Opts {
    std::string root = "/";
    std::string output;
    LiveTools tools;
    std::vector<std::string> netdevs;
    bool ethtool_ioctl = false;
    bool pretty = false;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = app.add_subcommand(
      "collect", "Read this host's sysfs/procfs (no vendor tools, read-only) into a snapshot JSON");
  cmd->add_option("--root", o->root, "Read /sys, /proc and configfs under this directory (default /)");
  cmd->add_option("-o,--output", o->output, "Write the snapshot here (atomically; default stdout)");
  cmd->add_flag("--nv-config", o->tools.nv_config,
                "Also run `mstconfig|mlxconfig -d <BDF> -e q` per NVIDIA PF (query form only)");
  cmd->add_flag("--devlink", o->tools.devlink,
                "Also run `devlink port show` and `devlink dev eswitch show pci/<BDF>` per NVIDIA PF "
                "(representors, eswitch mode; read forms only)");
  cmd->add_option("--netdev", o->netdevs,
                  "Also audit this virtual netdev (veth, bond, ...); repeatable");
  cmd->add_flag("--pretty", o->pretty,
                "Indent the JSON for people (the default is compact, about half the size; indented "
                "when stdout is a terminal)");
  cmd->add_flag("--ethtool-ioctl", o->ethtool_ioctl,
                "Read channels with the SIOCETHTOOL ioctl, not ethtool netlink (as on kernels before 5.6)");
  cmd->callback([o, &ctx] {
    Snapshot snap;
    if (!collect_with(ctx, o->root, o->tools, o->netdevs, !o->ethtool_ioctl, snap)) return;
    for (const std::string& n : snap.notes) ctx.err << "rocekit: note: " << n << "\n";
    // Compact unless asked, or read on a terminal: fleets fetch thousands of these.
    bool to_tty = (o->output.empty() || o->output == "-") && ::isatty(1);
    int indent = o->pretty || to_tty ? 2 : -1;
    std::string json = snapshot_to_json(snap).dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
    if (write_output(ctx, o->output, json + "\n")) ctx.exit_code = ExitCode::ok;
  });
}

}  // namespace rk::cli
