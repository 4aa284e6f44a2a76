import Foundation

/// The second reconcile peer, the one a data team would reach for: DuckDB, from its Python package, on 2 threads. One
/// SQL query reads both sides with `read_ndjson_objects`, takes each V1 record's newest receipt entry, decodes each V2
/// JWS payload and its nested transaction and renewal JWS with `from_base64`, and joins on environment +
/// `originalTransactionId` + `webOrderLineItemId` with counts: less than `reconcile` does. The package is installed
/// once into a virtual environment in the bench's data folder; the peer is skipped, and said so, when that fails.
enum DuckDBJoinBaseline {
    /// The script: `join.py V1FILE... -- V2FILE...`; prints `v1 v2 matched missing_in_v2 missing_in_v1`.
    static let script = #"""
        import sys, duckdb
        split = sys.argv.index("--")
        v1_files, v2_files = sys.argv[1:split], sys.argv[split + 1:]
        con = duckdb.connect()
        con.execute("SET threads TO 2")
        def jws(expr):
            # The payload of a compact JWS: its second part, base64url without padding, decoded to JSON text.
            part = f"split_part({expr}, '.', 2)"
            padded = f"rpad(replace(replace({part}, '-', '+'), '_', '/'), CAST(ceil(length({part}) / 4) * 4 AS INTEGER), '=')"
            return f"TRY_CAST(decode(from_base64(NULLIF({padded}, ''))) AS JSON)"
        query = f"""
        WITH v1 AS (
            SELECT CASE WHEN json_exists(json, '$.notification_type') THEN json ELSE json -> '$.body' END AS body
            FROM read_ndjson_objects(?, ignore_errors = true)
        ), v1_keyed AS (
            SELECT row_number() OVER () AS record,
                   CASE WHEN lower(body ->> '$.environment') = 'sandbox' THEN 'Sandbox' ELSE 'Production' END AS environment,
                   unnest(coalesce(CAST(body -> '$.unified_receipt.latest_receipt_info' AS JSON[]), [CAST('{{}}' AS JSON)])) AS entry
            FROM v1
        ), v1_newest AS (
            SELECT record, environment,
                   arg_max(entry ->> '$.original_transaction_id', TRY_CAST(entry ->> '$.purchase_date_ms' AS BIGINT)) AS otid,
                   arg_max(entry ->> '$.web_order_line_item_id', TRY_CAST(entry ->> '$.purchase_date_ms' AS BIGINT)) AS wol
            FROM v1_keyed GROUP BY record, environment
        ), expected AS (
            SELECT environment, coalesce(otid, '') AS otid, coalesce(wol, '') AS wol, count(*) AS n
            FROM v1_newest GROUP BY ALL
        ), v2 AS (
            SELECT {jws("json ->> '$.signedPayload'")} AS payload FROM read_ndjson_objects(?, ignore_errors = true)
        ), v2_keyed AS (
            SELECT CASE WHEN lower(payload ->> '$.data.environment') = 'sandbox' THEN 'Sandbox' ELSE 'Production' END AS environment,
                   {jws("payload ->> '$.data.signedTransactionInfo'")} AS tx,
                   {jws("payload ->> '$.data.signedRenewalInfo'")} AS renewal
            FROM v2
        ), seen AS (
            SELECT environment, coalesce(tx ->> '$.originalTransactionId', '') AS otid,
                   coalesce(tx ->> '$.webOrderLineItemId', '') AS wol, count(*) AS n, count(renewal) AS renewals
            FROM v2_keyed GROUP BY ALL
        )
        SELECT (SELECT sum(n) FROM expected), (SELECT sum(n) FROM seen),
               sum(least(coalesce(e.n, 0), coalesce(s.n, 0))),
               sum(coalesce(e.n, 0) - least(coalesce(e.n, 0), coalesce(s.n, 0))),
               sum(coalesce(s.n, 0) - least(coalesce(e.n, 0), coalesce(s.n, 0)))
        FROM expected e FULL OUTER JOIN seen s USING (environment, otid, wol)
        """
        row = con.execute(query, [v1_files, v2_files]).fetchone()
        print(*row)
        """#

    /// The virtual environment's `python3` with `duckdb` importable, made in `folder` on first use; nil (with the reason
    /// said) when it cannot be made.
    static func python(folder: String) -> String? {
        let venv = "\(folder)/duckdb-venv"
        let python = "\(venv)/bin/python3"
        if FileManager.default.isExecutableFile(atPath: python),
            (try? ChildProcess.run(python, ["-c", "import duckdb"]).status) == 0
        {
            return python
        }
        guard let system = PythonBaseline.python3() else {
            say("baseline DuckDB join: skipped (python3 not found)")
            return nil
        }
        say("baseline DuckDB join: installing the duckdb package into \(venv) (once; later runs reuse it)")
        guard (try? ChildProcess.run(system, ["-m", "venv", venv]).status) == 0,
            (try? ChildProcess.run("\(venv)/bin/pip", ["install", "--quiet", "duckdb"]).status) == 0,
            (try? ChildProcess.run(python, ["-c", "import duckdb"]).status) == 0
        else {
            say("baseline DuckDB join: skipped (could not make \(venv) or install duckdb into it with pip)")
            return nil
        }
        return python
    }

    /// Runs the join over `v1` and `v2` once with `python`, after writing the script to `folder`; its counts are on
    /// standard output.
    static func run(python: String, v1: [String], v2: [String], folder: String) throws -> (
        result: ChildProcess.Result, counts: String
    ) {
        try PythonJoinBaseline.runJoin(
            script, named: "reconcile_join_duckdb", what: "the DuckDB join", python: python, v1: v1, v2: v2,
            folder: folder)
    }
}
