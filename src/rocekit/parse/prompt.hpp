// A shell prompt line pasted above a tool's output, e.g. "$ sudo mlnx_qos -i eth4" or
// "[root@gpu01 ~]# ethtool -S ens1f0np0": people paste output with the command that made it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rk::parse {

/// What a recognised prompt line says. `tool` is a capture tool id (the names of
/// `rocekit parse --help`, e.g. "mlnx_qos", "ethtool_S"), `target` the netdev, RDMA device or
/// BDF the command names ("" when it names none), `command` the command text after the prompt.
struct PromptCommand {
  std::string tool;
  std::string target;
  std::string command;
};

/// Recognises `line` as a shell prompt followed by a command rocekit parses. Prompt forms:
/// "$ ", "# ", "user@host:dir$ ", "[user@host dir]# ", each optionally after a conda or virtualenv
/// "(name) "; redirections ("2>&1") end the arguments; a leading `sudo` (with its flags) and
/// VAR=value assignments are skipped. Returns nullopt for any other line, including a prompt
/// followed by a command that is not one of rocekit's tools (so "# comment" stays a comment).
std::optional<PromptCommand> parse_prompt_line(std::string_view line);

/// Whether `line` is a shell prompt with a command (any command: `uptime`, `ssh gpu02 ...`) in
/// a form that is not also a comment: "$ ", "user@host:dir$ ", "[user@host dir]# ", "(env) ...".
/// A paste's part ends at such a line even when rocekit does not read that command.
bool shell_prompt_line(std::string_view line);

}  // namespace rk::parse
