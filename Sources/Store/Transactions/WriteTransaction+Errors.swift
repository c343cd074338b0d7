extension WriteTransaction {
    /// Runs `body`, turning the constraint failures listed in `mapping` into typed `StoreError`s.
    ///
    /// Only kinds whose meaning is unambiguous for the statement at hand are mapped (a
    /// PRIMARY KEY failure on an INSERT means "already exists"); everything else stays the
    /// engine's error with its SQL.
    @discardableResult
    func mapConstraints<T>(_ mapping: [StoreConstraint: StoreError], _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            if let kind = StoreConstraint(error), let mapped = mapping[kind] { throw mapped }
            throw error
        }
    }
}
