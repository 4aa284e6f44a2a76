import ASNMigrateKit
import ASNSimulation
import Dispatch
import Foundation
import Synchronization

/// The figures of JWS verified per second on every core (in process, `JWSVerifier` over test-CA signed
/// transactions), and `reconcile --verify-signatures` against the same run without it on `simulate --sign` data.
enum SignatureBench {
    /// Runs both measurements and prints them; `subscribers` sizes the signed data set, `runs` the reconcile repeats.
    static func run(binary: String, folder: String, subscribers: Int, runs: Int) throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        say("load average before signature bench (/proc/loadavg): \(loadAverage())")
        let rates = try verificationRates(threads: [1, cores])
        for rate in rates {
            say(
                "JWS verified in process: \(Int(rate.wall)) per second on \(rate.threads) thread(s) (ES256 + chain cache lookup + validity check); "
                    + "\(Int(rate.perCPUSecond)) per CPU-second, so \(Int(rate.perCPUSecond * Double(cores))) per second on \(cores) idle cores"
            )
        }
        let allCores = rates.last?.wall ?? 0
        say("target: >= 30,000 JWS/s on \(cores) cores: \(allCores >= 30_000 ? "met" : "NOT met") (\(Int(allCores)))")

        let directory = "\(folder)/sim-\(subscribers)-seed5-m12-signed"
        if !FileManager.default.fileExists(atPath: "\(directory)/README.txt") {
            let arguments = [
                "simulate", "--subscribers", String(subscribers), "--seed", "5", "--months", "12", "--sign", "--out",
                directory
            ]
            say("simulating signed data (once; later runs reuse it): asn-migrate \(arguments.joined(separator: " "))")
            let made = try ChildProcess.run(binary, arguments)
            guard made.status == 0 else { throw BenchError("simulate --sign exited with \(made.status)") }
            say("  simulated in \(fixed(made.seconds, 1)) s")
        }
        let v2Lines = try countLines(
            try FileManager.default.contentsOfDirectory(atPath: "\(directory)/v2").sorted().map {
                "\(directory)/v2/\($0)"
            })
        let base = ["reconcile", "--v1", "\(directory)/v1", "--v2", "\(directory)/v2", "--run-date", "2024-01-01"]
        var plain = ChildProcess.Result(seconds: .infinity, status: 0, maxRSS: 0)
        var verified = ChildProcess.Result(seconds: .infinity, status: 0, maxRSS: 0)
        for _ in 0..<runs {
            let a = try ChildProcess.run(binary, base + ["--out", "\(folder)/report-plain"])
            let b = try ChildProcess.run(
                binary,
                base + [
                    "--out", "\(folder)/report-verified", "--verify-signatures",
                    "--root-certificate", "\(directory)/test-root.der"
                ])
            guard [0, 1].contains(a.status), [0, 1].contains(b.status) else {
                throw BenchError("reconcile exited with \(a.status) / \(b.status)")
            }
            if a.seconds < plain.seconds { plain = a }
            if b.seconds < verified.seconds { verified = b }
        }
        let same = FileManager.default.contentsEqual(
            atPath: "\(folder)/report-plain/differences.csv", andPath: "\(folder)/report-verified/differences.csv")
        let ratio = verified.seconds / plain.seconds
        say(
            "reconcile on \(v2Lines) signed V2 lines (3 JWS each): without verification \(fixed(plain.seconds, 2)) s (CPU \(fixed(plain.cpuSeconds, 2)) s), "
                + "--verify-signatures \(fixed(verified.seconds, 2)) s (CPU \(fixed(verified.cpuSeconds, 2)) s), \(fixed(ratio, 2))x; differences.csv identical: \(same) (best of \(runs))"
        )
        say("target: --verify-signatures within 1.5x: \(ratio <= 1.5 ? "met" : "NOT met") (\(fixed(ratio, 2))x)")
        say("load average after signature bench (/proc/loadavg): \(loadAverage())")
    }

    /// JWS verified per second with each thread count: 400 distinct signed transactions under one chain, verified
    /// round-robin for about a second per thread count.
    static func verificationRates(threads counts: [Int]) throws -> [(threads: Int, wall: Double, perCPUSecond: Double)]
    {
        let signedDate: Int64 = 1_700_000_000_000
        let authority = try TestCertificateAuthority(
            seed: 1, notBefore: signedDate - 86_400_000 * 365, notAfter: signedDate + 86_400_000 * 365)
        let verifier = JWSVerifier(roots: [authority.root.der])
        let tokens: [[UInt8]] = try (0..<400).map { index in
            let payload =
                #"{"transactionId":"\#(2_000_000_000_000_000 + index)","originalTransactionId":"2000000000000000","bundleId":"com.example.simulated","productId":"com.example.simulated.monthly","purchaseDate":1699990000000,"expiresDate":1702590000000,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","signedDate":\#(signedDate),"environment":"Production","transactionReason":"RENEWAL","storefront":"USA","price":9990,"currency":"USD"}"#
            return Array(try authority.sign(Array(payload.utf8)).utf8)
        }
        var rates: [(threads: Int, wall: Double, perCPUSecond: Double)] = []
        for count in counts {
            let perThread = 12_000
            let failures = Counter()
            let cpuStart = processCPUSeconds()
            let start = DispatchTime.now().uptimeNanoseconds
            DispatchQueue.concurrentPerform(iterations: count) { thread in
                var bad = 0
                for index in 0..<perThread {
                    let token = tokens[(index + thread * 7) % tokens.count]
                    let failed = token.withUnsafeBytes { verifier.verify($0, signedDate: signedDate) }
                    if failed != nil { bad += 1 }
                }
                failures.add(bad)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let cpu = processCPUSeconds() - cpuStart
            guard failures.value == 0 else { throw BenchError("\(failures.value) benchmark JWS failed to verify") }
            rates.append((count, Double(count * perThread) / seconds, Double(count * perThread) / cpu))
        }
        return rates
    }
}

/// User plus system CPU time of this process so far, in seconds.
private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// A total added to from several threads.
private final class Counter: Sendable {
    /// The total so far, behind a lock.
    private let total = Mutex(0)

    /// Adds `amount`.
    func add(_ amount: Int) { total.withLock { $0 += amount } }

    /// The total so far.
    var value: Int { total.withLock { $0 } }
}
