"""Print, for each logged model request, where MARKER-* strings appear."""

import glob
import json
import os
import re
import sys

d = sys.argv[1]
for f in sorted(glob.glob(os.path.join(d, "*.json"))):
    with open(f) as fh:
        r = json.load(fh)
    b = r["body"] or {}
    print(
        "==",
        os.path.basename(f),
        "tools:",
        [fd["name"] for t in b.get("tools", []) for fd in t.get("functionDeclarations", [])][:40]
        if b.get("tools")
        else None,
    )
    si = json.dumps(b.get("systemInstruction", ""))
    for m in re.findall(r"MARKER-[A-Z-]+", si):
        print("   systemInstruction has", m)
    for i, c in enumerate(b.get("contents", [])):
        for j, p in enumerate(c.get("parts", [])):
            s = json.dumps(p)
            ms = re.findall(r"MARKER-[A-Z-]+", s)
            kind = next(iter(p.keys()))
            more = " ..." if len(s) > 160 else ""
            role = c.get("role")
            print(f"   contents[{i}] role={role} part[{j}] {kind}: {s[:160]}{more}  MARKERS={ms}")
