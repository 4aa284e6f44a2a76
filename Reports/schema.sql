-- asn-migrate report tables: one CREATE TABLE per report, the same text for DuckDB, PostgreSQL and SQLite.
-- Identifiers (transaction IDs, webOrderLineItemIds, UUIDs) are TEXT: they exceed 2^53 and even 2^64, so no number
-- type keeps every digit everywhere. Dates are TIMESTAMP (the reports write ISO 8601 UTC with milliseconds, such as
-- 2021-04-01T08:00:05.000Z; every value is UTC). Empty cells load as NULL in DuckDB and PostgreSQL; SQLite's .import
-- loads them as '' text, so run Reports/sqlite-empty-to-null.sql after importing there. Money (price) is DECIMAL:
-- the reports write it with the currency's own decimals (ISO 4217: JPY 0, USD 2, KWD 3), currency beside it.
--
-- Load one report (run in the report folder; replace the file and table names for the others):
--   DuckDB:     COPY differences FROM 'differences.csv' (HEADER);
--   psql:       \copy differences from 'differences.csv' with (format csv, header)
--   sqlite3:    .import --csv --skip 1 differences.csv differences
--
-- Files and tables (the nightly reports and state tables are at the end): differences.csv -> differences, pending.csv -> pending, summary.csv -> summary,
-- rejected.csv (and migrate --rejects) -> rejected, mapping-coverage.csv -> mapping_coverage,
-- subscriptions.csv -> subscriptions, migrate --format csv --csv-names snake -> migrate_csv.

-- differences.csv: one row per difference (columns in Reports/README.md).
CREATE TABLE differences (
    kind                    TEXT,
    environment             TEXT,
    original_transaction_id TEXT,
    web_order_line_item_id  TEXT,
    event_date              TIMESTAMP,
    v1_notification_type    TEXT,
    expected_type           TEXT,
    expected_subtype        TEXT,
    v2_notification_type    TEXT,
    v2_subtype              TEXT,
    field                   TEXT,
    v1_value                TEXT,
    v2_value                TEXT,
    v1_source               TEXT,
    v2_notification_uuid    TEXT,
    product_id              TEXT,
    bundle_id               TEXT,
    v2_signed_date          TIMESTAMP,
    v1_event_time_inferred  BOOLEAN,
    price                   DECIMAL(20, 3),
    currency                TEXT
);

-- pending.csv: the same columns as differences.csv.
CREATE TABLE pending (
    kind                    TEXT,
    environment             TEXT,
    original_transaction_id TEXT,
    web_order_line_item_id  TEXT,
    event_date              TIMESTAMP,
    v1_notification_type    TEXT,
    expected_type           TEXT,
    expected_subtype        TEXT,
    v2_notification_type    TEXT,
    v2_subtype              TEXT,
    field                   TEXT,
    v1_value                TEXT,
    v2_value                TEXT,
    v1_source               TEXT,
    v2_notification_uuid    TEXT,
    product_id              TEXT,
    bundle_id               TEXT,
    v2_signed_date          TIMESTAMP,
    v1_event_time_inferred  BOOLEAN,
    price                   DECIMAL(20, 3),
    currency                TEXT
);

-- summary.csv: metric,value rows; run_date, tool_version, v1_input/v2_input and rejects_by_cause rows are text too.
CREATE TABLE summary (
    metric TEXT,
    value  TEXT
);

-- rejected.csv and migrate --rejects: side is v1 or v2, line is empty (NULL) when the source has no line.
CREATE TABLE rejected (
    side   TEXT,
    source TEXT,
    line   INTEGER,
    reason TEXT
);

-- mapping-coverage.csv.
CREATE TABLE mapping_coverage (
    v1_notification_type TEXT,
    v2_notification_type TEXT,
    v2_subtype           TEXT,
    rule                 TEXT,
    count                INTEGER
);

-- subscriptions.csv: each side's state at the period end.
CREATE TABLE subscriptions (
    environment             TEXT,
    original_transaction_id TEXT,
    v1_product_id           TEXT,
    v2_product_id           TEXT,
    v1_expires_date         TIMESTAMP,
    v2_expires_date         TIMESTAMP,
    v1_auto_renew_status    INTEGER,
    v2_auto_renew_status    INTEGER,
    v1_active               BOOLEAN,
    v2_active               BOOLEAN,
    mismatches              TEXT
);

-- migrate --format csv --csv-names snake: every value as TEXT except the dates.
CREATE TABLE migrate_csv (
    notification_type                                   TEXT,
    subtype                                             TEXT,
    notification_uuid                                   TEXT,
    version                                             TEXT,
    signed_date                                         TIMESTAMP,
    data_bundle_id                                      TEXT,
    data_bundle_version                                 TEXT,
    data_environment                                    TEXT,
    data_status                                         TEXT,
    data_transaction_info_transaction_id                TEXT,
    data_transaction_info_original_transaction_id       TEXT,
    data_transaction_info_web_order_line_item_id        TEXT,
    data_transaction_info_bundle_id                     TEXT,
    data_transaction_info_product_id                    TEXT,
    data_transaction_info_subscription_group_identifier TEXT,
    data_transaction_info_purchase_date                 TIMESTAMP,
    data_transaction_info_original_purchase_date        TIMESTAMP,
    data_transaction_info_expires_date                  TIMESTAMP,
    data_transaction_info_quantity                      TEXT,
    data_transaction_info_type                          TEXT,
    data_transaction_info_app_account_token             TEXT,
    data_transaction_info_in_app_ownership_type         TEXT,
    data_transaction_info_revocation_reason             TEXT,
    data_transaction_info_revocation_date               TIMESTAMP,
    data_transaction_info_is_upgraded                   TEXT,
    data_transaction_info_offer_type                    TEXT,
    data_transaction_info_offer_identifier              TEXT,
    data_transaction_info_offer_discount_type           TEXT,
    data_transaction_info_environment                   TEXT,
    data_transaction_info_transaction_reason            TEXT,
    data_renewal_info_original_transaction_id           TEXT,
    data_renewal_info_product_id                        TEXT,
    data_renewal_info_auto_renew_product_id             TEXT,
    data_renewal_info_auto_renew_status                 TEXT,
    data_renewal_info_expiration_intent                 TEXT,
    data_renewal_info_grace_period_expires_date         TIMESTAMP,
    data_renewal_info_is_in_billing_retry_period        TEXT,
    data_renewal_info_price_increase_status             TEXT,
    data_renewal_info_offer_type                        TEXT,
    data_renewal_info_offer_identifier                  TEXT,
    data_renewal_info_renewal_date                      TIMESTAMP,
    data_renewal_info_recent_subscription_start_date    TIMESTAMP,
    data_renewal_info_environment                       TEXT,
    migration_source                                    TEXT,
    migration_line                                      TEXT,
    migration_index                                     TEXT,
    migration_v1_notification_type                      TEXT,
    migration_rule                                      TEXT,
    migration_event_time_inferred                       TEXT
);

-- Nightly reports (asn-migrate nightly, <reports>/<run date>/): new.csv -> nightly_new, open.csv -> nightly_open,
-- resolved.csv -> nightly_resolved, pending.csv -> nightly_pending; its rejected.csv loads into rejected and its
-- summary.csv into summary (above). first_seen, last_seen and resolved are run dates.

-- new.csv: differences first confirmed on the run date, still open.
CREATE TABLE nightly_new (
    kind                    TEXT,
    environment             TEXT,
    original_transaction_id TEXT,
    web_order_line_item_id  TEXT,
    event_date              TIMESTAMP,
    v1_notification_type    TEXT,
    expected_type           TEXT,
    expected_subtype        TEXT,
    v2_notification_type    TEXT,
    v2_subtype              TEXT,
    field                   TEXT,
    v1_value                TEXT,
    v2_value                TEXT,
    v1_source               TEXT,
    v2_notification_uuid    TEXT,
    product_id              TEXT,
    bundle_id               TEXT,
    v2_signed_date          TIMESTAMP,
    v1_event_time_inferred  BOOLEAN,
    price                   DECIMAL(20, 3),
    currency                TEXT,
    first_seen              DATE,
    last_seen               DATE
);

-- open.csv: every open difference (the backlog).
CREATE TABLE nightly_open (
    kind                    TEXT,
    environment             TEXT,
    original_transaction_id TEXT,
    web_order_line_item_id  TEXT,
    event_date              TIMESTAMP,
    v1_notification_type    TEXT,
    expected_type           TEXT,
    expected_subtype        TEXT,
    v2_notification_type    TEXT,
    v2_subtype              TEXT,
    field                   TEXT,
    v1_value                TEXT,
    v2_value                TEXT,
    v1_source               TEXT,
    v2_notification_uuid    TEXT,
    product_id              TEXT,
    bundle_id               TEXT,
    v2_signed_date          TIMESTAMP,
    v1_event_time_inferred  BOOLEAN,
    price                   DECIMAL(20, 3),
    currency                TEXT,
    first_seen              DATE,
    last_seen               DATE
);

-- resolved.csv: differences closed on the run date; resolved_by is late_record, corrected_record or rule.
CREATE TABLE nightly_resolved (
    kind                    TEXT,
    environment             TEXT,
    original_transaction_id TEXT,
    web_order_line_item_id  TEXT,
    event_date              TIMESTAMP,
    v1_notification_type    TEXT,
    expected_type           TEXT,
    expected_subtype        TEXT,
    v2_notification_type    TEXT,
    v2_subtype              TEXT,
    field                   TEXT,
    v1_value                TEXT,
    v2_value                TEXT,
    v1_source               TEXT,
    v2_notification_uuid    TEXT,
    product_id              TEXT,
    bundle_id               TEXT,
    v2_signed_date          TIMESTAMP,
    v1_event_time_inferred  BOOLEAN,
    price                   DECIMAL(20, 3),
    currency                TEXT,
    first_seen              DATE,
    last_seen               DATE,
    resolved                DATE,
    resolved_by             TEXT
);

-- pending.csv: items not yet settled; pending_reason is settle or edge.
CREATE TABLE nightly_pending (
    kind                    TEXT,
    environment             TEXT,
    original_transaction_id TEXT,
    web_order_line_item_id  TEXT,
    event_date              TIMESTAMP,
    v1_notification_type    TEXT,
    expected_type           TEXT,
    expected_subtype        TEXT,
    v2_notification_type    TEXT,
    v2_subtype              TEXT,
    field                   TEXT,
    v1_value                TEXT,
    v2_value                TEXT,
    v1_source               TEXT,
    v2_notification_uuid    TEXT,
    product_id              TEXT,
    bundle_id               TEXT,
    v2_signed_date          TIMESTAMP,
    v1_event_time_inferred  BOOLEAN,
    price                   DECIMAL(20, 3),
    currency                TEXT,
    first_seen              DATE,
    settles_at              TIMESTAMP,
    pending_reason          TEXT
);


-- The nightly state database's tables (an SQLite file; StateSchema.swift creates them there without the state_
-- prefix), for copying into a warehouse: sqlite3 -readonly -csv -header state.sqlite 'SELECT * FROM files' > files.csv.
-- Booleans are integers (0/1); times ending in _ms are epoch milliseconds; run dates are YYYY-MM-DD text.

-- files: the ledger; path is the real path, size and sha1 those of the bytes read so far; shape how its first read
-- split it (json_lines, multi_line, array, array_lines), reader_version the reader that judged it (0: before schema 9).
CREATE TABLE state_files (
    id                INTEGER,
    path              TEXT,
    side              TEXT,
    size              INTEGER,
    mtime_ms          INTEGER,
    sha1              TEXT,
    records_read      INTEGER,
    records_stored    INTEGER,
    duplicates        INTEGER,
    other_environment INTEGER,
    rejects           INTEGER,
    first_ingested    TEXT,
    ingested          TEXT,
    ingest_run        INTEGER,
    vanished          TEXT,
    shape             TEXT,
    reader_version    INTEGER
);

-- texts: every text a stored record names (product ids, types, rules, file paths), once, as its UTF-8 bytes (schema 6
-- on: a NUL inside a text is kept; CAST(text AS TEXT) in SQLite reads it as text).
CREATE TABLE state_texts (
    id   INTEGER,
    text BYTEA
);

-- subscriptions: every subscription with a stored record, once; environment_id is the environment's texts id.
CREATE TABLE state_subscriptions (
    id                      INTEGER,
    environment_id          INTEGER,
    original_transaction_id TEXT
);

-- facts: stored records; side is 1 (V1) or 2 (V2); inferred is 1 when a V1 event time was inferred; uuid is the
-- notificationUUID (16 bytes, or its text when not a standard UUID); retry_ends_ms, written before schema 11 only
-- (change_points holds retry ends now); digest the first 8 bytes of a V2 record's content
-- SHA-1; facts the compact bytes the engine reads (RecordFactsCodec.swift). The state's records view shows them as text.
CREATE TABLE state_facts (
    id              INTEGER,
    file_id         INTEGER,
    subscription_id INTEGER,
    side            INTEGER,
    inferred        INTEGER,
    event_ms        INTEGER,
    expires_ms      INTEGER,
    retry_ends_ms   INTEGER,
    uuid            BYTEA,
    digest          BIGINT,
    facts           BYTEA
);

-- pruned_uuids: notificationUUIDs of records forgotten past --horizon, still seen (a late retry stays a duplicate).
CREATE TABLE state_pruned_uuids (
    side    INTEGER,
    uuid    BYTEA,
    digest  BIGINT,
    file_id INTEGER
);

-- source_rows: rows already read from a PostgreSQL source (file_id is the source's files row), by their id, with
-- the since-column value (epoch ms or the integer) that a night's overlap window compares.
CREATE TABLE state_source_rows (
    file_id INTEGER,
    row_key TEXT,
    mark    INTEGER
);

-- other_shard_bounds: a shard's state only (nightly --shard K/N): the first and last event time (epoch ms; V1 times
-- not inferred) of each file's records that belong to other shards, per side (1 = V1, 2 = V2), so the period is the
-- whole run's.
CREATE TABLE state_other_shard_bounds (
    file_id INTEGER,
    side    INTEGER,
    min_ms  INTEGER,
    max_ms  INTEGER
);

-- switch_shares: with `nightly --switch`, each subscription's part of summary.csv's switch figures as its last
-- re-pairing found it (1/0 flags and counts); a subscription that counts in none keeps no row.
CREATE TABLE state_switch_shares (
    subscription_id   INTEGER,
    live              INTEGER,
    continued         INTEGER,
    delivered_in_both INTEGER,
    v1_after_switch   INTEGER,
    v2_before_switch  INTEGER
);

-- v1_transactions: Apple's API view as the V2 side (Reports/apple-view.md): one V1 record's transaction facts per
-- subscription it shows: `facts` (StateCodec's binary form, version byte 1 (JSON before schema 12): the renewal
-- facts, the event time, the source; Sources/README.md, The state's one codec), `entries` (the receipt entries of that
-- subscription it lists, in order: `v1_entries` ids as unsigned LEB128 varints).
CREATE TABLE state_v1_transactions (
    id              INTEGER,
    file_id         INTEGER,
    subscription_id INTEGER,
    inferred        INTEGER,
    event_ms        INTEGER,
    facts           BYTEA,
    entries         BYTEA
);

-- v1_entries: each distinct V1 receipt entry of a subscription, once: `entry` (StateCodec's binary form, its members by
-- their V1 keys; JSON before schema 12), `digest` (the first 8 bytes of the SHA-1 of `entry`).
CREATE TABLE state_v1_entries (
    id              INTEGER,
    subscription_id INTEGER,
    digest          BIGINT,
    entry           BYTEA
);

-- api_records: Apple's App Store Server API answers as read, each copy with its file, as facts in StateCodec's binary
-- form (JSON before schema 12): kind 1 a transaction (environment and the payload's members), kind 2 a subscription
-- status (environment, originalTransactionId, subscriptionGroupIdentifier, status, fetchedAt in epoch ms, the
-- transaction's and renewal info's members).
CREATE TABLE state_api_records (
    id              INTEGER,
    file_id         INTEGER,
    subscription_id INTEGER,
    kind            INTEGER,
    purchase_ms     INTEGER,
    record          BYTEA
);

-- change_points: every instant (epoch ms) at which a subscription's judged state can change
-- (SubscriptionStateRules.changePoints over each stored record's facts: expiries, grace ends, billing retry ends,
-- revocations) and, with Apple's view, the dates its moving spans can reach (V1 event times, purchases, fetch times);
-- a night re-pairs the subscriptions with a point its period end or a span's end moved past.
CREATE TABLE state_change_points (
    at_ms           INTEGER,
    subscription_id INTEGER
);

-- conflicts: V2 UUIDs seen again with other content (report cells as text).
CREATE TABLE state_conflicts (
    id                      INTEGER,
    file_id                 INTEGER,
    kind                    TEXT,
    environment             TEXT,
    original_transaction_id TEXT,
    web_order_line_item_id  TEXT,
    event_date              TEXT,
    v1_notification_type    TEXT,
    expected_type           TEXT,
    expected_subtype        TEXT,
    v2_notification_type    TEXT,
    v2_subtype              TEXT,
    field                   TEXT,
    v1_value                TEXT,
    v2_value                TEXT,
    v1_source               TEXT,
    v2_notification_uuid    TEXT,
    product_id              TEXT,
    bundle_id               TEXT,
    v2_signed_date          TEXT,
    v1_event_time_inferred  TEXT,
    price                   TEXT,
    currency                TEXT
);

-- differences: every difference ever confirmed; resolved is NULL while open. In the state tables price and currency
-- come last: a state made before they existed gets them added, empty, when it is opened.
CREATE TABLE state_differences (
    id                      INTEGER,
    identity                TEXT,
    kind                    TEXT,
    environment             TEXT,
    original_transaction_id TEXT,
    web_order_line_item_id  TEXT,
    event_date              TEXT,
    v1_notification_type    TEXT,
    expected_type           TEXT,
    expected_subtype        TEXT,
    v2_notification_type    TEXT,
    v2_subtype              TEXT,
    field                   TEXT,
    v1_value                TEXT,
    v2_value                TEXT,
    v1_source               TEXT,
    v2_notification_uuid    TEXT,
    product_id              TEXT,
    bundle_id               TEXT,
    v2_signed_date          TEXT,
    v1_event_time_inferred  TEXT,
    first_seen              TEXT,
    last_seen               TEXT,
    resolved                TEXT,
    resolved_by             TEXT,
    price                   TEXT,
    currency                TEXT
);

-- pending: items waiting to settle.
CREATE TABLE state_pending (
    id                      INTEGER,
    identity                TEXT,
    kind                    TEXT,
    environment             TEXT,
    original_transaction_id TEXT,
    web_order_line_item_id  TEXT,
    event_date              TEXT,
    v1_notification_type    TEXT,
    expected_type           TEXT,
    expected_subtype        TEXT,
    v2_notification_type    TEXT,
    v2_subtype              TEXT,
    field                   TEXT,
    v1_value                TEXT,
    v2_value                TEXT,
    v1_source               TEXT,
    v2_notification_uuid    TEXT,
    product_id              TEXT,
    bundle_id               TEXT,
    v2_signed_date          TEXT,
    v1_event_time_inferred  TEXT,
    settles_at              TEXT,
    pending_reason          TEXT,
    first_seen              TEXT,
    price                   TEXT,
    currency                TEXT
);

-- rejects: records that could not be read; ingested is the run date they were read.
CREATE TABLE state_rejects (
    id       INTEGER,
    file_id  INTEGER,
    side     TEXT,
    source   TEXT,
    line     INTEGER,
    reason   TEXT,
    cause    TEXT,
    ingested TEXT
);

-- runs: one row per committed run (the run log); published is 1 once its reports are written.
CREATE TABLE state_runs (
    id                     INTEGER,
    run_date               TEXT,
    started                TEXT,
    finished               TEXT,
    exit_status            INTEGER,
    files_ingested         INTEGER,
    files_vanished         INTEGER,
    v1_records_read        INTEGER,
    v1_records_stored      INTEGER,
    v1_duplicates          INTEGER,
    v1_other_environment   INTEGER,
    v1_rejected            INTEGER,
    v2_records_read        INTEGER,
    v2_records_stored      INTEGER,
    v2_duplicates          INTEGER,
    v2_other_environment   INTEGER,
    v2_rejected            INTEGER,
    records_replaced       INTEGER,
    records_pruned         INTEGER,
    subscriptions_repaired INTEGER,
    differences_new        INTEGER,
    differences_resolved   INTEGER,
    differences_open       INTEGER,
    pending                INTEGER,
    published              INTEGER,
    files_deferred         INTEGER,
    lines_deferred         INTEGER,
    files_appended         INTEGER,
    files_changed          INTEGER,
    files_renamed          INTEGER,
    files_same_content     INTEGER,
    unverified_frames      INTEGER
);

-- meta: bookkeeping integers (period_from, period_to, prune_cutoff, v1_pruned_min, shard_index, shard_count, ...).
CREATE TABLE state_meta (
    key   TEXT,
    value INTEGER
);
