import ArgumentParser
import Foundation
import WebImage
import WebImageCore

/// `webimage prefetch -i FILE`: warms a cache with an image prefetcher.
struct PrefetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Warm the cache with a list of URLs: how many were loaded, how many skipped, and the time.",
        discussion: """
            URLs come from the arguments and from -i FILE (one per line; blank lines and lines starting with # \
            are skipped). By default each image is loaded, decoded and stored in the cache; with --disk-only the \
            bytes are stored on disk undecoded, and URLs already on disk are not requested. On a terminal a \
            progress bar is drawn on standard error. Exits with 1 when any URL was skipped.
            """
    )

    @Argument(help: "URLs to prefetch.")
    var urls: [String] = []

    @Option(name: .customShort("i"), help: "A file of URLs, one per line.")
    var input: String?

    @Flag(name: .customLong("disk-only"), help: "Store the bytes on disk without decoding them.")
    var diskOnly = false

    @OptionGroup var manager: ManagerOptions

    @Option(help: "Load options, comma-separated: \(ImageOptionsArgument.names.keys.sorted().joined(separator: ", ")).")
    var options: ImageOptionsArgument?

    @OptionGroup var output: OutputOptions

    func run() throws {
        let strings = try ManagerOptions.urlList(urls, file: input)
        let list = strings.compactMap { URL(string: $0) }
        guard list.count == strings.count else {
            throw ValidationError("not a URL: \(CredentialRedaction.redacting(strings.first { URL(string: $0) == nil } ?? ""))")
        }
        let (manager, downloader, drain) = self.manager.makeManager()
        defer {
            drain()
            downloader.invalidate()
        }
        let prefetcher = ImagePrefetcher(manager: manager)
        prefetcher.maxConcurrentPrefetchCount = self.manager.concurrency

        var context = ImageContext()
        context.callbackQueue = .global
        let showsProgress = !output.json && isatty(STDERR_FILENO) == 1
        let counts = Locked<(finished: Int, skipped: Int)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let clock = ContinuousClock()
        let started = clock.now
        prefetcher.prefetch(
            urls: list,
            options: (options?.options ?? []).union([.lowPriority, .waitStoreCache]),
            context: context,
            destination: diskOnly ? .diskOnly : .cache,
            progress: { finished, total in
                guard showsProgress else { return }
                let filled = 30 * finished / max(total, 1)
                let bar = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] \(finished)/\(total)"
                FileHandle.standardError.write(Data("\r\u{1b}[K\(bar)".utf8))
            },
            completion: { finished, skipped in
                counts.withLock { $0 = (finished, skipped) }
                done.signal()
            }
        )
        done.wait()
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
        let seconds = FetchCommand.seconds(clock.now - started)
        let (finished, skipped) = counts.withLock { $0 } ?? (0, 0)
        if output.json {
            print("{\"summary\":{\"diskOnly\":\(diskOnly),\"finished\":\(finished),\"seconds\":\(String(format: "%.3f", seconds)),\"skipped\":\(skipped),\"total\":\(list.count)}}")
        } else {
            printError("\(finished - skipped) of \(list.count) prefetched, \(skipped) skipped, in \(String(format: "%.2f", seconds)) s")
        }
        if skipped > 0 { throw ExitCode(1) }
    }
}
