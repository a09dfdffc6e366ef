// Several commands' outputs pasted into one file ("$ sudo mlnx_qos -i eth4", its output, then
// "[root@h ~]# ethtool -S eth4", ...): split at the prompt lines, each part read as the file the
// command would have written. Line numbers stay those of the pasted file.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rk::capture {

struct PastePart {
  std::size_t first_line = 0;  ///< 1-based line of the pasted file: the prompt line, or the first
                               ///< line inside the fence of a block without one
  std::size_t last_line = 0;   ///< last line of the part's output (a ``` fence ends a part early)
  std::string tool;            ///< capture tool id the prompt names (or the block's content shows)
  std::string target;          ///< netdev, RDMA device or BDF the prompt names, or ""
  bool by_content = false;     ///< a fenced block without a prompt, identified by its content
};

/// The parts of `text` (a whole capture file, provenance header included), one per prompt line
/// that runs a command rocekit reads; consecutive cma_roce_mode prompts stay one transcript (its
/// parser reads them). A part ends at a fence or at the prompt of any other command, whose
/// output is not taken. A fenced block (``` or ~~~) without a prompt line is a part of its own
/// when its content is one tool's output (`identify`). Empty when no prompt names a command
/// rocekit reads and no fenced block holds a tool's output.
std::vector<PastePart> split_paste(std::string_view text);

/// A paste quoted as an e-mail reply, a Markdown block quote or a GitHub comment quote: every
/// non-empty line starts with ">" (after any indentation), blank lines may be bare. Returns the
/// text with its quote markers ("> ", ">", nested "> > ") removed, line for line so that line
/// numbers stay the file's: when every non-empty line is quoted (a reply pasted whole), or when
/// a quoted line opens a fence or a command (a ticket whose reply quotes more outputs; its
/// unquoted lines stay as they are); nullopt otherwise. A UTF-8 byte-order mark in front is kept out.
std::optional<std::string> unquote(std::string_view text);

/// The text of lines first..last (1-based, inclusive) of `text`, each with its newline, less the
/// leading whitespace all its non-empty lines share.
std::string paste_lines(std::string_view text, std::size_t first, std::size_t last);

}  // namespace rk::capture
