import Foundation

/// The mapping table as `TapeMigrator` reads it, made once a run: each V1 type's rules in order, with the V2 names
/// they write already as JSON bytes, and the summary's routes.
package struct TapeMigration: Sendable {
    /// One rule of the table.
    struct Rule: Sendable {
        /// Its conditions, all of which must hold.
        var conditions: [MappingCondition]
        /// The V2 `notificationType`, as a JSON string.
        var v2Type: [UInt8]
        /// The V2 `subtype`, as a JSON string, when it has one.
        var v2Subtype: [UInt8]?
        /// Its id, as a JSON string.
        var id: [UInt8]
        /// Whether it maps the newest transaction rather than the relevant one (`V2Builder.carriesNewestTransaction`).
        var carriesNewest: Bool
        /// The `transactionReason` it gives every transaction, as a JSON string (`V2Builder.ruleTransactionReason`).
        var reason: [UInt8]?

        /// What the builder reads of it.
        var shape: V2Builder.RuleShape { V2Builder.RuleShape(carriesNewest: carriesNewest, givesReason: reason != nil) }
    }

    /// One V1 `notification_type` some rule maps.
    struct V1Type: Sendable {
        /// Its bytes.
        var bytes: [UInt8]
        /// How its body dates the event.
        var dating: V1EventDating
        /// Whether its relevant transaction is the latest cancelled one (`ModelContext.cancellationTypes`).
        var isCancellation: Bool
        /// Its rules in table order, each with its route in `routes`.
        var candidates: [(rule: Int, route: Int)]
    }

    /// The engine whose conditions the rules use.
    let engine: MappingEngine
    /// The rules, in table order.
    let rules: [Rule]
    /// The V1 types the rules name.
    let types: [V1Type]
    /// Every (V1 type, rule) pair as the summary counts it; `TapeMigrator.migrate` returns an index into it.
    package let routes: [MigrationSummary.Route]
    /// The `version` every migrated payload carries, as a JSON string.
    let version = JSONBytes.string(V2Builder.payloadVersion)
    /// `"PURCHASE"`, as a JSON string.
    let purchaseReason = JSONBytes.string(V2Builder.purchaseReason)
    /// `"FREE_TRIAL"`, as a JSON string.
    let freeTrial = JSONBytes.string(V2Builder.freeTrialDiscount)
    /// `"Auto-Renewable Subscription"`, as a JSON string.
    let autoRenewable = JSONBytes.string(V2Builder.autoRenewableType)

    /// The plan of `table`.
    package init(table: MappingTable) {
        engine = MappingEngine(table: table)
        var rules: [Rule] = []
        var types: [V1Type] = []
        var routes: [MigrationSummary.Route] = []
        for rule in table.rules {
            let ruleIndex = rules.count
            rules.append(
                Rule(
                    conditions: rule.conditions, v2Type: JSONBytes.string(rule.v2Type),
                    v2Subtype: rule.v2Subtype.map(JSONBytes.string), id: JSONBytes.string(rule.id),
                    carriesNewest: V2Builder.carriesNewestTransaction(rule),
                    reason: V2Builder.ruleTransactionReason(rule).map(JSONBytes.string)))
            for type in rule.v1Types {
                let route = routes.count
                routes.append(MigrationSummary.Route(v1Type: type, v2Type: rule.v2Type, v2Subtype: rule.v2Subtype))
                if let known = types.firstIndex(where: { $0.bytes == Array(type.utf8) }) {
                    types[known].candidates.append((ruleIndex, route))
                } else {
                    types.append(
                        V1Type(
                            bytes: Array(type.utf8), dating: V1EventDating(type: type),
                            isCancellation: ModelContext.cancellationTypes.contains(type),
                            candidates: [(ruleIndex, route)]))
                }
            }
        }
        self.rules = rules
        self.types = types
        self.routes = routes
    }
}

/// JSON text of the plan's names, written once.
enum JSONBytes {
    /// `text` as a quoted, escaped JSON string.
    static func string(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter.appendString(text, to: &out)
        return out
    }
}

/// The migrators of one run, kept between batches: a worker takes one for a batch and gives it back, so the buffers a
/// migrator grows (tape, slots, receipt arrays, the canonical writer's sorted orders) are made once a run, not once a
/// batch; a migrator given back is trimmed to what ordinary records need.
typealias TapeMigratorPool = ReusePool<TapeMigrator>

extension ReusePool where Item == TapeMigrator {
    /// An empty pool of migrators following `plan`.
    convenience init(plan: TapeMigration) {
        self.init(make: { TapeMigrator(plan: plan) }, reset: { $0.trim() })
    }
}
