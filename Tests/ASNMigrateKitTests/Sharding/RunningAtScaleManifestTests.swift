import ASNSimulation
import Foundation
import Testing

@testable import ASNMigrateKit

/// The "Running at scale" guide's manifests are what a team copies into its cluster: they must parse, be a real
/// Kubernetes Indexed Job, and run commands this tool accepts, with the shard count, array size and merge inputs
/// agreeing. YAML is read by a small block-YAML subset reader (no dependency); when python3 with PyYAML is on the
/// machine, it must read the same documents.
@Suite struct RunningAtScaleManifestTests {
    /// A YAML value: a scalar, a mapping (keys in order) or a sequence.
    indirect enum YAML: Equatable {
        case scalar(String)
        case map([String: YAML], keys: [String])
        case list([YAML])

        subscript(_ key: String) -> YAML? {
            if case .map(let values, _) = self { return values[key] }
            return nil
        }
        var items: [YAML] {
            if case .list(let items) = self { return items }
            return []
        }
        var text: String? {
            if case .scalar(let text) = self { return text }
            return nil
        }
    }

    struct YAMLError: Error, CustomStringConvertible { var description: String }

    /// Reads block YAML (mappings, `- ` sequences, plain or quoted scalars, `#` comment lines): the subset the guide uses.
    struct YAMLSubset {
        var lines: [(indent: Int, text: String, number: Int)] = []
        var position = 0

        init(_ text: String) throws {
            for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard !raw.contains("\t") else { throw YAMLError(description: "line \(k + 1): a tab") }
                let content = raw.drop { $0 == " " }
                if content.isEmpty || content.hasPrefix("#") { continue }
                lines.append((raw.count - content.count, String(content), k + 1))
            }
        }

        static func parse(_ text: String) throws -> YAML {
            var reader = try YAMLSubset(text)
            guard !reader.lines.isEmpty else { throw YAMLError(description: "empty document") }
            let value = try reader.block(indent: reader.lines[0].indent)
            guard reader.position == reader.lines.count else {
                throw YAMLError(description: "line \(reader.lines[reader.position].number): unexpected indentation")
            }
            return value
        }

        mutating func block(indent: Int) throws -> YAML {
            lines[position].text.hasPrefix("- ") || lines[position].text == "-"
                ? try list(indent: indent) : try map(indent: indent)
        }

        mutating func list(indent: Int) throws -> YAML {
            var items: [YAML] = []
            while position < lines.count, lines[position].indent == indent, lines[position].text.hasPrefix("- ") {
                let item = String(lines[position].text.dropFirst(2))
                if Self.keyValue(item) != nil {
                    lines[position] = (indent + 2, item, lines[position].number)
                    items.append(try map(indent: indent + 2))
                } else {
                    items.append(.scalar(Self.scalar(item)))
                    position += 1
                }
            }
            return .list(items)
        }

        mutating func map(indent: Int) throws -> YAML {
            var values: [String: YAML] = [:]
            var keys: [String] = []
            while position < lines.count, lines[position].indent == indent {
                let line = lines[position]
                guard let (key, value) = Self.keyValue(line.text) else {
                    throw YAMLError(description: "line \(line.number): expected 'key: value', got '\(line.text)'")
                }
                guard values[key] == nil else {
                    throw YAMLError(description: "line \(line.number): key '\(key)' repeated")
                }
                position += 1
                if value.isEmpty {
                    guard position < lines.count,
                        lines[position].indent > indent
                            || (lines[position].indent == indent && lines[position].text.hasPrefix("- "))
                    else {
                        throw YAMLError(description: "line \(line.number): '\(key):' has no value")
                    }
                    values[key] = try block(indent: lines[position].indent)
                } else {
                    values[key] = .scalar(Self.scalar(value))
                }
                keys.append(key)
            }
            if position < lines.count, lines[position].indent > indent {
                throw YAMLError(description: "line \(lines[position].number): unexpected indentation")
            }
            return .map(values, keys: keys)
        }

        static func keyValue(_ text: String) -> (String, String)? {
            guard !text.hasPrefix("\""), !text.hasPrefix("'") else { return nil }
            if text.hasSuffix(":") { return (String(text.dropLast()), "") }
            guard let range = text.range(of: ": ") else { return nil }
            return (
                String(text[..<range.lowerBound]),
                String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces)
            )
        }

        static func scalar(_ text: String) -> String {
            if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
                return String(text.dropFirst().dropLast())
            }
            return text
        }
    }

    /// The "Running at scale" guide, `Reports/running-at-scale.md`.
    static func section() throws -> String {
        String(decoding: try PackagePaths.read("Reports/running-at-scale.md"), as: UTF8.self)
    }

    /// The fenced blocks of `section` with the info string `language`.
    static func blocks(_ section: String, language: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```" + language {
                current = []
            } else if current != nil, line == "```" {
                blocks.append((current ?? []).joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The arguments after `asn-migrate`, parsed by the tool's own parser.
    static func parsed(_ command: [String]) throws -> ParsedArguments {
        #expect(command.first == "asn-migrate")
        guard case .run(let arguments) = try ToolCommands.program.parse(Array(command.dropFirst())) else {
            throw YAMLError(description: "not a run: \(command)")
        }
        return arguments
    }

    @Test func theKubernetesIndexedJobAndItsMergeRunThisTool() throws {
        let manifests = try Self.blocks(Self.section(), language: "yaml").map(YAMLSubset.parse)
        #expect(manifests.count == 2, "the shard Job and the merge Job")
        let job = try #require(manifests.first)
        let merge = try #require(manifests.last)
        #expect(job["apiVersion"]?.text == "batch/v1" && job["kind"]?.text == "Job")
        let spec = try #require(job["spec"])
        #expect(spec["completionMode"]?.text == "Indexed")
        let completions = try #require(spec["completions"]?.text.flatMap { Int($0) })
        let parallelism = try #require(spec["parallelism"]?.text.flatMap { Int($0) })
        #expect(completions >= 2 && parallelism >= 1 && parallelism <= completions)
        let pod = try #require(spec["template"]?["spec"])
        #expect(pod["restartPolicy"]?.text == "Never")
        let container = try #require(pod["containers"]?.items.first)
        let commandItems = try #require(container["command"]?.items)
        let command = commandItems.compactMap { $0.text }
        let arguments = try Self.parsed(command)
        #expect(arguments.command == "reconcile")
        // What the pod's JOB_COMPLETION_INDEX makes of it: shard K of `completions`, in its own folder.
        for k in [0, completions - 1] {
            #expect(
                try ReconcileCommand.shardPlan(arguments, environment: ["JOB_COMPLETION_INDEX": String(k)])
                    == .one(ShardSelection(index: k, count: completions)))
        }
        #expect(throws: ASNError.self) { try ReconcileCommand.shardPlan(arguments, environment: [:]) }
        let out = try #require(arguments.value("--out"))
        #expect(out.contains("{shard}"))
        // Every path the command names lies on a mounted volume, the inputs read-only.
        let mounts = try #require(container["volumeMounts"]?.items).compactMap { $0["mountPath"]?.text }
        for path in arguments.values("--v1") + arguments.values("--v2") + [out] {
            #expect(mounts.contains { path.hasPrefix($0 + "/") }, "\(path) is on a volume")
        }
        let volumes = try #require(pod["volumes"]?.items).compactMap { $0["name"]?.text }
        #expect(
            Set(try #require(container["volumeMounts"]?.items).compactMap { $0["name"]?.text }).isSubset(
                of: Set(volumes)))

        // The merge Job merges exactly the folders the shards write.
        #expect(merge["kind"]?.text == "Job" && merge["spec"]?["completionMode"] == nil)
        let mergeItems = try #require(
            merge["spec"]?["template"]?["spec"]?["containers"]?.items.first?["command"]?.items)
        let mergeCommand = mergeItems.compactMap { $0.text }
        let mergeArguments = try Self.parsed(mergeCommand)
        #expect(mergeArguments.command == "merge")
        #expect(
            mergeArguments.positionals
                == (0..<completions).map { out.replacingOccurrences(of: "{shard}", with: String($0)) })
        #expect(mergeArguments.value("--out").map { !$0.contains("{shard}") } == true)
    }

    @Test func theAWSBatchAndSlurmCommandsAgreeWithTheShardCount() throws {
        let section = try Self.section()
        let shell = Self.blocks(section, language: "").joined(separator: "\n")
        // AWS Batch: the container override is JSON, its command this tool's, the array size N of auto/N.
        let overrides = shell.components(separatedBy: "--container-overrides '").dropFirst().compactMap {
            $0.components(separatedBy: "'").first
        }
        #expect(overrides.count == 2)
        let batch = try #require(overrides.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(batch.utf8)) as? [String: Any])
        let command = try #require(object["command"] as? [String])
        let arguments = try Self.parsed(command)
        let size = try #require(
            shell.range(of: #"--array-properties size=(\d+)"#, options: .regularExpression).map {
                Int(shell[$0].split(separator: "=")[1]) ?? 0
            })
        #expect(
            try ReconcileCommand.shardPlan(arguments, environment: ["AWS_BATCH_JOB_ARRAY_INDEX": String(size - 1)])
                == .one(ShardSelection(index: size - 1, count: size)))
        // Slurm: --array=0-(N-1) for auto/N.
        let script = try #require(shell.components(separatedBy: "#!/bin/sh\n").dropFirst().first)
        let array = try #require(
            script.range(of: #"#SBATCH --array=0-(\d+)"#, options: .regularExpression).map {
                Int(script[$0].split(separator: "-").last ?? "") ?? -1
            })
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("asn-migrate reconcile") })
        let words = line.split(separator: " ").map {
            String($0).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        }
        let slurm = try Self.parsed(words)
        #expect(
            try ReconcileCommand.shardPlan(slurm, environment: ["SLURM_ARRAY_TASK_ID": String(array)])
                == .one(ShardSelection(index: array, count: array + 1)))
    }

    /// A second opinion where the machine has it: PyYAML reads each manifest as the same data (skipped without it).
    @Test(.enabled(if: MachineTools.pyYAML, "needs python3 with PyYAML"))
    func pyYAMLReadsTheManifestsAlike() throws {
        for block in try Self.blocks(Self.section(), language: "yaml") {
            let process = Process()
            let input = Pipe()
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", "-c",
                "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin), sort_keys=True, default=str))"
            ]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data(block.utf8))
            try input.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let python = try JSONSerialization.jsonObject(with: data)
            #expect(Self.plain(try YAMLSubset.parse(block)) == Self.plain(python), "\(block.prefix(80))")
        }
    }

    /// A value as comparable text: scalars as strings (booleans as 1 and 0, as JSON numbers print them).
    static func plain(_ value: Any) -> String {
        switch value {
        case let yaml as YAML:
            switch yaml {
            case .scalar(let text): return text == "true" ? "1" : text == "false" ? "0" : text
            case .list(let items): return "[" + items.map(plain).joined(separator: ",") + "]"
            case .map(let values, _):
                return "{" + values.keys.sorted().map { "\($0):\(values[$0].map(plain) ?? "")" }.joined(separator: ",")
                    + "}"
            }
        case let text as String: return text
        case let list as [Any]: return "[" + list.map(plain).joined(separator: ",") + "]"
        case let map as [String: Any]:
            return "{" + map.keys.sorted().map { "\($0):\(map[$0].map(plain) ?? "")" }.joined(separator: ",") + "}"
        case let number as NSNumber: return number.stringValue
        default: return "\(value)"
        }
    }
}
