import Foundation
import WebImage

/// Reads a file, with an error that names it.
func readFile(_ path: String) throws -> Data {
    do {
        return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        try refuseDirectory(path)
        throw WebImageError(.diskIO, "cannot read \(path): \(error.localizedDescription)")
    }
}

/// Throws when `path` is a directory: Foundation's error for reading or writing one as a file names no cause.
func refuseDirectory(_ path: String) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        throw WebImageError(.diskIO, "\(path) is a directory, not a file")
    }
}

/// The first `byteCount` bytes of a file (all of it when it is shorter) and the file's size; only those bytes
/// are read. A file whose size cannot be known by seeking (a pipe) is read whole, as ``readFile(_:)`` reads it,
/// which also gives the error that names the file.
func readFileHead(_ path: String, byteCount: Int) throws -> (data: Data, fileSize: Int) {
    do {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 0)
        let data = try handle.read(upToCount: Int(min(UInt64(max(0, byteCount)), size))) ?? Data()
        return (data, Int(size))
    } catch {
        let data = try readFile(path)
        return (data, data.count)
    }
}

/// Writes a file atomically, with an error that names it.
func writeFile(_ data: Data, to path: String) throws {
    do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        try refuseDirectory(path)
        throw WebImageError(.diskIO, "cannot write \(path): \(error.localizedDescription)")
    }
}

/// Creates a directory and its parents, with an error that names it; a directory that another thread or process
/// created meanwhile is no error.
func makeDirectory(_ path: String) throws {
    do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        throw WebImageError(.diskIO, "cannot create the directory \(path): \(error.localizedDescription)")
    }
}
