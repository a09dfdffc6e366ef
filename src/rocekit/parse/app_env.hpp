// Parsers for the application stack's settings: tool ids "app_env" and "nccl_conf".
//
// app_env: NCCL_* and UCX_* variables from an environment capture or a job script:
//   NCCL_IB_TC=106                      `env`, `printenv`, `env | grep NCCL`
//   declare -x NCCL_IB_HCA="mlx5_0"     `export -p` (bash)
//   export NCCL_IB_GID_INDEX=3          shell scripts, also several assignments on one line
//   mpirun -x NCCL_IB_TC=106 ...        Open MPI's -x NAME=value
//   env NCCL_IB_HCA=mlx5_0 python ...   env's NAME=value arguments
//   docker run -e NCCL_IB_TC=106 ...    docker/podman -e, --env, --env= (enroot alike)
//   srun --export=ALL,NCCL_IB_TC=106    Slurm's list, also in an "#SBATCH --export=" line
//   mpiexec -genv NCCL_IB_TC 106 ...    MPICH / Intel MPI -genv and -env
//   os.environ["NCCL_IB_TC"] = "106"    a Python launcher (literal when one quoted string)
//   unset NCCL_IB_HCA                   removes it (also `env -u NAME`): an `unset` assignment
// An assignment inside an if/case/for/while block is marked `conditional`: which branch ran is
// not in the script. A value that expands a variable ("$X", "${X}", "$(cmd)") is not `literal`.
//
// nccl_conf: /etc/nccl.conf, ~/.nccl.conf or $NCCL_CONF_FILE, as NCCL reads them
// (NVIDIA/nccl src/misc/param.cc setEnvFile): a line starting with '#' is a comment; the name is
// everything before the first '=' and the value everything after, both verbatim (no quotes, no
// trimming); NCCL calls setenv(name, value, 0), so a variable already in the environment wins and
// a name with a space or an `export ` prefix is a different variable that NCCL never reads.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct AppAssignment {
  std::string name;          ///< "NCCL_IB_HCA"
  std::string value;         ///< quotes removed
  std::size_t line = 0;      ///< 1-based
  bool conditional = false;  ///< inside an if/case/for/while block of a script
  bool literal = true;       ///< false when the value expands a variable or a command
  /// nccl_conf only: false when NCCL would set a variable of another name (a space or an
  /// `export ` in the name).
  bool effective = true;
  /// app_env only: `unset NAME` (bash unset, or `env -u NAME`): the variable is removed here and
  /// `value` is empty. A later assignment sets it again.
  bool unset = false;
};

struct AppEnv {
  std::vector<AppAssignment> assignments;  ///< in file order; a name may repeat
};

/// app_env: errors when no NCCL_/UCX_ assignment is found.
Result<Parsed<AppEnv>> parse_app_env(std::string_view text);
/// nccl_conf: errors when no NAME=value line is found.
Result<Parsed<AppEnv>> parse_nccl_conf(std::string_view text);
nlohmann::json to_json(const AppEnv& v);
/// Any "[export |declare -x |-x ]NCCL_*=" or "UCX_*=" assignment.
bool looks_like_app_env(std::string_view text);
/// Every non-comment line is "NCCL_<NAME>=<value>" without `export`: what a nccl.conf holds.
/// (An `env | grep NCCL` capture looks the same: name such a file app_env.txt.)
bool looks_like_nccl_conf(std::string_view text);

}  // namespace rk::parse
