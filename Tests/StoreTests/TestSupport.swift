import Foundation
@testable import Store
import TestDatabases

/// A fresh directory under the system temporary directory, removed when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
}

/// The repository's `Migrations/` directory, found from this file's location.
let repositoryMigrations: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // StoreTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // repository root
    .appendingPathComponent("Migrations").path

/// Opens a new database with the repository's migrations: a SQLite file in `directory`, or a
/// fresh PostgreSQL schema when the suite runs on PostgreSQL (`TestDatabases`).
func openDatabase(_ directory: TemporaryDirectory, name: String = "data/test.sqlite",
                  configuration: DatabaseConfiguration = .init()) throws -> Database {
    try Database(location: TestDatabases.location(sqlitePath: directory.file(name)),
                 migrationsDirectory: repositoryMigrations, configuration: configuration)
}

/// Opens a database in `directory` holding a board for each of `boards`.
func openDatabase(_ directory: TemporaryDirectory, boards: [String]) throws -> Database {
    let database = try openDatabase(directory)
    try database.write { transaction in
        for board in boards { try transaction.insertBoard(makeBoard(board)) }
    }
    return database
}

func makeBoard(_ id: String = "board-1", createdAt: Int64 = 1_700_000_000_000) -> BoardRecord {
    BoardRecord(id: id, title: "Board \(id)", tokenHash: SHA256.hash(Array("token-\(id)".utf8)),
                createdAt: createdAt)
}

func makeSticker(_ id: String, board: String = "board-1", state: StickerRecord.State = .field,
                 frame: StickerRecord.Rect = .init(x: 0, y: 0, width: 100, height: 40),
                 text: String = "hello", at time: Int64 = 1_700_000_000_000) -> StickerRecord {
    StickerRecord(
        id: id, boardId: board, state: state, text: text, recognizedText: text, confidence: 0.9,
        candidates: [.init(text: "hello", confidence: 0.9)],
        anchor: .init(x: frame.x, y: frame.y),
        center: .init(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2),
        frame: frame, fontFamily: "Inter", fontSize: 24,
        style: .init(strokeWidth: 1.5, strokeColor: "#1d1d1f", fillColor: nil, kerning: 0, lineHeight: 1.2,
                     alignment: .center, lineLimit: nil),
        maxLength: nil, charset: nil, inkBounds: frame, createdAt: time, updatedAt: time,
        committedAt: state == .label ? time : nil)
}
