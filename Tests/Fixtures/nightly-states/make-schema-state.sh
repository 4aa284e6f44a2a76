#!/usr/bin/env bash
# Makes Tests/Fixtures/nightly-states/schema-<N>/state.sqlite (see README.md there): the state an earlier release's
# asn-migrate (OLD, built at the commit README.md names) writes over the sample (Tests/Fixtures/sample), one night.
set -euo pipefail
OLD=${OLD:?the asn-migrate binary of the earlier release}
SCHEMA=${SCHEMA:?the schema version that release writes: 7, 8 or 10}
OUT=${OUT:?folder to write state.sqlite into}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
G=/tmp/asn-golden-schema-$SCHEMA
rm -rf "$G" && mkdir -p "$G/in"
cp -R "$ROOT/Tests/Fixtures/sample/v1" "$ROOT/Tests/Fixtures/sample/v2" "$G/in/"
"$OLD" nightly --v1 "$G/in/v1" --v2 "$G/in/v2" --state "$G/state.sqlite" --reports "$G/Reports" \
  --run-date 2022-01-10 --max-lag 36500d --min-file-age 0 --max-reject-rate 100% || true
test "$(sqlite3 "$G/state.sqlite" 'PRAGMA user_version')" = "$SCHEMA"
sqlite3 "$G/state.sqlite" "VACUUM"
mkdir -p "$OUT"
cp "$G/state.sqlite" "$OUT/state.sqlite"
