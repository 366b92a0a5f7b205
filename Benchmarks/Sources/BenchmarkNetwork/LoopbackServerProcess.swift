import Foundation

/// The loopback HTTP server of the download and manager benchmarks, run as a child process (`Tools/LoopbackServer`),
/// so that the benchmark's CPU figures count the client alone and the server has its own scheduling.
///
/// `@unchecked Sendable`: the pipes are used by one benchmark body at a time (the runner calls a benchmark's body
/// from one thread, one iteration after another) and closed only by ``stop()`` in the teardown.
public final class LoopbackServerProcess: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let input: FileHandle
    private let output: FileHandle

    /// Starts the server built next to this executable and reads the port it prints.
    ///
    /// - Parameter files: Files the server also serves, each at `/files/<its name>` whatever the query string.
    public init(serving files: [URL] = []) throws {
        guard let directory = Bundle.main.executableURL?.deletingLastPathComponent() else {
            fatalError("cannot tell where this executable is")
        }
        let executable = directory.appendingPathComponent("LoopbackServer")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            fatalError("\(executable.path) is missing: build the LoopbackServer product first (Scripts/bench.sh does)")
        }
        let toServer = Pipe()
        let fromServer = Pipe()
        process = Process()
        process.executableURL = executable
        process.arguments = files.map(\.path)
        process.standardInput = toServer
        process.standardOutput = fromServer
        try process.run()
        input = toServer.fileHandleForWriting
        output = fromServer.fileHandleForReading
        guard let line = Self.readLine(output), let port = Int(line) else {
            fatalError("the loopback server did not print its port")
        }
        self.port = port
    }

    public func url(_ pathAndQuery: String) -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)") else {
            fatalError("not a URL path: \(pathAndQuery)")
        }
        return url
    }

    /// Requests the server has served since it started.
    public var totalRequestCount: Int {
        input.write(Data("count\n".utf8))
        guard let line = Self.readLine(output), let count = Int(line) else {
            fatalError("the loopback server did not answer with its request count")
        }
        return count
    }

    /// Ends the server's input, which stops it, and waits for it to exit.
    public func stop() {
        try? input.close()
        process.waitUntilExit()
    }

    /// One line from `handle`, without its newline; nil at the end of the stream.
    private static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let data = handle.readData(ofLength: 1)
            guard let byte = data.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
