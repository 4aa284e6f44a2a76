// asn-migrate-bench: generates benchmark data once and measures migrate against its baselines.
import ASNMigrateKit
import Foundation

let args = Array(CommandLine.arguments.dropFirst())
let file = args.first ?? "/tmp/small.jsonl"
let table = try MappingTable.builtIn()
let fast = FastRecordMapper(table: table)
let reference = V1RecordMapper(table: table)
var records: [RawRecord] = []
try RecordReader(file: InputFile(path: file)).forEach { item in
    if case .record(let r) = item { records.append(r) }
}
var declined = 0, mismatched = 0
var t0 = Date()
for r in records { if fast.fastMap(r) == nil { declined += 1 } }
let fastTime = Date().timeIntervalSince(t0)
if args.count > 1 { print(Double(records.reduce(0) { $0 + $1.bytes.count }) / fastTime / 1e6); exit(0) }
t0 = Date()
var refOutcomes: [V1RecordMapper.Outcome] = []
for r in records { refOutcomes.append(reference.map(r)) }
let refTime = Date().timeIntervalSince(t0)
for (r, o) in zip(records, refOutcomes) where fast.map(r) != o { mismatched += 1 }
let bytes = records.reduce(0) { $0 + $1.bytes.count }
print("records \(records.count) declined \(declined) mismatched \(mismatched)")
print("fast \(Double(bytes) / fastTime / 1e6) MB/s, reference \(Double(bytes) / refTime / 1e6) MB/s")
