extension StringPool {
    /// The token's text as the state rules hold a transaction id (nil for 0): a number the pool packed stays that
    /// number, so no text is made for it; other text is read as `TransactionID.init` reads it.
    ///
    /// A number's token is its value with `numberTag` set (`StringPool.token`); `TransactionIDTests` holds the two
    /// equal.
    package func transactionID(_ token: Token) -> TransactionID? {
        if token == 0 { return nil }
        if token >> 62 == Self.numberTag >> 62 { return .number(token & ~Self.numberTag) }
        return text(token).map(TransactionID.init)
    }
}
