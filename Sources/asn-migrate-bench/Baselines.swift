// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (V1Decodable names its properties as Apple spells the V1 keys, as a plain Codable tool would.)
import Foundation
import Synchronization

/// The baselines measured on the same bytes as `migrate`: reading the files, and Foundation's `JSONDecoder`.
enum Baselines {
    /// Seconds to read every byte of `files` (1 MiB reads): the floor any tool reading them pays.
    static func read(_ files: [String]) throws -> Double {
        let start = DispatchTime.now()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        for file in files {
            let fd = open(file, O_RDONLY)
            guard fd >= 0 else { throw BenchError("cannot open \(file)") }
            defer { close(fd) }
            while Glibc.read(fd, buffer, 1 << 20) > 0 {}
        }
        return seconds(since: start)
    }

    /// Seconds for `JSONDecoder` to decode every line of `files` into `V1Decodable`, on `threads` threads
    /// (each takes every `threads`-th 8 MiB slice of lines); also the number of lines decoded.
    static func jsonDecoder(_ files: [String], threads: Int) throws -> (seconds: Double, lines: Int) {
        let start = DispatchTime.now()
        var lines = 0
        for file in files {
            let fd = open(file, O_RDONLY)
            guard fd >= 0 else { throw BenchError("cannot open \(file)") }
            defer { close(fd) }
            let want = threads * (8 << 20)
            var pending: [UInt8] = []
            var done = false
            while !done {
                // Read about 8 MiB per thread, cut at the last newline, decode the slices in parallel.
                let old = pending.count
                pending.reserveCapacity(old + want)
                var got = 0
                pending.append(contentsOf: repeatElement(0, count: want))
                pending.withUnsafeMutableBytes { raw in
                    while got < want, let base = raw.baseAddress {
                        let n = Glibc.read(fd, base + old + got, want - got)
                        if n <= 0 { break }
                        got += n
                    }
                }
                pending.removeLast(want - got)
                done = got == 0
                let cut = done ? pending.count : (pending.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
                let block = Array(pending[..<cut])
                pending.removeFirst(cut)
                let slices = split(block, parts: threads)
                let counts = Counts(slices.count)
                DispatchQueue.concurrentPerform(iterations: slices.count) { k in
                    let decoder = JSONDecoder()
                    var n = 0
                    for line in slices[k].split(separator: 0x0A) where !line.isEmpty {
                        if (try? decoder.decode(V1Decodable.self, from: Data(line))) != nil { n += 1 }
                    }
                    counts.set(k, n)
                }
                lines += counts.total
            }
        }
        return (seconds(since: start), lines)
    }

    // MARK: - Private

    /// `data` cut at newlines into about `parts` pieces.
    private static func split(_ data: [UInt8], parts: Int) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var from = 0
        for k in 1...parts {
            var to = k == parts ? data.count : data.count * k / parts
            if to < data.count, let newline = data[to...].firstIndex(of: 0x0A) {
                to = newline + 1
            } else {
                to = data.count
            }
            if to > from { pieces.append(data[from..<to]) }
            from = to
            if from >= data.count { break }
        }
        return pieces
    }

    /// Seconds since `start`.
    private static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}

/// Per-thread counts, each slot written by one thread only.
private final class Counts: Sendable {
    /// The slots, behind a lock (each thread writes once, so the lock costs nothing measurable).
    private let slots: Mutex<[Int]>
    /// Creates `n` zero slots.
    init(_ n: Int) { slots = Mutex([Int](repeating: 0, count: n)) }
    /// Sets slot `k`.
    func set(_ k: Int, _ value: Int) { slots.withLock { $0[k] = value } }
    /// The sum.
    var total: Int { slots.withLock { $0.reduce(0, +) } }
}

/// The V1 fields as a plain Codable struct: what a straightforward Swift tool would decode each line into.
struct V1Decodable: Decodable {
    /// `unified_receipt`.
    struct Unified: Decodable {
        /// `environment`.
        var environment: String?
        /// `latest_receipt`.
        var latest_receipt: String?
        /// `latest_receipt_info`.
        var latest_receipt_info: [Transaction]?
        /// `pending_renewal_info`.
        var pending_renewal_info: [Pending]?
    }

    /// A `latest_receipt_info` entry.
    struct Transaction: Decodable {
        /// V1 fields, as Apple names them.
        var transaction_id: String?, original_transaction_id: String?, web_order_line_item_id: String?,
            product_id: String?
        /// V1 fields, as Apple names them.
        var subscription_group_identifier: String?, purchase_date_ms: String?, original_purchase_date_ms: String?
        /// V1 fields, as Apple names them.
        var expires_date_ms: String?, cancellation_date_ms: String?, cancellation_reason: String?, quantity: String?
        /// V1 fields, as Apple names them.
        var is_trial_period: String?, is_in_intro_offer_period: String?, is_upgraded: String?,
            offer_code_ref_name: String?
        /// V1 fields, as Apple names them.
        var promotional_offer_id: String?, in_app_ownership_type: String?, app_account_token: String?
    }

    /// A `pending_renewal_info` entry.
    struct Pending: Decodable {
        /// V1 fields, as Apple names them.
        var auto_renew_product_id: String?, auto_renew_status: String?, original_transaction_id: String?,
            product_id: String?
        /// V1 fields, as Apple names them.
        var expiration_intent: String?, grace_period_expires_date_ms: String?, is_in_billing_retry_period: String?
        var price_consent_status: String?
    }

    /// `notification_type` (absent at the top of simulate's `{"received_at", "body"}` envelopes).
    var notification_type: String?
    /// `environment`.
    var environment: String?
    /// `password`.
    var password: String?
    /// `bid`.
    var bid: String?
    /// `bvrs`.
    var bvrs: String?
    /// `auto_renew_status`.
    var auto_renew_status: String?
    /// `auto_renew_product_id`.
    var auto_renew_product_id: String?
    /// `auto_renew_status_change_date_ms`.
    var auto_renew_status_change_date_ms: String?
    /// `original_transaction_id` (simulate writes it as a digit string, as every other ID).
    var original_transaction_id: String?
    /// `unified_receipt`.
    var unified_receipt: Unified?
}
