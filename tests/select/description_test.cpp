// YAML descriptions and presets: every preset loads; bad descriptions name the field with
// file:line:column.
#include <gtest/gtest.h>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/select/description.hpp"
#include "rocekit/select/select.hpp"

namespace sel = rk::select;

namespace {

std::string error_of(const std::string& yaml) {
  rk::Result<sel::Description> d = sel::load_description_text(yaml, "bad.yaml");
  EXPECT_FALSE(d) << yaml;
  return d ? std::string() : d.error().describe();
}

const char* k_minimal = R"(name: test
gpus:
  - {index: 0, numa: 0}
slots:
  - {name: s0, gen: 5, lanes: 16, numa: 0}
fabric: {type: roce, gpu_bandwidth_gbps: 400}
)";

}  // namespace

TEST(Presets, AllEightLoad) {
  std::vector<std::string> names = sel::preset_names();
  EXPECT_EQ(names, (std::vector<std::string>{"dgx-b200", "dgx-h100", "dgx-h200", "gb200-tray", "gb300-tray",
                                             "generic-2s-pcie", "hgx-b300", "mgx-pcie-cx8"}));
  for (const std::string& n : names) {
    rk::Result<sel::Description> d = sel::load_preset(n);
    ASSERT_TRUE(d) << n << ": " << d.error().describe();
    EXPECT_FALSE(d->sources.empty()) << n << " cites no source";
    EXPECT_FALSE(d->gpus.empty());
  }
}

TEST(Presets, DgxH100Shape) {
  rk::Result<sel::Description> d = sel::load_preset("dgx-h100");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->gpus.size(), 8u);
  EXPECT_EQ(d->slots.size(), 10u);
  EXPECT_EQ(d->slots[0].gen, 5);
  EXPECT_EQ(d->slots[0].lanes, 16);
  EXPECT_EQ(d->gpu_bandwidth_gbps, 400);
  EXPECT_EQ(*d->gpus[4].numa_node, 1);
}

TEST(Presets, UnknownPresetListsKnown) {
  rk::Result<sel::Description> d = sel::load_preset("dgx-a100");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().kind, rk::ErrorKind::not_found);
  EXPECT_NE(d.error().describe().find("dgx-h100"), std::string::npos);
}

TEST(Description, MinimalLoads) {
  rk::Result<sel::Description> d = sel::load_description_text(k_minimal, "ok.yaml");
  ASSERT_TRUE(d) << d.error().describe();
  EXPECT_EQ(d->key, "ok");
  EXPECT_EQ(d->slots[0].gen, 5);
}

TEST(Description, UnknownKeyHasLineAndColumn) {
  std::string e = error_of(std::string(k_minimal) + "colour: blue\n");
  EXPECT_NE(e.find("bad.yaml:7:1: description: unknown key 'colour'"), std::string::npos) << e;
}

TEST(Description, UnknownSlotKey) {
  std::string e = error_of("gpus: [{index: 0}]\nslots:\n  - {name: s0, gen: 5, lanes: 16, speed: 32}\n");
  EXPECT_NE(e.find("bad.yaml:3:35: slots[0]: unknown key 'speed'"), std::string::npos) << e;
}

TEST(Description, Gen7Rejected) {
  std::string e = error_of("gpus: [{index: 0}]\nslots:\n  - {name: s0, gen: 7, lanes: 16}\n");
  EXPECT_NE(e.find("bad.yaml:3:21: slots[0].gen: PCIe Gen7 is outside the model"), std::string::npos) << e;
}

TEST(Description, NegativeLanesRejected) {
  std::string e = error_of("gpus: [{index: 0}]\nslots:\n  - {name: s0, gen: 5, lanes: -16}\n");
  EXPECT_NE(e.find("bad.yaml:3:31: slots[0].lanes: lanes must be 1, 2, 4, 8 or 16, got -16"), std::string::npos) << e;
}

TEST(Description, NineGpusOnEightPositionPreset) {
  std::string yaml = "preset: dgx-h100\ngpus:\n";
  for (int i = 0; i < 9; ++i) yaml += "  - {index: " + std::to_string(i) + ", numa: 0}\n";
  std::string e = error_of(yaml);
  EXPECT_NE(e.find("bad.yaml:3:3: gpus: 9 GPUs but preset dgx-h100 has 8 GPU positions"), std::string::npos) << e;
}

TEST(Description, BadBandwidthAndEnum) {
  std::string e = error_of(std::string(k_minimal) + "tenancy: shared\n");
  EXPECT_NE(e.find("tenancy: unknown value 'shared' (known: single, multi-tenant)"), std::string::npos) << e;
  e = error_of("gpus: [{index: 0}]\nslots: [{gen: 5, lanes: 16}]\nfabric: {gpu_bandwidth_gbps: 300}\n");
  EXPECT_NE(e.find("fabric.gpu_bandwidth_gbps: must be 100, 200, 400 or 800, got 300"), std::string::npos) << e;
}

TEST(Description, PresetOverride) {
  rk::Result<sel::Description> d =
      sel::load_description_text("preset: gb200-tray\ntenancy: multi-tenant\nstorage: nvme-of\n", "mt.yaml");
  ASSERT_TRUE(d) << d.error().describe();
  EXPECT_EQ(d->key, "gb200-tray");
  EXPECT_EQ(d->tenancy, sel::Tenancy::multi_tenant);
  EXPECT_EQ(d->gpus.size(), 4u);
}

TEST(Description, UnknownModelNamesTheField) {
  rk::Result<sel::Description> d =
      sel::load_description_text(std::string(k_minimal) + "nic_model: connectx-9\n", "m.yaml");
  ASSERT_TRUE(d);
  rk::Result<sel::Selection> s = sel::select_nics(*d, rk::catalog::Catalog::builtin());
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().describe().find("nic_model: unknown model 'connectx-9' (known: "), std::string::npos)
      << s.error().describe();
}
