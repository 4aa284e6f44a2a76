import Testing

@testable import ASNMigrateKit

/// `--shard K/N` and `--shard auto/N`: K from each batch engine's variable, and usage errors that say what to do.
@Suite struct ShardSelectionTests {
    @Test func explicitShard() throws {
        #expect(try ShardSelection.parse("0/1", environment: [:]) == ShardSelection(index: 0, count: 1))
        #expect(try ShardSelection.parse("6/7", environment: [:]) == ShardSelection(index: 6, count: 7))
    }

    @Test(arguments: [
        "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "SLURM_ARRAY_TASK_ID", "CLOUD_RUN_TASK_INDEX"
    ])
    func autoTakesTheIndexFromEachEngine(variable: String) throws {
        #expect(
            try ShardSelection.parse("auto/4", environment: [variable: "3", "HOME": "/root"])
                == ShardSelection(index: 3, count: 4))
    }

    @Test func autoPrefersKubernetesThenAWSThenSlurm() throws {
        let environment = ["SLURM_ARRAY_TASK_ID": "1", "AWS_BATCH_JOB_ARRAY_INDEX": "2", "JOB_COMPLETION_INDEX": "0"]
        #expect(try ShardSelection.parse("auto/3", environment: environment).index == 0)
    }

    @Test(arguments: [
        ("auto/4", [String: String](), "none of JOB_COMPLETION_INDEX"),
        ("auto/4", ["JOB_COMPLETION_INDEX": "4"], "shards are 0 to 3"),
        ("auto/4", ["SLURM_ARRAY_TASK_ID": "-1"], "not a whole number"),
        ("4/4", [:], "K must be less than N"),
        ("1/0", [:], "N from 1"),
        ("+1/4", [:], "K/N with K a whole number"),
        ("1/4/2", [:], "K/N or auto/N"),
        ("x", [:], "K/N or auto/N"),
        ("0/5000", [:], "N from 1 to 4096")
    ])
    func usageErrors(text: String, environment: [String: String], message: String) {
        #expect {
            try ShardSelection.parse(text, environment: environment)
        } throws: { error in
            guard let error = error as? ASNError else { return false }
            return error.code == .usage && error.message.contains(message)
        }
    }

    @Test func memoryLimitSizes() throws {
        #expect(try MemoryBudget.parseSize("2G") == 2 << 30)
        #expect(try MemoryBudget.parseSize("512m") == 512 << 20)
        #expect(try MemoryBudget.parseSize("1GiB") == 1 << 30)
        #expect(try MemoryBudget.parseSize("4096") == 4096)
        for bad in ["", "G", "-1G", "1.5G", "2X", "0"] {
            #expect(throws: ASNError.self, "\(bad)") { try MemoryBudget.parseSize(bad) }
        }
        #expect(MemoryBudget.passes(inputBytes: 0, limit: 1 << 30) == 1)
        #expect(
            MemoryBudget.passes(inputBytes: 40 << 30, limit: 2 << 30)
                > MemoryBudget.passes(inputBytes: 10 << 30, limit: 2 << 30))
    }
}
