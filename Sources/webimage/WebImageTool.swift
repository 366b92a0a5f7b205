import ArgumentParser

/// `webimage`: decode, inspect, thumbnail and convert images with the library's coders.
@main
struct WebImageTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Inspect, decode, thumbnail and convert images (JPEG, PNG, WebP, GIF).",
        discussion: """
            Every command takes --json to print one JSON object per input: ok, format, width, height, frames, ms,
            and on failure error.code and error.message. The exit status is 0 when every input succeeded, 1 otherwise.
            Bytes that no coder recognises fail with unsupportedFormat, from a file or a download alike; \
            malformed bytes of a known format fail with badImageData.
            """,
        subcommands: [
            InfoCommand.self, DecodeCommand.self, ThumbCommand.self, ConvertCommand.self, DemoCommand.self, CacheCommand.self,
            FetchCommand.self, PrefetchCommand.self,
            FramesCommand.self,
        ]
    )
}

/// Options every command shares.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON object per input instead of text.")
    var json = false
}
