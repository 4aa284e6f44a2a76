import Foundation
import Testing

/// `.ci/Dockerfile`'s run stage installs exactly the Debian packages of the shared libraries the binary links.
///
/// The binary checked is `.ci/install`'s static release build when one is there (`.build-install/release`, or
/// `ASN_MIGRATE_RELEASE_BINARY`); CI builds only the debug binary, whose Swift runtime libraries are shared: each of
/// those is replaced by the system libraries it needs itself, which is what `--static-swift-stdlib` leaves to load
/// (libcurl through FoundationNetworking, libstdc++ …). Docker is not needed: the test reads the file, it does not
/// build the image.
@Suite(.enabled(if: elfToolsInstalled, "needs readelf and ldd (binutils, libc-bin)"))
struct ContainerFileTests {
    /// `.ci/Dockerfile`'s text.
    static func dockerfile() throws -> String {
        try String(contentsOf: PackagePaths.root.appendingPathComponent(".ci/Dockerfile"), encoding: .utf8)
    }

    /// The output of a shell command, run in a temporary folder.
    static func output(_ command: String) throws -> String {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = Shell.run("\(command) > out", in: tmp.path)
        guard run.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(command): \(run.stderr)"])
        }
        return try String(contentsOfFile: tmp.path + "/out", encoding: .utf8)
    }

    /// Every NEEDED soname of the ELF files at `paths`, read by one `readelf`.
    static func needed(_ paths: [String]) throws -> Set<String> {
        let lines = try output("readelf -d " + paths.map { "'\($0)'" }.joined(separator: " ")).split(separator: "\n")
        return Set(
            lines.filter { $0.contains("(NEEDED)") }.compactMap { line in
                line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
            })
    }

    /// The static release binary, when built.
    static var releaseBinary: String? {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["ASN_MIGRATE_RELEASE_BINARY"],
            PackagePaths.root.appendingPathComponent(".build-install/release/asn-migrate").path
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The sonames the static release binary needs (worked out once for the suite) and which binary told them.
    static let binaryNeeds = Result { () throws -> (what: String, sonames: Set<String>) in
        if let release = releaseBinary { return (release, try needed([release])) }
        guard let debug = BinaryRun.executable?.path else { throw CocoaError(.fileNoSuchFile) }
        // ldd lists every library the debug binary loads (`soname => path`); the Swift runtime is the folder
        // libswiftCore.so is loaded from. Linked statically, its libraries' own NEEDED entries become the binary's.
        var paths: [String: String] = [:]
        for line in try output("ldd '\(debug)'").split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            if parts.count >= 3, parts[1] == "=>" { paths[parts[0].trimmingCharacters(in: .whitespaces)] = parts[2] }
        }
        guard let core = paths["libswiftCore.so"] else { throw CocoaError(.fileNoSuchFile) }
        let runtime = URL(fileURLWithPath: core).deletingLastPathComponent().path + "/"
        let runtimeLibraries = paths.filter { $0.value.hasPrefix(runtime) }
        let sonames = try needed([debug] + runtimeLibraries.values.sorted()).subtracting(runtimeLibraries.keys)
        return ("the debug binary with its Swift runtime linked in (no release build here)", sonames)
    }

    /// The `needs: SONAME PACKAGE [base]` table of the Dockerfile's comments.
    static func table(_ text: String) -> [String: (package: String, base: Bool)] {
        var table: [String: (String, Bool)] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("# needs: ") {
            let words = line.dropFirst("# needs: ".count).split(separator: " ").map(String.init)
            guard words.count >= 2 else { continue }
            table[words[0]] = (words[1], words.count > 2 && words[2] == "base")
        }
        return table
    }

    /// The packages the run stage (after the last FROM) installs with apt-get.
    static func installed(_ text: String) throws -> Set<String> {
        let stage = try #require(text.components(separatedBy: "\nFROM ").last)
        let command = try #require(stage.components(separatedBy: "apt-get install").dropFirst().first)
        let words = command.components(separatedBy: "&&").first?.split(whereSeparator: {
            $0 == " " || $0 == "\\" || $0 == "\n"
        })
        return Set((words ?? []).map(String.init).filter { !$0.hasPrefix("-") })
    }

    @Test func runStageInstallsExactlyThePackagesOfTheLinkedLibraries() throws {
        let text = try Self.dockerfile()
        let table = Self.table(text)
        let (what, sonames) = try Self.binaryNeeds.get()
        #expect(sonames.contains("libpq.so.5") && sonames.contains("libcurl.so.4"), "\(what): \(sonames.sorted())")
        for soname in sonames.sorted() where table[soname] == nil {
            Issue.record("\(what) links \(soname), which .ci/Dockerfile's needs table lacks")
        }
        let needed = Set(sonames.compactMap { table[$0] }.filter { !$0.base }.map(\.package))
        let also = Set(
            text.split(separator: "\n").filter { $0.hasPrefix("# also: ") }.compactMap {
                $0.dropFirst("# also: ".count).split(separator: " ").first.map(String.init)
            })
        #expect(try Self.installed(text) == needed.union(also), "\(what): \(sonames.sorted())")
        #expect(text.contains("FROM debian:bookworm-slim") && text.contains("-bookworm AS build"), "one distribution")
    }

    /// On a Debian machine, `dpkg -S` confirms each soname's package in the table (the machine's libraries).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg"), "needs dpkg (Debian)"))
    func tableNamesEachLibrarysPackage() throws {
        let (_, sonames) = try Self.binaryNeeds.get()
        let table = Self.table(try Self.dockerfile())
        // `dpkg -S '*/libpq.so.5' …`: one `package:arch: path` line per file found.
        let listing = try Self.output("dpkg -S " + sonames.sorted().map { "'*/\($0)'" }.joined(separator: " "))
        var owners: [String: Set<String>] = [:]
        for line in listing.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard let package = parts.first?.split(separator: ":").first, let path = parts.last else { continue }
            owners[String(path.split(separator: "/").last ?? ""), default: []].insert(String(package))
        }
        for soname in sonames.sorted() {
            #expect(
                owners[soname]?.contains(table[soname]?.package ?? "?") == true,
                "\(soname): dpkg says \(owners[soname] ?? [])")
        }
    }

    /// `.ci/install` says what the binary loads, as the table does.
    @Test func installSaysWhatTheBinaryNeeds() throws {
        let install = try String(
            contentsOf: PackagePaths.root.appendingPathComponent(".ci/install"), encoding: .utf8)
        for library in ["libcurl", "libpq", "libcrypto", "sqlite3", "zlib", ".ci/Dockerfile"] {
            #expect(install.contains(library), "\(library) in .ci/install")
        }
        #expect(!install.contains("one static release binary"))
    }
}

/// Whether `readelf` and `ldd` are installed.
private let elfToolsInstalled = ["/usr/bin/readelf", "/usr/bin/ldd"].allSatisfy {
    FileManager.default.isExecutableFile(atPath: $0)
}
