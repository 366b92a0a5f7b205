import Foundation

/// One libFuzzer target: a name, the function libFuzzer calls with each generated input, and the input length
/// that suits it.
///
/// The function must return normally for every input it is given; a crash, a failed ``FuzzCheck``, a memory
/// error, a leak or a hang is a finding. Errors the library throws for bad input are the expected outcome.
public struct FuzzTarget: Sendable {
    /// The name on the command line, and the folder of the seed corpus (`Corpus/<name>/`).
    public let name: String
    /// One line for `--list`.
    public let summary: String
    /// The longest input worth generating (libFuzzer's `-max_len`).
    public let maxLength: Int
    /// libFuzzer flags the target needs (`-name=value`), each used unless the command line sets the same flag.
    public let flags: [String]
    /// Runs one input.
    public let run: @Sendable (Data) -> Void

    public init(name: String, summary: String, maxLength: Int, flags: [String] = [], run: @escaping @Sendable (Data) -> Void) {
        self.name = name
        self.summary = summary
        self.maxLength = maxLength
        self.flags = flags
        self.run = run
    }
}
