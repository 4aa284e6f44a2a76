/// `report.html`: one self-contained page (inline CSS and SVG, no script, nothing loaded from the network) that shows a
/// run's figures to people who do not open CSV files; a rendering of values the run already has, no I/O.
///
/// Every figure is taken from the rows `summary.csv` is written from and every difference from the rows of
/// `differences.csv` (`open.csv` for `nightly`), so the page never disagrees with the CSV files. The bytes depend on
/// the inputs only (no clock; every list sorted), and the markup is well-formed XML (XHTML-compatible HTML5), with
/// every input value escaped (`HTMLText`).
package struct HTMLReport: Sendable {
    /// The file's name in the report folder.
    package static let fileName = "report.html"
    /// How many rows of each kind the page lists.
    package static let rowsPerKind = 50
    /// How many products the by-product chart shows (the rest are summed in one sentence).
    package static let productsShown = 25

    /// The page's heading (the report's own text).
    var title: String
    /// Facts shown under the heading: name and value.
    var facts: [(String, String)]
    /// The metrics shown as headline figures, by name, in order (those the summary has).
    var headline: [String]
    /// Every `summary.csv` row, in order.
    var metrics: [(String, String)]
    /// The identities that hold among the metrics.
    var identities: [AccountingIdentity]
    /// The difference rows, in report order.
    var rows: [Discrepancy]
    /// The CSV file the rows are from (`differences.csv`, `open.csv`).
    var rowsFile: String
    /// Per row (same index), extra cells shown after the others (nightly: first and last seen).
    var extraCells: [[String]] = []
    /// The extra cells' headings.
    var extraHeadings: [String] = []
    /// The V2 prices (nil: the run has none to give, and the page says so).
    var prices: V2PriceList?
    /// Open differences per night, oldest first (nightly only).
    var trend: [(date: String, open: Int)]?
    /// The verdict shown first.
    var verdict: HTMLVerdict
    /// The rejects, in `rejected.csv`'s order.
    var rejects: [ReconciliationResult.Reject]
    /// The report files beside the page, linked by name.
    var files: [String]
    /// With `--switch`: the seam figures, which open the section "The switch".
    var switchFigures: SwitchFigures?

    /// The page's bytes (UTF-8).
    package func render() -> [UInt8] {
        var out =
            "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta "
            + "charset=\"utf-8\"/>\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
            + "<title>\(HTMLText.escape(title))</title>\n<style>\(Self.style)</style>\n</head>\n<body>\n"
        out += "<h1>\(HTMLText.escape(title))</h1>\n" + verdict.html(rows: rows)
        if !facts.isEmpty {
            var table = "<table class=\"facts\">\n"
            for (name, value) in facts {
                table +=
                    "<tr><th scope=\"row\">\(HTMLText.escape(name))</th><td class=\"whole\">"
                    + "\(HTMLText.escape(value))</td></tr>\n"
            }
            out += Self.scrolling(table + "</table>\n")
        }
        out +=
            filesSection() + switchSection() + rowSections() + rejectSection() + valueSection() + trendSection()
            + chartSections()
            + headlineSection() + identitySection() + figuresSection()
        out +=
            "<p class=\"foot\">Written by asn-migrate. The CSV files beside this page hold every row; this page "
            + "shows the first \(Self.rowsPerKind) of each kind.</p>\n</body>\n</html>\n"
        return Array(out.utf8)
    }

    // MARK: - Sections

    /// The headline figures, each cell marked with its metric (`data-metric`).
    private func headlineSection() -> String {
        let values = Dictionary(metrics.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        var out = "<table class=\"headline\" id=\"headline-table\">\n"
        for name in headline {
            guard let value = values[name] else { continue }
            out +=
                "<tr><th scope=\"row\">\(HTMLText.escape(name))</th><td class=\"n\" "
                + "data-metric=\"\(HTMLText.escape(name))\">\(HTMLText.escape(value))</td></tr>\n"
        }
        return "<h2 id=\"headline\">Headline figures</h2>\n" + Self.scrolling(out + "</table>\n")
    }

    /// Each identity with its terms, both sides' values and whether it holds.
    private func identitySection() -> String {
        let evaluated = identities.compactMap { $0.applying(to: metrics) }
        var out =
            "<table class=\"identities\" id=\"identities-table\">\n<thead><tr><th scope=\"col\">identity</th><th "
            + "scope=\"col\" class=\"n\">total</th>"
            + "<th scope=\"col\" class=\"n\">sum of the terms</th><th scope=\"col\">holds</th></tr></thead>\n<tbody>\n"
        for identity in evaluated {
            let terms = identity.terms.map { "\($0.name) \($0.value)" }.joined(separator: " + ")
            out +=
                "<tr><td>\(HTMLText.escapeWhole(identity.total)) = "
                + "\(HTMLText.escapeWhole(terms.isEmpty ? "0" : terms))</td>"
                + "<td class=\"n\">\(identity.value)</td><td class=\"n\">\(identity.sum)</td>"
                + "<td class=\"\(identity.holds ? "ok" : "bad")\">\(identity.holds ? "yes" : "NO")</td></tr>\n"
        }
        return "<h2 id=\"identities\">Accounting identities</h2>\n<p>Every record read is counted exactly once.</p>\n"
            + Self.scrolling(out + "</tbody>\n</table>\n")
    }

    /// The bar charts: rows by kind, by product, by month.
    private func chartSections() -> String {
        var byKind: [Discrepancy.Kind: Int] = [:]
        var byProduct: [String: Int] = [:]
        var byMonth: [String: Int] = [:]
        for d in rows {
            byKind[d.kind, default: 0] += 1
            byProduct[d.productId, default: 0] += 1
            byMonth[d.eventDate.map { String(Timestamp.day(ms: $0).prefix(7)) } ?? "", default: 0] += 1
        }
        let kinds = Self.ranked(byKind.map { ($0.key.rawValue, $0.value) })
        let products = Self.ranked(byProduct.map { ($0.key, $0.value) })
        let shown = Array(products.prefix(Self.productsShown))
        // Months in calendar order; rows without a date last.
        let months = byMonth.map { (label: $0.key, value: $0.value) }
            .sorted { ($0.label.isEmpty ? 1 : 0, $0.label) < ($1.label.isEmpty ? 1 : 0, $1.label) }
        var out =
            "<h2 id=\"by-kind\">Differences per kind</h2>\n<p>Rows of \(rowsFile) per kind: \(rows.count) in all.</p>\n"
        out += BarChart(
            id: "chart-kind", labelHeading: "kind", valueHeading: "rows",
            bars: kinds.map { .init(label: $0.label, value: $0.value) }
        ).html()
        out +=
            "<h2 id=\"by-product\">Differences by product</h2>\n<p>Rows of \(rowsFile) per product_id (empty: "
            + "the row names no product)"
        out +=
            products.count > shown.count
            ? ", the \(shown.count) with the most rows; \(products.count - shown.count) more products have "
                + "\(products.dropFirst(shown.count).reduce(0) { $0 + $1.value }) rows.</p>\n"
            : ".</p>\n"
        out += BarChart(
            id: "chart-product", labelHeading: "product_id", valueHeading: "rows",
            bars: shown.map { .init(label: $0.label, value: $0.value) }
        ).html()
        out +=
            "<h2 id=\"by-month\">Differences by month</h2>\n<p>Rows of \(rowsFile) per month of event_date (UTC; "
            + "empty: no date).</p>\n"
        out += BarChart(
            id: "chart-month", labelHeading: "month", valueHeading: "rows",
            bars: months.map { .init(label: $0.label, value: $0.value) }
        ).html()
        return out
    }

    /// The value at stake per currency: the V2 price of each row of a kind that stands for a whole purchase. The
    /// sentence counts the valued rows once, split into those with a V2 price (summed in the table) and those without.
    private func valueSection() -> String {
        var out = "<h2 id=\"value\">Value at stake</h2>\n"
        guard let prices else {
            return out + "<p>Not shown: this report has no V2 prices to value its rows by.</p>\n"
        }
        var totals: [String: (rows: Int, milliunits: Int64)] = [:]
        var unpriced = 0
        var valued = 0
        for d in rows where V2PriceList.valuedKinds.contains(d.kind) {
            valued += 1
            guard let price = prices.price(of: d) else {
                unpriced += 1
                continue
            }
            let (sum, overflow) = (totals[price.currency]?.milliunits ?? 0).addingReportingOverflow(price.milliunits)
            totals[price.currency] = ((totals[price.currency]?.rows ?? 0) + 1, overflow ? Int64.max : sum)
        }
        let kinds = V2PriceList.valuedKinds.map { "<code>\($0.rawValue)</code>" }.joined(separator: ", ")
        let caveat =
            " An indication of what is at stake, not revenue: Apple says not to use V2's <code>price</code> and "
            + "<code>currency</code> for revenue reconciliation or recognition.</p>\n"
        guard valued > 0 else {
            return out + "<p id=\"value-note\">No row stands for a whole purchase (kinds \(kinds)), so no value is "
                + "at stake.</p>\n"
        }
        let priced = valued - unpriced
        let rowsText = HTMLVerdict.count(valued, "row")
        guard priced > 0 else {
            return out + "<p id=\"value-note\">\(rowsText) stand\(valued == 1 ? "s" : "") for a whole purchase "
                + "(kinds \(kinds)), but V2 states no price for the product of \(valued == 1 ? "its" : "any of their") "
                + "subscriptions, so the value at stake is unknown.\(caveat)"
        }
        out +=
            "<p id=\"value-note\">\(rowsText) stand\(valued == 1 ? "s" : "") for a whole purchase (kinds \(kinds)). "
            + "\(priced == valued ? "All \(priced) have" : "\(priced) of them have") a V2 price for the product, "
            + "summed per currency below (from the V2 records of the same subscription)"
            + (unpriced > 0
                ? "; \(unpriced) \(unpriced == 1 ? "has" : "have") none (V2 stated no price for that subscription's "
                    + "product) and \(unpriced == 1 ? "is" : "are") left out."
                : ".") + caveat
        let currencies = totals.map { (currency: $0.key, rows: $0.value.rows, milliunits: $0.value.milliunits) }
            .sorted { $0.currency.utf8.lexicographicallyPrecedes($1.currency.utf8) }
        var table =
            "<table class=\"value\" id=\"value-table\">\n<thead><tr><th scope=\"col\">currency</th><th "
            + "scope=\"col\" class=\"n\">rows</th>"
            + "<th scope=\"col\" class=\"n\">amount</th></tr></thead>\n<tbody>\n"
        for c in currencies {
            table +=
                "<tr><th scope=\"row\">\(HTMLText.escape(c.currency))</th><td class=\"n\">\(c.rows)</td>"
                + "<td class=\"n\" data-milliunits=\"\(c.milliunits)\">"
                + "\(Self.amount(c.milliunits, currency: c.currency))</td></tr>\n"
        }
        return out + Self.scrolling(table + "</tbody>\n</table>\n")
    }

    /// The open differences of the last nights (nightly only).
    private func trendSection() -> String {
        trend.map(Self.trendSection) ?? ""
    }

    /// The open differences at the end of each night of `trend`, as bars (`report.html` and `index.html`).
    static func trendSection(_ trend: [(date: String, open: Int)]) -> String {
        "<h2 id=\"trend\">Open differences, last \(trend.count) night\(trend.count == 1 ? "" : "s")</h2>\n"
            + "<p>Differences open at the end of each run date (from the nightly state).</p>\n"
            + BarChart(
                id: "chart-trend", labelHeading: "run date", valueHeading: "open",
                bars: trend.map { .init(label: $0.date, value: $0.open) }
            ).html()
    }

    /// The report files beside the page, each linked by its relative name.
    private func filesSection() -> String {
        "<h2 id=\"files\">Report files</h2>\n<p>Beside this page, every row (open them in a spreadsheet):</p>\n"
            + "<ul class=\"files\" id=\"files-list\">\n"
            + files.map { "<li><a href=\"\(HTMLText.escapeWhole($0))\">\(HTMLText.escapeWhole($0))</a></li>\n" }
            .joined() + "</ul>\n"
    }

    /// One section per kind present (in `DifferenceKindGuide.reportOrder`: what costs money or customers first): what
    /// the kind means and what to do (`DifferenceKindGuide`), then its first rows in report order.
    private func rowSections() -> String {
        let headings =
            [
                "environment", "original_transaction_id", "event_date", "product_id", "price", "field", "v1_value",
                "v2_value", "v1_notification_type", "v2_notification_type", "v2_subtype", "v1_source"
            ] + extraHeadings
        let heading = verdict.newDifferences == nil ? "Differences" : "Open differences"
        var out = "<h2 id=\"rows\">\(heading) by kind: what each means and what to do</h2>\n"
        var byKind: [Discrepancy.Kind: [Int]] = [:]
        for (i, d) in rows.enumerated() where (byKind[d.kind]?.count ?? 0) < Self.rowsPerKind {
            byKind[d.kind, default: []].append(i)
        }
        let counts = Dictionary(grouping: rows, by: \.kind).mapValues(\.count)
        if byKind.isEmpty { out += "<p class=\"none\">None.</p>\n" }
        for kind in Discrepancy.Kind.allCases.sorted(by: DifferenceKindGuide.precedes) {
            guard let indices = byKind[kind] else { continue }
            let total = counts[kind] ?? 0
            let guide = DifferenceKindGuide.entry(kind)
            out +=
                "<h3 id=\"rows-\(kind.rawValue)\">\(kind.rawValue): \(HTMLVerdict.count(total, "row"))</h3>\n"
                + "<p class=\"meaning\" id=\"meaning-\(kind.rawValue)\">\(Self.markdown(guide.meaning))</p>\n"
                + "<p class=\"action\" id=\"action-\(kind.rawValue)\"><strong>What to do:</strong> "
                + "\(Self.markdown(guide.action))</p>\n"
                + "<p>\(indices.count == total ? "All \(total)" : "The first \(indices.count) of \(total)"), as in "
                + "<a href=\"\(rowsFile)\">\(rowsFile)</a>:</p>\n"
            let cells = indices.map { i in
                let d = rows[i]
                return [
                    d.environment, d.originalTransactionId, d.eventDate.map(Timestamp.iso8601(ms:)) ?? "",
                    d.productId, Self.price(d), d.field, Self.value(d.v1Value, of: d), Self.value(d.v2Value, of: d),
                    d.v1NotificationType, d.v2NotificationType, d.v2Subtype, d.v1Source
                ] + (i < extraCells.count ? extraCells[i] : Array(repeating: "", count: extraHeadings.count))
            }
            // Only the columns this kind fills in the rows shown (the CSV file has them all).
            let shown = headings.indices.filter { column in
                cells.contains { column < $0.count && !$0[column].isEmpty }
            }
            var table =
                "<table class=\"rows\" id=\"rows-\(kind.rawValue)-table\">\n<thead><tr>"
                + shown.map { "<th scope=\"col\">\(headings[$0])</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            for row in cells {
                // Every cell whole (ids, dates, values, sources are never broken inside): the box scrolls instead.
                table +=
                    "<tr>"
                    + shown.map {
                        "<td class=\"whole\" data-label=\"\(headings[$0])\">"
                            + "\(HTMLText.escape($0 < row.count ? row[$0] : ""))</td>"
                    }
                    .joined() + "</tr>\n"
            }
            out += Self.scrolling(table + "</tbody>\n</table>\n")
        }
        return out
    }

    /// "The switch" (`--switch` only): one sentence on the subscriptions live at the switch, then the seam's rows.
    private func switchSection() -> String {
        guard let f = switchFigures else { return "" }
        let silent = Set(
            rows.filter { $0.kind == .silentInV2 }.map { $0.environment + "\u{0}" + $0.originalTransactionId })
        let gaps = Set(
            rows.filter { $0.kind == .renewalGap }.map { $0.environment + "\u{0}" + $0.originalTransactionId })
        let sentence =
            "Of \(f.liveAtSwitch) subscriptions live at the switch, \(f.continuedInV2) continued in V2, "
            + "\(silent.count) went silent, \(gaps.count) have gaps"
        var out =
            "<h2 id=\"switch\">The switch</h2>\n<p class=\"verdict\" id=\"switch-sentence\">"
            + "\(HTMLText.escapeWhole(sentence)).</p>\n"
        let dates = f.dates.environments.map { "\($0.name) \(Timestamp.iso8601(ms: $0.instant))" }
        out +=
            "<p>Switch: \(HTMLText.escapeWhole(dates.joined(separator: ", "))); delivered in both "
            + "\(f.deliveredInBoth), awaiting V2 \(f.awaitingV2) (<a href=\"pending.csv\">pending.csv</a>), V1 records "
            + "after the switch \(f.v1AfterSwitch), V2 notifications before it \(f.v2BeforeSwitch).</p>\n"
        let seam = rows.filter { [.silentInV2, .renewalGap, .seamStateMismatch].contains($0.kind) }
        guard !seam.isEmpty else { return out + "<p class=\"none\" id=\"switch-none\">No seam row.</p>\n" }
        let headings = [
            "kind", "environment", "original_transaction_id", "event_date", "product_id", "field", "v1_value",
            "v2_value"
        ]
        var table =
            "<table class=\"rows\" id=\"switch-table\">\n<thead><tr>"
            + headings.map { "<th scope=\"col\">\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for d in seam.prefix(Self.rowsPerKind * 3) {
            let cells = [
                d.kind.rawValue, d.environment, d.originalTransactionId, d.eventDate.map(Timestamp.iso8601(ms:)) ?? "",
                d.productId, d.field, d.v1Value, d.v2Value
            ]
            table +=
                "<tr>"
                + zip(headings, cells).map {
                    "<td class=\"whole\" data-label=\"\($0.0)\">\(HTMLText.escape($0.1))</td>"
                }.joined() + "</tr>\n"
        }
        return out + Self.scrolling(table + "</tbody>\n</table>\n")
    }

    /// The rejects by cause (the code `rejected.csv`'s `reason` starts with), each with its count, first location,
    /// first reason and the fix (`RejectAdvice`).
    private func rejectSection() -> String {
        var out = "<h2 id=\"rejects\">Rejected records by cause</h2>\n"
        guard !rejects.isEmpty else {
            return out + "<p class=\"none\" id=\"rejects-none\">No record was rejected.</p>\n"
        }
        var order: [String] = []
        var byCode: [String: (count: Int, first: ReconciliationResult.Reject)] = [:]
        for reject in rejects {
            let code = String(reject.reason.prefix { $0 != ":" && $0 != " " })
            if let seen = byCode[code] {
                byCode[code] = (seen.count + 1, seen.first)
            } else {
                order.append(code)
                byCode[code] = (1, reject)
            }
        }
        out +=
            "<p>Each rejected record is a row of <a href=\"rejected.csv\">rejected.csv</a>; the records around it were "
            + "read.</p>\n"
        var table =
            "<table class=\"rejects\" id=\"rejects-table\">\n<thead><tr><th scope=\"col\">cause</th><th scope=\"col\" "
            + "class=\"n\">records</th><th scope=\"col\">first at</th><th scope=\"col\">first reason</th>"
            + "<th scope=\"col\">what to do</th></tr></thead>\n<tbody>\n"
        for code in order {
            guard let entry = byCode[code] else { continue }
            let location = entry.first.side + " " + entry.first.source + (entry.first.line.map { ":\($0)" } ?? "")
            table +=
                "<tr><th scope=\"row\" class=\"whole\">\(HTMLText.escape(code))</th><td class=\"n\">\(entry.count)</td>"
                + "<td class=\"whole source\">\(HTMLText.escape(location))</td><td>\(HTMLText.escape(entry.first.reason))</td>"
                + "<td>\(HTMLText.escapeWhole(RejectAdvice.fix(code)))</td></tr>\n"
        }
        return out + Self.scrolling(table + "</tbody>\n</table>\n")
    }

    /// Every `summary.csv` row, in its order, each value cell marked with its metric (`data-metric`).
    private func figuresSection() -> String {
        var out =
            "<table class=\"figures\" id=\"figures-table\">\n"
            + "<thead><tr><th scope=\"col\">metric</th><th scope=\"col\">value</th></tr></thead>\n<tbody>\n"
        for (name, value) in metrics {
            out +=
                "<tr><th scope=\"row\">\(HTMLText.escapeWhole(name))</th><td "
                + "data-metric=\"\(HTMLText.escapeWhole(name))\">\(HTMLText.escapeWhole(value))</td></tr>\n"
        }
        return "<h2 id=\"figures\">All figures (summary.csv)</h2>\n" + Self.scrolling(out + "</tbody>\n</table>\n")
    }

    // MARK: - Helpers

    /// Labels by value, largest first, then by label byte-wise.
    static func ranked(_ counts: [(String, Int)]) -> [(label: String, value: Int)] {
        counts.map { (label: $0.0, value: $0.1) }.sorted {
            $0.value != $1.value ? $0.value > $1.value : $0.label.utf8.lexicographicallyPrecedes($1.label.utf8)
        }
    }

    /// Milliunits of `currency` with its own decimals and thousands separators: `1,234.56` USD, `1,234` JPY.
    static func amount(_ milliunits: Int64, currency: String) -> String {
        CurrencyAmount.text(milliunits: milliunits, currency: currency, grouped: true)
    }

    /// A row's price as people read it, `1.99 USD` (the currency's own decimals); empty without one.
    static func price(_ d: Discrepancy) -> String {
        d.price.map { amount($0.milliunits, currency: $0.currency) + " " + $0.currency } ?? ""
    }

    /// A value cell of a row: an Apple subscription status code (a `state_mismatch` of `status`) with its meaning,
    /// `5 (revoked)`; any other value as the CSV file holds it.
    static func value(_ text: String, of d: Discrepancy) -> String {
        guard d.kind == .stateMismatch, d.field == "status", let code = Int(text),
            let status = SubscriptionStatus(rawValue: code)
        else { return text }
        return "\(text) (\(status.words))"
    }

    /// `html` (a table) in a box that scrolls sideways when the table is wider than the screen.
    static func scrolling(_ html: String) -> String {
        "<div class=\"scroll\">" + html.dropLast() + "</div>\n"
    }

    /// A sentence of the report's own text with Markdown code spans (`` `x` ``) as `<code>`, the rest escaped.
    static func markdown(_ text: String) -> String {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().map { index, part in
            index % 2 == 1 ? "<code>\(HTMLText.escapeWhole(String(part)))</code>" : HTMLText.escapeWhole(String(part))
        }.joined()
    }

    /// The inline style sheet: system fonts only, readable in a mail client's narrow pane and on a phone (no wider
    /// than the screen: wide tables scroll inside their box), ids and dates never broken inside, and a print layout
    /// where each row of a wide table prints as a block of `column: value` lines (`data-label`), so nothing is cut.
    static let style = """
        body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;\
        font-size:14px;color:#1d1d1f;margin:16px;max-width:1100px;overflow-wrap:break-word}\
        h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #d2d2d7}h3{font-size:15px}\
        .scroll{max-width:100%;overflow-x:auto}\
        table{border-collapse:collapse;margin:6px 0}th,td{padding:2px 8px;text-align:left;vertical-align:top}\
        table.rows td,table.rows th,table.rejects td,table.rejects th{border:1px solid #d2d2d7;font-size:12px}\
        .whole,table.rows th,table.bars th,table.facts th,td.n{white-space:nowrap}\
        table.rejects td:not(.n){min-width:16em}\
        .verdict{font-size:15px;margin:6px 0}.status-0{color:#1a7f37}.status-1,.status-0.backlog{color:#9a6700}\
        .status-3,.status-2{color:#c62828}.action{background:#f5f5f7;padding:4px 8px}\
        .n{text-align:right;font-variant-numeric:tabular-nums}.ok{color:#1a7f37}.bad{color:#c62828;font-weight:bold}\
        .none,.foot{color:#6e6e73}code{font-size:12px}\
        @media print{body{margin:0;max-width:none;font-size:11px}.scroll{overflow:visible}\
        h2,h3{break-after:avoid}tr{break-inside:avoid}a{color:inherit}.source{white-space:normal;overflow-wrap:anywhere}\
        table.rows thead{display:none}table.rows,table.rows tbody,table.rows tr,table.rows td{display:block}\
        table.rows tr{border:1px solid #d2d2d7;margin:4px 0}table.rows td{border:0}table.rejects td:not(.n){min-width:0}\
        table.rows td[data-label]::before{content:attr(data-label) ": ";font-weight:bold}\
        svg rect{print-color-adjust:exact;-webkit-print-color-adjust:exact}}
        """
}
