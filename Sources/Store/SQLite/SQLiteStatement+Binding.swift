import CSQLite

/// Tells SQLite to copy bound bytes, so Swift buffers need only live for the call.
/// (`SQLITE_TRANSIENT` is a macro Swift does not import.)
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

extension SQLiteStatement {
    /// Binds a 64-bit integer to the 1-based parameter `index`.
    public func bind(_ value: Int64, at index: Int) throws {
        try check(sqlite3_bind_int64(handle, Int32(clamping: index), value))
    }

    /// Binds a double to the 1-based parameter `index`.
    public func bind(_ value: Double, at index: Int) throws {
        try check(sqlite3_bind_double(handle, Int32(clamping: index), value))
    }

    /// Binds text (copied, UTF-8, embedded NULs preserved) to the 1-based parameter `index`.
    public func bind(_ value: String, at index: Int) throws {
        var value = value
        let result = value.withUTF8 { bytes -> Int32 in
            guard bytes.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
            // A nil base address would bind NULL; an empty string must stay an empty string.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(handle, Int32(clamping: index), "", 0, transient)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, Int32(clamping: index), $0, Int32(bytes.count), transient)
            }
        }
        try check(result)
    }

    /// Binds a blob (copied) to the 1-based parameter `index`. An empty array binds an empty blob, not NULL.
    public func bind(_ value: [UInt8], at index: Int) throws {
        let result = value.withUnsafeBytes { bytes -> Int32 in
            guard bytes.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_zeroblob(handle, Int32(clamping: index), 0)
            }
            return sqlite3_bind_blob(handle, Int32(clamping: index), base, Int32(bytes.count), transient)
        }
        try check(result)
    }

    /// Binds NULL to the 1-based parameter `index`.
    public func bindNull(at index: Int) throws {
        try check(sqlite3_bind_null(handle, Int32(clamping: index)))
    }

    /// Binds any bindable value (optionals bind NULL when nil) to the 1-based parameter `index`.
    public func bind(_ value: some SQLiteBindable, at index: Int) throws {
        try value.bind(to: self, at: index)
    }

    /// Binds `values` to parameters 1, 2, 3, … in order.
    public func bind(_ values: any SQLiteBindable...) throws {
        for (offset, value) in values.enumerated() {
            try value.bind(to: self, at: offset + 1)
        }
    }

    /// The 1-based index of the named parameter (`:name`, `@name` or `$name`; give the prefix).
    ///
    /// - Throws: `SQLiteError` with `SQLITE_RANGE` when the statement has no such parameter.
    public func parameterIndex(_ name: String) throws -> Int {
        let index = sqlite3_bind_parameter_index(handle, name)
        guard index > 0 else {
            throw SQLiteError(extendedCode: .range, message: "no parameter named \(name)", sql: sql)
        }
        return Int(index)
    }

    /// Binds `value` to the parameter called `name` (e.g. `":board"`).
    public func bind(_ value: some SQLiteBindable, named name: String) throws {
        try value.bind(to: self, at: parameterIndex(name))
    }

    /// The number of parameters the statement takes.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    private func check(_ result: Int32) throws {
        guard result == SQLITE_OK else { throw error(result) }
    }
}
