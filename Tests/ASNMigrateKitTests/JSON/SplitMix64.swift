/// SplitMix64: a tiny seeded generator, so generated test inputs are the same on every run and toolchain.
struct SplitMix64: RandomNumberGenerator {
    /// The generator state.
    private var state: UInt64

    /// Creates a generator from `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0); the modulo bias is irrelevant here.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// True with probability 1/`chance`.
    mutating func oneIn(_ chance: Int) -> Bool {
        below(chance) == 0
    }

    /// A random element of `choices` (not empty).
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }
}
