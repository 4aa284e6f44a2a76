import Foundation

/// Counts a child run's heap allocations with the shared counter (`../shared/tools/malloc-count.c`, an `LD_PRELOAD`
/// library), built once with the machine's C compiler; absent when there is no compiler or no counter source.
struct AllocationCounter {
    /// What one counted run requested of the heap.
    struct Count {
        /// Calls to malloc, calloc, realloc and posix_memalign.
        var allocations: Int
        /// Bytes those calls requested.
        var bytes: Int

        /// Allocations per record, for `records` records read.
        func perRecord(_ records: Int) -> Double { Double(allocations) / Double(max(1, records)) }

        /// Bytes requested as a multiple of `inputBytes`.
        func timesInput(_ inputBytes: Int) -> Double { Double(bytes) / Double(max(1, inputBytes)) }
    }

    /// The built counter library.
    let library: String

    /// The counter's source: `source` when given, else `shared/tools/malloc-count.c` beside the package.
    static func sourcePath(_ source: String?) -> String {
        if let source { return source }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // asn-migrate-bench
            .deletingLastPathComponent() // Sources
            .deletingLastPathComponent() // the package
            .deletingLastPathComponent()
            .appendingPathComponent("shared/tools/malloc-count.c").path
    }

    /// The counter built into `folder` from `source`, or nil (saying why) when it cannot be built here.
    static func build(source: String?, folder: String) -> AllocationCounter? {
        let path = sourcePath(source)
        guard FileManager.default.fileExists(atPath: path) else {
            say("allocations: not counted (no counter source at \(path); --malloc-count FILE names it)")
            return nil
        }
        guard
            let compiler = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            say("allocations: not counted (no C compiler: cc, gcc or clang)")
            return nil
        }
        let library = "\(folder)/malloc-count.so"
        let result = try? ChildProcess.run(compiler, ["-O2", "-shared", "-fPIC", "-o", library, path, "-ldl"])
        guard result?.status == 0 else {
            say("allocations: not counted (\(compiler) could not build \(path))")
            return nil
        }
        return AllocationCounter(library: library)
    }

    /// Counts one run of `command` (`migrate` or `reconcile`) over `records` records of `inputBytes` bytes, prints the
    /// allocations per record and the bytes requested against their targets, and adds both rows to `results`.
    func measure(
        _ command: String, binary: String, arguments: [String], records: Int, inputBytes: Int,
        targets: (perRecord: Double, timesInput: Double), folder: String, results: BenchResults
    ) throws {
        let counted = try count(binary, arguments, folder: folder)
        let perRecord = counted.perRecord(records)
        let timesInput = counted.timesInput(inputBytes)
        let perRecordTarget = fixed(targets.perRecord, 0)
        let timesInputTarget = fixed(targets.timesInput, 0)
        say(
            "\(command) allocations: \(counted.allocations) for \(records) records read = \(fixed(perRecord, 1)) per record, \(counted.bytes) bytes requested = \(fixed(timesInput, 2))x the input; targets <= \(perRecordTarget) per record: \(perRecord <= targets.perRecord ? "met" : "NOT met"); <= \(timesInputTarget)x the input's bytes: \(timesInput <= targets.timesInput ? "met" : "NOT met")"
        )
        results.add(
            "\(command): allocations per record (\(records) records)", figure: fixed(perRecord, 1),
            target: "<= \(perRecordTarget)", met: perRecord <= targets.perRecord)
        results.add(
            "\(command): bytes requested / input bytes (\(records) records)", figure: "\(fixed(timesInput, 2))x",
            target: "<= \(timesInputTarget)x", met: timesInput <= targets.timesInput)
    }

    /// Runs `binary arguments` once under the counter and returns what it requested (the run itself is not timed).
    func count(_ binary: String, _ arguments: [String], folder: String) throws -> Count {
        let output = "\(folder)/malloc-count.out"
        try? FileManager.default.removeItem(atPath: output)
        let result = try ChildProcess.run(
            binary, arguments, environment: ["LD_PRELOAD": library, "MALLOC_COUNT_OUT": output])
        guard result.status == 0 || result.status == 1 else {
            throw BenchError("counted run of \(arguments.first ?? binary) exited with \(result.status)")
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard let count = Self.parse(text) else { throw BenchError("the counter wrote no line: '\(text)'") }
        return count
    }

    /// The figures of the counter's line, `malloc-count: N allocations (…), B bytes requested` (the last such line:
    /// a child the run starts appends its own before the run's).
    static func parse(_ text: String) -> Count? {
        for line in text.split(separator: "\n").reversed() where line.hasPrefix("malloc-count: ") {
            let words = line.split(separator: " ")
            guard words.count > 2, let allocations = Int(words[1]),
                let requested = words.firstIndex(of: "requested"), requested >= 2,
                let bytes = Int(words[requested - 2])
            else { continue }
            return Count(allocations: allocations, bytes: bytes)
        }
        return nil
    }
}
