import Foundation
import WebImage

/// One run of `webimage demo`, from server start to the verdict: the three passes over the gallery through
/// `ImageManager.shared`, the files written, and the check of every claim the output makes.
struct DemoRun: Sendable {
    /// The bundled samples' directory.
    let samples: URL
    /// Where the files are written.
    let outputDirectory: String
    /// Loads of each (sample, size) pair started at once.
    let copies: Int
    /// The thumbnails' size in pixels.
    let thumbnailSize: PixelSizeArgument
    /// The shared cache's temporary home.
    let environment: DemoEnvironment
    /// Whether the output is JSON lines.
    let json: Bool

    /// Runs the demo and returns the claims that did not hold (none: success). The server is stopped before
    /// this returns or throws.
    ///
    /// - Throws: When the server cannot start; every other failure is a problem in the result.
    func run() async throws -> [String] {
        let clock = ContinuousClock()
        let started = clock.now
        let server = try await DemoServer.start(serving: samples)
        var console = DemoConsole(json: json)
        let (problems, outputs) = await show(server: server, console: &console)
        let traffic = server.traffic
        await server.stop()
        finish(problems: problems, outputs: outputs, traffic: traffic, wall: clock.now - started, console: &console)
        return problems
    }

    /// Everything between server start and stop: the claims that did not hold and the files written. Never
    /// throws, so that the server is always stopped.
    private func show(server: DemoServer, console: inout DemoConsole) async -> (problems: [String], outputs: [String]) {
        let gallery = DemoGallery(server: server, copies: copies, thumbnailSize: thumbnailSize)
        let manager = ImageManager.shared
        let progress = DemoProgressBar.forTerminal(json: json)
        console.text("webimage demo: \(server.names.count) bundled images served on loopback at \(server.baseURL.absoluteString)")
        console.text("   through ImageManager.shared, its cache in \(environment.cacheDirectory.path) (temporary)")
        console.text("   each pass: \(gallery.summary), all at once")
        console.object(
            DemoStartLine(
                server: server.baseURL.absoluteString, cache: environment.cacheDirectory.path, out: outputDirectory,
                samples: server.names, loads: gallery.loads.count, urls: gallery.urls.count))

        var problems: [String] = []
        var results: [DemoPassResult] = []
        for pass in DemoPass.allCases {
            console.text()
            if pass == .disk {
                // Memory only: the disk tier keeps what the first pass stored.
                await ImageCache.shared.clear(cacheType: .memory)
                console.text("   ImageCache.shared.clear(cacheType: .memory): the memory tier is empty, the disk tier is not")
            }
            if !progress.isEnabled { console.text(pass.title) }
            let result = await pass.run(gallery, manager: manager, server: server, progress: progress)
            if progress.isEnabled { console.text(pass.title) }
            for line in result.text(for: gallery) { console.text(line) }
            console.object(result.summary(for: gallery))
            for failure in result.failures.prefix(3) {
                if case .failure(let error) = failure.result {
                    console.problem("\(failure.load.url.absoluteString) (\(failure.load.variant.rawValue)): \(error.message)")
                }
            }
            problems += result.problems(for: gallery)
            results.append(result)
        }
        let medians = Dictionary(uniqueKeysWithValues: results.map { ($0.pass, $0.median) })
        if let network = medians[.network], let memory = medians[.memory], let disk = medians[.disk] {
            console.text()
            console.text(
                "   per load, memory was \(DemoFormat.ratio(network, memory)) and disk \(DemoFormat.ratio(network, disk)) "
                    + "faster than the network (medians; loopback is the fastest network there is)")
        }

        console.text()
        console.text("files in \(outputDirectory):")
        let outputs = DemoOutputs(server: server, thumbnailSize: thumbnailSize)
        var written: [String] = []
        for (report, item) in zip(await outputs.write(into: outputDirectory, manager: manager), outputs.items) {
            console.report(report) { outputs.line($0, item: item) }
            if let error = report.error { problems.append("the \(item.kind) was not written: \(error.message)") }
            if let output = report.output { written.append(output) }
        }
        return (problems, written)
    }

    /// The verdict and, in text mode, where to go next.
    private func finish(
        problems: [String], outputs: [String], traffic: DemoTraffic, wall: Duration, console: inout DemoConsole
    ) {
        console.object(
            DemoDoneLine(
                ok: problems.isEmpty, problems: problems, ms: DemoFormat.milliseconds(wall), requests: traffic.requests,
                bytes: traffic.bytes, outputs: outputs))
        console.text()
        guard problems.isEmpty else {
            for problem in problems { console.problem("claim not true: \(problem)") }
            return
        }
        console.text(
            "every claim held, in \(DemoFormat.duration(wall)); the server is stopped, the temporary cache goes on exit.")
        console.text()
        for line in Self.whereNext { console.text(line) }
    }

    /// The closing block of the text output.
    static let whereNext = [
        "where next:",
        "   webimage fetch URL... --thumbnail 256x256      your own images through a cache (--json for scripts)",
        "   webimage thumb IMAGE... --size 256 --out DIR   thumbnails of local files; --transform 'round=16,gray'",
        "   webimage info IMAGE...                         format, size, frames and orientation, from the header",
        "   webimage --help                                every command: decode, convert, frames, prefetch, cache",
        "   Scripts/bench.sh                               the coders and the cache against raw C calls and curl",
        "   README.md, and the articles in Sources/WebImageCore/Docs.docc (LoadingPipeline, ConcurrencyModel)",
    ]
}
