/// `<reports>/index.html`: every night of the state, newest first, with its verdict, its figures and links to its
/// report files, next to the open-difference trend of the last 30 nights. One self-contained page like `report.html`
/// (no script, well-formed XML), derived from the state (and which report folders still exist), so the same state
/// gives the same bytes.
package struct NightlyIndex: Sendable {
    /// The file's name in the reports folder.
    package static let fileName = "index.html"

    /// One night's line.
    package struct Night: Sendable, Equatable {
        /// The run date.
        package var date: String
        /// The exit status of its last finished run (nil: none finished).
        package var status: Int32?
        /// Differences first confirmed that night and still open at its end (`differences_new`).
        package var new: Int
        /// Differences resolved that night (`differences_resolved`).
        package var resolved: Int
        /// Differences open at the end of the night (`differences_open`).
        package var open: Int
        /// Records rejected that night (`rejected`).
        package var rejected: Int
        /// Whether `<date>/` still exists (retention removes old ones).
        package var hasFolder = false
        /// Whether `<date>/report.html` exists.
        package var hasPage = false
    }

    /// The nights, oldest first.
    package var nights: [Night]

    /// The verdict of a night in plain words: `Exit 1: 3 new differences`, and the like.
    static func verdict(_ night: Night) -> String {
        guard let status = night.status else { return "not finished" }
        let head = "Exit \(status): "
        switch status {
        case ExitStatus.success.rawValue:
            // 0 means nothing new that night, not an empty backlog.
            return head + "nothing new"
        case ExitStatus.findings.rawValue:
            var parts: [String] = []
            if night.new > 0 { parts.append(HTMLVerdict.count(night.new, "new difference")) }
            if night.rejected > 0 { parts.append(HTMLVerdict.count(night.rejected, "record") + " rejected") }
            return head + (parts.isEmpty ? "a --fail-on rule was crossed" : parts.joined(separator: ", "))
        case ExitStatus.sanityCheckFailed.rawValue: return head + "a sanity check failed or a side is late"
        default: return head + "the run failed"
        }
    }

    /// The page's bytes (UTF-8).
    package func render() -> [UInt8] {
        let title = "asn-migrate nightly: every night"
        var out =
            "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta "
            + "charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
            + "<title>\(title)</title>\n<style>\(HTMLReport.style)</style>\n</head>\n<body>\n<h1>\(title)</h1>\n"
        if let latest = nights.last {
            out +=
                "<p class=\"verdict \(HTMLVerdict.statusClass(latest.status, backlog: latest.open > 0))\" id=\"latest\"><strong>"
                + "\(HTMLText.escapeWhole(latest.date)): \(HTMLText.escapeWhole(Self.verdict(latest)))</strong>; "
                + "\(HTMLVerdict.count(latest.open, "difference")) open.</p>\n"
        }
        out += HTMLReport.trendSection(nights.suffix(NightlyReport.trendNights).map { ($0.date, $0.open) })
        out +=
            "<h2 id=\"nights\">Every night, newest first</h2>\n"
            + "<p>Each night's verdict and figures; the links open its report files.</p>\n"
        var table =
            "<table class=\"rows\" id=\"nights-table\">\n<thead><tr><th scope=\"col\">run date</th>"
            + "<th scope=\"col\">verdict</th><th scope=\"col\" class=\"n\">new</th><th scope=\"col\" class=\"n\">"
            + "resolved</th><th scope=\"col\" class=\"n\">open</th><th scope=\"col\" class=\"n\">rejected</th>"
            + "<th scope=\"col\">files</th></tr></thead>\n<tbody>\n"
        for night in nights.reversed() {
            let date = HTMLText.escapeWhole(night.date)
            let names = (night.hasPage ? [HTMLReport.fileName] : []) + NightlyReport.fileNames
            let links =
                night.hasFolder
                ? names.map { "<a href=\"\(date)/\($0)\">\($0)</a>" }.joined(separator: " ")
                : "(removed: older than the retention)"
            table +=
                "<tr id=\"night-\(date)\" data-date=\"\(date)\" data-exit=\"\(night.status.map { String($0) } ?? "")\">"
                + "<th scope=\"row\" class=\"whole\">\(night.hasPage ? "<a href=\"\(date)/report.html\">\(date)</a>" : date)"
                + "</th><td class=\"whole \(HTMLVerdict.statusClass(night.status, backlog: night.open > 0))\" "
                + "data-label=\"verdict\">\(HTMLText.escapeWhole(Self.verdict(night)))</td>"
                + "<td class=\"n\" data-label=\"new\" data-metric=\"differences_new\">\(night.new)</td>"
                + "<td class=\"n\" data-label=\"resolved\" data-metric=\"differences_resolved\">\(night.resolved)</td>"
                + "<td class=\"n\" data-label=\"open\" data-metric=\"differences_open\">\(night.open)</td>"
                + "<td class=\"n\" data-label=\"rejected\" data-metric=\"rejected\">\(night.rejected)</td>"
                + "<td class=\"whole source\" data-label=\"files\">\(links)</td></tr>\n"
        }
        out += HTMLReport.scrolling(table + "</tbody>\n</table>\n")
        out +=
            "<p class=\"foot\">Written by asn-migrate nightly after each night, from its state.</p>\n</body>\n"
            + "</html>\n"
        return Array(out.utf8)
    }
}
