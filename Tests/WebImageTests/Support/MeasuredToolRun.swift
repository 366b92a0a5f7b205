import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of the `webimage` tool as a child process, with its peak resident memory.
///
/// The child is started with `posix_spawn` and reaped with `wait4`, which returns that child's own resource
/// usage (other tests' child processes do not blur it, as `RUSAGE_CHILDREN` would). But Linux starts a spawned
/// child's `ru_maxrss` at the peak of the process it was spawned from (the exec records the high-water mark of the
/// memory the child shared with it), and the test process may be large. So the child's `VmHWM` (the high-water
/// mark of its own memory since the exec) is also read from `/proc` every half millisecond while it runs, until
/// it is a zombie, which keeps its process ID from being reused. ``peakResidentBytes`` is `ru_maxrss` when that
/// is above the test process's own peak, so that it can only be the child's; otherwise the highest `VmHWM` read.
struct MeasuredToolRun {
    /// The exit status, or 128 + the signal number when a signal ended the child.
    var status: Int32
    var stdout: String
    var stderr: String
    /// The child's peak resident set size, in bytes.
    var peakResidentBytes: Int

    /// The JSON objects printed, one per line.
    var objects: [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// The peak in mebibytes, for messages.
    var peakMiB: Int { peakResidentBytes >> 20 }

    /// Runs `tool` with `arguments`, its output going to files in `directory`, and waits for it (at most 5
    /// minutes of sampling, then without sampling).
    static func run(_ tool: URL, _ arguments: [String], outputIn directory: URL) throws -> MeasuredToolRun {
        let outPath = directory.appendingPathComponent("stdout-\(UUID().uuidString)").path
        let errPath = directory.appendingPathComponent("stderr-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv: [UnsafeMutablePointer<CChar>?] = ([tool.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tool.path, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }

        // Until the child has exited (a zombie has no memory left to report); it is not reaped before.
        var sampled = 0
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline, let highWater = highWaterMark(of: "/proc/\(pid)/status") {
            sampled = max(sampled, highWater)
            usleep(500)
        }

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        }
        let reported = peakBytes(usage)
        let own = highWaterMark(of: "/proc/self/status") ?? Int.max
        let signal = status & 0x7F
        return MeasuredToolRun(
            status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
            stdout: text(of: outPath) ?? "",
            stderr: text(of: errPath) ?? "",
            peakResidentBytes: reported > own ? reported : sampled
        )
    }

    /// The `VmHWM` line of a `/proc/PID/status` file, in bytes; nil when the file cannot be read or the process
    /// has no memory (a zombie).
    private static func highWaterMark(of path: String) -> Int? {
        guard let text = text(of: path) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.dropFirst("VmHWM:".count).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// The text of the file at `path`, read with `read(2)`; nil when it cannot be opened.
    ///
    /// Not `String(contentsOfFile:)`: this toolchain's Foundation loses the 4 KiB buffer it reads an empty file
    /// into (LeakSanitizer reports every one), and a refused decode prints nothing.
    private static func text(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `ru_maxrss` in bytes: Linux counts kilobytes, Darwin bytes.
    private static func peakBytes(_ usage: rusage) -> Int {
        #if os(Linux)
        return Int(usage.ru_maxrss) * 1024
        #else
        return Int(usage.ru_maxrss)
        #endif
    }
}
