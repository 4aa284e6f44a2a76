/// A horizontal bar chart of `report.html`: one table row per bar, its label and value as text and the bar as an
/// inline SVG, so a mail client that drops SVG still shows every figure.
struct BarChart: Sendable, Equatable {
    /// One bar.
    struct Bar: Sendable, Equatable {
        /// What the bar counts (untrusted text: escaped when rendered).
        var label: String
        /// The bar's value (a count, ≥ 0).
        var value: Int
        /// The value's text, when it is not the plain count (a money amount, say).
        var valueText: String?
    }

    /// The widest bar, in pixels.
    static let width = 320
    /// A bar's height, in pixels.
    static let height = 14

    /// The chart's id (an HTML id, the report's own text).
    var id: String
    /// The label column's heading.
    var labelHeading: String
    /// The value column's heading.
    var valueHeading: String
    /// The bars, in the order shown.
    var bars: [Bar]

    /// The chart as XHTML-compatible HTML: a `<table>` in a box that scrolls sideways on a narrow screen (a paragraph saying so when there is no bar).
    func html() -> String {
        guard !bars.isEmpty else { return "<p class=\"none\" id=\"\(id)\">None.</p>\n" }
        let largest = bars.map(\.value).max() ?? 0
        var out =
            "<div class=\"scroll\"><table class=\"bars\" id=\"\(id)\">\n<thead><tr><th scope=\"col\">"
            + "\(HTMLText.escapeWhole(labelHeading))</th>"
            + "<th scope=\"col\" class=\"n\">\(HTMLText.escapeWhole(valueHeading))</th><th scope=\"col\"></th></tr>"
            + "</thead>\n<tbody>\n"
        for bar in bars {
            let label = HTMLText.escape(bar.label.isEmpty ? "(none)" : bar.label)
            let text = HTMLText.escapeWhole(bar.valueText ?? String(bar.value))
            out +=
                "<tr><th scope=\"row\">\(label)</th><td class=\"n\" data-value=\"\(bar.value)\">\(text)</td><td>"
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.width)\" height=\"\(Self.height)\" "
                + "role=\"img\" aria-label=\"\(label): \(text)\">"
                + "<rect x=\"0\" y=\"0\" width=\"\(Self.barWidth(bar.value, largest: largest))\" "
                + "height=\"\(Self.height)\" fill=\"#3d6fb4\"/></svg></td></tr>\n"
        }
        return out + "</tbody>\n</table></div>\n"
    }

    /// A bar's width in whole pixels: proportional to the largest, at least 1 for a value above 0, 0 for 0.
    static func barWidth(_ value: Int, largest: Int) -> Int {
        guard value > 0, largest > 0 else { return 0 }
        let scaled = Int((Double(value) / Double(largest) * Double(width)).rounded())
        return Swift.max(1, Swift.min(width, scaled))
    }
}
