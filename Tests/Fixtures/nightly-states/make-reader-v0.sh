#!/usr/bin/env bash
# Makes Tests/Fixtures/nightly-states/reader-v0 (see README.md there) with an asn-migrate of commit 10ed254 (OLD).
set -euo pipefail
OLD=${OLD:-/work/wt-i41a-old/.build/debug/asn-migrate}
OUT=${OUT:?folder to write reader-v0 into}
G=/tmp/asn-golden
rm -rf "$G" && mkdir -p "$G/in/v1" "$G/in/v2"
"$OLD" simulate --subscribers 6 --seed 7 --months 2 --out "$G/sim" >/dev/null
cat "$G"/sim/v1/*.jsonl > "$G/in/v1/a.jsonl"
cat "$G"/sim/v2/*.jsonl > "$G/all-v2.jsonl"
# Night 1: every other V2 line (the 1st, 3rd, ...).
awk 'NR % 2 == 1' "$G/all-v2.jsonl" > "$G/in/v2/a.jsonl"
flags=(--v1 "$G/in/v1" --v2 "$G/in/v2" --state "$G/state.sqlite" --reports "$G/Reports" --max-lag 36500d --min-file-age 0 --max-reject-rate 100%)
"$OLD" nightly "${flags[@]}" --run-date 2021-04-01 || true
# The V2 file grows: 3,000 seeded random bytes, a newline, then the other V2 lines.
python3 -c 'import random,sys; r=random.Random(7); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(3000)) + b"\n")' >> "$G/in/v2/a.jsonl"
awk 'NR % 2 == 0' "$G/all-v2.jsonl" >> "$G/in/v2/a.jsonl"
"$OLD" nightly "${flags[@]}" --run-date 2021-04-02 || true
sqlite3 "$G/state.sqlite" "VACUUM"
mkdir -p "$OUT/in/v1" "$OUT/in/v2"
cp "$G/state.sqlite" "$OUT/state.sqlite"
cp "$G/in/v1/a.jsonl" "$OUT/in/v1/a.jsonl"
cp "$G/in/v2/a.jsonl" "$OUT/in/v2/a.jsonl"
