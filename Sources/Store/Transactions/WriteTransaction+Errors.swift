extension WriteTransaction {
    /// Runs `body`, turning the constraint failures listed in `mapping` into typed `StoreError`s.
    ///
    /// Only codes whose meaning is unambiguous for the statement at hand are mapped (a
    /// PRIMARY KEY failure on an INSERT means "already exists"); everything else stays a
    /// `SQLiteError` with its SQL.
    func mapConstraints<T>(_ mapping: [SQLiteResultCode: StoreError], _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            if let mapped = mapping[error.extendedCode] { throw mapped }
            throw error
        }
    }
}
