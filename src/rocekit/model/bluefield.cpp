#include "rocekit/model/bluefield.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace rk {

namespace {

bool names_bluefield(const std::optional<std::string>& s) {
  if (!s) return false;
  std::string low = *s;
  std::transform(low.begin(), low.end(), low.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return low.find("bluefield") != std::string::npos;
}

/// The number of a printed NV value: "EMBEDDED_CPU(1)" -> 1, "1" -> 1 (mlxconfig prints an enum
/// as NAME(value): "INTERNAL_CPU_MODEL  EMBEDDED_CPU(1) EMBEDDED_CPU(1) EMBEDDED_CPU(1)" in
/// Mellanox/mstflint issue 830, testdata/corpus/mlxconfig); nullopt otherwise.
std::optional<int> nv_number(const std::optional<std::string>& v) {
  if (!v || v->empty()) return std::nullopt;
  std::string_view t = *v;
  if (t.back() == ')') {
    std::size_t open = t.rfind('(');
    if (open == std::string_view::npos) return std::nullopt;
    t = t.substr(open + 1, t.size() - open - 2);
  }
  if (t.empty() || t.size() > 4 ||
      !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoi(std::string(t));
}

struct Column {
  std::string name;
  std::optional<std::string> (*get)(const NvParam&);
};

std::optional<std::string> current_of(const NvParam& p) { return p.current_value; }
std::optional<std::string> next_of(const NvParam& p) {
  return p.new_value ? p.new_value : p.next_boot_value;
}

/// The mode one column gives (mstflint mlxconfig_host.db, TLV nv_internal_cpu_conf: model
/// SEPARATED_HOST=0x0 / EMBEDDED_CPU=0x1; offload_engine ENABLED=0x0 / DISABLED=0x1 and
/// esw_manager ECPF=0x0 / EXT_HOST_PF=0x1, "Valid for INTERNAL_CPU_MODEL = EMBEDDED_CPU").
/// NIC mode is EMBEDDED_CPU with the offload engine disabled (BlueField-3, DOCA "BlueField Modes
/// of Operation"), or with the host PF as embedded switch manager (BlueField-2's NIC mode
/// settings: page supplier, eswitch manager and IB vport0 EXT_HOST_PF).
std::pair<std::string, std::string> mode_in(const NvConfig& nv, const Column& col) {
  auto val = [&](const char* name) -> std::optional<std::string> {
    const NvParam* p = nv.find(name);
    return p ? col.get(*p) : std::nullopt;
  };
  std::optional<std::string> model = val("INTERNAL_CPU_MODEL");
  std::optional<int> m = nv_number(model);
  if (!m)
    return {"unknown", model ? "INTERNAL_CPU_MODEL " + *model + " is not a known value"
                             : "no INTERNAL_CPU_MODEL value"};
  std::string why = "INTERNAL_CPU_MODEL " + *model;
  if (*m == 0) return {"separated_host", why};
  if (*m != 1)
    return {"unknown", why + " is not a known value (SEPARATED_HOST(0), EMBEDDED_CPU(1))"};
  std::optional<std::string> offload = val("INTERNAL_CPU_OFFLOAD_ENGINE");
  std::optional<std::string> esw = val("INTERNAL_CPU_ESWITCH_MANAGER");
  if (offload) why += ", INTERNAL_CPU_OFFLOAD_ENGINE " + *offload;
  if (nv_number(offload) == 1) return {"nic", why};
  if (esw) why += ", INTERNAL_CPU_ESWITCH_MANAGER " + *esw;
  if (nv_number(esw) == 1) return {"nic", why};
  return {"dpu", why};
}

}  // namespace

bool is_bluefield(const PciFunction& p) {
  if (p.nv_config.has_value() && p.nv_config->find("INTERNAL_CPU_MODEL")) return true;
  if (names_bluefield(p.device_name) || names_bluefield(p.vpd_product_name)) return true;
  if (p.nv_config.has_value() && names_bluefield(p.nv_config->description)) return true;
  return p.firmware.has_value() && names_bluefield(p.firmware->description);
}

std::optional<BlueFieldMode> bluefield_mode_of(const PciFunction& p) {
  if (!p.nv_config.has_value() || !is_bluefield(p)) return std::nullopt;
  const NvConfig& nv = *p.nv_config;
  BlueFieldMode b;
  b.source = p.nv_config.source;
  const NvParam* model = nv.find("INTERNAL_CPU_MODEL");
  if (!model) {
    b.mode = "unknown";
    b.why = "the firmware NV query holds no INTERNAL_CPU_MODEL row (query it whole: mlxconfig -d " +
            p.bdf + " q)";
    return b;
  }
  b.source.line = model->line;
  b.source.text = model->name;
  const Column current{"Current", current_of};
  const Column next{"Next Boot", next_of};
  bool use_current = model->current_value.has_value();
  const Column& col = use_current ? current : next;
  b.column = col.name;
  auto value = [&](const char* name) -> std::optional<std::string> {
    const NvParam* q = nv.find(name);
    return q ? col.get(*q) : std::nullopt;
  };
  b.internal_cpu_model = value("INTERNAL_CPU_MODEL");
  b.offload_engine = value("INTERNAL_CPU_OFFLOAD_ENGINE");
  b.eswitch_manager = value("INTERNAL_CPU_ESWITCH_MANAGER");
  b.page_supplier = value("INTERNAL_CPU_PAGE_SUPPLIER");
  b.ib_vport0 = value("INTERNAL_CPU_IB_VPORT0");
  auto [mode, why] = mode_in(nv, col);
  b.mode = mode;
  b.why = why + " (" + col.name + ")";
  if (use_current && next_of(*model)) {
    auto [next_mode, next_why] = mode_in(nv, next);
    if (next_mode != mode) {
      b.next_boot_mode = next_mode;
      b.why += "; Next Boot: " + next_why;
    }
  }
  return b;
}

void fill_bluefield_modes(Snapshot& s) {
  for (PciFunction& p : s.pci_functions) p.bluefield_mode = bluefield_mode_of(p);
}

const BlueFieldMode* dpu_mode(const PciFunction& p) {
  return p.bluefield_mode && p.bluefield_mode->mode == "dpu" ? &*p.bluefield_mode : nullptr;
}

std::optional<std::string> representor_uplink(std::string_view netdev) {
  // pf<N>hpf or pf<N>vf<M>
  if (!netdev.starts_with("pf")) return std::nullopt;
  std::size_t i = 2;
  while (i < netdev.size() && std::isdigit(static_cast<unsigned char>(netdev[i]))) ++i;
  if (i == 2) return std::nullopt;
  std::string port(netdev.substr(2, i - 2));
  std::string_view rest = netdev.substr(i);
  if (rest == "hpf") return "p" + port;
  if (rest.starts_with("vf") && rest.size() > 2 &&
      std::all_of(rest.begin() + 2, rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return "p" + port;
  return std::nullopt;
}

namespace {

bool digits(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// The uplink of an SF representor name en<bus>f<fn>pf<N>sf<M> ("en3f0pf0sf0" on a BlueField-2
/// Arm, lshca issue 62): p<N>.
std::optional<std::string> sf_representor_uplink(std::string_view netdev) {
  std::size_t sf = netdev.rfind("sf");
  std::size_t pf = netdev.rfind("pf", sf);
  if (!netdev.starts_with("en") || sf == std::string_view::npos || pf == std::string_view::npos ||
      !digits(netdev.substr(pf + 2, sf - pf - 2)) || !digits(netdev.substr(sf + 2)))
    return std::nullopt;
  return "p" + std::string(netdev.substr(pf + 2, sf - pf - 2));
}

/// `pci/0000:03:00.0/196608` -> `pci/0000:03:00.0` (the devlink instance).
std::string_view devlink_instance(std::string_view handle) {
  std::size_t slash = handle.rfind('/');
  return slash == std::string_view::npos ? handle : handle.substr(0, slash);
}

bool flavour_is(const NetDev& n, std::string_view f) {
  return n.devlink_port && n.devlink_port->flavour && *n.devlink_port->flavour == f;
}

/// The PCI function of a devlink instance `pci/0000:03:00.0`; nullptr for another bus or one
/// the snapshot does not hold.
const PciFunction* instance_function(const Snapshot& s, std::string_view instance) {
  if (!instance.starts_with("pci/")) return nullptr;
  std::optional<std::string> bdf = normalize_bdf(instance.substr(4));
  return bdf ? s.find_pci(*bdf) : nullptr;
}

/// "; devlink dev eswitch show pci/0000:03:00.0: mode switchdev" when `p` is in switchdev mode,
/// else "".
std::string switchdev_evidence(const PciFunction* p) {
  if (!p || !p->eswitch || p->eswitch->mode != "switchdev") return "";
  return "; " + *eswitch_evidence(*p);
}

/// The uplink of the Arm OS's SF netdev from its name: en<PF name>f<fn>s<M> ("enp3s0f0s0") ->
/// p<fn> (the function number is the port number, as arm_side_names()).
std::optional<std::string> sf_netdev_uplink(std::string_view netdev) {
  std::size_t s = netdev.rfind('s');
  if (s == std::string_view::npos || !digits(netdev.substr(s + 1))) return std::nullopt;
  std::string_view pf = netdev.substr(0, s);
  std::size_t f = pf.rfind('f');
  if (!netdev.starts_with("en") || f == std::string_view::npos || !digits(pf.substr(f + 1)))
    return std::nullopt;
  return "p" + std::string(pf.substr(f + 1));
}

}  // namespace

std::optional<std::string> eswitch_evidence(const PciFunction& p) {
  if (!p.eswitch) return std::nullopt;
  std::string what = "devlink dev eswitch show pci/" + p.bdf + ": ";
  if (p.eswitch->mode) return what + "mode " + *p.eswitch->mode;
  if (p.eswitch->kernel_error) return what + "kernel answers: " + *p.eswitch->kernel_error;
  return std::nullopt;
}

std::optional<ArmSubFunction> arm_sub_function(const NetDev& n) {
  ArmSubFunction sf;
  const std::optional<DevlinkPortInfo>& dp = n.devlink_port;
  const std::optional<std::string> bus_info = n.driver.has_value() ? n.driver->bus_info : std::nullopt;
  if (dp && dp->handle.starts_with("auxiliary/mlx5_core.sf.")) {
    sf.why = "devlink port " + dp->handle + (dp->flavour ? " flavour " + *dp->flavour : "");
  } else if (bus_info && bus_info->starts_with("mlx5_core.sf.")) {
    sf.why = "ethtool -i bus-info " + *bus_info;
  } else if (!dp && !bus_info && sf_netdev_uplink(n.name) && !sf_representor_uplink(n.name)) {
    // Neither devlink nor ethtool -i read: the name DOCA gives the Arm OS's SF (en<PF>s<M>).
    sf.why = "the Arm OS SF netdev name en<PF>s<N>";
  } else {
    return std::nullopt;
  }
  sf.uplink = sf_netdev_uplink(n.name);
  return sf;
}

std::optional<Representor> representor_of(const Snapshot& s, const NetDev& n) {
  Representor r;
  const std::optional<DevlinkPortInfo>& dp = n.devlink_port;
  std::string flavour = dp && dp->flavour ? *dp->flavour : "";
  bool rep_driver = n.driver.has_value() && n.driver->driver == "mlx5e_rep";
  if (flavour == "pcipf" || flavour == "pcivf" || flavour == "pcisf") {
    r.why = "devlink port " + dp->handle + " flavour " + flavour;
    r.of = flavour == "pcisf" ? "a sub-function (SF)" : "the host PF/VF";
    // controller 0 / external false: the SF belongs to this side (on a BlueField's Arm, the Arm
    // OS's own SF; the host's SFs are controller 1, external true).
    if (flavour == "pcisf" && (dp->controller == 0 || dp->external == false))
      r.of = "a local sub-function (SF, controller 0)";
    // The representors of a switchdev eswitch: its mode is the evidence that they stand for
    // functions attached to it.
    r.why += switchdev_evidence(instance_function(s, devlink_instance(dp->handle)));
    for (const NetDev& m : s.netdevs)
      if (flavour_is(m, "physical") &&
          devlink_instance(m.devlink_port->handle) == devlink_instance(dp->handle))
        r.uplink = m.name;
  } else if (!flavour.empty()) {
    return std::nullopt;  // physical (the uplink), virtual, cpu, dsa
  } else if (std::optional<std::string> up = representor_uplink(n.name)) {
    r.of = "the host PF/VF";
    r.why = rep_driver ? "driver mlx5e_rep" : "DOCA representor name";
    r.by_name_only = !rep_driver;
    r.uplink = up;
  } else if (std::optional<std::string> sf = sf_representor_uplink(n.name)) {
    r.of = "a sub-function (SF)";
    r.why = rep_driver ? "driver mlx5e_rep" : "DOCA SF representor name";
    r.by_name_only = !rep_driver;
    r.uplink = sf;
  } else if (rep_driver) {
    r.of = "a function";
    r.why = "driver mlx5e_rep";
  } else {
    return std::nullopt;
  }
  if (!r.uplink) r.uplink = representor_uplink(n.name);
  if (!r.uplink) r.uplink = sf_representor_uplink(n.name);
  return r;
}

std::optional<std::string> bluefield_arm_side(const Snapshot& s) {
  // The mlx5 driver registers a pcipf port (the host PF's representor) only on an embedded CPU
  // function that manages the eswitch (ECPF): a BlueField's Arm side in DPU mode. A ConnectX
  // host in switchdev mode shows physical and pcivf ports only.
  const NetDev* uplink = nullptr;
  const NetDev* host_pf = nullptr;
  for (const NetDev& n : s.netdevs) {
    if (!uplink && flavour_is(n, "physical")) uplink = &n;
    if (!host_pf && flavour_is(n, "pcipf")) host_pf = &n;
  }
  if (uplink && host_pf) {
    const DevlinkPortInfo& h = *host_pf->devlink_port;
    std::string ext =
        h.external == true
            ? ", external" +
                  (h.controller ? " controller " + std::to_string(*h.controller) : std::string())
            : "";
    // The uplink's PCI function (the ECPF) in switchdev mode confirms it manages the switch.
    return "devlink port: uplink " + uplink->name + " (flavour physical) and host PF representor " +
           host_pf->name + " (flavour pcipf" + ext + ")" +
           switchdev_evidence(instance_function(s, devlink_instance(uplink->devlink_port->handle)));
  }
  // Without the devlink ports: a PF in switchdev mode confirms what the kernel or a name says.
  std::string esw;
  for (const PciFunction& p : s.pci_functions)
    if (esw.empty()) esw = switchdev_evidence(&p);
  // The BlueField Arm OS runs a "-bluefield" kernel flavour (Ubuntu 22.04 5.15.0-1035-bluefield
  // on a BlueField-3 with DOCA 2.9.2, j3soon/bluefield-dpu-setup-notes).
  if (s.kernel_release.has_value() && s.kernel_release->ends_with("-bluefield"))
    return "kernel " + *s.kernel_release + esw;
  for (const NetDev& n : s.netdevs)
    if (n.name.ends_with("hpf") && representor_uplink(n.name))
      return "netdev " + n.name + " (host PF representor)" + esw;
  return std::nullopt;
}

std::string arm_side_names(const std::string& bdf) {
  std::string port = "0";
  if (std::size_t dot = bdf.rfind('.'); dot != std::string::npos && dot + 1 < bdf.size())
    port = bdf.substr(dot + 1);
  return "p" + port + "/pf" + port + "hpf";
}

}  // namespace rk
