import ASNMigrateKit
import Foundation

/// Reading Get Transaction History pages against reading V2 notifications, per byte, with `reconcile`'s V2 reader.
///
/// The pages are made from the notifications themselves: every notification's transaction, signed the way Apple signs
/// it (a compact JWS; the signature is a placeholder of a real ES256 signature's length), 20 to a page, one page per
/// line, so both inputs describe the same transactions.
enum HistoryPageBench {
    /// The measured rates.
    struct Result {
        /// Notification bytes and seconds.
        var notificationBytes: Int, notificationSeconds: Double, notifications: Int
        /// History page bytes and seconds.
        var pageBytes: Int, pageSeconds: Double, transactions: Int
    }

    /// Writes the pages for `v2Files` into `folder` and times reading both, best of `runs`.
    static func run(v2Files: [String], folder: String, runs: Int) throws -> Result {
        let inputs = v2Files.map { InputFile(path: $0) }
        let pagePath = folder + "/history-pages.jsonl"
        let header = Base64.encodeURL(Array(#"{"alg":"ES256","x5c":["MIIB"]}"#.utf8))
        let signature = Base64.encodeURL([UInt8](repeating: 0x5A, count: 64))
        var text = ""
        var page: [String] = []
        var notifications = 0
        func flush() {
            guard !page.isEmpty else { return }
            text +=
                #"{"revision":"r","hasMore":true,"bundleId":"com.example.app","appAppleId":1,"environment":"Production","signedTransactions":["#
                + page.map { "\"" + $0 + "\"" }.joined(separator: ",") + "]}\n"
            page = []
        }
        try V2RecordReader().read(inputs) { outcome in
            guard let transaction = outcome.record?.payload.data.transactionInfo else { return }
            notifications += 1
            page.append(header + "." + Base64.encodeURL(JSONWriter.bytes(.object(transaction.json))) + "." + signature)
            if page.count == 20 { flush() }
        }
        flush()
        try Data(text.utf8).write(to: URL(fileURLWithPath: pagePath))

        var result = Result(
            notificationBytes: v2Files.reduce(0) { $0 + fileSize($1) }, notificationSeconds: .infinity,
            notifications: 0,
            pageBytes: fileSize(pagePath), pageSeconds: .infinity, transactions: 0)
        for _ in 0..<max(1, runs) {
            var count = 0
            let start = Date()
            try ParallelV2Reader().read(inputs) { if $0.record != nil { count += 1 } }
            result.notificationSeconds = min(result.notificationSeconds, Date().timeIntervalSince(start))
            result.notifications = count
            count = 0
            let pageStart = Date()
            try ParallelV2Reader().read([InputFile(path: pagePath)]) { if $0.apiRecord != nil { count += 1 } }
            result.pageSeconds = min(result.pageSeconds, Date().timeIntervalSince(pageStart))
            result.transactions = count
        }
        _ = notifications
        return result
    }

    /// Runs and prints the measurement.
    static func report(v2Files: [String], folder: String, runs: Int) throws {
        let r = try run(v2Files: v2Files, folder: folder, runs: runs)
        let notificationRate = Double(r.notificationBytes) / r.notificationSeconds / 1e6
        let pageRate = Double(r.pageBytes) / r.pageSeconds / 1e6
        say(
            "V2 notifications: \(r.notifications) records, \(fixed(Double(r.notificationBytes) / 1e6, 1)) MB in \(fixed(r.notificationSeconds, 3)) s = \(fixed(notificationRate, 1)) MB/s (best of \(runs))"
        )
        say(
            "history pages: \(r.transactions) transactions, \(fixed(Double(r.pageBytes) / 1e6, 1)) MB in \(fixed(r.pageSeconds, 3)) s = \(fixed(pageRate, 1)) MB/s (best of \(runs))"
        )
        say(
            "target: history pages at least as fast per byte as V2 notifications: \(pageRate >= notificationRate ? "met" : "NOT met") (\(fixed(pageRate / notificationRate, 2))x)"
        )
    }
}
