// swift-tools-version:6.0
import PackageDescription

/// asn-migrate: App Store Server Notifications V1 → V2 migration and reconciliation.
/// The design card says "packages: none": only the toolchain and system C libraries.
let package = Package(
    name: "asn-migrate",
    products: [
        .executable(name: "asn-migrate", targets: ["asn-migrate"]),
        .library(name: "ASNMigrateKit", targets: ["ASNMigrateKit"]),
        .library(name: "ASNSimulation", targets: ["ASNSimulation"])
    ],
    dependencies: [],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // libpq (libpq-dev): `--v1` / `--v2` read straight from PostgreSQL.
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres"),
        .target(
            name: "ASNMigrateKit",
            dependencies: ["CZlib", "CCrypto", "CSQLite", "CPostgres"],
            path: "Sources/ASNMigrateKit"
        ),
        // The lifecycle simulator and its `simulate` command, above the library (which never imports it).
        .target(
            name: "ASNSimulation",
            dependencies: ["ASNMigrateKit", "CCrypto"],
            path: "Sources/ASNSimulation"
        ),
        .executableTarget(
            name: "asn-migrate",
            dependencies: ["ASNMigrateKit", "ASNSimulation"],
            path: "Sources/asn-migrate"
        ),
        .executableTarget(
            name: "asn-migrate-bench",
            dependencies: ["ASNMigrateKit", "ASNSimulation"],
            path: "Sources/asn-migrate-bench"
        ),
        // Test-only: the binary with the crash tests' pause hook (never installed, not a product).
        .executableTarget(
            name: "asn-migrate-test-host",
            dependencies: ["ASNMigrateKit", "ASNSimulation"],
            path: "Tests/TestHost"
        ),
        .testTarget(
            name: "ASNMigrateKitTests",
            dependencies: ["ASNMigrateKit", "ASNSimulation", "asn-migrate", "asn-migrate-test-host"],
            path: "Tests/ASNMigrateKitTests"
        )
    ]
)
