#include "rocekit/parse/app_env.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

bool stack_variable(std::string_view name) {
  if (!text::starts_with(name, "NCCL_") && !text::starts_with(name, "UCX_")) return false;
  for (char c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return name.size() > 5;
}

struct Token {
  std::string text;        ///< quotes removed
  bool expands = false;    ///< a '$' outside single quotes
  bool separator = false;  ///< ';', '&&', '||', '|', '&'
};

/// Shell words of one line: quotes removed, ';' '&' '|' as separators, a '#' word ends the line.
std::vector<Token> shell_words(std::string_view line) {
  std::vector<Token> out;
  Token cur;
  bool in_word = false;
  char quote = 0;
  auto flush = [&] {
    if (in_word) out.push_back(cur);
    cur = Token{};
    in_word = false;
  };
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
        continue;
      }
      if (c == '$' && quote == '"') cur.expands = true;
      cur.text += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
      continue;
    }
    if (c == ' ' || c == '\t') {
      flush();
      continue;
    }
    if (c == '#' && !in_word) break;
    if (c == ';' || c == '&' || c == '|') {
      flush();
      Token sep;
      sep.separator = true;
      sep.text = std::string(1, c);
      out.push_back(sep);
      continue;
    }
    if (c == '$' || c == '`') cur.expands = true;
    if (c == '\\' && i + 1 < line.size()) c = line[++i];
    cur.text += c;
    in_word = true;
  }
  flush();
  return out;
}

/// Python's `os.environ["NCCL_IB_TC"] = "106"` (single or double quotes): a literal only when
/// the value is one quoted string.
bool python_environ(std::string_view t, AppAssignment& out) {
  std::size_t at = t.find("os.environ[");
  if (at == std::string_view::npos) return false;
  std::string_view r = t.substr(at + 11);
  if (r.empty() || (r[0] != '"' && r[0] != '\'')) return false;
  char q = r[0];
  std::size_t close = r.find(q, 1);
  if (close == std::string_view::npos) return false;
  std::string_view name = r.substr(1, close - 1);
  r = text::trim(r.substr(close + 1));
  if (!text::starts_with(r, "]")) return false;
  r = text::trim(r.substr(1));
  if (r.empty() || r[0] != '=' || (r.size() > 1 && r[1] == '=')) return false;  // not `==`
  if (!stack_variable(name)) return false;
  r = text::trim(r.substr(1));
  if (std::size_t hash = r.find(" #"); hash != std::string_view::npos) r = text::trim(r.substr(0, hash));
  out.name = std::string(name);
  if (r.size() >= 2 && (r[0] == '"' || r[0] == '\'') && r.find(r[0], 1) == r.size() - 1) {
    out.value = std::string(r.substr(1, r.size() - 2));
    out.literal = true;
  } else {
    out.value = std::string(r);
    out.literal = false;  // str(tc), f"{x}", a variable
  }
  return true;
}

bool is_word(const std::vector<Token>& ws, std::string_view w) {
  for (const Token& t : ws)
    if (!t.separator && t.text == w) return true;
  return false;
}

}  // namespace

Result<Parsed<AppEnv>> parse_app_env(std::string_view body) {
  Parsed<AppEnv> out;
  int depth = 0;  // open if/case/for/while blocks
  std::vector<std::string_view> ls = text::lines(body);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    // "#SBATCH --export=ALL,NCCL_IB_HCA=mlx5_0": sbatch reads it, the shell does not.
    if (text::starts_with(t, "#SBATCH ")) t = text::trim(t.substr(8));
    if (t.empty() || t[0] == '#') continue;
    if (AppAssignment a; python_environ(t, a)) {
      a.line = i + 1;
      a.conditional = depth > 0;
      out.value.assignments.push_back(std::move(a));
      continue;
    }
    std::vector<Token> ws = shell_words(t);
    if (ws.empty()) continue;
    const std::string& first = ws[0].text;
    bool opens = first == "if" || first == "case" || first == "for" || first == "while" || first == "until";
    bool closes_here = is_word(ws, "fi") || is_word(ws, "esac") || is_word(ws, "done");
    bool conditional = depth > 0 || opens;
    if (opens && !closes_here) ++depth;
    if (!opens && (first == "fi" || first == "esac" || first == "done") && depth > 0) --depth;
    bool command_start = true;  // a NAME=value here is an assignment
    bool exporting = false;     // after export / declare -x
    // One assignment (or `unset`) of this line, in file order.
    auto record = [&](std::string name, std::string value, bool literal, bool unset) {
      AppAssignment a;
      a.name = std::move(name);
      a.value = std::move(value);
      a.line = i + 1;
      a.conditional = conditional;
      a.literal = literal;
      a.unset = unset;
      out.value.assignments.push_back(std::move(a));
    };
    for (std::size_t k = 0; k < ws.size(); ++k) {
      const Token& w = ws[k];
      if (w.separator) {
        command_start = true;
        exporting = false;
        continue;
      }
      // "unset NCCL_IB_HCA", "unset -v A B", "env -u NCCL_IB_HCA cmd": removes the variable.
      bool env_u = w.text == "-u" && k > 0 && ws[k - 1].text == "env" && k + 1 < ws.size() && !ws[k + 1].separator;
      if ((command_start && w.text == "unset") || env_u) {
        std::size_t j = k + 1;
        for (; j < ws.size() && !ws[j].separator; ++j) {
          if (ws[j].text.starts_with("-")) continue;  // -v; `unset -f` names functions, never NCCL_*
          if (!stack_variable(ws[j].text)) {
            if (env_u) break;
            continue;
          }
          record(ws[j].text, "", true, true);
          if (env_u) break;
        }
        k = env_u ? j : j - 1;
        command_start = env_u;  // "env -u X A=1 cmd": env still takes assignments
        continue;
      }
      // srun/sbatch "--export=ALL,NCCL_IB_HCA=mlx5_0,NCCL_IB_TC=106" (a comma-separated list).
      if (w.text.starts_with("--export=")) {
        for (std::string_view item : text::split(std::string_view(w.text).substr(9), ',')) {
          std::size_t eq = item.find('=');
          if (eq == std::string_view::npos || !stack_variable(item.substr(0, eq))) continue;
          record(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)), !w.expands, false);
        }
        continue;
      }
      // MPICH/Intel MPI "-genv NAME value" / "-env NAME value".
      if ((w.text == "-genv" || w.text == "-env") && k + 2 < ws.size() && !ws[k + 1].separator &&
          !ws[k + 2].separator && stack_variable(ws[k + 1].text)) {
        record(ws[k + 1].text, ws[k + 2].text, !ws[k + 2].expands, false);
        k += 2;
        continue;
      }
      // docker/podman/enroot "-e NAME=value", "--env NAME=value", "--env=NAME=value".
      bool docker_e = (w.text == "-e" || w.text == "--env") && k + 1 < ws.size() && !ws[k + 1].separator;
      if (w.text.starts_with("--env=")) {
        std::string_view a = std::string_view(w.text).substr(6);
        std::size_t eq = a.find('=');
        if (eq != std::string_view::npos && stack_variable(a.substr(0, eq)))
          record(std::string(a.substr(0, eq)), std::string(a.substr(eq + 1)), !w.expands, false);
        continue;
      }
      bool mpi_x = (w.text == "-x" || docker_e) && k + 1 < ws.size() && !ws[k + 1].separator;
      if (w.text == "export" || w.text == "declare" || w.text == "typeset" || w.text == "readonly") {
        exporting = true;
        command_start = false;
        continue;
      }
      if (exporting && w.text.starts_with("-")) continue;
      const Token& a = mpi_x ? ws[++k] : w;
      std::size_t eq = a.text.find('=');
      bool assignment = eq != std::string::npos && eq > 0 && (mpi_x || exporting || command_start);
      if (assignment) {
        std::string name = a.text.substr(0, eq);
        if (stack_variable(name)) {
          record(std::move(name), a.text.substr(eq + 1), !a.expands, false);
        }
        continue;  // "A=1 B=2 cmd": still at the command's start
      }
      if (!mpi_x) {
        // "env NCCL_IB_HCA=mlx5_0 python ...": env takes assignments before its command.
        if (command_start && w.text == "env") continue;
        command_start = false;
        // "then export X=1", "else X=1", "do ...": keywords keep the command position.
        if (w.text == "then" || w.text == "else" || w.text == "do" || w.text == "elif" || w.text == "{") command_start = true;
      }
    }
  }
  if (out.value.assignments.empty())
    return rk::unexpected(ErrorKind::malformed_input, "no NCCL_ or UCX_ variable assignment found");
  // A script saved with Windows line ends: bash keeps the CR in every value, so
  // NCCL_IB_HCA=mlx5_2<CR> names no device. The values here are read without it.
  if (std::size_t cr = body.find("\r\n"); cr != std::string_view::npos) {
    std::size_t line = 1 + static_cast<std::size_t>(std::count(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(cr), '\n'));
    out.warnings.push_back({line, "crlf_line_ends",
                            "Windows (CRLF) line ends: run as a script, bash keeps the CR at the end of each value "
                            "(NCCL_IB_HCA=mlx5_2<CR> selects no device); convert the script with dos2unix"});
  }
  return out;
}

Result<Parsed<AppEnv>> parse_nccl_conf(std::string_view body) {
  Parsed<AppEnv> out;
  std::vector<std::string_view> ls = text::lines(body);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view l = ls[i];
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (l.empty() || l[0] == '#') continue;
    std::size_t eq = l.find('=');
    if (eq == std::string_view::npos) {
      if (!text::trim(l).empty())
        out.warnings.push_back({i + 1, "unrecognised_line", "no '=' in the line: NCCL ignores it"});
      continue;
    }
    AppAssignment s;
    std::string_view raw = l.substr(0, eq);
    std::string_view name = text::trim(raw);
    bool exported = text::starts_with(name, "export ");
    if (exported) name = text::trim(name.substr(7));
    s.name = std::string(name);
    s.value = std::string(l.substr(eq + 1));
    s.line = i + 1;
    s.effective = !exported && raw == name && !name.empty();
    if (!s.effective) {
      out.warnings.push_back({i + 1, "ignored_setting",
                              "NCCL takes the name verbatim, \"" + std::string(raw) + "\", so " + s.name +
                                  " is not set by this line (write " + s.name + "=<value>, no `export`, no spaces)"});
    } else if (s.value.size() >= 2 && (s.value.front() == '"' || s.value.front() == '\'') &&
               s.value.back() == s.value.front()) {
      out.warnings.push_back({i + 1, "quoted_value",
                              "NCCL keeps the quotes: " + s.name + " is set to " + s.value + " with its quotes"});
    }
    out.value.assignments.push_back(std::move(s));
  }
  if (out.value.assignments.empty())
    return rk::unexpected(ErrorKind::malformed_input, "no NAME=value line found (nccl.conf format)");
  // setEnvFile removes only the '\n': a CR stays at the end of every value.
  if (std::size_t cr = body.find("\r\n"); cr != std::string_view::npos) {
    std::size_t line = 1 + static_cast<std::size_t>(std::count(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(cr), '\n'));
    out.warnings.push_back({line, "crlf_line_ends",
                            "Windows (CRLF) line ends: NCCL keeps the CR at the end of each value (setEnvFile strips "
                            "only the newline), so NCCL_IB_HCA=mlx5_2<CR> selects no device; convert it with dos2unix"});
  }
  return out;
}

nlohmann::json to_json(const AppEnv& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const AppAssignment& s : v.assignments)
    a.push_back({{"name", s.name}, {"value", s.value}, {"line", s.line}, {"conditional", s.conditional},
                 {"literal", s.literal}, {"effective", s.effective}, {"unset", s.unset}});
  return {{"assignments", a}};
}

bool looks_like_app_env(std::string_view body) {
  for (std::string_view l : text::lines(body.substr(0, 65536))) {
    std::string_view t = text::trim(l);
    if (text::starts_with(t, "#SBATCH ")) t = text::trim(t.substr(8));
    if (t.empty() || t[0] == '#') continue;
    if (AppAssignment a; python_environ(t, a)) return true;
    std::vector<Token> ws = shell_words(t);
    for (std::size_t k = 0; k < ws.size(); ++k) {
      std::string_view w = ws[k].text;
      if (text::starts_with(w, "--export=") || text::starts_with(w, "--env=")) w = w.substr(w.find('=') + 1);
      if (text::starts_with(ws[k].text, "--export=")) {
        for (std::string_view item : text::split(w, ','))
          if (std::size_t eq = item.find('='); eq != std::string_view::npos && stack_variable(item.substr(0, eq)))
            return true;
        continue;
      }
      std::size_t eq = w.find('=');
      if (eq == std::string::npos || !stack_variable(w.substr(0, eq))) continue;
      if (k == 0 || ws[k].text != w || ws[k - 1].text == "export" || ws[k - 1].text == "-x" ||
          ws[k - 1].text == "-e" || ws[k - 1].text == "--env" || ws[k - 1].separator)
        return true;
    }
  }
  return false;
}

bool looks_like_nccl_conf(std::string_view body) {
  bool any = false;
  for (std::string_view l : text::lines(body.substr(0, 65536))) {
    std::string_view t = text::trim(l);
    if (t.empty() || t[0] == '#') continue;
    std::size_t eq = t.find('=');
    if (eq == std::string_view::npos || !text::starts_with(t, "NCCL_") || !stack_variable(t.substr(0, eq))) return false;
    any = true;
  }
  return any;
}

}  // namespace rk::parse
