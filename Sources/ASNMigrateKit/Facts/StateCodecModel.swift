/// A model `StateCodec` keeps member by member: an empty value and a visit of every member by Apple's key (its
/// `visitMembers`, the one place the model names its keys), so no stored byte depends on a Swift property name.
package protocol StateCodecModel {
    /// An empty model.
    init()
    /// Visits every member, by Apple's key and `inout`.
    mutating func visitMembers<Visitor: V2MemberVisitor>(_ v: inout Visitor)
}

extension LatestReceiptInfo: StateCodecModel {}
extension JWSTransactionDecodedPayload: StateCodecModel {}
extension JWSRenewalInfoDecodedPayload: StateCodecModel {}
