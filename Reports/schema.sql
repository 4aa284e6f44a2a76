-- asn-migrate report tables: one CREATE TABLE per report, the same text for DuckDB, PostgreSQL and SQLite.
-- Identifiers (transaction IDs, webOrderLineItemIds, UUIDs) are TEXT: they exceed 2^53 and even 2^64, so no number
-- type keeps every digit everywhere. Dates are TIMESTAMP (the reports write ISO 8601 UTC with milliseconds, such as
-- 2021-04-01T08:00:05.000Z; every value is UTC). Empty cells load as NULL in DuckDB and PostgreSQL; SQLite's .import
-- loads them as '' text, so run Reports/sqlite-empty-to-null.sql after importing there.
--
-- Load one report (run in the report folder; replace the file and table names for the others):
--   DuckDB:     COPY differences FROM 'differences.csv' (HEADER);
--   psql:       \copy differences from 'differences.csv' with (format csv, header)
--   sqlite3:    .import --csv --skip 1 differences.csv differences
--
-- Files and tables: differences.csv -> differences, pending.csv -> pending, summary.csv -> summary,
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
    v1_event_time_inferred  BOOLEAN
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
    v1_event_time_inferred  BOOLEAN
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
