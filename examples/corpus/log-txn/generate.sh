#!/bin/bash
# Writes `input` beside this script (see generate.py; deterministic). Safe to run twice.
set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python3 "$here/generate.py"
echo "$here/input: $(stat -c %s "$here/input") bytes, sha256 $(sha256sum "$here/input" | cut -c1-16)"
