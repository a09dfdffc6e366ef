// Reading a capture: a directory or a .tar.gz of text files named `<tool>@<target>.txt` or
// `<tool>.txt` (testdata/hosts/README.md). Reading is safe on hostile input: no path outside the
// capture is read or written, links are not followed, and size limits bound memory.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/model/vocab.hpp"

namespace rk::capture {

/// Files larger than this are reported and skipped, never read whole.
inline constexpr std::size_t k_max_file_bytes = 64u << 20;
/// At most this many files are read from one capture.
inline constexpr std::size_t k_max_files = 20000;

struct CaptureFile {
  std::string name;   ///< path inside the capture, '/'-separated, no leading "./"
  std::string bytes;  ///< whole content (empty when `problem` is set)
  std::string problem; ///< why the file was skipped: "too large", "symbolic link", ...
  /// Lines of the file before `bytes` when this is one command's part of a paste (paste.hpp),
  /// so that evidence cites the pasted file's own line numbers; 0 for a whole file.
  std::size_t line_offset = 0;
};

struct CaptureSet {
  std::string origin;  ///< the path given by the user
  SourceKind kind = SourceKind::capture_dir;
  std::vector<CaptureFile> files;
};

/// Reads every regular file of a capture directory (recursively, links not followed) or of a
/// .tar.gz/.tgz/.tar archive (libarchive). Entries with absolute paths or `..` components,
/// links and device files are listed with a `problem` and no content.
/// Errors: not_found / io when the path cannot be read at all; malformed_input for a corrupt
/// archive (with the entry reached).
Result<CaptureSet> read_capture(const std::filesystem::path& path);

/// "mlnx_qos@eth4.txt" -> {"mlnx_qos", "eth4"}; "show_gids.txt" -> {"show_gids", ""}.
/// The directory part of `name` is ignored. Returns false when the name has no ".txt" suffix.
bool split_capture_name(const std::string& name, std::string& tool, std::string& target);

}  // namespace rk::capture
