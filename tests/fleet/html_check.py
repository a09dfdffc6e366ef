#!/usr/bin/python3
"""Checks `rocekit fleet -f html` as Chromium rendered it (html_test.sh).

Usage: html_check.py INJECTED DOM DOM_WITH_HOST SCREENSHOT HOST VALUE
INJECTED: rk_fleet_gen's list ("pfc node00017 eth3 none", ...). DOM: chromium --dump-dom of the
report; DOM_WITH_HOST: the same opened at #host=HOST, whose panel must show VALUE (its
injected outlier value); SCREENSHOT: the report's PNG.
"""
import sys
from html.parser import HTMLParser

from PIL import Image


class Walk(HTMLParser):
    """Collects the data-host names of the matrix's rows with a cross-host outlier, of its other
    rows, and of the settings' outlier lists; and the detail panel's text."""

    def __init__(self):
        super().__init__()
        self.stack = []  # (tag, id, class) of open elements
        self.bad, self.good, self.outliers = set(), set(), set()
        self.detail = []
        self.rows = 0

    def inside(self, key, value):
        return any(e[key] == value for e in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        entry = {"tag": tag, "id": a.get("id", ""), "class": a.get("class", "")}
        if tag == "tr" and self.inside("id", "matrix"):
            self.rows += 1
        host = a.get("data-host")
        if host is not None:
            row = next((e for e in reversed(self.stack) if e["tag"] == "tr"), None)
            if self.inside("id", "matrix") and row is not None:
                (self.bad if "outlier" in row["class"].split() else self.good).add(host)
            if self.inside("id", "settings") and self.inside("class", "outliers"):
                self.outliers.add(host)
        if tag not in ("br", "meta", "input", "img", "link", "hr"):
            self.stack.append(entry)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.inside("id", "detail"):
            self.detail.append(data)


def walk(path):
    w = Walk()
    with open(path, encoding="utf-8") as f:
        w.feed(f.read())
    return w


def main():
    injected_file, dom, dom_host, shot, host, value = sys.argv[1:7]
    with open(injected_file, encoding="utf-8") as f:
        injected = {line.split()[1] for line in f if line.strip()}
    failures = 0

    def check(ok, what):
        nonlocal failures
        print(("ok   " if ok else "FAIL ") + what)
        failures += 0 if ok else 1

    w = walk(dom)
    check(w.bad == injected, f"matrix outlier rows hold exactly the {len(injected)} injected hosts "
          f"(got {len(w.bad)}: extra {sorted(w.bad - injected)[:5]}, missing {sorted(injected - w.bad)[:5]})")
    check(w.outliers == injected, f"settings outlier lists name exactly the injected hosts "
          f"(extra {sorted(w.outliers - injected)[:5]}, missing {sorted(injected - w.outliers)[:5]})")
    check(len(w.good) > 0 and not (w.good & injected), f"{len(w.good)} other hosts in the other rows, none injected")
    check(w.rows >= 2, f"matrix has {w.rows} rows (header and groups)")

    d = walk(dom_host)
    text = " ".join(" ".join(d.detail).split())
    check(host in text and value in text, f"#host={host} opens its detail with {value}: {text[:200]!r}")

    img = Image.open(shot).convert("RGB")
    red = sum(1 for p in img.getdata() if p == (214, 39, 40))
    check(img.size == (1400, 1000), f"screenshot is {img.size}")
    check(red >= 200, f"screenshot shows failing matrix cells ({red} pixels of the fail colour #d62728)")
    print(f"{failures} failed")
    sys.exit(1 if failures else 0)


main()
