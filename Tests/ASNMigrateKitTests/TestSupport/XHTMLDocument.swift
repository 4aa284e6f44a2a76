import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `report.html` read with Foundation's `XMLParser` (FoundationXML on Linux): the file must be well-formed XML, and
/// the tests look at its elements the way a reader would.
struct XHTMLDocument {
    /// One element: its name, attributes, its own text and everything inside it as text, and its enclosing elements.
    struct Element {
        /// The element's name (`td`, `svg`, …).
        var name: String
        /// Its attributes.
        var attributes: [String: String]
        /// All text inside it (descendants included), entities decoded.
        var text: String
        /// The ids of the enclosing elements that have one, outermost first.
        var enclosingIds: [String]
    }

    /// Every element, in document order.
    let elements: [Element]

    /// Parses `bytes`; throws when they are not well-formed XML, naming the parser's error and line.
    init(_ bytes: [UInt8]) throws {
        let parser = XMLParser(data: Data(bytes))
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse() else {
            throw CocoaError(
                .fileReadCorruptFile,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "not well-formed XML at line \(parser.lineNumber), column \(parser.columnNumber): "
                        + "\(parser.parserError.map { "\($0)" } ?? "unknown")"
                ])
        }
        elements = collector.done
    }

    /// The elements named `name`.
    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }

    /// The elements named `name` inside the element with id `id`.
    func all(_ name: String, inside id: String) -> [Element] {
        elements.filter { $0.name == name && $0.enclosingIds.contains(id) }
    }

    /// `(metric, value)` of every cell marked `data-metric` inside the element with id `id` (or anywhere), in order.
    func metrics(inside id: String? = nil) -> [(String, String)] {
        elements.filter { $0.attributes["data-metric"] != nil && (id.map($0.enclosingIds.contains) ?? true) }
            .map { ($0.attributes["data-metric"] ?? "", $0.text) }
    }

    /// `(label, value)` of every bar of the chart with id `id`.
    func bars(_ id: String) -> [(String, Int)] {
        var bars: [(String, Int)] = []
        var pendingLabel: String?
        for element in elements where element.enclosingIds.contains(id) {
            if element.name == "th", element.attributes["scope"] == "row" { pendingLabel = element.text }
            if element.name == "td", let value = element.attributes["data-value"].flatMap({ Int($0) }),
                let label = pendingLabel
            {
                bars.append((label, value))
                pendingLabel = nil
            }
        }
        return bars
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var done: [Element] = []
        var stack: [(element: Element, index: Int)] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let ids = stack.compactMap { $0.element.attributes["id"] }
            done.append(Element(name: name, attributes: attributes, text: "", enclosingIds: ids))
            stack.append((done[done.count - 1], done.count - 1))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            for entry in stack { done[entry.index].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
        }
    }
}
