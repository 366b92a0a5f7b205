import ArgumentParser
import Foundation
import WebImage

/// Fuzzes the `webimage` tool's `--transform` parser (`TransformArgument`, compiled into this module from the
/// tool's own source file), then the transformers it makes.
///
/// A chain that does not parse must be refused with a message; one that parses must have one step per
/// comma-separated part, a key that is SDWebImage's for the chain (a pipeline's: its steps' keys joined with
/// `-`), and results of the documented sizes on a small two-frame image (``TransformerHarness/apply(_:to:)``).
enum TransformChainHarness {
    static var target: FuzzTarget {
        FuzzTarget(
            name: "transform-chain",
            summary: "The webimage tool's --transform parser, and the transformers it makes",
            maxLength: 512,
            run: run
        )
    }

    /// A 13 x 9 image of two frames with alpha, at scale 1.
    static let sample: Image = {
        let frames = (0..<2).map { index in
            let pixels: PixelBuffer
            do {
                pixels = try PixelBuffer(width: 13, height: 9) { bytes in
                    for offset in bytes.indices {
                        bytes[offset] = UInt8(truncatingIfNeeded: offset &* 37 &+ index &* 101)
                    }
                }
            } catch {
                fatalError("cannot allocate the sample image: \(error)")
            }
            return ImageFrame(pixels: pixels, duration: 0.1)
        }
        return Image(frames: frames, loopCount: 0, format: .png, hasAlpha: true)
    }()

    static func run(_ data: Data) {
        let chain = String(decoding: data, as: UTF8.self)
        let argument: TransformArgument
        do {
            argument = try TransformArgument(chain: chain)
        } catch {
            fuzzCheck(!error.message.isEmpty, "the chain '\(chain)' was refused without a message")
            return
        }
        let parts = chain.split(separator: ",", omittingEmptySubsequences: false)
        fuzzCheck(
            argument.steps.count == parts.count,
            "'\(chain)' has \(parts.count) steps, parsed as \(argument.steps.count)"
        )
        let key = argument.transformer.transformerKey
        if argument.steps.count > 1 {
            let joined = argument.steps.map(\.transformerKey).joined(separator: "-")
            fuzzCheck(key == joined, "the chain's key is '\(key)', its steps' keys joined are '\(joined)'")
        }
        TransformerHarness.apply(argument.transformer, to: sample)
    }
}
