import Foundation
import Testing

@testable import ASNMigrateKit

/// The config file and its merge with flags: keys, comments, repeats, errors naming file/line/key, relative paths.
@Suite struct NightlyConfigFileTests {
    /// `list` parsed as `nightly`'s flags.
    static func arguments(_ list: [String]) throws -> ParsedArguments {
        guard case .run(let parsed) = try NightlyCommand.spec.parse(list) else {
            throw ASNError(.usage, "expected a run")
        }
        return parsed
    }

    @Test func specIsSound() {
        #expect(NightlyCommand.spec.specProblems.isEmpty)
        for key in NightlyConfigFile.keys {
            #expect(NightlyCommand.spec.options.contains { $0.long == "--" + key }, "config key \(key) is also a flag")
        }
    }

    @Test func parsesKeysCommentsAndRepeats() throws {
        let text = """
            # nightly settings
            v1 = archive/v1
            v1 = archive/v1-late   # not a comment: values run to the end of the line
              v2=exports/v2
            window = 24h

            settle = 3d
            environment = Production
            max-reject-rate = 2.5%
            retention-days = 30
            """
        let config = try NightlyConfigFile(path: "/etc/asn/nightly.conf", text: text)
        let settings = try NightlySettings.resolve(try Self.arguments([]), config: config)
        #expect(
            settings.v1 == [
                "/etc/asn/archive/v1", "/etc/asn/archive/v1-late   # not a comment: values run to the end of the line"
            ])
        #expect(settings.v2 == ["/etc/asn/exports/v2"])
        #expect(settings.window == 24 * 3_600_000)
        #expect(settings.settle == 3 * 86_400_000)
        #expect(settings.environment == "Production")
        #expect(settings.maxRejectRate == 0.025)
        #expect(settings.retentionDays == 30)
        #expect(settings.state == "/etc/asn/Reports/state.sqlite", "defaults are relative to the config file's folder")
        #expect(settings.reports == "/etc/asn/Reports")
    }

    @Test func reportHTMLIsOnUnlessTurnedOff() throws {
        #expect(try NightlySettings.resolve(try Self.arguments(["--v1", "a", "--v2", "b"]), config: nil).html)
        #expect(
            try !NightlySettings.resolve(try Self.arguments(["--v1", "a", "--v2", "b", "--no-html"]), config: nil).html)
        let off = try NightlyConfigFile(path: "n.conf", text: "v1 = a\nv2 = b\nno-html = yes\n")
        #expect(try !NightlySettings.resolve(try Self.arguments([]), config: off).html)
        let on = try NightlyConfigFile(path: "n.conf", text: "v1 = a\nv2 = b\nno-html = no\n")
        #expect(try NightlySettings.resolve(try Self.arguments([]), config: on).html)
    }

    @Test func flagsWinOverTheFile() throws {
        let config = try NightlyConfigFile(
            path: "conf/n.conf", text: "v1 = a\nv2 = b\nwindow = 24h\nstate = s.sqlite\n")
        let settings = try NightlySettings.resolve(
            try Self.arguments(["--v1", "x", "--window", "1h", "--state", "t.sqlite"]), config: config)
        #expect(settings.v1 == ["x"], "a flag replaces the file's list, and stays relative to the working directory")
        #expect(settings.v2 == ["conf/b"])
        #expect(settings.window == 3_600_000)
        #expect(settings.state == "t.sqlite")
    }

    @Test(arguments: [
        ("v1 = a\nwindw = 24h\n", "line 2", "unknown key 'windw'"),
        ("v1 = a\nwindow = soon\n", "line 2", "key 'window'"),
        ("v1 = a\nenvironment = Prod\n", "line 2", "key 'environment'"),
        ("v1 = a\nmax-reject-rate = 150%\n", "line 2", "key 'max-reject-rate'"),
        ("v1 = a\nrun-date = yesterday\n", "line 2", "key 'run-date'"),
        ("v1 = a\nsettle = 1h\nsettle = 2h\n", "line 3", "given again"),
        ("v1 a\n", "line 1", "not 'key = value'")
    ])
    func badLinesNameFileLineAndKey(text: String, line: String, message: String) throws {
        do {
            let config = try NightlyConfigFile(path: "n.conf", text: text)
            _ = try NightlySettings.resolve(try Self.arguments([]), config: config)
            Issue.record("'\(text)' must be refused")
        } catch let error as ASNError {
            #expect(error.code == .usage)
            #expect(
                error.message.contains("config file 'n.conf' \(line)") && error.message.contains(message),
                "\(error.message)")
        }
    }

    @Test func nowIsTheEndOfTheRunDate() throws {
        let settings = try NightlySettings.resolve(
            try Self.arguments(["--v1", "a", "--v2", "b", "--run-date", "2021-03-01"]), config: nil)
        #expect(settings.now(clock: 0) == V1Fixture.ms("2021-03-01T23:59:59.999Z"))
        #expect(settings.day(clock: 0) == "2021-03-01")
    }
}
