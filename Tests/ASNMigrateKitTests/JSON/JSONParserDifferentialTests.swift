import Foundation
import Testing

@testable import ASNMigrateKit

/// `JSONParser` against Foundation's `JSONSerialization` (the reference), on real payloads and generated, mutated input.
///
/// Accept/reject must agree, and accepted values must be equal, except for these deliberate divergences, each
/// excused only when its exact condition holds (see `excuse(_:ours:)`):
/// 1. Trailing commas (`[1,]`, `{"a":1,}`): Foundation on Linux accepts them; RFC 8259 forbids them, so we reject.
/// 2. Encoding detection: Foundation reads input that starts with a byte-order mark, or has a NUL byte in its first
///    four bytes, as UTF-8-with-BOM / UTF-16 / UTF-32; RFC 8259 §8.1 says JSON is UTF-8 without a BOM, so we reject.
/// 3. Numbers beyond `Double` (`1e400`, a 400-digit integer): Foundation rejects them as "not representable";
///    we keep every number as its literal text, so they are valid.
/// Lone surrogate escapes are rejected by both, so they need no exclusion.
@Suite struct JSONParserDifferentialTests {
    // MARK: - Inputs

    /// The shared corpus of real payloads, `../shared/corpus` from the package root, if present.
    static let corpusDirectory: URL? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: corpus.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return nil }
        return corpus
    }()

    /// Every regular file under the corpus directory, sorted for a stable order.
    static func corpusFiles() -> [URL] {
        guard let directory = corpusDirectory,
            let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walker
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// A V1-like notification, the base for mutations.
    static let v1Sample = Array(
        #"""
        {"notification_type":"DID_RENEW","password":"s3cr3t","environment":"PROD","auto_renew_status":"true",
         "unified_receipt":{"status":0,"environment":"Production","latest_receipt":"TUlJVDJnWUpLb1pJaHZjTkFRY0NvSUlUeXpDQ0U4Y0NBUUV4Q3pBSkJnVXJEZ01DR2dVQU1JSURld1lKS29aSWh2Y05BUWNCb0lJRGJBU0NBMmd4Z2dOa01Bb0NBUWdDQVFFRUFoWUFNQW9DQVFnQ0FRRUVBaFlB",
          "latest_receipt_info":[{"original_transaction_id":"1000000123456789","transaction_id":"1000000987654321","web_order_line_item_id":1000000055555555555,
           "product_id":"com.example.pro.monthly","purchase_date":"2021-03-01 10:00:00 Etc\/GMT","purchase_date_ms":"1614592800000","is_trial_period":"false","price":9.99,"expires_date_ms":1.6172712E12}],
          "pending_renewal_info":[{"auto_renew_product_id":"com.example.pro.monthly","auto_renew_status":"1","note":"caf\u00e9 \ud83d\ude00 \"q\" \\ \t"}]}}
        """#.utf8)

    // MARK: - Tests

    @Test(.enabled(if: corpusDirectory != nil, "needs ../shared/corpus"))
    func agreesWithFoundationOnTheCorpus() {
        let files = Self.corpusFiles()
        #expect(!files.isEmpty)
        for file in files {
            guard let data = try? Data(contentsOf: file) else {
                Issue.record("cannot read \(file.path)")
                continue
            }
            let bytes = [UInt8](data)
            if let problem = Self.disagreement(bytes) { Issue.record("\(file.lastPathComponent): \(problem)") }
            // Every corpus file also survives truncation at a spread of offsets.
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 64)) {
                if let problem = Self.disagreement(Array(bytes[..<cut])) {
                    Issue.record("\(file.lastPathComponent)[..<\(cut)]: \(problem)")
                }
            }
        }
    }

    @Test func agreesOnGeneratedDocuments() {
        var random = SplitMix64(seed: 1)
        for round in 0..<400 {
            let value = JSONSamples.value(using: &random, depth: 1 + round % 5)
            let bytes = JSONSamples.text(value, using: &random)
            #expect(Self.disagreement(bytes) == nil, "\(String(decoding: bytes, as: UTF8.self))")
            #expect((try? JSONParser().parse(bytes)) == value)
        }
    }

    @Test func agreesOnEveryTruncation() {
        var random = SplitMix64(seed: 2)
        var documents = [Self.v1Sample]
        for _ in 0..<3 {
            documents.append(JSONSamples.text(JSONSamples.value(using: &random, depth: 4), using: &random))
        }
        for document in documents {
            for cut in 0...document.count {
                let prefix = Array(document[..<cut])
                if let problem = Self.disagreement(prefix) {
                    Issue.record("cut \(cut): \(problem): \(String(decoding: prefix, as: UTF8.self))")
                }
            }
        }
    }

    @Test func agreesOnByteFlipsInsertionsAndDeletions() {
        var random = SplitMix64(seed: 3)
        let interesting: [UInt8] = [
            0x00, 0x01, 0x09, 0x0A, 0x20, 0x22, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x3A, 0x45, 0x5B, 0x5C,
            0x5D, 0x65, 0x66, 0x6E, 0x74, 0x75, 0x7B, 0x7D, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xEF, 0xF0, 0xF4,
            0xFF
        ]
        var bases = [Self.v1Sample]
        for _ in 0..<8 { bases.append(JSONSamples.text(JSONSamples.value(using: &random, depth: 4), using: &random)) }
        for _ in 0..<4000 {
            var bytes = random.pick(bases)
            if bytes.isEmpty { continue }
            for _ in 0..<(1 + random.below(2)) {
                let position = random.below(bytes.count)
                let byte = random.oneIn(4) ? UInt8(truncatingIfNeeded: random.next()) : random.pick(interesting)
                switch random.below(3) {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: if bytes.count > 1 { bytes.remove(at: position) }
                }
            }
            if let problem = Self.disagreement(bytes) { Issue.record("\(problem): \(Array(bytes))") }
        }
    }

    @Test(arguments: [
        #""\x""#, #""\u""#, #""\u1""#, #""\u12""#, #""\u123""#, #""\u123g""#, #""\uD800""#, #""\uDC00""#,
        #""\uD800\uD800""#,
        #""\uD800\u0041""#, #""\uD800\""#, #""\uDBFF\uDFFF""#, #""\uD800\uDC00""#, #""\U0041""#, #""\0""#, #""\a""#,
        #""\v""#,
        #""\'""#, #""\""#, #""\\\""#, #""\/""#, #"["\u0000"]"#, #"{"\uD83D\uDE00":"\u00E9"}"#
    ])
    func agreesOnEscapes(json: String) {
        #expect(Self.disagreement(Array(json.utf8)) == nil)
    }

    @Test(
        arguments: [
            [0xFF], [0xC0, 0x80], [0xC1, 0x81], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80],
            [0xED, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x8F, 0x80, 0x80], [0xF0, 0x90, 0x80, 0x80],
            [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x80], [0xE2, 0x82], [0xE2, 0x82, 0x20],
            [0xF0, 0x9F, 0x98]
        ] as [[UInt8]])
    func agreesOnUTF8Sequences(sequence: [UInt8]) {
        for wrapped in [
            [0x22] + sequence + [0x22], Array(#"{"k":"abcdefghij"#.utf8) + sequence + Array(#"xyz"}"#.utf8),
            [0x5B] + sequence + [0x5D]
        ] {
            #expect(Self.disagreement(wrapped) == nil, "\(wrapped)")
        }
    }

    @Test(arguments: [1, 2, 510, 511, 512, 513, 1000, 100_000])
    func agreesOnDeepNesting(depth: Int) {
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: "{\"a\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        let mixed = String(repeating: "[{\"a\":", count: depth / 2) + "1" + String(repeating: "}]", count: depth / 2)
        let unclosed = String(repeating: "[", count: depth)
        for text in [arrays, objects, mixed, unclosed] {
            #expect(Self.disagreement(Array(text.utf8)) == nil, "depth \(depth)")
        }
    }

    @Test(arguments: [
        "0", "-0", "1000000000000000123", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "123456789012345678901234567890", "1e308",
        "1.7976931348623157e308",
        "1.8e308", "1e400", "-1e400", "1e-400", "4.9e-324", "0.1", "1.0", "1E5", "-1.5e-7",
        "1" + String(repeating: "0", count: 400),
        "[1e400,\"x\"]", "01", "1.", ".5", "+1", "-", "1e", "1e+", "--1", "0x1", "1.5e+3"
    ])
    func agreesOnNumbers(literal: String) {
        #expect(Self.disagreement(Array(literal.utf8)) == nil)
    }

    @Test(arguments: [
        "[1,]", "{\"a\":1,}", "[1,\n]", "\u{FEFF}[1]", "1\u{0}", "\u{0}1", "[1]\u{0}", " [1]", "", " ", "[] ", "nul",
        "[1 2]"
    ])
    func agreesOrDivergesAsDocumented(text: String) {
        #expect(Self.disagreement(Array(text.utf8)) == nil)
    }

    /// The documented divergences really are divergences (so their exclusions are not dead code), and we reject or accept as RFC 8259 says.
    @Test(arguments: [
        ("[1,]", false), ("{\"a\":1,}", false), ("\u{FEFF}[1]", false), ("1\u{0}", false), ("1e400", true),
        ("[-1e400]", true)
    ])
    func documentedDivergencesExist(text: String, weAccept: Bool) {
        let bytes = Array(text.utf8)
        let ours = (try? JSONParser().parse(bytes)) != nil
        let theirs = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
        #expect(ours == weAccept)
        #expect(theirs != ours)
    }

    // MARK: - Comparison

    /// Keys the skipping parser drops in every comparison.
    private static let skipped: Set<String> = ["latest_receipt", "password", "a"]

    /// Why our parser and Foundation disagree on `bytes` beyond the documented divergences, or nil if they agree.
    /// Also checks that the skipping parser and `validate` accept exactly what the plain parser accepts.
    static func disagreement(_ bytes: [UInt8]) -> String? {
        let ours: Result<JSONValue, ASNError>
        do { ours = .success(try JSONParser().parse(bytes)) } catch { ours = .failure(error) }
        if let problem = skippingDisagreement(bytes, plain: ours) { return problem }
        let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        switch (ours, theirs) {
        case (.success(let value), let reference?):
            return matches(value, reference) ? nil : "values differ: ours \(value), Foundation \(reference)"
        case (.failure, nil):
            return nil
        case (.failure(let error), _?):
            return hasTrailingComma(bytes) || foundationDetectsAnotherEncoding(bytes)
                ? nil : "we reject, Foundation accepts: \(error.message)"
        case (.success(let value), nil):
            return containsNumberBeyondDouble(value) ? nil : "we accept, Foundation rejects"
        }
    }

    /// A problem if the skipping parser or `validate` disagrees with the plain parse `plain`.
    private static func skippingDisagreement(_ bytes: [UInt8], plain: Result<JSONValue, ASNError>) -> String? {
        let skipping = try? JSONParser(skippingKeys: skipped).parse(bytes)
        let valid = (try? JSONParser().validate(bytes)) != nil
        switch plain {
        case .success(let value):
            if skipping != removing(skipped, from: value) {
                return "skipping parser gives \(String(describing: skipping))"
            }
            if !valid { return "validate rejects what parse accepts" }
        case .failure:
            if skipping != nil { return "skipping parser accepts what parse rejects" }
            if valid { return "validate accepts what parse rejects" }
        }
        return nil
    }

    /// `value` with every member whose key is in `keys` removed, at every depth.
    private static func removing(_ keys: Set<String>, from value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements): return .array(elements.map { removing(keys, from: $0) })
        case .object(let object):
            return .object(
                JSONObject(
                    object.members.filter { !keys.contains($0.key) }.map {
                        .init(key: $0.key, value: removing(keys, from: $0.value))
                    }))
        default: return value
        }
    }

    /// Whether our value equals Foundation's: same structure, strings by UTF-8, numbers by value, objects by last duplicate.
    private static func matches(_ value: JSONValue, _ reference: Any) -> Bool {
        switch value {
        case .null:
            return reference is NSNull
        case .bool(let flag):
            guard let number = reference as? NSNumber, String(cString: number.objCType) == "c" else { return false }
            return number.boolValue == flag
        case .number(let literal):
            guard let number = reference as? NSNumber, String(cString: number.objCType) != "c" else { return false }
            return numberMatches(literal, number)
        case .string(let text):
            guard let other = reference as? String else { return false }
            return text.utf8.elementsEqual(other.utf8)
        case .array(let elements):
            guard let others = reference as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { matches($0, $1) }
        case .object(let object):
            guard let others = reference as? [String: Any] else { return false }
            var last: [String: JSONValue] = [:]
            for member in object.members { last[member.key] = member.value }
            guard last.count == others.count else { return false }
            return last.allSatisfy { key, element in others[key].map { matches(element, $0) } ?? false }
        }
    }

    /// Whether `literal` has the value of Foundation's `number`, compared as exactly as Foundation's type allows.
    private static func numberMatches(_ literal: String, _ number: NSNumber) -> Bool {
        if let decimal = number as? NSDecimalNumber {
            return Decimal(string: literal) == decimal.decimalValue
        }
        let type = String(cString: number.objCType)
        if type == "d" || type == "f" { return Double(literal) == number.doubleValue }
        if let integer = Int64(literal) { return number.int64Value == integer }
        if let unsigned = UInt64(literal) { return number.uint64Value == unsigned }
        return false
    }

    // MARK: - Documented divergences

    /// Divergence 1: a `,` followed (after whitespace) by `]` or `}`, outside strings.
    private static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var inString = false
        var escaping = false
        var previous: UInt8 = 0
        for byte in bytes {
            if inString {
                if escaping {
                    escaping = false
                } else if byte == 0x5C {
                    escaping = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case 0x22: inString = true
            case 0x5D, 0x7D: if previous == 0x2C { return true }
            default: break
            }
            previous = byte
        }
        return false
    }

    /// Divergence 2: input Foundation decodes as something other than plain UTF-8 (a BOM, or a NUL in the first four bytes).
    private static func foundationDetectsAnotherEncoding(_ bytes: [UInt8]) -> Bool {
        bytes.prefix(4).contains(0) || bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF])
            || bytes.starts(with: [0xFF, 0xFE])
    }

    /// Divergence 3: a number whose magnitude overflows `Double`, which Foundation cannot represent.
    private static func containsNumberBeyondDouble(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let literal): return Double(literal)?.isInfinite ?? true
        case .array(let elements): return elements.contains { containsNumberBeyondDouble($0) }
        case .object(let object): return object.members.contains { containsNumberBeyondDouble($0.value) }
        default: return false
        }
    }
}
