#include "rocekit/capture/reader.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <fstream>
#include <iostream>
#include <optional>
#include <map>
#include <memory>
#include <system_error>

namespace rk::capture {
namespace fs = std::filesystem;

namespace {

bool unsafe_path(const std::string& name) {
  if (name.empty() || name.front() == '/') return true;
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t slash = name.find('/', start);
    std::string part = name.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part == "..") return true;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return false;
}

std::string clean_name(std::string name) {
  while (name.starts_with("./")) name.erase(0, 2);
  return name;
}

Result<CaptureSet> read_dir(const fs::path& root) {
  CaptureSet set;
  set.origin = root.string();
  set.kind = SourceKind::capture_dir;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec);
  if (ec) return unexpected(ErrorKind::io, ec.message(), root.string());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return unexpected(ErrorKind::io, ec.message(), root.string());
    if (set.files.size() >= k_max_files) {
      set.files.push_back({"(more)", "", "capture has more than " + std::to_string(k_max_files) +
                                             " files; the rest were not read"});
      break;
    }
    const fs::directory_entry& e = *it;
    std::string rel = e.path().lexically_relative(root).generic_string();
    if (e.is_symlink(ec)) {
      set.files.push_back({rel, "", "symbolic link: not followed"});
      continue;
    }
    if (e.is_directory(ec)) continue;
    if (!e.is_regular_file(ec)) {
      set.files.push_back({rel, "", "not a regular file"});
      continue;
    }
    std::uintmax_t size = e.file_size(ec);
    if (ec) {
      set.files.push_back({rel, "", "cannot stat: " + ec.message()});
      continue;
    }
    if (size > k_max_file_bytes) {
      set.files.push_back({rel, "", "file is " + std::to_string(size) + " bytes, over the " +
                                        std::to_string(k_max_file_bytes) + "-byte limit"});
      continue;
    }
    std::ifstream in(e.path(), std::ios::binary);
    if (!in) {
      set.files.push_back({rel, "", "cannot open (permission denied?)"});
      continue;
    }
    std::string bytes(static_cast<std::size_t>(size), '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(size));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    set.files.push_back({rel, std::move(bytes), ""});
  }
  return set;
}

struct ArchiveCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};

Result<CaptureSet> read_archive(const fs::path& path) {
  CaptureSet set;
  set.origin = path.string();
  set.kind = SourceKind::capture_tarball;
  std::unique_ptr<archive, ArchiveCloser> a(archive_read_new());
  // Every compression libarchive decodes itself (never filter_all: its fallbacks run external
  // programs) and the archive formats people send; never mtree, which names files on this
  // machine to read.
  archive_read_support_filter_gzip(a.get());
  archive_read_support_filter_bzip2(a.get());
  archive_read_support_filter_xz(a.get());
  archive_read_support_filter_lzma(a.get());
  archive_read_support_filter_zstd(a.get());
  archive_read_support_filter_lz4(a.get());
  archive_read_support_filter_compress(a.get());
  archive_read_support_filter_none(a.get());
  archive_read_support_format_tar(a.get());
  archive_read_support_format_gnutar(a.get());
  archive_read_support_format_zip(a.get());
  archive_read_support_format_7zip(a.get());
  archive_read_support_format_cpio(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 65536) != ARCHIVE_OK)
    return unexpected(ErrorKind::malformed_input, archive_error_string(a.get()) ? archive_error_string(a.get()) : "cannot open archive", path.string());
  archive_entry* entry = nullptr;
  std::uint64_t total = 0;
  while (true) {
    int r = archive_read_next_header(a.get(), &entry);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      std::string msg = archive_error_string(a.get()) ? archive_error_string(a.get()) : "corrupt archive";
      if (set.files.empty()) return unexpected(ErrorKind::malformed_input, msg, path.string());
      set.files.push_back({"(archive)", "", "archive ends early: " + msg});
      break;
    }
    const char* pn = archive_entry_pathname(entry);
    std::string name = clean_name(pn ? pn : "");
    if (set.files.size() >= k_max_files) {
      set.files.push_back({"(more)", "", "archive has more than " + std::to_string(k_max_files) +
                                             " entries; the rest were not read"});
      break;
    }
    mode_t type = archive_entry_filetype(entry);
    if (type == AE_IFDIR) continue;
    if (unsafe_path(name)) {
      set.files.push_back({name, "", "unsafe path (absolute or '..'): skipped"});
      continue;
    }
    if (type == AE_IFLNK || archive_entry_hardlink(entry) != nullptr) {
      set.files.push_back({name, "", "link entry: not followed"});
      continue;
    }
    if (type != AE_IFREG) {
      set.files.push_back({name, "", "not a regular file"});
      continue;
    }
    la_int64_t size = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : 0;
    if (size < 0 || static_cast<std::uint64_t>(size) > k_max_file_bytes) {
      set.files.push_back({name, "", "entry is " + std::to_string(size) + " bytes, over the limit"});
      continue;
    }
    // Read in chunks up to the limit: a zip entry may not say its size until it is read, and a
    // declared size may lie.
    std::string bytes;
    char buf[65536];
    la_ssize_t got = 0;
    bool over = false;
    while ((got = archive_read_data(a.get(), buf, sizeof buf)) > 0) {
      if (bytes.size() + static_cast<std::size_t>(got) > k_max_file_bytes) {
        over = true;
        break;
      }
      bytes.append(buf, static_cast<std::size_t>(got));
    }
    if (got < 0) {
      set.files.push_back({name, "", std::string("read error: ") +
                                         (archive_error_string(a.get()) ? archive_error_string(a.get()) : "?")});
      break;
    }
    if (over) {
      set.files.push_back({name, "", "entry is over the " + std::to_string(k_max_file_bytes) + "-byte limit"});
      continue;
    }
    total += bytes.size();
    if (total > 16ull * k_max_file_bytes) {
      set.files.push_back({name, "", "archive content over the total size limit: rest skipped"});
      break;
    }
    set.files.push_back({name, std::move(bytes), ""});
  }
  return set;
}

/// An archive may hold the same path twice (a re-tar, or tampering): the copies could disagree,
/// so none is used and each is reported.
void drop_duplicates(CaptureSet& set) {
  std::map<std::string, int> seen;
  for (const CaptureFile& f : set.files) ++seen[f.name];
  for (CaptureFile& f : set.files)
    if (seen[f.name] > 1 && f.problem.empty()) {
      f.bytes.clear();
      f.problem = "the archive holds " + std::to_string(seen[f.name]) +
                  " entries with this name: none is used";
    }
}

/// Up to k_max_file_bytes of a stream; nullopt when it holds more.
std::optional<std::string> read_bounded(std::istream& in) {
  std::string bytes;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    if (bytes.size() + static_cast<std::size_t>(in.gcount()) > k_max_file_bytes) return std::nullopt;
    bytes.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  return bytes;
}

/// One pasted or saved output: a capture of one file, named as given (so `mlnx_qos@eth4.txt`
/// is still named; any other name is identified by its prompt line or content).
Result<CaptureSet> single_file(const std::string& origin, const std::string& name, std::istream& in) {
  std::optional<std::string> bytes = read_bounded(in);
  if (!bytes)
    return unexpected(ErrorKind::unsupported, "over the " + std::to_string(k_max_file_bytes) + "-byte limit", origin);
  CaptureSet set;
  set.origin = origin;
  set.kind = SourceKind::capture_file;
  set.files.push_back({name, std::move(*bytes), ""});
  return set;
}

bool archive_magic(const std::string& head) {
  auto at = [&](std::size_t off, std::string_view magic) {
    return off + magic.size() <= head.size() && std::string_view(head).substr(off, magic.size()) == magic;
  };
  return at(0, "\x1f\x8b") || at(0, "BZh") || at(0, "\xfd" "7zXZ") || at(0, "\x5d\x00\x00") ||
         at(0, "\x28\xb5\x2f\xfd") || at(0, "\x04\x22\x4d\x18") || at(0, "\x1f\x9d") || at(0, "PK\x03\x04") ||
         at(0, "PK\x05\x06") || at(0, "7z\xbc\xaf\x27\x1c") || at(0, "070707") || at(0, "07070") ||
         at(0, "\xc7\x71") || at(257, "ustar");
}

}  // namespace

Result<CaptureSet> read_capture(const fs::path& path) {
  if (path == "-") return single_file("-", "stdin", std::cin);
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return unexpected(ErrorKind::not_found, "no such file or directory", path.string());
  if (fs::is_directory(st)) return read_dir(path);
  if (!fs::is_regular_file(st))
    return unexpected(ErrorKind::unsupported, "not a directory, an archive or a text file", path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(ErrorKind::io, "cannot open (permission denied?)", path.string());
  std::string head(512, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (!archive_magic(head)) {
    std::string n = path.filename().string();
    for (const char* ext : {".tar", ".tgz", ".gz", ".xz", ".bz2", ".zst", ".zip", ".7z", ".cpio"})
      if (n.ends_with(ext))
        return unexpected(ErrorKind::malformed_input,
                          std::string("named like an archive (") + ext + ") but holds no archive format rocekit reads",
                          path.string());
    in.clear();
    in.seekg(0);
    return single_file(path.string(), path.filename().string(), in);
  }
  Result<CaptureSet> set = read_archive(path);
  if (set) drop_duplicates(*set);
  return set;
}

bool split_capture_name(const std::string& name, std::string& tool, std::string& target) {
  std::string base = name.substr(name.find_last_of('/') == std::string::npos ? 0 : name.find_last_of('/') + 1);
  if (!base.ends_with(".txt")) return false;
  base.resize(base.size() - 4);
  std::size_t at = base.find('@');
  tool = base.substr(0, at);
  target = at == std::string::npos ? "" : base.substr(at + 1);
  return !tool.empty();
}

}  // namespace rk::capture
