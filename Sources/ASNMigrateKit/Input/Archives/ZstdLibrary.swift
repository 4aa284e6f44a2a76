#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's zstd library, loaded when the first zstd input is met (`dlopen`), since its development package
/// (`zstd.h`) is not on the build image and a fresh machine must build without extra installs.
///
/// Only the few functions used are declared, with the types of `zstd.h` (1.4 and later): `size_t` is `Int`, a
/// `ZSTD_inBuffer` / `ZSTD_outBuffer` is three machine words (pointer, size, position), laid out by hand.
/// `ASN_MIGRATE_LIBZSTD` names another file to load (default `libzstd.so.1`).
final class ZstdLibrary: @unchecked Sendable {
    // @unchecked: the members are C function pointers, set once in `init` and never changed; libzstd's functions
    // are safe to call from several threads on distinct streams.

    /// `ZSTD_DStream *ZSTD_createDStream(void)`.
    let createDStream: @convention(c) () -> OpaquePointer?
    /// `size_t ZSTD_freeDStream(ZSTD_DStream *)`.
    let freeDStream: @convention(c) (OpaquePointer?) -> Int
    /// `size_t ZSTD_initDStream(ZSTD_DStream *)`.
    let initDStream: @convention(c) (OpaquePointer?) -> Int
    /// `size_t ZSTD_decompressStream(ZSTD_DStream *, ZSTD_outBuffer *, ZSTD_inBuffer *)`.
    let decompressStream: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int
    /// `unsigned ZSTD_isError(size_t)`.
    let isError: @convention(c) (Int) -> UInt32
    /// `const char *ZSTD_getErrorName(size_t)`.
    let getErrorName: @convention(c) (Int) -> UnsafePointer<CChar>?
    /// `size_t ZSTD_compress(void *dst, size_t dstCapacity, const void *src, size_t srcSize, int level)`.
    let compress: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int, Int32) -> Int
    /// `size_t ZSTD_compressBound(size_t srcSize)`.
    let compressBound: @convention(c) (Int) -> Int

    /// The default file loaded.
    static let defaultFile = "libzstd.so.1"

    /// The library, loaded once per process, or the error saying why it cannot be.
    static let shared: Result<ZstdLibrary, ASNError> = load(environmentFile() ?? defaultFile)

    /// The library file named by `ASN_MIGRATE_LIBZSTD`, when set and not empty.
    static func environmentFile() -> String? {
        guard let value = getenv("ASN_MIGRATE_LIBZSTD") else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Loads `file` and looks up every function; the error names the file, `dlerror`'s reason and what to do.
    static func load(_ file: String) -> Result<ZstdLibrary, ASNError> {
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(unavailable(file, reason))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            guard let pointer = dlsym(handle, name) else { return nil }
            return unsafeBitCast(pointer, to: type)
        }
        guard let create = symbol("ZSTD_createDStream", as: (@convention(c) () -> OpaquePointer?).self),
            let free = symbol("ZSTD_freeDStream", as: (@convention(c) (OpaquePointer?) -> Int).self),
            let initialise = symbol("ZSTD_initDStream", as: (@convention(c) (OpaquePointer?) -> Int).self),
            let decompress = symbol(
                "ZSTD_decompressStream",
                as: (@convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int).self),
            let isError = symbol("ZSTD_isError", as: (@convention(c) (Int) -> UInt32).self),
            let errorName = symbol("ZSTD_getErrorName", as: (@convention(c) (Int) -> UnsafePointer<CChar>?).self),
            let compress = symbol(
                "ZSTD_compress",
                as: (@convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int, Int32) -> Int).self),
            let bound = symbol("ZSTD_compressBound", as: (@convention(c) (Int) -> Int).self)
        else {
            dlclose(handle)
            return .failure(unavailable(file, "it lacks the streaming functions of zstd 1.4 or later"))
        }
        return .success(ZstdLibrary(create, free, initialise, decompress, isError, errorName, compress, bound))
    }

    /// Keeps the looked-up functions.
    private init(
        _ create: @escaping @convention(c) () -> OpaquePointer?,
        _ free: @escaping @convention(c) (OpaquePointer?) -> Int,
        _ initialise: @escaping @convention(c) (OpaquePointer?) -> Int,
        _ decompress:
            @escaping @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int,
        _ isError: @escaping @convention(c) (Int) -> UInt32,
        _ errorName: @escaping @convention(c) (Int) -> UnsafePointer<CChar>?,
        _ compress: @escaping @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int, Int32) -> Int,
        _ bound: @escaping @convention(c) (Int) -> Int
    ) {
        createDStream = create
        freeDStream = free
        initDStream = initialise
        decompressStream = decompress
        self.isError = isError
        getErrorName = errorName
        self.compress = compress
        compressBound = bound
    }

    /// zstd's name for an error code.
    func errorText(_ code: Int) -> String {
        getErrorName(code).map { String(cString: $0) } ?? "zstd error \(code)"
    }

    /// `bytes` compressed into one zstd frame at `level` (with a content checksum only as the library's default
    /// sets it); for building test fixtures and small files. Throws when the library reports an error.
    func compressed(_ bytes: [UInt8], level: Int32 = 3) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: compressBound(bytes.count))
        let capacity = out.count
        let size = bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                compress(target.baseAddress, capacity, source.baseAddress, source.count, level)
            }
        }
        guard isError(size) == 0 else { throw ASNError(.outputFailed, "zstd could not compress: \(errorText(size))") }
        return Array(out[0..<size])
    }

    /// The error for a library that cannot be used.
    private static func unavailable(_ file: String, _ reason: String) -> ASNError {
        ASNError(
            .unreadableInput,
            "zstd-compressed input needs the system's zstd library, and '\(file)' cannot be loaded (\(reason)); "
                + "install it (Debian/Ubuntu: 'apt-get install libzstd1'; RHEL: 'dnf install libzstd'), point ASN_MIGRATE_LIBZSTD at it, "
                + "or decompress the file first ('zstd -d FILE')")
    }
}
