import Testing

@testable import ASNMigrateKit

/// Property-style tests of the splitter on randomly damaged JSON Lines files: every non-blank line is accounted for
/// (inside a record or a broken item), every line left intact is still its own record, and damage costs few items.
@Suite struct RecordSplitterDamageTests {
    /// One damage applied to the bytes of a file.
    enum Damage: CaseIterable {
        case truncate, deleteBytes, insertOpenBrace, insertCloseBrace, insertQuote, insertOpenBracket
    }

    /// The good records of a file: one per line, with nested objects and strings holding brackets.
    static func goodLines(_ count: Int, random: inout SplitMix64) -> [String] {
        (0..<count).map { n in
            let nested = random.oneIn(2) ? ",\"o\":{\"k\":[1,{\"z\":\"}{\"}],\"e\":{}}" : ""
            return "{\"n\":\(n),\"s\":\"v\(random.below(1000)) { ] \\\" x\"\(nested)}"
        }
    }

    /// Applies `damage` at a random place in `bytes`.
    static func apply(_ damage: Damage, to bytes: inout [UInt8], random: inout SplitMix64) {
        let at = random.below(max(1, bytes.count))
        switch damage {
        case .truncate: bytes.removeSubrange(at...)
        case .deleteBytes: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(3)))
        case .insertOpenBrace: bytes.insert(UInt8(ascii: "{"), at: at)
        case .insertCloseBrace: bytes.insert(UInt8(ascii: "}"), at: at)
        case .insertQuote: bytes.insert(UInt8(ascii: "\""), at: at)
        case .insertOpenBracket: bytes.insert(UInt8(ascii: "["), at: random.oneIn(4) ? 0 : at)
        }
    }

    /// Splits `bytes` fed in chunks of random sizes (1 to 40 bytes).
    static func split(_ bytes: [UInt8], random: inout SplitMix64) throws -> [InputItem] {
        var splitter = RecordSplitter(path: "damaged.jsonl")
        var items: [InputItem] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 1 + random.below(40))
            try bytes[start..<end].withUnsafeBufferPointer { chunk in
                try splitter.feed(chunk) { items.append($0) }
            }
            start = end
        }
        try splitter.finish { items.append($0) }
        return items
    }

    /// JSON whitespace.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    @Test(arguments: 0..<8)
    func everyNonBlankLineOfADamagedFileIsAccountedFor(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 7919 &+ 17)
        for _ in 0..<60 {
            let good = Self.goodLines(3 + random.below(25), random: &random)
            let goodSet = Set(good)
            var bytes = Array(good.joined(separator: "\n").utf8) + (random.oneIn(2) ? [0x0A] : [])
            let damages = (0..<(1 + random.below(3))).map { _ in Damage.allCases[random.below(Damage.allCases.count)] }
            for damage in damages { Self.apply(damage, to: &bytes, random: &random) }
            let items = try Self.split(bytes, random: &random)

            // The damaged file's lines (1-based), trimmed.
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> [UInt8] in
                Array(line.drop(while: Self.isSpace).reversed().drop(while: Self.isSpace).reversed())
            }
            let file = String(decoding: bytes, as: UTF8.self).debugDescription

            // Every item starts on a non-blank line, in order.
            let starts = items.map { $0.location?.line ?? 0 }
            #expect(starts == starts.sorted(), "items out of order in \(file)")

            // Every line left intact is its own record, with its own bytes.
            let records = items.compactMap(\.record)
            var intact = 0
            for (offset, line) in lines.enumerated() where goodSet.contains(String(decoding: line, as: UTF8.self)) {
                intact += 1
                #expect(
                    records.contains { $0.location.line == offset + 1 && $0.bytes == line },
                    "intact line \(offset + 1) is not a record in \(file): \(items)")
            }

            // Every non-blank line lies inside a record (its start line plus its newlines) or a broken item (up to the next item).
            var covered = Set<Int>()
            for (index, item) in items.enumerated() {
                let start = item.location?.line ?? 0
                switch item {
                case .record(let record):
                    covered.formUnion(start...(start + record.bytes.filter { $0 == 0x0A }.count))
                case .broken:
                    let next = items.dropFirst(index + 1).first?.location?.line ?? lines.count
                    covered.formUnion(start...max(start, next))
                }
            }
            for (offset, line) in lines.enumerated() where !line.isEmpty {
                #expect(covered.contains(offset + 1), "line \(offset + 1) is not accounted for in \(file): \(items)")
            }

            // Damage costs at most two items per damaged spot (a line split in two by an inserted '}').
            let damagedItems = items.count - intact
            #expect(damagedItems <= 2 * damages.count + 1, "\(damages) cost \(damagedItems) items in \(file): \(items)")
        }
    }
}
