"""Print, for each logged model request, where MARKER-* strings appear.

Usage: python3 markers.py <dir with NNN-main.json / NNN-util.json from fake_openai.py>
"""

import glob
import json
import os
import re
import sys

for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    with open(f) as fh:
        r = json.load(fh)
    b = r.get("body") or {}
    tools = [t.get("function", {}).get("name") for t in b.get("tools") or []]
    print(
        "==",
        os.path.basename(f),
        "tools:",
        tools or None,
        "header marker:",
        r["headers"].get("x-memdesk-marker"),
    )
    for i, m in enumerate(b.get("messages") or []):
        c = m.get("content")
        s = c if isinstance(c, str) else json.dumps(c)
        ms = sorted(set(re.findall(r"MARKER-[A-Z-]+", s)))
        if ms:
            print(f"   messages[{i}] role={m['role']}: {ms}")
