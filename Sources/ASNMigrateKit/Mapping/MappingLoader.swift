/// Loads the mapping table: built in, or from `--mappings DIR`.
package enum MappingLoader {
    /// The table for an optional `--mappings` directory.
    package static func load(_ directory: String?) throws(ASNError) -> MappingTable {
        if let directory { return try MappingTable.load(directory: directory) }
        return try MappingTable.builtIn()
    }
}
