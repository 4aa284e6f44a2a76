// asn-migrate: thin executable; all logic lives in ASNMigrateKit.
import ASNMigrateKit

print("asn-migrate: not yet wired")
