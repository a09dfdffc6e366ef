#!/usr/bin/env python3
"""Validates data/compat/compat.json, the firmware/driver compatibility table (issue #24).

Usage: compat_table_test.py [REPO_ROOT]   (default: two levels above this file)

Checks: both JSON files parse; the schema keys are present with the right types; every release
and row cites an https page and a read date; firmware versions have the form NN.NN.NNNN and the
major matches the family's (catches a page that prints a ConnectX-7 version for ConnectX-6);
firmware_train keeps the xx.NN.NNNN form; no duplicate (release, family) row; every family maps
to catalog keys, device ids and firmware majors present in data/catalog.json; no row for a family
the release's notes say it does not support. Exit 0 when clean, 1 with one line per problem.
Python 3 standard library only, so it runs without building rocekit.
"""
import json
import os
import re
import sys

FW = re.compile(r"^\d{2}\.\d{2}\.\d{4}$")
TRAIN = re.compile(r"^xx\.\d{2}\.[0-9x]{4}$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
STACKS = {"MLNX_OFED", "DOCA-Host"}
BASES = {"bundled", "mft-paired", "mft-tested"}

problems = []


def bad(where, what):
    problems.append(f"{where}: {what}")


def need(obj, where, keys):
    """keys: {name: type or tuple of types}; reports missing keys and wrong types."""
    ok = True
    for key, typ in keys.items():
        if key not in obj:
            bad(where, f"missing key '{key}'")
            ok = False
        elif not isinstance(obj[key], typ):
            bad(where, f"'{key}' is {type(obj[key]).__name__}, want {typ}")
            ok = False
    return ok


def https(where, key, url):
    if not isinstance(url, str) or not url.startswith("https://"):
        bad(where, f"'{key}' is not an https URL: {url!r}")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    table_path = os.path.join(root, "data", "compat", "compat.json")
    catalog_path = os.path.join(root, "data", "catalog.json")
    try:
        with open(table_path, encoding="utf-8") as f:
            table = json.load(f)
        with open(catalog_path, encoding="utf-8") as f:
            catalog = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: {table_path} or {catalog_path}: {e}")
        return 1

    if not need(table, "compat.json", {"schema": str, "generated": str, "origin": str, "conventions": str,
                                       "families": list, "releases": list, "rows": list}):
        return report()
    if table["schema"] != "fw-driver-compat/1":
        bad("compat.json", f"unknown schema {table['schema']!r}")

    nics = {n["key"]: n for n in catalog.get("nics", [])}
    families = {}
    for i, fam in enumerate(table["families"]):
        where = f"families[{i}]"
        if not need(fam, where, {"family": str, "catalog_keys": list, "device_ids": list, "fw_major": int,
                                 "names_in_notes": list, "psid_examples": list}):
            continue
        where = f"family {fam['family']!r}"
        if fam["family"] in families:
            bad(where, "duplicate family")
        families[fam["family"]] = fam
        if not fam["catalog_keys"] or not fam["device_ids"]:
            bad(where, "needs at least one catalog key and one device id")
        catalog_ids = set()
        for key in fam["catalog_keys"]:
            nic = nics.get(key)
            if nic is None:
                bad(where, f"catalog key {key!r} is not in data/catalog.json")
                continue
            catalog_ids.add(nic["device_id"].lower())
            if nic.get("fw_major") != fam["fw_major"]:
                bad(where, f"fw_major {fam['fw_major']} but catalog {key} has {nic.get('fw_major')}")
        for dev in fam["device_ids"]:
            if dev.lower() not in catalog_ids:
                bad(where, f"device id {dev} is not the device_id of its catalog keys {sorted(catalog_ids)}")
        for p in fam["psid_examples"]:
            if not need(p, f"{where} psid_examples", {"psid": str, "part": str, "from": str}):
                continue

    releases = {}
    for i, rel in enumerate(table["releases"]):
        where = f"releases[{i}]"
        if not need(rel, where, {"id": str, "stack": str, "version": str, "line": str, "lts": bool,
                                 "match": dict, "sources": list, "read": str}):
            continue
        where = f"release {rel['id']!r}"
        if rel["id"] in releases:
            bad(where, "duplicate release id")
        releases[rel["id"]] = rel
        if rel["stack"] not in STACKS:
            bad(where, f"stack {rel['stack']!r} not in {sorted(STACKS)}")
        if not DATE.match(rel["read"]):
            bad(where, f"read date {rel['read']!r} is not YYYY-MM-DD")
        if not rel["sources"]:
            bad(where, "no source page")
        for url in rel["sources"]:
            https(where, "sources", url)
        need(rel["match"], f"{where} match", {"ofed_info_s": (str, type(None)), "package_origin": (str, type(None))})
        s = rel["match"].get("ofed_info_s")
        if rel["stack"] == "MLNX_OFED" and s != "MLNX_OFED_LINUX-" + rel["version"]:
            bad(where, f"ofed_info_s {s!r} is not MLNX_OFED_LINUX-{rel['version']}")
        if "firmware_train" in rel:
            t = rel["firmware_train"]
            if need(t, f"{where} firmware_train", {"value": str, "source": str}):
                if not TRAIN.match(t["value"]):
                    bad(where, f"firmware_train {t['value']!r} is not xx.NN.NNNN")
                https(where, "firmware_train.source", t["source"])
        unsup = rel.get("unsupported_families")
        if unsup is not None and need(unsup, f"{where} unsupported_families",
                                      {"families": list, "source": str, "quote_summary": str}):
            https(where, "unsupported_families.source", unsup["source"])
            for f in unsup["families"]:
                if f not in families:
                    bad(where, f"unsupported family {f!r} is not in families")

    seen = set()
    for i, row in enumerate(table["rows"]):
        where = f"rows[{i}]"
        if not need(row, where, {"release": str, "family": str, "recommended": str, "supported": list,
                                 "basis": str, "source": str, "read": str}):
            continue
        where = f"row ({row['release']}, {row['family']})"
        pair = (row["release"], row["family"])
        if pair in seen:
            bad(where, "duplicate (release, family) row")
        seen.add(pair)
        rel = releases.get(row["release"])
        fam = families.get(row["family"])
        if rel is None:
            bad(where, "release is not in releases")
        if fam is None:
            bad(where, "family is not in families")
        if row["basis"] not in BASES:
            bad(where, f"basis {row['basis']!r} not in {sorted(BASES)}")
        https(where, "source", row["source"])
        if not DATE.match(row["read"]):
            bad(where, f"read date {row['read']!r} is not YYYY-MM-DD")
        versions = [row["recommended"]] + row["supported"]
        for v in versions:
            if not isinstance(v, str) or not FW.match(v):
                bad(where, f"firmware {v!r} is not NN.NN.NNNN")
            elif fam is not None and int(v.split(".")[0]) != fam["fw_major"]:
                bad(where, f"firmware {v} has major {v.split('.')[0]}, family {fam['family']} is {fam['fw_major']}")
        if len(set(versions)) != len(versions):
            bad(where, "a version is listed twice (recommended and supported overlap)")
        if row["supported"]:
            https(where, "supported_source", row.get("supported_source"))
        if row["basis"] in ("mft-paired", "mft-tested"):
            pairing = row.get("pairing_source")
            if not isinstance(pairing, list) or not pairing:
                bad(where, f"{row['basis']} row needs pairing_source pages")
            else:
                for url in pairing:
                    https(where, "pairing_source", url)
            if rel is not None and "firmware_train" in rel and fam is not None:
                train = rel["firmware_train"]["value"].split(".")
                major, minor, build = row["recommended"].split(".")
                legacy = row.get("legacy_table") is True  # frozen families sit on an older train
                if not legacy and (minor != train[1] or not all(t in ("x", b) for t, b in zip(train[2], build))):
                    bad(where, f"{row['recommended']} does not match the release's firmware train {rel['firmware_train']['value']}")
        if rel is not None and row["family"] in (rel.get("unsupported_families") or {}).get("families", []):
            bad(where, "row for a family the release does not support")

    return report(len(table["releases"]), len(table["rows"]))


def report(n_releases=0, n_rows=0):
    if problems:
        for p in problems:
            print(f"FAIL: {p}")
        print(f"{len(problems)} problem(s) in data/compat/compat.json")
        return 1
    print(f"ok: data/compat/compat.json: {n_releases} releases, {n_rows} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
