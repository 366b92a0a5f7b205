import ArgumentParser
import Foundation
import WebImage
import WebImageCore

/// `webimage demo`: the library's loading pipeline end to end, offline, in a few seconds.
///
/// It starts a loopback HTTP server over the sample images bundled with the tool, points `ImageCache.shared` at
/// a temporary directory, and loads a gallery of the samples through `ImageManager.shared` three times: from
/// the network (many loads of each URL at once, one request each), from memory, and from disk after the memory
/// tier is cleared. It shows each pass with a progress bar, its timings, the tiers that served it and the
/// server's traffic; writes a thumbnail and a transformed image; checks that every claim it made held (exit
/// status 1 with the failed claims on standard error when not); and stops the server and removes the cache.
/// See ``DemoRun`` for the sequence.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Load the bundled samples from a loopback server through the shared manager: network, memory, disk.",
        discussion: """
            Needs no network: the samples are served on 127.0.0.1 by a server the demo starts and stops, and the \
            shared cache lives in a temporary directory removed at the end. Each pass loads every sample at full \
            size and as a thumbnail, several times at once; the first from the server (one request per URL however \
            many loads), the second from memory, the third from disk after the memory tier is cleared. A \
            thumbnail and a transformed image are written to --out. The exit status is 1 when a claim the demo \
            makes does not hold (the reason is on standard error). With --json: one object per line, each \
            with a "demo" field (start, pass, done) or a report of a file written.
            """
    )

    @Option(name: .long, help: "Directory for the thumbnail and the transformed image (default: a directory under the system's temporary directory).")
    var out: String?

    @Option(
        name: [.customLong("thumbnail"), .customLong("size")],
        help: PixelSizeArgument.help("The box the thumbnails fit inside, from 16 to 1024 pixels a side (--size is another name for it)"),
        transform: { try PixelSizeArgument(parsing: $0) }
    )
    var size = PixelSizeArgument(PixelSize(square: 128))

    @Option(name: .long, help: "Loads of each sample and size started at once in each pass.")
    var copies: Int = 3

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (16...1024).contains(size.size.width), (16...1024).contains(size.size.height) else {
            throw ValidationError("--thumbnail sides must be between 16 and 1024")
        }
        guard (1...50).contains(copies) else { throw ValidationError("--copies must be between 1 and 50") }
    }

    func run() throws {
        // First: the shared cache must be pointed at a temporary directory before anything touches it.
        let environment = try DemoEnvironment.prepare()
        defer { environment.remove() }
        guard let samples = Bundle.module.url(forResource: "Samples", withExtension: nil) else {
            throw WebImageError(.diskIO, "the bundled samples are missing from this build")
        }
        let directory = out ?? FileManager.default.temporaryDirectory.appendingPathComponent("webimage-demo").path
        try makeDirectory(directory)
        let run = DemoRun(
            samples: samples, outputDirectory: directory, copies: copies, thumbnailSize: size,
            environment: environment, json: output.json)
        let problems = try Self.wait { try await run.run() }
        if !problems.isEmpty { throw ExitCode(1) }
    }

    /// Runs `body` as a task and blocks this thread until it ends: the tool's commands are synchronous, and
    /// nothing the demo does needs this thread meanwhile (results come on global queues).
    private static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        Task {
            do {
                outcome.set(.success(try await body()))
            } catch {
                outcome.set(.failure(error))
            }
        }
        return try outcome.wait()
    }

    /// A task's result, handed to a waiting thread.
    private final class Outcome<T: Sendable>: Sendable {
        private let result = Locked<Result<T, any Error>?>(nil)
        private let ready = DispatchSemaphore(value: 0)

        func set(_ value: Result<T, any Error>) {
            result.withLock { $0 = value }
            ready.signal()
        }

        func wait() throws -> T {
            ready.wait()
            guard let value = result.withLock({ $0 }) else { preconditionFailure("signalled without a result") }
            return try value.get()
        }
    }
}
