/// A write transaction, valid only inside `Database.write`'s body.
///
/// Mutations live in `WriteTransaction+<Concern>.swift`; every read method is inherited.
public final class WriteTransaction: ReadTransaction {
    override var isWrite: Bool { true }
}
