// libFuzzer target for pasted captures: the split of one file at its prompt lines, then the whole
// capture -> snapshot path on that file. Built as fuzz_paste.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rocekit/capture/assemble.hpp"
#include "rocekit/capture/paste.hpp"
#include "rocekit/core/text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::size_t lines = rk::text::lines(text).size();
  std::size_t last = 0;
  for (const rk::capture::PastePart& p : rk::capture::split_paste(text)) {
    // Parts are in order, do not overlap and lie inside the file.
    if (p.first_line == 0 || p.first_line > p.last_line || p.last_line > lines || p.first_line <= last) __builtin_trap();
    last = p.last_line;
  }
  rk::capture::CaptureSet set;
  set.origin = "fuzz";
  set.kind = rk::SourceKind::capture_file;
  set.files.push_back({"paste", text, ""});
  (void)rk::capture::snapshot_from_capture(set);
  return 0;
}
