// rocekit rules / policy / parse: reference and debugging commands.
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "rocekit/cli/commands.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/capture/tools.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::cli {

void add_rules_command(CLI::App& app, Context& ctx) {
  CLI::App* cmd = app.add_subcommand("rules", "List or explain the rules");
  cmd->require_subcommand(1);
  auto format = std::make_shared<std::string>("text");
  CLI::App* list = cmd->add_subcommand(
      "list", "List every rule (host, switch, fleet, diagnose): id, family, severity and title");
  list->add_option("-f,--format", *format, "text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  list->callback([format, &ctx] {
    render::Format f = *format == "json"       ? render::Format::json
                       : *format == "markdown" ? render::Format::markdown
                                               : render::Format::text;
    ctx.out << render::rules_list(f);
  });
  auto id = std::make_shared<std::string>();
  CLI::App* explain = cmd->add_subcommand("explain", "Explain one rule of any family");
  explain->add_option("id", *id, "Rule id, e.g. qos.trust-dscp, switch.mtu, fleet.pfc-consistent")
      ->required();
  explain->callback([id, &ctx] {
    std::string text = render::rule_explain(*id);
    if (text.empty())
      return report_error(ctx, Error{ErrorKind::not_found, "unknown rule id (see `rocekit rules list`)", *id});
    ctx.out << text;
  });
}

void add_policy_command(CLI::App& app, Context& ctx) {
  CLI::App* cmd = app.add_subcommand("policy", "Show or validate a policy");
  cmd->require_subcommand(1);
  auto file = std::make_shared<std::string>();
  CLI::App* show = cmd->add_subcommand("show", "Print the effective policy as YAML");
  show->add_option("-p,--policy", *file, "Policy file layered over the built-in default");
  show->callback([file, &ctx] {
    Result<Policy> p = load_policy(*file);
    if (!p) return report_error(ctx, p.error());
    ctx.out << policy_to_yaml(*p);
  });
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* validate = cmd->add_subcommand(
      "validate", "Check policy files (types, ranges, contradictions) without judging a host; exit 2 on the first error");
  validate->add_option("file", *files, "Policy YAML file(s)")->required();
  validate->callback([files, &ctx] {
    for (const std::string& f : *files) {
      Result<Policy> p = load_policy(f);
      if (!p) return report_error(ctx, p.error());
      ctx.out << "ok: " << f << " (policy " << p->name << ")\n";
    }
  });
}

void add_parse_command(CLI::App& app, Context& ctx) {
  auto tool = std::make_shared<std::string>();
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "parse", "Parse one tool output and print the parser's JSON (for debugging captures)");
  auto list = std::make_shared<bool>(false);
  cmd->add_flag("--list", *list, "List the tool ids with the command that produces each, and exit");
  cmd->add_option("tool", *tool, "Tool id (see `rocekit parse --list`), or 'auto'");
  cmd->add_option("file", *file, "File with the tool's output (capture header allowed)");
  cmd->callback([tool, file, list, &ctx] {
    if (*list) {
      if (!tool->empty()) return report_error(ctx, Error{ErrorKind::malformed_input, "--list takes no TOOL or FILE", "parse"});
      for (const capture::Tool& t : capture::all_tools()) ctx.out << t.id << "\t" << t.command << "\n";
      return;
    }
    if (tool->empty() || file->empty())
      return report_error(ctx, Error{ErrorKind::malformed_input, "give TOOL FILE (or --list)", "parse"});
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*file, ec))
      return report_error(ctx, Error{ErrorKind::io, "not a regular file", *file});
    std::ifstream in(*file, std::ios::binary);
    if (!in) return report_error(ctx, Error{ErrorKind::io, "cannot open", *file});
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    parse::CaptureText ct = parse::strip_capture_header(text);
    std::string id = *tool;
    if (id == "auto") {
      const capture::Tool* t = capture::identify(ct.body);
      if (!t) return report_error(ctx, Error{ErrorKind::unsupported, "output not recognised", *file});
      id = std::string(t->id);
    }
    const capture::Tool* t = capture::find_tool(id);
    if (!t) {
      std::string ids;
      for (const capture::Tool& p : capture::all_tools()) ids += (ids.empty() ? "" : ", ") + std::string(p.id);
      return report_error(ctx, Error{ErrorKind::not_found, "unknown tool id (known: " + ids + ")", id});
    }
    nlohmann::json j = capture::parse_file_to_json(*t, ct.body, ct.body_first_line);
    j["tool"] = id;
    j["file"] = *file;
    ctx.out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (j.contains("error")) ctx.exit_code = ExitCode::usage;
  });
}

}  // namespace rk::cli
