/// A V1 receipt entry's members in a fixed order (`visitMembers`, declared with the model), so the V1 archive's
/// transactions are held packed (`PackedMembers`), as Apple's API view is, rather than as models.
extension LatestReceiptInfo: PackableModel {}
