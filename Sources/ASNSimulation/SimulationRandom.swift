import ASNMigrateKit

/// The simulator's seeded pseudo-random generator: xoshiro256** with SplitMix64 seeding, so one seed always gives the same data.
///
/// Nothing in the simulator calls the system's random source or clock; every choice comes from one of these.
package struct SimulationRandom: Sendable {
    /// The four 64-bit words of xoshiro256** state.
    private var s0, s1, s2, s3: UInt64

    /// Creates a generator from a seed (any value, zero included).
    package init(seed: UInt64) {
        var mixer = seed
        s0 = Self.splitMix(&mixer)
        s1 = Self.splitMix(&mixer)
        s2 = Self.splitMix(&mixer)
        s3 = Self.splitMix(&mixer)
    }

    /// A generator for one stream of a run: the same (seed, stream, substream) always gives the same sequence.
    package init(seed: UInt64, stream: UInt64, substream: UInt64 = 0) {
        var mixer = seed ^ 0x5DEE_CE66_D1CE_4E5B
        let a = Self.splitMix(&mixer)
        var second = a ^ stream &* 0x9E37_79B9_7F4A_7C15
        let b = Self.splitMix(&second)
        var third = b ^ substream &* 0xC2B2_AE3D_27D4_EB4F
        self.init(seed: Self.splitMix(&third))
    }

    // MARK: - Drawing

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        let result = rotate(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotate(s3, 45)
        return result
    }

    /// A whole number in `0..<bound` (bound > 0), without modulo bias.
    package mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let limit = UInt64(bound)
        let threshold = (0 &- limit) % limit
        while true {
            let value = next()
            if value >= threshold { return Int(value % limit) }
        }
    }

    /// A whole number in `range`.
    package mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if span == 0 { return Int64(bitPattern: next()) }
        let threshold = (0 &- span) % span
        while true {
            let value = next()
            if value >= threshold { return range.lowerBound &+ Int64(bitPattern: value % span) }
        }
    }

    /// A uniform number in `[0, 1)` with 53 random bits.
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p` (0…1).
    package mutating func chance(_ p: Double) -> Bool {
        p > 0 && unit() < p
    }

    /// One element of a non-empty array.
    package mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// An index chosen with the given relative weights (all ≥ 0, not all 0).
    package mutating func weighted(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var point = unit() * total
        for (index, weight) in weights.enumerated() {
            if point < weight { return index }
            point -= weight
        }
        return weights.count - 1
    }

    /// Appends `count` random bytes to `out`.
    package mutating func appendBytes(_ count: Int, to out: inout [UInt8]) {
        var remaining = count
        while remaining > 0 {
            var word = next()
            for _ in 0..<min(8, remaining) {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
            remaining -= 8
        }
    }

    /// A random version-4 UUID as lowercase 8-4-4-4-12 text.
    package mutating func uuid() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        appendBytes(16, to: &bytes)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUIDv5.format(bytes)
    }

    // MARK: - Private

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }

    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
