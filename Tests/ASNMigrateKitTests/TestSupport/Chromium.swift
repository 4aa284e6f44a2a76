import Foundation

/// A headless Chromium (or Chrome) on `PATH`, when one is installed: tests that render `report.html` use it and are
/// skipped visibly (`.enabled(if: Chromium.path != nil)`) where there is none.
enum Chromium {
    /// The names looked for on `PATH`.
    static let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]

    /// The browser's path, or nil.
    static let path: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").flatMap {
        directory in names.map { "\(directory)/\($0)" }
    }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs the browser headless with `arguments` (after the common ones); returns its standard output.
    static func run(_ arguments: [String]) throws -> String {
        guard let path else { return "" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments =
            ["--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--no-first-run"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// A screenshot of `page` in a window `width` × `height` pixels, as PNG bytes.
    static func screenshot(_ page: String, width: Int, height: Int, to png: String) throws -> [UInt8] {
        _ = try run(["--screenshot=\(png)", "--window-size=\(width),\(height)", "file://\(page)"])
        return Array(try Data(contentsOf: URL(fileURLWithPath: png)))
    }

    /// The page's laid-out width and its viewport's width when shown `width` pixels wide: the page is loaded into an
    /// iframe of that width by a wrapper page (written beside it) whose script writes both into its own DOM, read back
    /// with `--dump-dom` (the page itself has no script; a headless window is never narrower than 500 pixels, the
    /// iframe is).
    static func widths(of page: String, at width: Int) throws -> (scroll: Int, client: Int)? {
        let wrapper = (page as NSString).deletingLastPathComponent + "/measure-\(width).html"
        let name = (page as NSString).lastPathComponent
        let html = """
            <!DOCTYPE html><html><body><iframe id="f" src="\(name)" style="width:\(width)px;height:800px;border:0">\
            </iframe><script>document.getElementById("f").onload=function(){var d=this.contentDocument.documentElement;\
            document.body.setAttribute("data-widths",d.scrollWidth+" "+d.clientWidth);};</script></body></html>
            """
        try Data(html.utf8).write(to: URL(fileURLWithPath: wrapper))
        let dom = try run([
            "--allow-file-access-from-files", "--virtual-time-budget=5000", "--window-size=800,900", "--dump-dom",
            "file://\(wrapper)"
        ])
        guard let range = dom.range(of: #"data-widths="(\d+) (\d+)""#, options: .regularExpression) else { return nil }
        let numbers = dom[range].dropFirst("data-widths=\"".count).dropLast().split(separator: " ").compactMap {
            Int($0)
        }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    /// A PNG's width and height, from its IHDR chunk.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
