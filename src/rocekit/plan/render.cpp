// Plan renderers: bash script (render_sh) and JSON (render_json). Every word taken from the
// snapshot or the policy is quoted with shell_quote where the shell would split or expand it; the
// script's own helpers quote again, as shell_quote does, when they echo (show_words).
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "rocekit/plan/plan.hpp"

namespace rk::plan {

std::string node_guid_hex(std::string_view g) {
  if (g.starts_with("0x") || g.starts_with("0X")) g.remove_prefix(2);
  std::string out;
  for (char c : g)
    if (std::isxdigit(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {

std::string quoted_words(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    out += shell_quote(w);
  }
  return out;
}

/// A comment line cannot break out of the comment: newlines and CRs are replaced.
std::string comment_safe(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

/// The header lines every rendering starts with: disruptions first, then the change table.
std::string header_comments(const Plan& plan) {
  std::string out;
  for (const std::string& l : summary_lines(plan)) out += "# " + comment_safe(l) + "\n";
  return out;
}

constexpr std::string_view k_sh_prelude = R"SH(set -euo pipefail

execute=0
if [[ $# -gt 0 ]]; then
  if [[ $# -eq 1 && $1 == --execute ]]; then
    execute=1
  else
    printf 'usage: %s [--execute]\n' "$0" >&2
    exit 2
  fi
fi
sysroot=${RK_SYSROOT:-}
current_step=0
trap 'printf "rocekit: stopped at step %s: a command or read-back failed\n" "$current_step" >&2' ERR

step() {
  current_step=$1
  printf '==> step %s/%s: %s\n' "$1" "$total_steps" "$2"
}

# Prints the words as they would be typed: a word of only [A-Za-z0-9_./:@%+=,-] as it is, any
# other in single quotes (core/shell.cpp shell_quote; printf %q would print 0\,0\,0\,1).
show_words() {
  local w q="'\\''"
  for w in "$@"; do
    if [[ $w =~ ^[A-Za-z0-9_./:@%+=,-]+$ ]]; then
      printf ' %s' "$w"
    else
      printf " '%s'" "${w//"'"/$q}"
    fi
  done
}

run() {
  printf '    $'
  show_words "$@"
  printf '\n'
  if [[ $execute -eq 1 ]]; then
    "$@"
  fi
}

write_value() {
  printf '    write%s >%s\n' "$(show_words "$2")" "$(show_words "$sysroot$1")"
  if [[ $execute -eq 1 ]]; then
    printf '%s\n' "$2" >"$sysroot$1"
  fi
}

match_all() {
  local out=$1 re
  shift
  for re in "$@"; do
    if ! grep -Eq -- "$re" <<<"$out"; then
      printf 'rocekit: read-back does not match %s:\n%s\n' "$re" "$out" >&2
      return 1
    fi
  done
}

check() {
  local -a regexes=()
  while [[ $1 != -- ]]; do
    regexes+=("$1")
    shift
  done
  shift
  printf '    check:'
  show_words "$@"
  printf '\n'
  if [[ $execute -eq 1 ]]; then
    local out
    out=$("$@")
    match_all "$out" "${regexes[@]}"
  fi
}

check_file() {
  local path=$sysroot$1
  shift
  printf '    check:%s\n' "$(show_words "$path")"
  if [[ $execute -eq 1 ]]; then
    local out
    out=$(cat -- "$path")
    match_all "$out" "$@"
  fi
}

if [[ $execute -eq 0 ]]; then
  printf 'DRY RUN: nothing is changed; pass --execute to apply.\n'
fi
)SH";

/// Before the first step of --execute: refuse (exit 2) unless this is the plan's host, the
/// same checks as identity_mismatches (apply.cpp), under $RK_SYSROOT. RK_FORCE=1 overrides.
std::string identity_guard_sh(const Plan& plan) {
  std::string out =
      "\n# This plan is for one host: refuse to run elsewhere (RK_FORCE=1 overrides).\n"
      "not_this_host() {\n"
      "  printf 'rocekit: refusing: %s; nothing was changed (RK_FORCE=1 overrides)\\n' \"$1\" >&2\n"
      "  exit 2\n"
      "}\n"
      "if [[ $execute -eq 1 && ${RK_FORCE:-0} != 1 ]]; then\n"
      "  trap - ERR\n"
      "  this_host=$(cat -- \"$sysroot/proc/sys/kernel/hostname\" 2>/dev/null || true)\n"
      + (plan.hostname.empty()
             ? std::string("  [[ -z $this_host ]] || not_this_host \"the plan names no host (the input had no "
                           "hostname), this host is $this_host: once you have confirmed it is the machine the input came "
                           "from, rerun with RK_FORCE=1\"\n")
             : "  plan_host=" + shell_quote(plan.hostname) + "\n"
               "  [[ $this_host == \"$plan_host\" ]] ||\n"
               "    not_this_host \"the plan is for host $plan_host, this host is ${this_host:-(unknown)}\"\n");
  for (const std::string& n : plan.identity.netdevs)
    out += "  [[ -e $sysroot/sys/class/net/" + shell_quote(n) + " ]] || not_this_host " +
           shell_quote("netdev " + n + " named by the plan is not on this host") + "\n";
  for (const std::string& b : plan.identity.bdfs)
    out += "  [[ -e $sysroot/sys/bus/pci/devices/" + shell_quote(b) + " ]] || not_this_host " +
           shell_quote("PCI function " + b + " named by the plan is not on this host") + "\n";
  for (const auto& [dev, guid] : plan.identity.node_guids)
    out += "  [[ $(tr -cd '0-9a-fA-F' <\"$sysroot/sys/class/infiniband/\"" + shell_quote(dev) +
           "/node_guid 2>/dev/null | tr 'A-F' 'a-f') == " + shell_quote(node_guid_hex(guid)) +
           " ]] || not_this_host " +
           shell_quote("RDMA device " + dev + " does not have the plan's node GUID " + guid) + "\n";
  out += "  trap 'printf \"rocekit: stopped at step %s: a command or read-back failed\\n\" \"$current_step\" >&2' ERR\n"
         "fi\n";
  return out;
}

}  // namespace

std::string render_sh(const Plan& plan) {
  std::string out = "#!/usr/bin/env bash\n";
  // SC2016: names and regexes are single-quoted on purpose, a '$' in them must stay literal.
  out += "# shellcheck disable=SC2016\n";
  out += "# Generated by rocekit plan. Review before running.\n";
  out += "# host: " + comment_safe(plan.hostname.empty() ? "(unknown)" : plan.hostname) +
         "  policy: " + comment_safe(plan.policy_name) + "  actions: " +
         std::to_string(plan.actions.size()) + "\n";
  out += "# Dry run unless --execute. RK_SYSROOT, when set, prefixes every /sys and /proc path (a test tree; leave it unset on a host).\n";
  out += header_comments(plan);
  for (const std::string& w : plan.warnings) out += "# WARNING: " + comment_safe(w) + "\n";
  if (!plan.nv_validation.empty())
    out += "# firmware parameters: " + comment_safe(plan.nv_validation) + "\n";
  for (const Unplanned& u : plan.unplanned)
    out += "# not planned: " + comment_safe(u.rule + " " + u.subject + ": " + u.reason) + "\n";
  out += std::string(k_sh_prelude);
  out += "total_steps=" + std::to_string(plan.actions.size()) + "\n";
  if (!plan.actions.empty()) out += identity_guard_sh(plan);
  // A firmware step without an image (fix::firmware_image_placeholder): the script prints its
  // steps but refuses --execute, before step 1.
  for (const std::string& why : missing_firmware_images(plan))
    out += "if [[ $execute -eq 1 ]]; then\n  printf 'rocekit: %s\\n' " + shell_quote(why) +
           " >&2\n  exit 1\nfi\n";
  if (plan.actions.empty()) {
    out += plan.unplanned.empty()
               ? "printf 'nothing to do: the host matches the policy\\n'\n"
               : "printf 'nothing to do: no step planned; read the not-planned lines at the top of this script\\n'\n";
    return out;
  }
  std::size_t n = 0;
  for (const Action& a : plan.actions) {
    ++n;
    std::string title = a.rule + " " + a.subject + ": " + a.current + " -> " + a.desired + " (" +
                        std::string(to_string(a.scope)) + ")";
    out += "\n# " + comment_safe(title) + "\n";
    if (!a.note.empty()) out += "# " + comment_safe(a.note) + "\n";
    if (a.disruption != Disruption::none)
      out += "# DISRUPTIVE (" + std::string(to_string(a.disruption)) + "): " + comment_safe(a.disruption_why) + "\n";
    out += "step " + std::to_string(n) + " " + shell_quote(title) + "\n";
    if (a.write_path) {
      out += "write_value " + shell_quote(*a.write_path) + " " + shell_quote(a.write_value) + "\n";
      out += "check_file " + shell_quote(*a.write_path) + " " + quoted_words(a.check_regex) + "\n";
    } else {
      out += "run " + quoted_words(a.argv) + "\n";
      out += "check " + quoted_words(a.check_regex) + " -- " + quoted_words(a.check_argv) + "\n";
    }
  }
  out += "\nprintf 'done: %s steps\\n' \"$total_steps\"\n";
  return out;
}

std::vector<GeneratedFile> render_systemd(const Plan& plan) {
  Plan runtime = plan;
  runtime.actions.clear();
  for (const Action& a : plan.actions)
    if (a.scope == FixScope::runtime) runtime.actions.push_back(a);
  const std::string script = "/usr/local/libexec/rocekit/rocekit-roce-runtime.sh";
  std::string unit =
      "# Generated by rocekit plan --format systemd. Re-applies the RoCE runtime settings\n"
      "# (DCB/QoS, ECN, MTU, MaxReadReq, coalescing) that are lost at reboot.\n"
      "[Unit]\n"
      "Description=Re-apply RoCE runtime settings (rocekit plan)\n"
      "Wants=network-pre.target\n"
      "After=network-pre.target\n"
      "Before=network.target\n"
      "\n"
      "[Service]\n"
      "Type=oneshot\n"
      "RemainAfterExit=yes\n"
      "ExecStart=" + script + " --execute\n"
      "\n"
      "[Install]\n"
      "WantedBy=multi-user.target\n";
  std::string rule =
      "# Generated by rocekit plan --format systemd: re-apply the RoCE runtime settings when an\n"
      "# mlx5 netdev appears (driver reload, hotplug, VF/SF re-creation).\n"
      "ACTION==\"add\", SUBSYSTEM==\"net\", DRIVERS==\"mlx5_core\", "
      "RUN+=\"/usr/bin/systemctl --no-block restart rocekit-roce.service\"\n";
  return {{"rocekit-roce-runtime.sh", script, render_sh(runtime)},
          {"rocekit-roce.service", "/etc/systemd/system/rocekit-roce.service", unit},
          {"90-rocekit-roce.rules", "/etc/udev/rules.d/90-rocekit-roce.rules", rule}};
}

namespace {

/// A YAML double-quoted scalar tagged !unsafe (JSON string escaping is valid YAML).
std::string unsafe(const std::string& s) {
  return "!unsafe " + nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string unsafe_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + unsafe(v[i]);
  return out + "]";
}

std::string python_regex(std::string re) {
  for (std::size_t at; (at = re.find("[[:space:]]")) != std::string::npos;) re.replace(at, 11, "\\s");
  return re;
}

}  // namespace

namespace {

/// Whom a plan is for: its hostname, else the last part of the input's path (the capture
/// directory, tarball or snapshot file), as `rocekit fleet` names a host without hostname.
std::string plan_for(const Plan& plan) {
  if (!plan.hostname.empty()) return plan.hostname;
  std::string_view in = plan.input;
  while (in.size() > 1 && in.back() == '/') in.remove_suffix(1);
  if (std::size_t slash = in.rfind('/'); slash != std::string_view::npos && in.size() > 1) in.remove_prefix(slash + 1);
  if (in.empty()) return "(no hostname, no input name)";
  return std::string(in) + " (no hostname in the input)";
}

/// One play for one host's plan. Every inventory host runs it, but a host whose hostname
/// (under rk_sysroot, default "") is not the plan's ends the play at once (meta end_host), so
/// each host applies only its own plan; the matching host then checks the netdevs, PCI
/// functions and node GUIDs the plan names before the first change, and records rk_planned.
std::string ansible_play(const Plan& plan, std::size_t play) {
  std::string out;
  out += "# host: " + comment_safe(plan_for(plan)) +
         "  policy: " + comment_safe(plan.policy_name) + "  actions: " +
         std::to_string(plan.actions.size()) + "\n";
  out += header_comments(plan);
  for (const std::string& w : plan.warnings) out += "# WARNING: " + comment_safe(w) + "\n";
  if (!plan.nv_validation.empty())
    out += "# firmware parameters: " + comment_safe(plan.nv_validation) + "\n";
  for (const Unplanned& u : plan.unplanned)
    out += "# not planned: " + comment_safe(u.rule + " " + u.subject + ": " + u.reason) + "\n";
  out += "- name: " + unsafe("rocekit plan for " + plan_for(plan)) + "\n";
  out += "  hosts: all\n  become: true\n  gather_facts: false\n";
  out += "  environment: \"{{ rk_environment | default({}) }}\"\n";
  out += "  vars:\n    rk_plan_host: " + unsafe(plan.hostname) + "\n";
  std::vector<std::string> paths;
  for (const std::string& n : plan.identity.netdevs) paths.push_back("/sys/class/net/" + n);
  for (const std::string& b : plan.identity.bdfs) paths.push_back("/sys/bus/pci/devices/" + b);
  out += "    rk_paths: " + unsafe_list(paths) + "\n";
  std::vector<std::string> guid_files, guids;
  for (const auto& [dev, guid] : plan.identity.node_guids) {
    guid_files.push_back("/sys/class/infiniband/" + dev + "/node_guid");
    guids.push_back(node_guid_hex(guid));
  }
  out += "    rk_guid_files: " + unsafe_list(guid_files) + "\n";
  out += "    rk_guids: " + unsafe_list(guids) + "\n";
  out += "  tasks:\n";
  std::string p = std::to_string(play);
  out += "    - name: \"this host's name\"\n"
         "      ansible.builtin.command:\n"
         "        argv: [\"cat\", \"{{ rk_sysroot | default('') }}/proc/sys/kernel/hostname\"]\n"
         "      register: rk_hostname_" + p + "\n      changed_when: false\n";
  out += "    - name: \"not this plan's host: skip it\"\n"
         "      ansible.builtin.meta: end_host\n"
         "      when: rk_hostname_" + p + ".stdout | trim != rk_plan_host\n";
  out += "    - name: \"the netdevs and PCI functions the plan names are on this host\"\n"
         "      ansible.builtin.stat:\n        path: \"{{ rk_sysroot | default('') }}{{ item }}\"\n"
         "      loop: \"{{ rk_paths }}\"\n      register: rk_stat\n"
         "      failed_when: not rk_stat.stat.exists\n";
  out += "    - name: \"the RDMA devices have the plan's node GUIDs\"\n"
         "      ansible.builtin.command:\n        argv: [\"cat\", \"{{ rk_sysroot | default('') }}{{ item.0 }}\"]\n"
         "      loop: \"{{ rk_guid_files | zip(rk_guids) | list }}\"\n      register: rk_guid\n"
         "      changed_when: false\n"
         "      failed_when: rk_guid.rc != 0 or (rk_guid.stdout | regex_replace('[^0-9a-fA-F]', '') | lower) != item.1\n";
  for (const std::string& why : missing_firmware_images(plan))
    out += "    - name: \"a firmware step has no image\"\n      ansible.builtin.fail:\n        msg: " + unsafe(why) + "\n";
  out += "    - name: \"this host has a rocekit plan\"\n"
         "      ansible.builtin.set_fact:\n        rk_planned: true\n";
  std::size_t n = 0;
  for (const Action& a : plan.actions) {
    ++n;
    std::string id = p + "_" + std::to_string(n);
    std::string title = std::to_string(n) + "/" + std::to_string(plan.actions.size()) + " " + a.rule + " " +
                        a.subject + ": " + a.current + " -> " + a.desired;
    if (a.disruption != Disruption::none) title += " [" + std::string(to_string(a.disruption)) + "]";
    std::vector<std::string> read_argv = a.write_path ? std::vector<std::string>{"cat", *a.write_path}
                                                      : a.check_argv;
    std::vector<std::string> res;
    for (const std::string& r : a.check_regex) res.push_back(python_regex(r));
    // MTU is a minimum: act only when the MTU read is below the plan's, and accept any MTU at
    // or above it afterwards (never lower a 9000 MTU that was raised since the plan was made).
    bool minimum = a.kind == ActionKind::mtu && !a.desired.empty() &&
                   std::all_of(a.desired.begin(), a.desired.end(), [](char c) { return c >= '0' && c <= '9'; });
    std::string mtu_of = "(rk_out_" + id + ".stdout | regex_search(' mtu ([0-9]+) ', '\\\\1') | default(['0'], true) | first | int)";
    std::string when;
    if (minimum) {
      when = mtu_of + " < " + a.desired;
    } else {
      for (std::size_t r = 0; r < res.size(); ++r)
        when += std::string(r ? " or " : "") + "not (rk_out_" + id + ".stdout_lines | select('search', rk_res[" +
                std::to_string(r) + "]) | list)";
      if (when.empty()) when = "true";
    }
    out += "    - name: " + unsafe(title + " (read)") + "\n";
    out += "      ansible.builtin.command:\n        argv: " + unsafe_list(read_argv) + "\n";
    out += "      register: rk_out_" + id + "\n      changed_when: false\n";
    out += "    - name: " + unsafe(title) + "\n";
    if (a.write_path) {
      out += "      ansible.builtin.command:\n        argv: " + unsafe_list({"tee", *a.write_path}) +
             "\n        stdin: " + unsafe(a.write_value) + "\n";
    } else {
      out += "      ansible.builtin.command:\n        argv: " + unsafe_list(a.argv) + "\n";
    }
    out += "      vars:\n        rk_res: " + unsafe_list(res) + "\n";
    out += "      when: " + when + "\n";
    out += "      changed_when: true\n";
    if (minimum) {
      out += "    - name: " + unsafe(title + " (read-back)") + "\n";
      out += "      ansible.builtin.command:\n        argv: " + unsafe_list(read_argv) + "\n";
      out += "      register: rk_back\n      changed_when: false\n";
      out += "      failed_when: (rk_back.stdout | regex_search(' mtu ([0-9]+) ', '\\\\1') | default(['0'], true) | first | int) < " +
             a.desired + "\n";
      continue;
    }
    for (std::size_t r = 0; r < res.size(); ++r) {
      out += "    - name: " + unsafe(title + " (read-back " + std::to_string(r + 1) + ")") + "\n";
      out += "      ansible.builtin.command:\n        argv: " + unsafe_list(read_argv) + "\n";
      out += "      vars:\n        rk_re: " + unsafe(res[r]) + "\n";
      out += "      register: rk_back\n      changed_when: false\n";
      out += "      failed_when: rk_back.stdout_lines | select('search', rk_re) | list | length == 0\n";
    }
  }
  return out;
}

}  // namespace

std::string render_ansible(const std::vector<Plan>& plans) {
  std::string out = "# Generated by rocekit plan --format ansible. Review before running.\n";
  out += "# One play per host plan: each inventory host applies only the plan whose hostname is\n"
         "# its own (read from {{ rk_sysroot }}/proc/sys/kernel/hostname) and fails if it has none.\n";
  for (std::size_t i = 0; i < plans.size(); ++i) out += ansible_play(plans[i], i + 1);
  out += "- name: \"every host has a rocekit plan\"\n  hosts: all\n  gather_facts: false\n  tasks:\n"
         "    - name: \"no plan for this host\"\n"
         "      ansible.builtin.fail:\n"
         "        msg: \"no rocekit plan in this playbook is for this host: make one from its own capture\"\n"
         "      when: rk_planned is not defined\n";
  return out;
}

std::string render_ansible(const Plan& plan) { return render_ansible(std::vector<Plan>{plan}); }

nlohmann::ordered_json action_json(const Action& a) {
  nlohmann::ordered_json x;
  x["kind"] = std::string(to_string(a.kind));
  x["rule"] = a.rule;
  x["subject"] = a.subject;
  x["current"] = a.current;
  x["desired"] = a.desired;
  x["scope"] = std::string(to_string(a.scope));
  if (a.write_path) {
    x["write"] = {{"path", *a.write_path}, {"value", a.write_value}};
  } else {
    x["argv"] = a.argv;
    x["check_argv"] = a.check_argv;
  }
  x["check_regex"] = a.check_regex;
  if (a.write_path)
    x["undo"] = {{"write_value", a.undo_write_value}, {"check_regex", a.undo_check_regex}};
  else
    x["undo"] = {{"argv", a.undo_argv}, {"check_regex", a.undo_check_regex}};
  if (!a.note.empty()) x["note"] = a.note;
  x["disruption"] = std::string(to_string(a.disruption));
  if (!a.disruption_why.empty()) x["disruption_why"] = a.disruption_why;
  return x;
}

std::string render_json(const Plan& plan) {
  nlohmann::ordered_json j;
  j["schema"] = "rocekit-plan/1";
  j["hostname"] = plan.hostname;
  j["policy"] = plan.policy_name;
  j["qos_backend"] = plan.qos_backend == QosBackend::mlnx_qos ? "mlnx_qos" : "dcb";
  j["nv_backend"] = plan.nv_backend == NvBackend::mlxconfig ? "mlxconfig" : "mstconfig";
  j["identity"] = {{"netdevs", plan.identity.netdevs}, {"pci_functions", plan.identity.bdfs}};
  j["identity"]["node_guids"] = nlohmann::ordered_json::object();
  for (const auto& [dev, guid] : plan.identity.node_guids) j["identity"]["node_guids"][dev] = guid;
  j["disruptions"] = nlohmann::ordered_json::array();
  for (const PortDisruption& d : disruption_summary(plan))
    j["disruptions"].push_back(
        {{"subject", d.subject}, {"worst", std::string(to_string(d.worst))}, {"causes", d.causes}});
  j["actions"] = nlohmann::ordered_json::array();
  for (const Action& a : plan.actions) j["actions"].push_back(action_json(a));
  j["unplanned"] = nlohmann::ordered_json::array();
  for (const Unplanned& u : plan.unplanned)
    j["unplanned"].push_back({{"rule", u.rule}, {"subject", u.subject}, {"reason", u.reason}});
  j["warnings"] = plan.warnings;
  if (!plan.nv_validation.empty()) j["nv_validation"] = plan.nv_validation;
  // Captures may hold invalid UTF-8 in names: replace rather than throw.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace rk::plan
