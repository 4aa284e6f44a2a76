/// Loads the mapping table: built in, or from `--mappings DIR`.
public enum MappingLoader {
    /// The table for an optional `--mappings` directory.
    public static func load(_ directory: String?) throws(ASNError) -> MappingTable {
        if let directory { return try MappingTable.load(directory: directory) }
        return try MappingTable.builtIn()
    }
}
