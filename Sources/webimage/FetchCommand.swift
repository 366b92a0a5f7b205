import ArgumentParser
import Foundation
import Synchronization
import WebImage

/// `webimage fetch URL...`: downloads and decodes each URL through the downloader.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download and decode images: status, bytes, format, size and time per URL, then a summary.",
        discussion: """
            URLs come from the arguments and from -i FILE (one per line; blank lines and lines starting with # \
            are skipped). Lines are printed as downloads finish. On a terminal a progress bar is drawn on \
            standard error.
            """
    )

    @Argument(help: "URLs to download.")
    var urls: [String] = []

    @Option(name: .customShort("i"), help: "A file of URLs, one per line.")
    var input: String?

    @Option(help: "Downloads at once.")
    var concurrency = 6

    @Option(name: .customLong("header"), help: "A header sent with every request, as 'Name: value'; repeatable.")
    var headers: [String] = []

    @Option(help: "Seconds allowed for each download.")
    var timeout: Double = 15

    @Option(help: "A directory to save each response body in, named as the disk cache names it.")
    var out: String?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be 1 or more") }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0") }
        for header in headers where !header.contains(":") {
            throw ValidationError("--header '\(header)' is not 'Name: value'")
        }
    }

    func run() throws {
        var list = urls
        if let input { list += try Self.readList(input) }
        guard !list.isEmpty else { throw ValidationError("no URLs: pass them as arguments or with -i FILE") }
        if let out { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }

        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = concurrency
        config.downloadTimeout = timeout
        for header in headers {
            let parts = header.split(separator: ":", maxSplits: 1)
            let name = String(parts[0]).trimmingCharacters(in: .whitespaces)
            let value = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
            config.httpHeaders.removeAll { $0.name.lowercased() == name.lowercased() }
            config.httpHeaders.append(HTTPHeader(name: name, value: value))
        }
        let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
        defer { downloader.invalidate() }

        let run = FetchRun(total: list.count, json: output.json, showsProgress: !output.json && isatty(STDERR_FILENO) == 1)
        let clock = ContinuousClock()
        let started = clock.now
        let slots = DispatchSemaphore(value: concurrency)
        var context = ImageContext()
        context.callbackQueue = .global
        for string in list {
            slots.wait()
            let begin = clock.now
            guard let url = URL(string: string), url.scheme != nil else {
                var report = Report(file: string)
                report.fail(WebImageError(.invalidURL, "not a URL: \(string)"))
                run.finish(report)
                slots.signal()
                continue
            }
            downloader.downloadImage(url: url, context: context) { [out] result in
                var report = Report(file: string)
                report.ms = Self.seconds(clock.now - begin) * 1000
                switch result {
                case .success(let loaded):
                    report.ok = true
                    report.describe(loaded.image)
                    report.bytes = loaded.data.count
                    report.status = loaded.response?.statusCode
                    if let out {
                        let path = (out as NSString).appendingPathComponent(DiskCache.fileName(forKey: string))
                        do {
                            try loaded.data.write(to: URL(fileURLWithPath: path), options: .atomic)
                            report.output = path
                        } catch {
                            report.fail(WebImageError(.diskIO, "cannot write \(path): \(error.localizedDescription)"))
                        }
                    }
                case .failure(let error):
                    report.fail(error)
                    report.status = error.statusCode
                }
                run.finish(report)
                slots.signal()
            }
        }
        // Every slot back means every download has finished; a semaphore must be back at its start value when
        // it is freed.
        for _ in 0..<concurrency { slots.wait() }
        for _ in 0..<concurrency { slots.signal() }
        let summary = run.summary(seconds: Self.seconds(clock.now - started))
        if output.json {
            print(summary.json)
        } else {
            printError(summary.text)
        }
        if summary.failed > 0 { throw ExitCode(1) }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The URLs of a list file.
    static func readList(_ path: String) throws -> [String] {
        let text = String(decoding: try readFile(path), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
