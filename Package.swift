// swift-tools-version:6.0
import PackageDescription

/// Every Swift target builds in Swift 6 language mode with strict concurrency.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "InkSticker",
    products: [
        .executable(name: "inksticker", targets: ["inksticker"]),
    ],
    targets: [
        // MARK: C libraries (Debian -dev packages)
        .target(name: "CSystem", path: "Sources/CSystem"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CTesseract", path: "Sources/CTesseract", pkgConfig: "tesseract",
                       providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "CLeptonica", path: "Sources/CLeptonica", pkgConfig: "lept",
                       providers: [.apt(["libleptonica-dev"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),

        // MARK: Modules, dependencies pointing one way
        /// pthread-based locks, visible to ThreadSanitizer (unlike `Synchronization.Mutex` on Linux).
        .target(name: "Locking", swiftSettings: swiftSettings),
        /// Sockets, epoll event loops and HTTP/1.1: knows nothing of ink.
        .target(name: "HTTPServer", dependencies: ["CSystem", "JSONKit", "Locking"], swiftSettings: swiftSettings),
        /// A fast JSON reader and writer with JSON Pointer error locations.
        .target(name: "JSONKit", swiftSettings: swiftSettings),
        /// Points, sizes and rectangles in board coordinates (y down): the one geometry every module shares.
        .target(name: "Geometry", swiftSettings: swiftSettings),
        /// Stroke model, decoding, validation, line segmentation, normalization, rasterizer.
        .target(name: "Ink", dependencies: ["Geometry", "JSONKit"], swiftSettings: swiftSettings),
        /// Tesseract handles, the worker pool and the recognition pipeline.
        .target(name: "OCR", dependencies: ["Geometry", "Ink", "CTesseract", "CLeptonica", "Locking"], swiftSettings: swiftSettings),
        /// The database: one interface, SQLite (embedded default) and PostgreSQL (libpq) behind it.
        .target(name: "Store", dependencies: ["CSQLite", "CPostgres", "Geometry", "JSONKit", "Locking"], swiftSettings: swiftSettings),
        /// Text metrics with FreeType: sticker frames.
        .target(name: "TextLayout", dependencies: ["CFreeType", "Geometry", "Locking"], swiftSettings: swiftSettings),
        /// Routes, JSON resources and the sticker lifecycle.
        .target(name: "InkStickerApp",
                dependencies: ["HTTPServer", "JSONKit", "Geometry", "Ink", "OCR", "Store", "TextLayout", "Locking"],
                swiftSettings: swiftSettings),
        /// The thin executable.
        .executableTarget(name: "inksticker", dependencies: ["InkStickerApp", "OCR"], swiftSettings: swiftSettings),
        /// Benchmarks and offline evaluation of the recognition pipeline (bench/recognize.sh).
        /// Renders JSON-lines ink to training line images with the service's own imaging.
        .executableTarget(name: "inkrender", dependencies: ["Geometry", "Ink", "OCR", "JSONKit", "ToolSupport"], swiftSettings: swiftSettings),
        /// Command-line argument reading and a seeded generator shared by the developer tools below.
        .target(name: "ToolSupport", swiftSettings: swiftSettings),
        .executableTarget(name: "inkbench", dependencies: ["Geometry", "Ink", "OCR", "JSONKit", "ToolSupport", "TextLayout", "GestureSamples"],
                          swiftSettings: swiftSettings),
        /// Generated pen gestures and writing drawn over fields: how the gesture classifier is measured
        /// (`bench/gestures.sh`, and a seeded subset in the tests).
        .target(name: "GestureSamples", dependencies: ["Geometry", "Ink", "TextLayout", "ToolSupport"], swiftSettings: swiftSettings),

        // MARK: Tests
        /// Where tests keep their databases: SQLite files, or schemas of a throw-away PostgreSQL.
        .target(name: "TestDatabases", dependencies: ["Store"], path: "Tests/TestDatabases", swiftSettings: swiftSettings),
        .testTarget(name: "LockingTests", dependencies: ["Locking"], swiftSettings: swiftSettings),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Locking"], swiftSettings: swiftSettings),
        .testTarget(name: "JSONKitTests", dependencies: ["JSONKit"], swiftSettings: swiftSettings),
        .testTarget(name: "InkTests", dependencies: ["Geometry", "Ink", "JSONKit"], swiftSettings: swiftSettings),
        .testTarget(name: "OCRTests", dependencies: ["Geometry", "OCR", "Ink", "Locking"], swiftSettings: swiftSettings),
        .testTarget(name: "StoreTests", dependencies: ["Geometry", "Store", "Locking", "TestDatabases"], swiftSettings: swiftSettings),
        .testTarget(name: "TextLayoutTests", dependencies: ["Geometry", "TextLayout"], swiftSettings: swiftSettings),
        .testTarget(name: "InkStickerAppTests",
                    dependencies: ["InkStickerApp", "Geometry", "HTTPServer", "JSONKit", "Store", "TestDatabases",
                                   "Ink", "TextLayout", "GestureSamples"],
                    swiftSettings: swiftSettings),
    ]
)
