#include "rocekit/parse/app_env.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/parse/sysfs_reads.hpp"

namespace rk::parse {
namespace {

constexpr const char* k_tencent = "app_settings/tencent-lab-retnet3b-job-two-net-branches-sl3-tc160-dup-hca-typo-checks.txt";

nlohmann::json wrap(std::string_view body) {
  auto r = parse_app_env(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(AppEnvGolden, Corpus) { rk::test::check_golden(k_tencent, wrap); }

// The real job script: both branches of `if [[ "${NET_TYPE}" = "low" ]]` assign NCCL_IB_HCA,
// NCCL_IB_GID_INDEX and NCCL_SOCKET_IFNAME; only the else branch sets NCCL_IB_TC=160.
TEST(AppEnv, JobScriptBranchesAreConditional) {
  std::string body = rk::test::corpus_body(k_tencent);
  ASSERT_TRUE(looks_like_app_env(body));
  EXPECT_FALSE(looks_like_nccl_conf(body));
  auto r = parse_app_env(body);
  ASSERT_TRUE(r);
  std::vector<const AppAssignment*> hca, tc;
  for (const AppAssignment& a : r->value.assignments) {
    EXPECT_TRUE(a.conditional) << a.name;  // every NCCL_/UCX_ line of this script is in the if/else
    if (a.name == "NCCL_IB_HCA") hca.push_back(&a);
    if (a.name == "NCCL_IB_TC") tc.push_back(&a);
  }
  ASSERT_EQ(hca.size(), 2u);
  EXPECT_EQ(hca[0]->value, "mlx5_2:1,mlx5_2:1");
  EXPECT_EQ(hca[1]->value, "mlx5_bond_1,mlx5_bond_5,mlx5_bond_3,mlx5_bond_7,mlx5_bond_4,mlx5_bond_8,mlx5_bond_2,mlx5_bond_6");
  ASSERT_EQ(tc.size(), 1u);
  EXPECT_EQ(tc[0]->value, "160");
  // Variables of other stacks (CUDA_DEVICE_MAX_CONNECTIONS, MASTER_PORT) are not kept.
  for (const AppAssignment& a : r->value.assignments) EXPECT_TRUE(a.name.starts_with("NCCL_") || a.name.starts_with("UCX_"));
}

TEST(AppEnv, EnvDumpExportPAndMpirun) {
  auto r = parse_app_env(
      "NCCL_IB_TC=106\n"
      "declare -x NCCL_IB_HCA=\"=mlx5_0,mlx5_1\"\n"
      "export UCX_NET_DEVICES=mlx5_0:1 NCCL_SOCKET_IFNAME=$IF\n"
      "mpirun -np 16 -x NCCL_IB_GID_INDEX=3 -x NCCL_DEBUG ./all_reduce_perf\n"
      "for i in 1 2; do export NCCL_IB_SL=$i; done\n"
      "PATH=/usr/bin\n");
  ASSERT_TRUE(r);
  const std::vector<AppAssignment>& a = r->value.assignments;
  ASSERT_EQ(a.size(), 6u);
  EXPECT_EQ(a[0].name, "NCCL_IB_TC");
  EXPECT_EQ(a[0].value, "106");
  EXPECT_FALSE(a[0].conditional);
  EXPECT_EQ(a[1].value, "=mlx5_0,mlx5_1");
  EXPECT_EQ(a[2].name, "UCX_NET_DEVICES");
  EXPECT_EQ(a[3].name, "NCCL_SOCKET_IFNAME");
  EXPECT_FALSE(a[3].literal);
  EXPECT_EQ(a[4].name, "NCCL_IB_GID_INDEX");
  EXPECT_EQ(a[4].value, "3");
  EXPECT_EQ(a[4].line, 4u);
  EXPECT_EQ(a[5].name, "NCCL_IB_SL");
  EXPECT_TRUE(a[5].conditional);
  EXPECT_FALSE(a[5].literal);
  EXPECT_FALSE(parse_app_env("PATH=/usr/bin\nHOME=/root\n"));
}

// NVIDIA/nccl src/misc/param.cc setEnvFile: '#' comments, name verbatim up to the first '='.
// bash `unset` and `env -u` remove a variable; `env NAME=value cmd` sets it for the command.
TEST(AppEnv, UnsetAndEnvArguments) {
  auto r = parse_app_env(
      "export NCCL_IB_HCA=mlx5_0 NCCL_IB_TC=106\n"
      "unset NCCL_IB_HCA PATH\n"
      "unset -v NCCL_IB_TC; export NCCL_IB_TC=96\n"
      "env -u NCCL_IB_GID_INDEX NCCL_DEBUG=INFO python train.py\n"
      "echo unset NCCL_IB_SL\n");
  ASSERT_TRUE(r);
  const std::vector<AppAssignment>& a = r->value.assignments;
  ASSERT_EQ(a.size(), 7u);
  EXPECT_EQ(a[2].name, "NCCL_IB_HCA");
  EXPECT_TRUE(a[2].unset);
  EXPECT_EQ(a[2].value, "");
  EXPECT_EQ(a[2].line, 2u);
  EXPECT_EQ(a[3].name, "NCCL_IB_TC");
  EXPECT_TRUE(a[3].unset);
  EXPECT_EQ(a[4].name, "NCCL_IB_TC");
  EXPECT_FALSE(a[4].unset);
  EXPECT_EQ(a[4].value, "96");
  EXPECT_EQ(a[5].name, "NCCL_IB_GID_INDEX");
  EXPECT_TRUE(a[5].unset);
  EXPECT_EQ(a[6].name, "NCCL_DEBUG");
  EXPECT_EQ(a[6].value, "INFO");
  EXPECT_FALSE(a[6].unset);
}

// Launchers: docker-run(1) -e/--env, sbatch/srun --export={[ALL,]<variables>} (also as an #SBATCH
// line), MPICH/Intel MPI -genv NAME value, and a Python launcher's os.environ[...] = "...".
TEST(AppEnv, LauncherForms) {
  std::string body =
      "#SBATCH --export=ALL,NCCL_IB_HCA==mlx5_0\n"
      "# NCCL_IB_TC=0 in a comment is not read\n"
      "docker run --rm -e NCCL_IB_TC=106 --env NCCL_IB_GID_INDEX=3 --env=NCCL_SOCKET_IFNAME=eth0 -e NCCL_DEBUG img\n"
      "mpiexec -genv NCCL_IB_SL 3 -n 16 ./a.out\n"
      "os.environ['UCX_IB_TRAFFIC_CLASS'] = \"106\"  # RoCE\n"
      "os.environ[\"NCCL_IB_ROCE_VERSION_NUM\"] = str(v)\n"
      "if os.environ[\"NCCL_IB_TC\"] == \"0\": pass\n";
  ASSERT_TRUE(looks_like_app_env(body));
  auto r = parse_app_env(body);
  ASSERT_TRUE(r);
  std::vector<std::pair<std::string, std::string>> got;
  for (const AppAssignment& a : r->value.assignments) got.emplace_back(a.name, a.value);
  std::vector<std::pair<std::string, std::string>> want{
      {"NCCL_IB_HCA", "=mlx5_0"},
      {"NCCL_IB_TC", "106"},         {"NCCL_IB_GID_INDEX", "3"},     {"NCCL_SOCKET_IFNAME", "eth0"},
      {"NCCL_IB_SL", "3"},           {"UCX_IB_TRAFFIC_CLASS", "106"}, {"NCCL_IB_ROCE_VERSION_NUM", "str(v)"}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(r->value.assignments[0].line, 1u);
  EXPECT_TRUE(r->value.assignments[5].literal);
  EXPECT_FALSE(r->value.assignments[6].literal);
  EXPECT_TRUE(looks_like_app_env("srun --export=ALL,NCCL_IB_TC=106 python t.py\n"));
  EXPECT_TRUE(looks_like_app_env("docker run -e NCCL_IB_HCA=mlx5_0 img\n"));
  EXPECT_FALSE(looks_like_app_env("srun --export=ALL python t.py\n"));
}

TEST(AppEnv, CrlfLineEndsAreWarned) {
  auto r = parse_app_env("#!/bin/bash\r\nexport NCCL_IB_HCA=mlx5_0,mlx5_2\r\n");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->value.assignments.size(), 1u);
  EXPECT_EQ(r->value.assignments[0].value, "mlx5_0,mlx5_2");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "crlf_line_ends");
  EXPECT_EQ(r->warnings[0].line, 1u);
  auto c = parse_nccl_conf("NCCL_IB_TC=106\r\n");
  ASSERT_TRUE(c);
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_EQ(c->warnings[0].code, "crlf_line_ends");
}

TEST(NcclConf, NameIsVerbatim) {
  std::string_view conf =
      "# site defaults\n"
      "NCCL_IB_HCA==mlx5_0,mlx5_1\n"
      "NCCL_IB_TC=106\n"
      "export NCCL_IB_GID_INDEX=3\n"
      "NCCL_SOCKET_IFNAME = eth0\n"
      "NCCL_DEBUG=\"INFO\"\n"
      "garbage\n";
  EXPECT_FALSE(looks_like_nccl_conf(conf));  // `export` and spaces: not what a clean nccl.conf holds
  EXPECT_TRUE(looks_like_nccl_conf("# x\nNCCL_IB_HCA==mlx5_0\nNCCL_IB_TC=106\n"));
  auto r = parse_nccl_conf(conf);
  ASSERT_TRUE(r);
  const std::vector<AppAssignment>& a = r->value.assignments;
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[0].value, "=mlx5_0,mlx5_1");
  EXPECT_TRUE(a[0].effective);
  EXPECT_EQ(a[2].name, "NCCL_IB_GID_INDEX");
  EXPECT_FALSE(a[2].effective);
  EXPECT_EQ(a[3].name, "NCCL_SOCKET_IFNAME");
  EXPECT_FALSE(a[3].effective);
  EXPECT_EQ(a[4].value, "\"INFO\"");  // NCCL keeps the quotes
  ASSERT_EQ(r->warnings.size(), 4u);
  EXPECT_EQ(r->warnings[0].code, "ignored_setting");
  EXPECT_EQ(r->warnings[0].line, 4u);
  EXPECT_EQ(r->warnings[2].code, "quoted_value");
  EXPECT_EQ(r->warnings[3].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[3].line, 7u);
}

TEST(CmaRoceTos, GrepReadAndBareCat) {
  auto r = parse_cma_roce_tos(
      "/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos:106\n"
      "/sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos:0\n");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->value.readings.size(), 2u);
  EXPECT_EQ(r->value.readings[0].rdma_device, "mlx5_0");
  EXPECT_EQ(r->value.readings[0].port, 1u);
  EXPECT_EQ(r->value.readings[0].tos, 106u);
  EXPECT_EQ(r->value.readings[1].tos, 0u);
  auto bare = parse_cma_roce_tos("160\n");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->value.readings.at(0).tos, 160u);
  EXPECT_FALSE(bare->value.readings[0].rdma_device);
  EXPECT_FALSE(parse_cma_roce_tos("/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos:300\n"));
  EXPECT_TRUE(looks_like_cma_roce_tos("/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos:106\n"));
}

// MLNX_OFED traffic_class_show(): "Global tclass=N", then per-destination rules.
TEST(SysfsTrafficClass, RuleLinesAreNotTheGlobalClass) {
  auto r = parse_sysfs_traffic_class(
      "/sys/class/infiniband/mlx5_0/tc/1/traffic_class:dst_ip=192.0.2.0/24,tclass=40\n");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->value.traffic_class);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "per_destination_rule");
  auto g = parse_sysfs_traffic_class("Global tclass=160\n");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->value.traffic_class, 160u);
  EXPECT_EQ(g->value.dscp, 40u);
}

}  // namespace
}  // namespace rk::parse
