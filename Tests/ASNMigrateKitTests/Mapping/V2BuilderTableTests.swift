import Testing

@testable import ASNMigrateKit

/// The builder writes the transaction and renewal info by walking `V2FieldTable`: every member the table says `migrate`
/// writes is a step, a copy reads exactly the V1 key the table's V1 column names, and a rule is kept only for a member
/// that is not a plain copy.
@Suite struct V2BuilderTableTests {
    /// The table's written members under `prefix`, in order.
    static func written(_ prefix: String) -> [V2Field] {
        V2FieldTable.all.filter { $0.path.hasPrefix(prefix) && $0.isMigrated }
    }

    /// A step's member.
    static func member(_ step: V2BuilderStep) -> V2Member {
        switch step {
        case .entry(let m, _, _), .pending(let m, _, _), .rule(let m): return m
        }
    }

    @Test(arguments: [
        ("data.transactionInfo.", V2Builder.transactionSteps), ("data.renewalInfo.", V2Builder.renewalSteps)
    ])
    func everyWrittenMemberIsAStepInTableOrder(prefix: String, steps: [V2BuilderStep]) {
        let fields = Self.written(prefix)
        #expect(
            steps.map { "\(Self.member($0).key)" } == fields.map(\.key),
            "a member the table says migrate writes has neither a rule nor one V1 key to copy")
        for (step, field) in zip(steps, fields) {
            switch step {
            case .entry(_, let key, let kind):
                #expect(field.sources == [.receipt(key.key)] && kind == field.kind, "\(field.path)")
            case .pending(_, let key, let kind):
                #expect(field.sources == [.renewal(key.key)] && kind == field.kind, "\(field.path)")
            case .rule: break
            }
        }
    }

    @Test func aRuleIsKeptOnlyWhereACopyWouldNotDo() {
        // A member whose V1 column is one key of its own kind and that the builder writes unchanged is a copy; the
        // rules are the members whose value the mapping decides (a choice of keys, a condition, a constant).
        for (prefix, rules) in [
            ("data.transactionInfo.", V2Builder.transactionRules), ("data.renewalInfo.", V2Builder.renewalRules)
        ] {
            let keys = Set(Self.written(prefix).map(\.key))
            for rule in rules { #expect(keys.contains("\(rule.key)"), "\(prefix)\(rule.key) is no written member") }
        }
        #expect(V2Builder.transactionSteps.contains { if case .entry = $0 { true } else { false } })
        #expect(V2Builder.renewalSteps.contains { if case .pending = $0 { true } else { false } })
    }
}
