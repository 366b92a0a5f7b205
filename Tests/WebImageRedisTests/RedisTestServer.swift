import Foundation
import Glibc
import WebImage
import WebImageTestSupport
@testable import WebImageRedis

/// A `redis-server` of the test's own, on a free port of 127.0.0.1, with a temporary directory and no
/// persistence; stopped, and its directory removed, by ``stop()`` or when released.
///
/// Fails with a message that says how to install it when `redis-server` is missing: the tests never skip.
final class RedisTestServer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    let directory: URL
    /// How a client reaches a server started with TLS: trusting the test certificate; nil for a plain one.
    let tls: RedisTLSOptions?
    private let executable: String
    private var process: Process?

    /// The test certificate (for 127.0.0.1 and localhost) and its key, which a TLS server presents.
    static let certificate = Fixtures.url("tls/localhost.pem").path
    static let privateKey = Fixtures.url("tls/localhost-key.pem").path

    /// Starts a server and waits, at most a few seconds, until it answers PING. With `tls`, it listens for TLS
    /// only, presenting the test certificate, and does not ask clients for one.
    init(tls: Bool = false) throws {
        if tls {
            var options = RedisTLSOptions()
            options.trustedCertificatesFile = RedisTestServer.certificate
            self.tls = options
        } else {
            self.tls = nil
        }
        executable = try RedisTestServer.findExecutable()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("redis-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A free port can be taken by someone else before the server binds it: a few attempts, each bounded.
        var lastError: any Error = Failure(description: "redis-server did not start")
        for _ in 0..<5 {
            let candidate = try RedisTestServer.freePort()
            do {
                process = try RedisTestServer.launch(executable, port: candidate, directory: directory, tls: tls)
                try RedisTestServer.waitUntilReady(port: candidate, process: process, tls: self.tls)
                port = candidate
                return
            } catch {
                lastError = error
                RedisTestServer.end(process, signal: SIGKILL)
                process = nil
            }
        }
        try? FileManager.default.removeItem(at: directory)
        throw lastError
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Options for a connection to this server.
    func connectionOptions(commandTimeout: Duration = .seconds(2)) -> RedisConnection.Options {
        RedisConnection.Options(host: "127.0.0.1", port: port, connectTimeout: .seconds(2), commandTimeout: commandTimeout, tls: tls)
    }

    /// A cache on this server (over TLS when it listens for TLS), with 2 s timeouts that hold on a loaded
    /// machine, as `configure` changes it further.
    func makeCache(_ configure: (inout RedisImageCacheConfig) -> Void = { _ in }) -> RedisImageCache {
        var config = RedisImageCacheConfig(host: "127.0.0.1", port: port)
        config.tls = tls
        config.connectTimeout = .seconds(2)
        config.commandTimeout = .seconds(2)
        configure(&config)
        return RedisImageCache(config: config, coder: ImageCoderRegistry.shared)
    }

    /// Stops the server and waits for it to exit. With SIGKILL: the server holds nothing to save, and it starts
    /// with the signal mask of the test thread that launched it, which blocks SIGTERM.
    func stop() {
        RedisTestServer.end(process, signal: SIGKILL)
        process = nil
    }

    /// Kills the server at once, as a crash would.
    func kill() {
        stop()
    }

    /// Starts the server again, on the same port and directory, and waits until it answers.
    func restart() throws {
        stop()
        // The port may linger for a moment after the kill: a few bounded attempts.
        var lastError: any Error = Failure(description: "redis-server did not restart on port \(port)")
        for _ in 0..<20 {
            do {
                process = try RedisTestServer.launch(executable, port: port, directory: directory, tls: tls != nil)
                try RedisTestServer.waitUntilReady(port: port, process: process, tls: tls)
                return
            } catch {
                lastError = error
                RedisTestServer.end(process, signal: SIGKILL)
                process = nil
                usleep(100_000)
            }
        }
        throw lastError
    }

    // MARK: Helpers

    private static func findExecutable() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin"]
        for folder in folders {
            let candidate = folder + "/redis-server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(description: "redis-server is not installed; the Redis tests need it (Scripts/setup.sh installs it)")
    }

    /// A port of 127.0.0.1 that was free a moment ago.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free port on 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func launch(_ executable: String, port: Int, directory: URL, tls: Bool) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        var arguments = [
            "--bind", "127.0.0.1", "--dir", directory.path, "--save", "", "--appendonly", "no", "--daemonize", "no",
        ]
        if tls {
            arguments += [
                "--port", "0", "--tls-port", String(port), "--tls-cert-file", certificate, "--tls-key-file", privateKey,
                "--tls-ca-cert-file", certificate, "--tls-auth-clients", "no",
            ]
        } else {
            arguments += ["--port", String(port)]
        }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until the server answers PING: at most 100 attempts, 50 ms apart.
    private static func waitUntilReady(port: Int, process: Process?, tls: RedisTLSOptions?) throws {
        let options = RedisConnection.Options(host: "127.0.0.1", port: port, connectTimeout: .seconds(1), commandTimeout: .seconds(1), tls: tls)
        for _ in 0..<100 {
            guard let process, process.isRunning else {
                throw Failure(description: "redis-server exited at start on port \(port)")
            }
            if let connection = try? RedisConnection(options: options), (try? connection.ping()) != nil {
                return
            }
            usleep(50_000)
        }
        throw Failure(description: "redis-server did not answer on port \(port) within 5 s")
    }

    /// Sends `signal` and waits for the exit: at most 2 s, then SIGKILL (when `signal` was another) and at most
    /// 2 s more.
    private static func end(_ process: Process?, signal: Int32) {
        guard let process else { return }
        if process.isRunning {
            Glibc.kill(process.processIdentifier, signal)
        }
        if waitForExit(process) || signal == SIGKILL { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(process)
    }

    /// Waits at most 2 s for the exit. Once the process has exited, `waitUntilExit` returns at once, and lets
    /// Foundation release what it holds for the process (the Process object is leaked otherwise).
    private static func waitForExit(_ process: Process) -> Bool {
        for _ in 0..<200 {
            if !process.isRunning {
                process.waitUntilExit()
                return true
            }
            usleep(10_000)
        }
        return false
    }
}
