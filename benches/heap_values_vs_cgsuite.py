#!/usr/bin/env python3
"""Cross-check of heap-game values against CGSuite's published values (issue 15).

Reads CGSuite's GameHeapTest goldens (default ../shared/oracles/cgsuite_GameHeapTest_goldens.txt,
recorded from github.com/aaron-siegel/cgsuite; the file names its commit) and compares, for every
take-and-break code in it, our normal-play values of heaps 1..20, misère nim values and genus of
heaps 0..20, and periodicity where CGSuite reports one. Skipped with a message when the file is
not there. Run from the repository root after `cargo build --release`:

    python3 benches/heap_values_vs_cgsuite.py [GOLDENS]
"""
import json
import os
import re
import subprocess
import sys

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "oracles", "cgsuite_GameHeapTest_goldens.txt")
if not os.path.exists(path):
    print(f"SKIPPED: {path} not found")
    sys.exit(0)

records, code = {}, None
for line in open(path):
    line = line.strip()
    if line.startswith("code:"):
        code = line.split(":", 1)[1].strip()
        records[code] = {}
    elif code and ":" in line:
        key, value = line.split(":", 1)
        value = value.strip()
        if key == "nim_1..20" or key == "misere_nim_0..20":
            records[code][key] = json.loads(value)
        elif key == "genus_0..20":
            records[code][key] = re.findall(r"\d+\^\([\d,]+\)|\d+\^\d+|\d+", value[1:-1])
        elif key == "periodicity(2000)":
            m = re.search(r"Period => (\d+), Preperiod => (\d+)", value)
            records[code][key] = (int(m.group(2)), int(m.group(1))) if m else None

lg = os.path.join(os.path.dirname(__file__), "..", "target", "release", "lg")
total = agree = 0
for code, want in records.items():
    script = (f'print(grundy("{code}", 20))\nprint(misere_grundy("{code}", 20))\n'
              f'print(genus("{code}", 20))\nlet k = periodicity("{code}", 2000)\n'
              # CGSuite's CheckPeriodicity looks for saltus 0 only: an arithmetic period we prove
              # (saltus s > 0, e.g. Nim) is compared with its "none".
              f'print(if is_proved(k) and saltus(k) == 0 {{ [preperiod(k), period(k)] }} else {{ [] }})\n')
    out = subprocess.run([lg, "-"], input=script, capture_output=True, text=True)
    if out.returncode != 0:
        out = subprocess.run([lg, "/dev/stdin"], input=script, capture_output=True, text=True)
    lines = out.stdout.strip().split("\n")
    ours = {
        "nim_1..20": json.loads(lines[0])[1:],
        "misere_nim_0..20": json.loads(lines[1]),
        "genus_0..20": json.loads(lines[2]),
        "periodicity(2000)": tuple(json.loads(lines[3])) or None,
    }
    for key, expected in want.items():
        got = ours[key]
        if isinstance(expected, list):
            pairs = list(zip(got, expected))
        else:
            pairs = [(got, expected)]
        for a, b in pairs:
            total += 1
            agree += a == b
            if a != b:
                print(f"DIFFERENT {code} {key}: ours {a}, CGSuite {b}")
print(f"{agree} of {total} values agree with CGSuite")
sys.exit(0 if agree == total else 1)
