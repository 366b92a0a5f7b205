#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The committed test images under `Tests/Fixtures`, made by `Scripts/make-fixtures.sh`.
public enum Fixtures {
    /// The `Tests/Fixtures` directory of this checkout.
    public static let directory: URL = {
        // Sources/WebImageTestSupport/Fixtures.swift -> the package root.
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures", isDirectory: true)
    }()

    /// The URL of a fixture, by its path under `Tests/Fixtures` (`"png/rgba.png"`).
    public static func url(_ path: String) -> URL {
        directory.appendingPathComponent(path)
    }

    /// The bytes of a fixture; traps with the path when it is missing, since a missing fixture is a broken checkout.
    public static func data(_ path: String) -> Data {
        guard let data = try? Data(contentsOf: url(path)) else {
            fatalError("missing fixture Tests/Fixtures/\(path); run Scripts/make-fixtures.sh")
        }
        return data
    }

    /// The paths of every fixture in a subdirectory whose name ends with `suffix`, sorted.
    public static func paths(in subdirectory: String, suffix: String = "") -> [String] {
        let dir = directory.appendingPathComponent(subdirectory, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { "\(subdirectory)/\($0)" }
    }
}
