/// One row of the mapping table: which V1 types, under which condition, become which V2 type and subtype.
package struct MappingRule: Sendable, Equatable {
    /// The rule's stable id (appears in output as `migration.rule` and in reports).
    package var id: String
    /// The V1 `notification_type` values the rule applies to.
    package var v1Types: [String]
    /// All terms must hold (an empty list never occurs: `always` is written out).
    package var conditions: [MappingCondition]
    /// The V2 `notificationType`.
    package var v2Type: String
    /// The V2 `subtype`, or nil for none.
    package var v2Subtype: String?
    /// The line of the rules file the rule came from.
    package var line: Int

    /// Creates a rule.
    package init(
        id: String, v1Types: [String], conditions: [MappingCondition], v2Type: String, v2Subtype: String?, line: Int
    ) {
        self.id = id
        self.v1Types = v1Types
        self.conditions = conditions
        self.v2Type = v2Type
        self.v2Subtype = v2Subtype
        self.line = line
    }

    /// True when the rule's only condition is `always`.
    package var isUnconditional: Bool {
        conditions.allSatisfy { $0.predicate == .always && !$0.negated }
    }

    /// The condition as written.
    package var conditionText: String {
        conditions.map(\.description).joined(separator: ", ")
    }
}

/// The tunable values of the mapping, kept with the rules.
package struct MappingSettings: Sendable, Equatable {
    /// How close a purchase must be to a DID_CHANGE_RENEWAL_STATUS event to count as a resubscribe (ms).
    package var resubscribeTolerance: Int64 = 3_600_000
    /// How close V1's companion DID_CHANGE_RENEWAL_STATUS is to its INTERACTIVE_RENEWAL or CANCEL (ms).
    package var companionTolerance: Int64 = 600_000
    /// Offer resubscribes before this instant map to OFFER_REDEEMED, from then on to SUBSCRIBED (epoch ms).
    package var offerResubscribeCutoff: Int64 = 1_705_968_000_000

    /// Creates default settings.
    package init() {}
}

/// Which V2 notifications have no V1 counterpart by design.
package struct V2OnlyEntry: Sendable, Equatable {
    /// The two lists of `Mappings/v2-only.rules`.
    package enum List: String, Sendable, Equatable, CaseIterable {
        /// V1 never announced this event.
        case neverAnnounced = "never-announced"
        /// V1 announced it to the purchaser only; a FAMILY_SHARED V2 record has no twin.
        case purchaserOnly = "purchaser-only"
    }

    /// Subtype patterns.
    package enum SubtypePattern: Sendable, Equatable {
        /// Any subtype, or none (`*`).
        case any
        /// No subtype (`-`).
        case none
        /// Exactly this subtype.
        case exactly(String)
    }

    /// The list the entry belongs to.
    package var list: List
    /// The V2 notificationType.
    package var type: String
    /// The subtype pattern.
    package var subtype: SubtypePattern
    /// The line it came from.
    package var line: Int

    /// Creates an entry.
    package init(list: List, type: String, subtype: SubtypePattern, line: Int) {
        self.list = list
        self.type = type
        self.subtype = subtype
        self.line = line
    }

    /// Whether a V2 type/subtype pair falls under this entry.
    package func matches(type: String, subtype: String?) -> Bool {
        guard type == self.type else { return false }
        switch self.subtype {
        case .any: return true
        case .none: return subtype == nil
        case .exactly(let s): return subtype == s
        }
    }
}
