import ASNMigrateKit

/// How a fault changes one compared field, decided by the field's kind in the tables (`ComparedField.row`, and the
/// enumeration's values in `V2FieldTable`), never by its name: a date 1 to 72 hours earlier, a flag flipped, an
/// enumeration's value to the next of its values, another number by one, an id and other text extended, a product of
/// the simulated catalogue to another subscription product. Only present values change (but a flag flips from absent
/// to true when `setsAbsentFlag`).
struct FieldPerturbation {
    /// What happens to the member.
    enum Change {
        /// A date moved earlier by this many ms.
        case earlier(Int64)
        /// An enumeration's value to the next of these (after the last, the first).
        case next([String])
        /// A number by one.
        case increment
        /// A text extended by this suffix, or a product changed to another subscription product.
        case text(suffix: String)
        /// A flag flipped.
        case toggle(setsAbsent: Bool)
    }

    /// The member's key in its object.
    let key: String
    /// Whether the member is the transaction info's (else the renewal info's).
    let inTransaction: Bool
    /// The change.
    let change: Change

    /// The perturbation of `field`, its dates moved by `earlier` ms; nil for a field of neither object.
    init?(_ field: ComparedField, earlier: Int64, setsAbsentFlag: Bool) {
        guard let path = field.paths.first, let row = V2FieldTable.field(path) else { return nil }
        if path.hasPrefix("data.transactionInfo.") {
            inTransaction = true
        } else if path.hasPrefix("data.renewalInfo.") {
            inTransaction = false
        } else {
            return nil
        }
        key = row.key
        switch field.row {
        case .date: change = .earlier(earlier)
        case .flag: change = .toggle(setsAbsent: setsAbsentFlag)
        case .number, .notInNotifications: change = row.values.isEmpty ? .increment : .next(row.values)
        case .id: change = .text(suffix: "7")
        case .text: change = row.values.isEmpty ? .text(suffix: "X") : .next(row.values)
        }
    }

    /// Applies the change to the member of `t` or `r`.
    func apply(
        _ t: inout JWSTransactionDecodedPayload?, _ r: inout JWSRenewalInfoDecodedPayload?,
        random: inout SimulationRandom
    ) {
        var visitor = Visitor(key: key, change: change, random: random)
        if inTransaction, var model = t {
            model.visitMembers(&visitor)
            t = model
        } else if !inTransaction, var model = r {
            model.visitMembers(&visitor)
            r = model
        }
        random = visitor.random
    }

    /// The subscription products of the catalogue.
    static let subscriptions = SimulatedProduct.all.filter { $0.kind != .consumable }.map(\.id)
    /// Every product of the catalogue.
    static let products = Set(SimulatedProduct.all.map(\.id))

    /// Changes the member named `key` as `change` says.
    private struct Visitor: V2MemberVisitor {
        /// The member's key.
        let key: String
        /// The change.
        let change: Change
        /// The simulation's random numbers (a product's replacement is picked from them).
        var random: SimulationRandom

        /// A text or id member: extended, the next value, or another product.
        mutating func visit(_ key: String, _ value: inout String?) {
            guard key == self.key, let current = value else { return }
            switch change {
            case .next(let values): value = Self.next(current, values)
            case .text(let suffix):
                value =
                    FieldPerturbation.products.contains(current)
                    ? random.pick(FieldPerturbation.subscriptions.filter { $0 != current }) : current + suffix
            default: break
            }
        }

        /// A date member, moved earlier.
        mutating func visit(_ key: String, _ value: inout Int64?) {
            guard key == self.key, case .earlier(let ms) = change else { return }
            value = value.map { $0 - ms }
        }

        /// A number member: the next value, or one more.
        mutating func visit(_ key: String, _ value: inout Int?) {
            guard key == self.key, let current = value else { return }
            switch change {
            case .next(let values): value = Self.next(String(current), values).flatMap { Int($0) }
            case .increment: value = current + 1
            default: break
            }
        }

        /// A flag member, flipped.
        mutating func visit(_ key: String, _ value: inout Bool?) {
            guard key == self.key, case .toggle(let setsAbsent) = change else { return }
            if let current = value {
                value = !current
            } else if setsAbsent {
                value = true
            }
        }

        /// The value after `current` among `values` (after the last, or for a value not among them, the first).
        static func next(_ current: String, _ values: [String]) -> String? {
            guard let place = values.firstIndex(of: current) else { return values.first }
            return values[(place + 1) % values.count]
        }
    }
}
