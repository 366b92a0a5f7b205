import ArgumentParser
import Foundation
import WebImage

/// `webimage fetch URL...`: loads each URL through an image manager: from the memory cache, the disk cache or the
/// network, decoded, and stored in the disk cache.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load images through the cache: source (network, memory, disk), format, size and time per URL, then a summary.",
        discussion: """
            URLs come from the arguments and from -i FILE (one per line; blank lines and lines starting with # \
            are skipped). Each image is looked up in the cache first (--cache-dir, --namespace), loaded on a miss, \
            decoded, and stored; a second run over the same URLs is served from disk without a request. Lines are \
            printed as loads finish, each with where its image came from: network, memory or disk (in JSON, "source" \
            says none for the network, SDWebImage's name: SDImageCacheTypeNone, no cache). On a terminal \
            a progress bar is drawn on standard error. The command returns once every image is on disk; an image \
            that could not be stored (a full or read-only cache directory) is reported as a failure.

            With --transform the chain runs after the load (after the thumbnail decode with --thumbnail), on \
            animations too, and the result is cached under the key with the chain's SDWebImage transformer key \
            inserted; the original is stored under the URL's key, so another chain needs no request.

            With --data each URL's encoded bytes are loaded instead, as a server sends them: the original as it \
            came, or the thumbnail or transformed image encoded (at --quality, in --format) and stored under its \
            own key; "source" says where the bytes came from (memory: the encoded memory tier). --out writes them.
            """
    )

    @Argument(help: "URLs to load.")
    var urls: [String] = []

    @Option(name: .customShort("i"), help: "A file of URLs, one per line.")
    var input: String?

    @OptionGroup var manager: ManagerOptions

    @Option(help: PixelSizeArgument.help("Decode a thumbnail that fits a box instead of the full image"), transform: { try PixelSizeArgument(parsing: $0) })
    var thumbnail: PixelSizeArgument?

    @Option(help: TransformArgument.help, transform: { try TransformArgument(chain: $0) })
    var transform: TransformArgument?

    @Option(help: "Load options, comma-separated: \(ImageOptionsArgument.names.keys.sorted().joined(separator: ", ")).")
    var options: ImageOptionsArgument?

    @Option(help: "A directory to save each image in (its loaded bytes, or the thumbnail or transformed image encoded), named as the disk cache names it.")
    var out: String?

    @Flag(help: "Load each image's encoded bytes (the original's, or the variant's) instead of the decoded image.")
    var data = false

    @Option(help: "With --data: the format of the bytes (jpeg, png, webp, gif, jxl); default the image's own.")
    var format: String?

    @Option(help: "With --data: the lossy quality of a variant's encoding, 0 to 1; default the manager's, 0.85.")
    var quality: Double?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if !data, format != nil || quality != nil {
            throw ValidationError("--format and --quality go with --data")
        }
        if let format, ImageFormat(name: format) == nil {
            throw ValidationError("--format '\(format)' is not an image format")
        }
        if let quality, !(0...1).contains(quality) {
            throw ValidationError("--quality \(quality) is not between 0 and 1")
        }
    }

    func run() throws {
        let list = try ManagerOptions.urlList(urls, file: input)
        if let out { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }
        let (manager, downloader, drain) = self.manager.makeManager()
        defer {
            drain()
            downloader.invalidate()
        }

        var context = ImageContext()
        context.callbackQueue = .global
        context.thumbnailPixelSize = thumbnail?.size
        context.imageTransformer = transform?.transformer
        context.encodedFormat = format.flatMap(ImageFormat.init(name:))
        context.encodeOptions = quality.map { ImageEncodeOptions(quality: $0) }
        // Returned only once every image is stored, so that the next run finds it on disk. A chain asked for on
        // the command line runs on animations too.
        var loadOptions = (options?.options ?? []).union(.waitStoreCache)
        if transform != nil { loadOptions.insert(.transformAnimatedImage) }
        let concurrency = self.manager.concurrency
        let run = FetchRun(total: list.count, json: output.json, showsProgress: !output.json && isatty(STDERR_FILENO) == 1)
        let clock = ContinuousClock()
        let started = clock.now
        let slots = DispatchSemaphore(value: concurrency)
        for string in list {
            slots.wait()
            let begin = clock.now
            // Lines and JSON name the URL with its password masked.
            let name = CredentialRedaction.redacting(string)
            guard let url = URL(string: string), url.scheme != nil else {
                var report = Report(file: name)
                report.fail(WebImageError(.invalidURL, "not a URL: \(string)"))
                run.finish(report)
                slots.signal()
                continue
            }
            if data {
                manager.loadImageData(url: url, options: loadOptions, context: context) { [out] result in
                    run.finish(Self.report(result, name: name, milliseconds: Self.seconds(clock.now - begin) * 1000, out: out))
                    slots.signal()
                }
                continue
            }
            let key = manager.cacheKey(for: url, context: context)
            manager.loadImage(url: url, options: loadOptions, context: context) { [out] result in
                if case .success(let loaded) = result, !loaded.isFinal { return }
                var report = Report(file: name)
                report.ms = Self.seconds(clock.now - begin) * 1000
                switch result {
                case .success(let loaded):
                    report.ok = true
                    report.describe(loaded.image)
                    report.source = loaded.cacheType.description
                    report.bytes = loaded.data?.count
                    if let out { Self.save(loaded, key: key, in: out, report: &report) }
                    // The command promises that what it loaded is on disk: an image it could not store fails.
                    if let storeError = loaded.storeError {
                        report.fail(WebImageError(storeError.code, "loaded, but not stored in the cache: \(storeError.message)"))
                    }
                case .failure(let error):
                    report.fail(error)
                    report.status = error.statusCode
                }
                run.finish(report)
                slots.signal()
            }
        }
        // Every slot back means every load has finished; a semaphore must be back at its start value when
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

    /// The report of a `--data` load, with its bytes written in `out` (named as the disk cache names the variant's
    /// key) when given.
    private static func report(_ result: Result<ImageDataResult, WebImageError>, name: String, milliseconds: Double, out: String?) -> Report {
        var report = Report(file: name)
        report.ms = milliseconds
        switch result {
        case .success(let loaded):
            report.ok = true
            report.format = loaded.format.name
            report.width = loaded.pixelSize.width
            report.height = loaded.pixelSize.height
            report.source = loaded.cacheType.description
            report.bytes = loaded.data.count
            if let out {
                let path = (out as NSString).appendingPathComponent(DiskCache.fileName(forKey: loaded.key))
                do {
                    try loaded.data.write(to: URL(fileURLWithPath: path), options: .atomic)
                    report.output = path
                } catch {
                    report.fail(WebImageError(.diskIO, "cannot write \(path): \(error)"))
                }
            }
            if let storeError = loaded.storeError {
                report.fail(WebImageError(storeError.code, "loaded, but not stored in the cache: \(storeError.message)"))
            }
        case .failure(let error):
            report.fail(error)
            report.status = error.statusCode
        }
        return report
    }

    /// Writes the loaded bytes, or the image encoded when it has none of its own (a thumbnail, a transformed
    /// image), in the file the disk cache would name for `key`.
    private static func save(_ loaded: ImageLoadResult, key: String, in directory: String, report: inout Report) {
        let path = (directory as NSString).appendingPathComponent(DiskCache.fileName(forKey: key))
        do {
            let data = try loaded.data ?? ImageCoderRegistry.shared.encode(loaded.image)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            report.output = path
        } catch {
            report.fail(WebImageError(.diskIO, "cannot write \(path): \(error)"))
        }
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
