// asn-migrate: thin executable; all logic lives in ASNMigrateKit.
import ASNMigrateKit
import Foundation

let status = ASNMigrateCLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
