/// Removes the members named in `Envelope.secretKeys` (the app's shared secret and receipt blobs) from a raw V1
/// record's bytes, at any depth and inside envelope bodies held as JSON strings, leaving every other byte as it was.
///
/// For outputs that carry records on (`partition`'s data files): what the readers later parse is the same record less
/// its secrets, so the secrets never reach a file. A member is removed with the comma that separates it, so valid JSON
/// stays valid. In bytes that are not valid JSON (a damaged record, which will be a reject) each secret's string value
/// is masked with `*` byte for byte instead, so the reject's byte offsets read the same from a partition as from the
/// input.
package enum V1SecretStripper {
    /// `bytes` without their secret members (masked, when the bytes are not valid JSON); the same array when there is
    /// none.
    package static func strip(_ bytes: [UInt8]) -> [UInt8] {
        guard mayHoldSecret(bytes) else { return bytes }
        guard (try? JSONParser().parse(bytes)) != nil else { return masked(bytes) }
        var scanner = Scanner(bytes: bytes)
        scanner.scan()
        guard !scanner.edits.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        for edit in scanner.edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound })
        where edit.range.lowerBound >= position {
            out.append(contentsOf: bytes[position..<edit.range.lowerBound])
            out.append(contentsOf: edit.replacement)
            position = edit.range.upperBound
        }
        out.append(contentsOf: bytes[position...])
        return out
    }

    /// `bytes` with the string value of every secret member masked with `*`, at the same length: a member written
    /// plainly (`"password": "…"`) or inside a string (`\"password\":\"…\"`, an envelope body held as text); a value
    /// cut short is masked to the end of its line.
    static func masked(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let newline = UInt8(ascii: "\n")
        /// Steps `at` past a quote, `\"` when `escaped`; false when there is none.
        func passQuote(_ at: inout Int, escaped: Bool) -> Bool {
            let width = escaped ? 2 : 1
            guard at + width <= out.count, out[at + width - 1] == quote, !escaped || out[at] == backslash else {
                return false
            }
            at += width
            return true
        }
        for name in secretNames {
            var index = 0
            while let found = find(name, in: out, from: index) {
                index = found + name.count
                // The key's quotes: `"name"` or, inside a string, `\"name\"`; then `:` and the value's opening quote.
                guard found >= 1, out[found - 1] == quote else { continue }
                let escaped = found >= 2 && out[found - 2] == backslash
                var at = index
                guard passQuote(&at, escaped: escaped) else { continue }
                while at < out.count, ByteTables.isJSONSpace(out[at]) { at += 1 }
                guard at < out.count, out[at] == UInt8(ascii: ":") else { continue }
                at += 1
                while at < out.count, ByteTables.isJSONSpace(out[at]) { at += 1 }
                guard passQuote(&at, escaped: escaped) else { continue }
                // Mask up to the closing quote (escaped or not, as the key was), or the end of the line; a plain
                // value's escapes are masked whole.
                while at < out.count, out[at] != newline {
                    let next = at + 1 < out.count ? out[at + 1] : newline
                    if escaped ? (out[at] == backslash && next == quote) : out[at] == quote { break }
                    let width = !escaped && out[at] == backslash && next != newline ? 2 : 1
                    for k in at..<(at + width) { out[k] = UInt8(ascii: "*") }
                    at += width
                }
                index = at
            }
        }
        return out
    }

    // MARK: - Internals

    /// The first index at or after `start` where `needle` occurs in `haystack`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The secret key names as bytes.
    private static let secretNames: [[UInt8]] = Envelope.secretKeys.sorted().map { Array($0.utf8) }

    /// Whether the bytes may hold a secret member: a secret's name appears in them plainly, or a backslash does (a key
    /// spelled with escapes, or an envelope body held as a string).
    private static func mayHoldSecret(_ bytes: [UInt8]) -> Bool {
        bytes.contains(UInt8(ascii: "\\")) || secretNames.contains { find($0, in: bytes, from: 0) != nil }
    }

    /// One replacement of a byte range.
    private struct Edit {
        var range: Range<Int>
        var replacement: [UInt8]
    }

    /// A forgiving walk over JSON bytes that notes the ranges to remove.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var edits: [Edit] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func scan() {
            skipSpace()
            skipValue()
        }

        private mutating func skipSpace() {
            while index < bytes.count, ByteTables.isJSONSpace(bytes[index]) { index += 1 }
        }

        /// Skips one value of any kind.
        private mutating func skipValue() {
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "{"): skipObject()
            case UInt8(ascii: "["): skipArray()
            case UInt8(ascii: "\""): _ = skipString()
            default:
                while index < bytes.count, !isDelimiter(bytes[index]) { index += 1 }
            }
        }

        private func isDelimiter(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
                || ByteTables.isJSONSpace(byte)
        }

        /// Skips a string starting at its opening quote; returns its range, quotes included.
        private mutating func skipString() -> Range<Int> {
            let start = index
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<index
                default: index += 1
                }
            }
            index = bytes.count
            return start..<index
        }

        private mutating func skipArray() {
            index += 1
            while index < bytes.count {
                skipSpace()
                guard index < bytes.count else { return }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                let before = index
                skipValue()
                if index == before { index += 1 }
            }
        }

        private mutating func skipObject() {
            index += 1
            var lastComma: Int?
            while index < bytes.count {
                skipSpace()
                guard index < bytes.count else { return }
                switch bytes[index] {
                case UInt8(ascii: "}"):
                    index += 1
                    return
                case UInt8(ascii: ","):
                    lastComma = index
                    index += 1
                    continue
                case UInt8(ascii: "\""):
                    let key = skipString()
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
                    skipSpace()
                    let valueStart = index
                    skipValue()
                    let member = key.lowerBound..<index
                    let name = Self.decodedKey(
                        Array(bytes[(key.lowerBound + 1)..<max(key.lowerBound + 1, key.upperBound - 1)]))
                    if let name, V1SecretStripper.secretNames.contains(name) {
                        remove(member, lastComma: lastComma)
                    } else if let name, Envelope.bodyKeys.contains(String(decoding: name, as: UTF8.self)),
                        valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: "\"")
                    {
                        stripHeldBody(valueStart..<index)
                    }
                    lastComma = nil
                default:
                    let before = index
                    skipValue()
                    if index == before { index += 1 }
                }
            }
        }

        /// Notes the removal of `member` with the comma before it, or else the comma after it (read past).
        private mutating func remove(_ member: Range<Int>, lastComma: Int?) {
            if let lastComma {
                edits.append(Edit(range: lastComma..<member.upperBound, replacement: []))
                return
            }
            var next = member.upperBound
            while next < bytes.count, ByteTables.isJSONSpace(bytes[next]) { next += 1 }
            if next < bytes.count, bytes[next] == UInt8(ascii: ",") {
                next += 1
                while next < bytes.count, ByteTables.isJSONSpace(bytes[next]) { next += 1 }
                edits.append(Edit(range: member.lowerBound..<next, replacement: []))
                // The next member is now the first: a secret there takes its own following comma.
                index = next
            } else {
                edits.append(Edit(range: member.lowerBound..<member.upperBound, replacement: []))
            }
        }

        /// An envelope body held as a JSON string: decoded, stripped and written back escaped when it held a secret.
        private mutating func stripHeldBody(_ range: Range<Int>) {
            guard range.count >= 2, bytes[range.upperBound - 1] == UInt8(ascii: "\""),
                case .string(let text)? = try? JSONParser().parse(bytes[range])
            else { return }
            let inner = Array(text.utf8)
            let stripped = V1SecretStripper.strip(inner)
            guard stripped != inner else { return }
            var replacement: [UInt8] = []
            stripped.withUnsafeBufferPointer { ByteTables.appendEscapedJSONString($0, to: &replacement) }
            edits.append(Edit(range: range, replacement: replacement))
        }

        /// A key's text with its escapes decoded; nil when the escapes are broken.
        private static func decodedKey(_ raw: [UInt8]) -> [UInt8]? {
            guard raw.contains(UInt8(ascii: "\\")) else { return raw }
            guard case .string(let text)? = try? JSONParser().parse([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")])
            else { return nil }
            return Array(text.utf8)
        }
    }
}
