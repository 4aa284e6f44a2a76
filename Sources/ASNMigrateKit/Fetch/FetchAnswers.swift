/// What `fetch` reads inside Apple's answers: only the originalTransactionIds they hold, to tell which ids belong to
/// the same customer (Get Transaction History and Get All Subscription Statuses answer for the whole customer,
/// whichever of the customer's ids is asked). Bodies are never changed.
package enum FetchAnswers {
    /// The originalTransactionIds in a history page (each `signedTransactions` payload's) or a statuses response
    /// (each `lastTransactions` entry's); empty for anything else or anything unreadable.
    package static func originalTransactionIds(in body: [UInt8]) -> Set<String> {
        guard let value = try? JSONParser().parse(body), case .object(let object) = value else { return [] }
        var ids: Set<String> = []
        if case .array(let signed)? = object["signedTransactions"] {
            for case .string(let jws) in signed {
                let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 3, let payload = Base64.decode(parts[1]),
                    case .object(let transaction)? = try? JSONParser().parse(payload),
                    let id = V2FieldReader(transaction).string("originalTransactionId")
                else { continue }
                ids.insert(id)
            }
        }
        if case .array(let groups)? = object["data"] {
            for case .object(let group) in groups {
                guard case .array(let entries)? = group["lastTransactions"] else { continue }
                for case .object(let entry) in entries {
                    if let id = V2FieldReader(entry).string("originalTransactionId") { ids.insert(id) }
                }
            }
        }
        return ids
    }
}
