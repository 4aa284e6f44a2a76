import Foundation
import Testing

@testable import ASNMigrateKit

/// Damage to records and files, and the readers they go through, for the property tests and the fuzz target.
enum DamageHarness {
    // MARK: - Records

    /// `count` distinct good V1 bodies, one line each (IDs are digit strings, as Apple's are).
    static func v1Lines(_ count: Int, seed: UInt64) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        let types = [
            "DID_RENEW", "INITIAL_BUY", "CANCEL", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW",
            "INTERACTIVE_RENEWAL"
        ]
        return (0..<count).map { n in
            let id = String(2_000_000_000 + Int(rng.next() % 1_000_000_000))
            let original = String(1_000_000_000 + n)
            let tx = V1Fixture.tx(
                id: id, original: original, purchase: "2023-01-01T00:00:00Z", expires: "2023-02-01T00:00:00Z")
            let pending = V1Fixture.pending(original: original)
            return Array(
                V1Fixture.body(
                    type: types[Int(rng.next() % UInt64(types.count))], transactions: [tx], pending: [pending]
                ).utf8)
        }
    }

    /// The migrated V2 payloads of `v1` as JSON lines (what `migrate` writes; a V2 input `reconcile` reads).
    static func v2Lines(_ v1: [[UInt8]]) -> [[UInt8]] {
        v1.enumerated().compactMap { index, bytes in
            guard
                case .migrated(let payload) = mapper.map(
                    RawRecord(location: SourceLocation(path: "v1.jsonl", line: index + 1), bytes: bytes))
            else { return nil }
            return Array(JSONWriter.string(.object(payload.json)).utf8)
        }
    }

    /// `line` damaged in one of many ways; never holds a line feed, never equals `line`.
    static func damage(_ line: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        guard !line.isEmpty else { return Array("junk".utf8) }
        var out = line
        let position = { (limit: Int, rng: inout SplitMix64) in limit == 0 ? 0 : Int(rng.next() % UInt64(limit)) }
        switch rng.next() % 11 {
        case 0: out = Array(line.prefix(position(line.count, &rng))) // truncated
        case 1: out = Array(line.suffix(max(1, position(line.count, &rng)))) // start lost
        case 2: // one bit flipped
            let at = position(line.count, &rng)
            out[at] ^= UInt8(1) << UInt8(rng.next() % 8)
        case 3: // junk inserted
            let junk = (0..<(1 + position(8, &rng))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            out.insert(contentsOf: junk, at: position(line.count + 1, &rng))
        case 4: // a range deleted
            let from = position(line.count, &rng)
            out.removeSubrange(from..<min(line.count, from + 1 + position(40, &rng)))
        case 5: out += line // two records on one line
        case 6: out = Array("this line is not JSON, {not at all}".utf8)
        case 7: // a structural byte added
            let bytes: [UInt8] = [0x7B, 0x7D, 0x5B, 0x5D, 0x22, 0x5C, 0x2C]
            out.insert(bytes[position(bytes.count, &rng)], at: position(line.count + 1, &rng))
        case 8: // a quote removed
            if let quote = line.indices.filter({ line[$0] == 0x22 }).randomElement(using: &rng) {
                out.remove(at: quote)
            }
        case 9: out = [0x7B] // a lone brace
        default: // a control byte or NUL
            out.insert([0x00, 0x1B, 0x0D, 0x09, 0x7F][position(5, &rng)], at: position(line.count + 1, &rng))
        }
        out = out.map { $0 == 0x0A ? 0x20 : $0 }
        return out == line ? out + [0x7D] : out
    }

    // MARK: - Readers

    /// The mapper `migrate` uses.
    static let mapper: FastRecordMapper = {
        guard let table = try? MappingTable.builtIn() else { fatalError("the built-in mapping table must load") }
        return FastRecordMapper(table: table)
    }()

    /// Every item of `bytes` split as one file named `path`, fed in chunks of `chunk` bytes.
    static func items(_ bytes: [UInt8], path: String = "feed.jsonl", chunk: Int) throws -> [InputItem] {
        var splitter = RecordSplitter(path: path)
        var items: [InputItem] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try bytes[start..<end].withUnsafeBufferPointer { try splitter.feed($0) { items.append($0) } }
            start = end
        }
        try splitter.finish { items.append($0) }
        return items
    }

    /// One item's V1 outcome rendered as text (the migrated JSON, or the reject/unmapped reason), keyed by its line.
    static func v1Outcome(_ item: InputItem) -> (line: Int?, text: String, migrated: Bool) {
        switch item {
        case .broken(let error): return (error.location?.line, "broken: " + error.reportReason, false)
        case .record(let record):
            switch mapper.map(record) {
            case .migrated(let payload): return (record.location.line, JSONWriter.string(.object(payload.json)), true)
            case .unmapped(let u): return (record.location.line, "unmapped: " + u.reason, false)
            case .rejected(let error): return (record.location.line, "rejected: " + error.reportReason, false)
            }
        }
    }

    /// One item's V2 outcomes rendered as text, keyed by its line.
    static func v2Outcome(_ item: InputItem) -> (line: Int?, text: String, records: Int) {
        switch item {
        case .broken(let error): return (error.location?.line, "broken: " + error.reportReason, 0)
        case .record(let record):
            let outcomes = V2RecordDecoder().decode(record)
            // The tape fast path, wherever it answers, must give the reference path's outcomes exactly.
            if V2RecordDecoder().tapeDecode(record) != nil {
                #expect(outcomes == V2RecordDecoder().referenceDecode(record), "\(record.location.source)")
            }
            let records = outcomes.filter { $0.record != nil || $0.apiRecord != nil }.count
            return (record.location.line, outcomes.map { "\($0)" }.joined(separator: "|"), records)
        }
    }

    /// The 1-based numbers of the non-blank lines of `lines` (blank: only JSON whitespace).
    static func nonBlankLines(_ lines: [[UInt8]]) -> [Int] {
        lines.indices.filter { lines[$0].contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A) } }.map {
            $0 + 1
        }
    }

    // MARK: - The JSON Lines property

    /// What went wrong with one damaged JSON Lines file, or nil when the property holds: `read == non-blank lines`,
    /// one item per non-blank line, and every undamaged line's outcome byte-identical to its outcome without damage.
    static func checkJSONLines(good: [[UInt8]], damagedAt: Set<Int>, rng: inout SplitMix64, v2: Bool) throws -> String?
    {
        var lines = good
        for index in damagedAt.sorted() { lines[index] = damage(good[index], &rng) }
        let chunk = [1, 7, 64, 4_096, 1 << 20][Int(rng.next() % 5)]
        let clean = try items(Array(good.joined(separator: [0x0A])) + [0x0A], chunk: 1 << 20)
        let damaged = try items(Array(lines.joined(separator: [0x0A])) + [0x0A], chunk: chunk)
        let expected = nonBlankLines(lines)
        let seen = damaged.map { $0.location?.line ?? -1 }
        guard seen == expected else {
            return
                "items at lines \(seen), expected one per non-blank line \(expected) (damaged \(damagedAt.sorted()), chunk \(chunk))"
        }
        let render = { (item: InputItem) -> String in v2 ? v2Outcome(item).text : v1Outcome(item).text }
        let before = Dictionary(uniqueKeysWithValues: clean.map { ($0.location?.line ?? -1, render($0)) })
        for item in damaged {
            guard let line = item.location?.line, !damagedAt.contains(line - 1) else { continue }
            if render(item) != before[line] { return "undamaged line \(line) changed (damaged \(damagedAt.sorted()))" }
        }
        return nil
    }

    /// A random set of fewer than half of `count` line indexes (at least one).
    static func damagedLines(count: Int, _ rng: inout SplitMix64) -> Set<Int> {
        let most = max(1, (count - 1) / 2)
        let howMany = 1 + Int(rng.next() % UInt64(most))
        var chosen = Set<Int>()
        while chosen.count < howMany { chosen.insert(Int(rng.next() % UInt64(count))) }
        return chosen
    }
}
