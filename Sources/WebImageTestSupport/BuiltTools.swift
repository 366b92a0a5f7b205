import Foundation

/// The package's executables, built next to the test bundle, for tests that run them as processes.
public enum BuiltTools {
    /// The `webimage` tool.
    public static let webimage: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        // The test bundle may be a directory (`.xctest`) holding the executable.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("webimage").path),
              directory.pathComponents.count > 1 {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("webimage")
    }()
}
