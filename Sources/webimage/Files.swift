import Foundation
import WebImage

/// Reads a file, with an error that names it.
func readFile(_ path: String) throws -> Data {
    do {
        return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        throw WebImageError(.diskIO, "cannot read \(path): \(error.localizedDescription)")
    }
}

/// Writes a file atomically, with an error that names it.
func writeFile(_ data: Data, to path: String) throws {
    do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw WebImageError(.diskIO, "cannot write \(path): \(error.localizedDescription)")
    }
}

/// Creates a directory and its parents, with an error that names it.
func makeDirectory(_ path: String) throws {
    do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
        throw WebImageError(.diskIO, "cannot create the directory \(path): \(error.localizedDescription)")
    }
}
