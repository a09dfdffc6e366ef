// Parser for `mlxconfig`/`mstconfig -d <dev> [-e] q` and `set` transcripts (tool id
// `mlxconfig_q`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// One printed value: `True(1)`, `ETH(2)`, `255`, `Array[0..15]`.
struct MlxconfigValue {
  std::string text;                    ///< as printed
  std::optional<std::string> alias;    ///< `True` of `True(1)`; nullopt for plain numbers
  std::optional<std::int64_t> number;  ///< `1` of `True(1)`, or the plain number (0x.. allowed)
};

/// One parameter row. A column the output does not have is nullopt.
struct MlxconfigParam {
  std::string name;                         ///< e.g. ROCE_CC_PRIO_MASK_P1
  std::optional<MlxconfigValue> default_value;  ///< `Default` column (`-e q`)
  std::optional<MlxconfigValue> current;    ///< `Current` column (`-e q`)
  std::optional<MlxconfigValue> next_boot;  ///< `Next Boot` column (the only one in plain `q`)
  std::optional<MlxconfigValue> new_value;  ///< `New` column of a `set` transcript
  /// The row's leading `*`: mlxconfig marks a row whose Next Boot differs from Current (or from
  /// Default when Current is not shown).
  bool modified = false;
  bool read_only = false;                   ///< the row's leading `RO` marker
  std::size_t line = 0;                     ///< 1-based line in the parsed text
};

/// The device header block printed before the table.
struct MlxconfigDevice {
  std::optional<std::uint32_t> index;       ///< N of `Device #N:`
  std::optional<std::string> device_type;   ///< `Device type:` (ConnectX6DX)
  std::optional<std::string> name;          ///< `Name:` (part number, e.g. MCX623106AN-CDA_Ax)
  std::optional<std::string> description;   ///< `Description:`
  std::optional<std::string> device;        ///< `Device:` as given on the command line (BDF or
                                            ///< /dev/mst path)
};

/// Columns a table can have, in the order mlxconfig prints them.
enum class MlxconfigColumn { default_value, current, next_boot, new_value };

std::string_view to_string(MlxconfigColumn c);

struct MlxconfigQuery {
  std::optional<MlxconfigDevice> device;    ///< nullopt for header-less (grep'd) fragments
  /// Columns from the `Configurations:` header; when the header is absent (a grep'd fragment)
  /// they are inferred from the value count (1 -> next_boot, 3 -> default/current/next_boot).
  std::vector<MlxconfigColumn> columns;
  bool columns_inferred = false;            ///< true when no `Configurations:` header was seen
  std::vector<MlxconfigParam> params;
  bool is_set_transcript = false;           ///< a `New` column or `Apply new Configuration?`
  std::optional<bool> apply_answer;         ///< the answer to `Apply new Configuration? (y/n)`
  bool applied = false;                     ///< `Applying... Done!`
  bool reboot_required = false;             ///< `-I- Please reboot machine ...`
  std::vector<std::string> messages;        ///< `-E-`, `-W-`, `-I-` lines, trimmed
};

/// Parses the text. Error when neither a device header nor a parameter row is recognised.
/// Warning `truncated` when a row has fewer values than the header has columns or a
/// `Configurations:` header has no rows.
Result<Parsed<MlxconfigQuery>> parse_mlxconfig_query(std::string_view text);

/// Finds a parameter by exact name; nullptr when absent.
const MlxconfigParam* find_param(const MlxconfigQuery& q, std::string_view name);

nlohmann::json to_json(const MlxconfigQuery& v);

/// Cheap sniff: `Configurations:` with a `Next Boot` column, or rows of an UPPER_CASE name
/// followed by a `Name(n)` value.
bool looks_like_mlxconfig_query(std::string_view text);

}  // namespace rk::parse
