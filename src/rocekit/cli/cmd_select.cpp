// rocekit select / rocekit catalog: NIC/DPU selection for a GPU server, judging installed NICs,
// and the NIC catalog. Thin over rk_select (src/rocekit/select/).
#include <memory>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/cli/commands.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/select/description.hpp"
#include "rocekit/select/host.hpp"
#include "rocekit/select/render.hpp"
#include "rocekit/select/select.hpp"

namespace rk::cli {

namespace {

struct SelectOptions {
  std::string preset;
  std::string input;
  std::string host;
  std::string catalog;
  std::string format = "text";
  std::string output;
  bool list_presets = false;
};

select::Format to_format(const std::string& f) {
  return f == "json" ? select::Format::json : f == "markdown" ? select::Format::markdown : select::Format::text;
}

/// The built-in catalog, with `path` merged over it when given.
Result<catalog::Catalog> load_catalog(const std::string& path) {
  Result<catalog::Catalog> c = catalog::Catalog::load_builtin();
  if (!c || path.empty()) return c;
  Result<catalog::Catalog> overlay = catalog::Catalog::load_file(path);
  if (!overlay) return overlay;
  c->merge(*overlay);
  return c;
}

void run_select(Context& ctx, const SelectOptions& o) {
  if (o.list_presets) {
    for (const std::string& n : select::preset_names()) ctx.out << n << "\n";
    return;
  }
  int given = !o.preset.empty() + !o.input.empty() + !o.host.empty();
  if (given != 1)
    return report_error(ctx, Error{ErrorKind::unsupported,
                                   "give exactly one of --preset NAME, --input FILE.yaml or --host CAPTURE",
                                   "select"});
  Result<catalog::Catalog> cat = load_catalog(o.catalog);
  if (!cat) return report_error(ctx, cat.error());
  if (!o.host.empty()) {
    Result<Snapshot> snap = load_input(o.host);
    if (!snap) return report_error(ctx, snap.error());
    select::HostJudgement h = select::judge_host(*snap, *cat);
    if (!write_output(ctx, o.output, select::render(h, to_format(o.format)))) return;
    if (h.any_error()) {
      ctx.exit_code = ExitCode::findings;
    } else if (!h.anything_judged()) {
      ctx.err << "rocekit: not judged: no NIC's PCIe link is known and no GPU data path rule passed or failed\n";
      ctx.exit_code = ExitCode::not_judged;
    }
    return;
  }
  Result<select::Description> d =
      o.preset.empty() ? select::load_description_file(o.input) : select::load_preset(o.preset);
  if (!d) return report_error(ctx, d.error());
  Result<select::Selection> s = select::select_nics(*d, *cat);
  if (!s) return report_error(ctx, s.error());
  if (!write_output(ctx, o.output, select::render(*s, to_format(o.format)))) return;
  for (const select::Warning& w : s->warnings)
    if (w.severity == "error") ctx.exit_code = ExitCode::findings;
}

void add_catalog_command(CLI::App& app, Context& ctx) {
  auto file = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("text");
  auto model = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("catalog", "List or show the NIC/DPU catalog");
  cmd->require_subcommand(1);
  cmd->add_option("--catalog", *file, "Catalog JSON merged over the built-in one");
  CLI::App* list = cmd->add_subcommand("list", "One line per model");
  CLI::App* show = cmd->add_subcommand("show", "Every field of one model, with sources");
  show->add_option("model", *model, "Model key (connectx-7) or name (ConnectX-7)")->required();
  for (CLI::App* sub : {list, show})
    sub->add_option("-f,--format", *format, "text, json or markdown")
        ->check(CLI::IsMember({"text", "json", "markdown"}));
  list->callback([file, format, &ctx] {
    Result<catalog::Catalog> c = load_catalog(*file);
    if (!c) return report_error(ctx, c.error());
    ctx.out << select::render_catalog_list(*c, to_format(*format));
  });
  show->callback([file, format, model, &ctx] {
    Result<catalog::Catalog> c = load_catalog(*file);
    if (!c) return report_error(ctx, c.error());
    const catalog::NicModel* m = c->find_by_key(*model);
    for (const catalog::NicModel& x : c->models())
      if (!m && x.name == *model) m = &x;
    if (!m) {
      std::string keys;
      for (const catalog::NicModel& x : c->models()) keys += (keys.empty() ? "" : ", ") + x.key;
      return report_error(ctx, Error{ErrorKind::not_found, "unknown model (known: " + keys + ")", *model});
    }
    ctx.out << select::render_catalog_model(*m, to_format(*format));
  });
}

}  // namespace

void add_select_command(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<SelectOptions>();
  CLI::App* cmd = app.add_subcommand(
      "select", "Choose NICs/DPUs for a GPU server and fabric, or judge the NICs installed in a host");
  cmd->add_option("--preset", o->preset, "Platform preset (see --list-presets)");
  cmd->add_option("--input", o->input, "YAML description of the server and fabric");
  cmd->add_option("--host", o->host, "Capture directory, .tar.gz or snapshot.json to judge");
  cmd->add_flag("--list-presets", o->list_presets, "List the built-in platform presets");
  cmd->add_option("--catalog", o->catalog, "Catalog JSON merged over the built-in one");
  cmd->add_option("-f,--format", o->format, "text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  cmd->add_option("-o,--output", o->output, "Write the report to this file");
  document_exit_codes(*cmd, {{ExitCode::ok, "a feasible selection, or a host whose data paths all pass"},
       {ExitCode::findings, "an error-level warning, or a failing host data path (--host)"},
       {ExitCode::usage, "usage or input error (the message on stderr names the file and line)"},
       {ExitCode::not_judged, "--host: no NIC's PCIe link is known and no data path rule passed or failed"}});
  cmd->callback([o, &ctx] { run_select(ctx, *o); });
  add_catalog_command(app, ctx);
}

}  // namespace rk::cli
