#!/bin/sh
# deploy/: systemd-analyze verify on the unit (ExecStart pointed at the built binary) and the
# DaemonSet's least-privilege fields. Prints "SKIP: <reason>" for a missing tool.
# Usage: deploy_test.sh ROCEKIT SOURCE_DIR
set -eu
ROCEKIT=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
if command -v systemd-analyze >/dev/null 2>&1; then
  sed "s|/usr/local/bin/rocekit|$ROCEKIT|" "$SRC/deploy/systemd/rocekit-exporter.service" >"$TMP/rocekit-exporter.service"
  # Documentation=man:rocekit-exporter(1): verify runs man, which finds the build's page.
  out=$(MANPATH="$(dirname "$ROCEKIT")/man" systemd-analyze verify "$TMP/rocekit-exporter.service" 2>&1) || { echo "$out"; echo "FAIL: systemd-analyze verify"; exit 1; }
  # verify also reports problems of other units on the host; only lines naming ours count.
  if echo "$out" | grep -q "rocekit-exporter.service"; then echo "$out"; echo "FAIL: unit warnings"; exit 1; fi
  echo "ok: systemd-analyze verify rocekit-exporter.service"
  grep -q '^DynamicUser=yes' "$TMP/rocekit-exporter.service"
  grep -q '^ProtectSystem=strict' "$TMP/rocekit-exporter.service"
  grep -q '^CapabilityBoundingSet=$' "$TMP/rocekit-exporter.service"
  # The descriptor limit for the held counter files is set by the unit.
  grep -q '^LimitNOFILE=65536$' "$TMP/rocekit-exporter.service"
else
  echo "SKIP: systemd-analyze not installed"
fi
PY=python3
$PY -c 'import yaml' 2>/dev/null || PY=/usr/bin/python3
$PY -c 'import yaml' 2>/dev/null || { echo "SKIP: no python3 yaml module"; exit 0; }
$PY - "$SRC/deploy/kubernetes/rocekit-exporter-daemonset.yaml" <<'PYEOF'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["kind"] == "DaemonSet"
spec = d["spec"]["template"]["spec"]
assert spec["hostNetwork"] is True
assert spec["securityContext"]["runAsNonRoot"] is True
assert spec["automountServiceAccountToken"] is False
(c,) = spec["containers"]
sc = c["securityContext"]
assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False
assert sc["capabilities"]["drop"] == ["ALL"] and "add" not in sc["capabilities"]
assert all(m["readOnly"] is True for m in c["volumeMounts"])
assert [v["hostPath"]["path"] for v in spec["volumes"]] == ["/sys"]
assert "--root=/host" in c["args"] and any(a.startswith("--listen=") for a in c["args"])
# The image scripts/build-image.sh builds: its entrypoint is rocekit-exporter, so no subcommand.
assert c["image"].split("/")[-1].startswith("rocekit-exporter:") and "exporter" not in c["args"]
print("ok: DaemonSet hostNetwork, read-only /sys, non-root, read-only root fs, no capabilities")
PYEOF
echo PASS
