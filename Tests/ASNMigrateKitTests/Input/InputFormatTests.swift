import Foundation
import Testing

@testable import ASNMigrateKit

/// Formats are told by their first bytes, never by their names; text with some damage stays text.
@Suite struct InputFormatTests {
    /// The format of `bytes`.
    static func format(_ bytes: [UInt8]) -> InputFormat {
        bytes.withUnsafeBytes { InputFormat.detect($0) }
    }

    @Test func compressionsAndArchivesAreToldByTheirMagicBytes() throws {
        #expect(Self.format([0x1f, 0x8b, 8, 0] + [UInt8](repeating: 0, count: 20)) == .gzip)
        #expect(Self.format([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x05]) == .zstd)
        #expect(Self.format([0x50, 0x2a, 0x4d, 0x18, 0, 0, 0, 0]) == .zstd, "a skippable frame first")
        #expect(Self.format(Array("PK\u{3}\u{4}".utf8) + [UInt8](repeating: 0, count: 26)) == .zip)
        #expect(Self.format(ArchiveFixture.tar([.init(path: "a.jsonl", bytes: Array("{}\n".utf8))])) == .tar)
        #expect(Self.format(ArchiveFixture.tar([.init(path: "a.jsonl", bytes: [])], longNames: .pax)) == .tar)
        #expect(Self.format(Array("{\"notification_type\":\"DID_RENEW\"}\n".utf8)) == .text)
        #expect(Self.format(Array("\u{FEFF}[{\"a\":1}]".utf8)) == .text, "a UTF-8 BOM is text")
        #expect(Self.format([]) == .text, "an empty file has no records, and no reject")
    }

    /// The progress line's ETA needs sizes that tell the bytes to come: compressed files are told by magic, not name.
    @Test func compressedFilesAreToldByMagicNotName() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let text = Array("{\"notification_type\":\"DID_RENEW\"}\n".utf8)
        #expect(InputFile(path: try tmp.writeGzip("feed.jsonl", text)).isCompressed())
        #expect(!InputFile(path: try tmp.write("plain.gz", text)).isCompressed())
        #expect(
            InputFile(path: try tmp.write("feed", try ArchiveFixture.zip([.init(path: "a", bytes: text)])))
                .isCompressed())
        #expect(
            !InputFile(path: try tmp.write("feed.tar", ArchiveFixture.tar([.init(path: "a", bytes: text)])))
                .isCompressed())
        #expect(!InputFile(path: "-").isCompressed())
    }

    @Test func aTarHeaderWithAWrongChecksumIsNotTaken() {
        var block = ArchiveFixture.header(name: "a.jsonl", size: 3, type: UInt8(ascii: "0"))
        block[0] ^= 0x01
        #expect(Self.format(block) != .tar)
    }

    @Test(
        arguments: [
            ("bzip2", Array("BZh91AY&SY".utf8)),
            ("xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04]),
            ("7-Zip", [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0x00, 0x04]),
            ("PDF", Array("%PDF-1.7\n%âãÏÓ\n".utf8)),
            ("ELF", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00]),
            ("SQLite", Array("SQLite format 3\u{0}".utf8) + [0x10, 0x00]),
            ("UTF-16", [0xFF, 0xFE] + Array("{\"a\":1}".utf8).flatMap { [$0, 0] })
        ] as [(String, [UInt8])])
    func knownBinaryFormatsAreNamed(name: String, head: [UInt8]) {
        guard case .unsupported(let format, let advice) = Self.format(head) else {
            Issue.record("\(name) was not recognised")
            return
        }
        #expect(format.contains(name))
        #expect(!advice.isEmpty)
    }

    /// Property: random bytes are binary (unless they open a JSON value); JSON Lines with up to one damaged byte (NUL, control, invalid UTF-8) in
    /// every line stay text, so their damaged lines stay one reject each.
    @Test func randomBytesAreBinaryAndDamagedTextIsNot() {
        var random = SplitMix64(seed: 23)
        for _ in 0..<200 {
            let bytes = (0..<(16 + random.below(4000))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let format = Self.format(bytes)
            if case .unsupported = format { continue }
            // One in about 100 starts with `{` or `[` (after whitespace): the JSON reader judges those, line by line.
            if bytes.withUnsafeBytes({ InputFormat.opensJSON($0) }) { continue }
            // Random bytes may start with a known magic by chance only in the archive/compression cases.
            #expect([.gzip, .zstd, .zip, .tar].contains(format), "random bytes read as \(format)")
        }
        for _ in 0..<200 {
            var text: [UInt8] = []
            while text.count < 4096 {
                var line = Array(
                    "{\"notification_type\":\"DID_RENEW\",\"n\":\(random.below(1_000_000)),\"é\":\"ü\"}".utf8)
                if random.oneIn(2) {
                    line[random.below(line.count)] = random.pick([0x00, 0x01, 0x1F, 0x7F, 0xC0, 0xFF, 0x80])
                }
                text += line + [0x0A]
            }
            #expect(Self.format(Array(text.prefix(InputFormat.sampleSize))) == .text)
        }
    }
}

/// Records read from inside tar, zip and zstd containers are the records of the same files read plain, located
/// `archive:member`; a member that fails its check gives no record and one broken item.
@Suite struct ContainerReadingTests {
    /// The items of the file at `path`, with every location's path rewritten by `rename`.
    static func items(_ path: String, rename: (String) -> String = { $0 }) throws -> [InputItem] {
        try RecordReader(file: InputFile(path: path), chunkSize: 997).items().map { item in
            switch item {
            case .record(var record):
                record.location.path = rename(record.location.path)
                return .record(record)
            case .broken(var error):
                if let path = error.location?.path { error.location?.path = rename(path) }
                return .broken(error)
            }
        }
    }

    /// Random V1-ish JSON Lines files, some with a damaged line.
    static func randomMembers(_ random: inout SplitMix64) -> [ArchiveFixture.Member] {
        (0..<(1 + random.below(4))).map { m in
            var lines: [String] = []
            for n in 0..<(random.below(30)) {
                lines.append(
                    random.oneIn(8) ? "{\"broken\":" : "{\"notification_type\":\"DID_RENEW\",\"n\":\(n),\"m\":\(m)}")
            }
            let long = random.oneIn(4) ? String(repeating: "deep/", count: 25) : ""
            return ArchiveFixture.Member(
                path: "\(long)part-\(m).jsonl",
                bytes: Array(lines.joined(separator: "\n").utf8) + (random.oneIn(2) ? [0x0A] : []))
        }
    }

    /// Property: for random members in every container kind, the items equal those of the members read as plain
    /// files one after another, with `archive:member` for the plain path.
    @Test(.enabled(if: MachineTools.libzstd, "needs libzstd (libzstd.so.1)"))
    func containersGiveTheItemsOfTheirMembers() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        var random = SplitMix64(seed: 41)
        for round in 0..<24 {
            let members = Self.randomMembers(&random)
            var expected: [InputItem] = []
            for (k, member) in members.enumerated() {
                let plain = try tmp.write("plain-\(round)-\(k)", member.bytes)
                expected += try Self.items(plain) { _ in "ARCHIVE:" + member.path }
            }
            let kind = round % 6
            let name = "archive-\(round)"
            let path: String
            switch kind {
            case 0: path = try tmp.write(name, ArchiveFixture.tar(members, longNames: .gnu))
            case 1: path = try tmp.write(name, ArchiveFixture.tar(members, longNames: .pax))
            case 2:
                let zip64 = (round / 6) % 2 == 1 // rounds 8 and 20
                path = try tmp.write(
                    name,
                    try ArchiveFixture.zip(members, zip64: zip64) { _ in
                        random.pick([.stored, .deflate, .deflateWithDescriptor])
                    })
            case 3: path = try tmp.writeGzip(name, ArchiveFixture.tar(members))
            case 4:
                let compressed = try #require(try ArchiveFixture.zstd(ArchiveFixture.tar(members)))
                path = try tmp.write(name, compressed)
            default:
                let compressed = try #require(try ArchiveFixture.zstd(try ArchiveFixture.zip(members)))
                path = try tmp.write(name, compressed)
            }
            let got = try Self.items(path) { $0.replacingOccurrences(of: path + ":", with: "ARCHIVE:") }
            #expect(got == expected, "round \(round), container kind \(kind)")
        }
    }

    @Test(.enabled(if: MachineTools.libzstd, "needs libzstd (libzstd.so.1)"))
    func aZstdFileGivesTheRecordsOfThePlainFile() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let text = Array((0..<50).map { "{\"notification_type\":\"DID_RENEW\",\"n\":\($0)}\n" }.joined().utf8)
        let compressed = try #require(try ArchiveFixture.zstd(text), "libzstd.so.1 did not load")
        let plain = try tmp.write("plain.jsonl", text)
        let zst = try tmp.write("feed.zst", compressed + compressed)
        let expected = try Self.items(plain) { _ in "X" }
        let got = try Self.items(zst) { _ in "X" }
        #expect(
            got.count == 100
                && got == expected
                    + expected.map { item in
                        guard case .record(var record) = item else { return item }
                        record.location.line = (record.location.line ?? 0) + 50
                        return .record(record)
                    },
            "two frames are read one after the other, lines counting on")
    }

    @Test func aZipMemberFailingItsCRCGivesNoRecordAndTheOthersAreRead() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let good = Array("{\"notification_type\":\"DID_RENEW\",\"n\":1}\n".utf8)
        let bad = Array(
            "{\"notification_type\":\"DID_RENEW\",\"n\":2}\n{\"notification_type\":\"DID_RENEW\",\"n\":3}\n".utf8)
        for method in [ArchiveFixture.ZipMethod.stored, .deflate, .deflateWithDescriptor] {
            var zip = try ArchiveFixture.zip([
                .init(path: "a.jsonl", bytes: good), .init(path: "b.jsonl", bytes: bad),
                .init(path: "c.jsonl", bytes: good)
            ]) { _ in method }
            switch method {
            case .stored:
                // A digit with one bit flipped still parses: only the CRC-32 can tell.
                zip[try #require(Self.find(Array("\"n\":3".utf8), in: zip)) + 4] ^= 0x01
            case .deflate:
                // Damaged compressed data: inflate fails or the CRC-32 does; the member's size finds the next one.
                zip[try #require(Self.find(Array("b.jsonl".utf8), in: zip)) + 7 + 10] ^= 0x10
            case .deflateWithDescriptor:
                // Good data, but the CRC-32 in b's data descriptor (the second one) is wrong.
                let first = try #require(Self.find([0x50, 0x4B, 0x07, 0x08], in: zip))
                let second =
                    try #require(Self.find([0x50, 0x4B, 0x07, 0x08], in: Array(zip[(first + 4)...]))) + first + 4
                zip[second + 4] ^= 0x01
            }
            let path = try tmp.write("archive-\(method).zip", zip)
            let items = try RecordReader(file: InputFile(path: path)).items()
            let records = items.compactMap(\.record)
            #expect(records.map(\.location.path) == [path + ":a.jsonl", path + ":c.jsonl"], "\(method): \(items)")
            let broken = items.compactMap(\.error)
            #expect(broken.count == 1 && broken.first?.location?.path == path + ":b.jsonl", "\(method): \(broken)")
            #expect(broken.first?.code == .unreadableInput)
        }
    }

    @Test func aCSVMemberOfATarIsReadThroughTheColumnMap() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let map = try V2ColumnMap.parse(
            "format 1\nnotificationType | type\nnotificationUUID | uuid\nsignedDate | signed\ndata.transactionInfo.originalTransactionId | otid\n",
            path: "test.map")
        let csv = Array(
            "type,uuid,signed,otid\nDID_RENEW,4b1e4f0e-0000-4000-8000-000000000001,1700000000000,1000\nDID_RENEW,,x,2000\n"
                .utf8)
        let plain = try tmp.write("v2.csv", csv)
        let tar = try tmp.write("export.tar", ArchiveFixture.tar([.init(path: "v2.csv", bytes: csv)]))
        let reader = V2RecordReader(columnMap: map)
        var fromPlain: [String] = []
        var fromTar: [String] = []
        try reader.read(InputFile(path: plain)) { fromPlain.append("\($0)".replacingOccurrences(of: plain, with: "X")) }
        try reader.read(InputFile(path: tar)) {
            fromTar.append("\($0)".replacingOccurrences(of: tar + ":v2.csv", with: "X"))
        }
        #expect(fromPlain.count == 2)
        #expect(fromTar == fromPlain)
    }

    /// The offset of `needle` in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
