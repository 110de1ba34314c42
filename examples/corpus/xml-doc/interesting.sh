#!/bin/bash
# xml-doc oracle: interesting iff $1 is well-formed XML (Python's xml.etree) and
# has an element <item> (no namespace) whose attribute id is exactly "needle".
f="$1"
[ -n "$f" ] || { echo "usage: $0 FILE" >&2; exit 2; }
if [ -n "$ORACLE_LOG" ]; then ( flock 9; echo "$$ xml-doc" >&9 ) 9>>"$ORACLE_LOG"; fi
PY=${BENCH_PYTHON:-/usr/bin/python3}
exec timeout 10 "$PY" -S -E -c '
import sys
import xml.etree.ElementTree as ET
try:
    with open(sys.argv[1], "rb") as fh:
        root = ET.fromstring(fh.read())
except Exception:
    sys.exit(1)
sys.exit(0 if any(el.tag == "item" and el.get("id") == "needle" for el in root.iter()) else 1)
' "$f" </dev/null 2>/dev/null
