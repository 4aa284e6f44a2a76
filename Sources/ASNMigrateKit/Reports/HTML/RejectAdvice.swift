/// What to do about a reject, by its code (the first word of `rejected.csv`'s `reason`): the fix `report.html`'s
/// rejects section gives beside each cause.
enum RejectAdvice {
    /// The fix per reject code.
    static let fixes: [ASNError.Code: String] = [
        .malformedJSON:
            "Open the file at the line named and repair or remove the broken record (often a line cut short by a "
            + "writer that stopped); the records around it were read.",
        .notAnObject:
            "The line holds JSON that is not a notification (an array, a string, a number): remove it, or check that "
            + "the right files were given.",
        .missingNotificationType:
            "The record has no notification type: check that the file holds App Store Server Notifications and not "
            + "another feed.",
        .wrongFieldType:
            "A field holds the wrong kind of value (text where a number belongs, say): fix the exporter, or for a CSV "
            + "export add a conversion to the column map.",
        .badId:
            "An id Apple sends as 1 to 20 digits arrived otherwise (often rounded by a spreadsheet or JSON tool): "
            + "export ids as text, digit for digit.",
        .malformedJWS:
            "A V2 signed payload does not decode: check that the exporter stores the signed payload whole, not cut or "
            + "re-encoded.",
        .malformedCSV:
            "Repair the CSV row at the line named (number of fields, quotes, UTF-8), or give the column map the export "
            + "needs.",
        .unreadableInput:
            "Make the file readable (permissions, a complete copy, a format the tool reads: JSON lines, gzip, zstd, "
            + "tar, zip), then run again.",
        .signature:
            "The V2 record failed the signature check named: make sure the record is genuine and unchanged, and that "
            + "the clock and root certificates are right."
    ]

    /// The fix for rejects of `code`; a general one for a code without its own.
    static func fix(_ code: String) -> String {
        ASNError.Code(rawValue: code).flatMap { fixes[$0] }
            ?? "Read the reason in rejected.csv and fix the record at the location named."
    }
}
