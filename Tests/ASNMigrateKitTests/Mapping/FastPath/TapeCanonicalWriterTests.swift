import Foundation
import Testing

@testable import ASNMigrateKit

/// The tape, its canonical writer and the fast SHA-1 against `JSONParser`, `JSONWriter.canonical` and `SHA1`.
@Suite struct TapeCanonicalWriterTests {
    /// The canonical bytes written from a tape of `bytes`, or nil when the tape declines them.
    static func canonical(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
            guard let base = buffer.baseAddress else { return nil }
            var tape = JSONTape(base: base, count: buffer.count)
            guard tape.build() else { return nil }
            return [UInt8](unsafeUninitializedCapacity: buffer.count) { out, initialized in
                guard let start = out.baseAddress else { return }
                var writer = TapeCanonicalWriter(into: start)
                writer.write(tape, 0)
                initialized = writer.written
            }
        }
    }

    @Test func matchesJSONWriterOnGeneratedDocuments() throws {
        var random = SplitMix64(seed: 7)
        let parser = JSONParser(skippingKeys: Envelope.secretKeys)
        var written = 0
        for round in 0..<600 {
            var value = JSONSamples.value(using: &random, depth: 1 + round % 5)
            if round % 3 == 0 {
                // Duplicate keys and secrets, which the canonical form drops.
                value = .object(
                    JSONObject([
                        .init(key: "b", value: .number("1")), .init(key: "password", value: .string("x")),
                        .init(key: "a", value: value), .init(key: "b", value: .array([value]))
                    ]))
            }
            let bytes = JSONSamples.text(value, using: &random)
            let expected = JSONWriter.canonical(try parser.parse(bytes))
            guard let ours = Self.canonical(bytes) else { continue }
            written += 1
            #expect(ours == expected, "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(written > 300)
    }

    /// Objects past the insertion sort's limit (thousands of keys, many repeated, in an order their bytes do not
    /// sort in) are written as the reference writes them: sorted, the last of each repeated key kept.
    @Test func largeObjectsWithRepeatedKeysMatchJSONWriter() throws {
        var random = SplitMix64(seed: 41)
        let parser = JSONParser(skippingKeys: Envelope.secretKeys)
        for size in [TapeCanonicalWriter.insertionSortLimit + 1, 1_000, 20_000] {
            var members: [String] = []
            for n in 0..<size {
                // About a third repeat an earlier key, with a new value: the last one must win.
                let key = random.next() % 3 == 0 && n > 0 ? "k\(random.next() % UInt64(n))" : "k\(n)"
                members.append("\"\(key)\":\(n)")
            }
            let nested =
                "{\"inner\":{\(members.shuffled(using: &random).joined(separator: ","))},"
                + members.joined(separator: ",") + "}"
            let bytes = Array(nested.utf8)
            let ours = try #require(Self.canonical(bytes), "the tape reads \(size) keys")
            #expect(ours == JSONWriter.canonical(try parser.parse(bytes)), "\(size) keys")
        }
    }

    @Test func acceptsOnlyWhatJSONParserAccepts() {
        var random = SplitMix64(seed: 9)
        let base = Array(#"{"a":[1,-2.5e+3,true,false,null,"x\u00e9\ud83d\ude00"],"b":{"c":"ü","d":[]},"e":{}}"#.utf8)
        for round in 0..<2000 {
            var bytes = base
            let at = random.below(bytes.count)
            if round % 2 == 0 {
                bytes[at] = UInt8(truncatingIfNeeded: random.next())
            } else {
                bytes = Array(bytes[..<at])
            }
            let tapeAccepts = bytes.withUnsafeBufferPointer { buffer -> Bool in
                guard let p = buffer.baseAddress else { return false }
                var tape = JSONTape(base: p, count: buffer.count)
                return tape.build()
            }
            if tapeAccepts {
                #expect((try? JSONParser().validate(bytes)) != nil, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    /// The fast path's one-shot SHA-1 over raw bytes gives what streaming the same bytes in uneven pieces gives.
    @Test func rawPointerSHA1MatchesStreaming() {
        var random = SplitMix64(seed: 3)
        for length in Array(0...200) + [1000, 4095, 4096, 65_537, 300_001] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var hasher = SHA1()
            var offset = 0
            while offset < length {
                let next = min(length, offset + 1 + Int(random.next() % 97))
                hasher.update(bytes[offset..<next])
                offset = next
            }
            let expected = hasher.finalize()
            bytes.withUnsafeBytes { raw in
                let base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1).unsafelyUnwrapped
                #expect(SHA1.digest(base, count: length) == expected, "length \(length)")
            }
        }
    }
}
