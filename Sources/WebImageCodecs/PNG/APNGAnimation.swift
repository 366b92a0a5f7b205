/// The structure of an APNG file: canvas, frames, loop count, and the chunks every frame shares, read from
/// the chunks in Swift without decoding any pixels.
///
/// The parse follows the APNG specification: `acTL` before the first `IDAT` makes a file animated; an `fcTL`
/// before the `IDAT` makes the default image frame 0, otherwise the default image is not part of the
/// animation and the frames come from `fdAT` chunks only. `fcTL` and `fdAT` carry one sequence of numbers from
/// 0 without gaps. Every chunk used is checked: lengths, CRCs, sequence numbers, frame rectangles.
struct APNGAnimation: Sendable {
    /// The file's header; its size is the canvas size.
    let header: PNGHeader
    /// The frames, in order; at least one.
    let frames: [APNGFrame]
    /// How many times the animation plays; 0 means forever.
    let loopCount: Int
    /// Whole chunks before the first `IDAT` that describe colour (`PLTE`, `tRNS`, `gAMA`, `cHRM`, `sRGB`,
    /// `iCCP`, `sBIT`), copied into each frame's standalone PNG.
    let sharedChunks: [Range<Int>]
    /// Whether the file's colour type has alpha or it has a transparent colour (`tRNS`).
    let hasAlphaInFile: Bool

    /// The canvas size.
    var canvasSize: PixelSize { header.size }

    /// Whether the default image is frame 0.
    var defaultImageIsFirstFrame: Bool { frames[0].isDefaultImage }

    /// Whether frames may show transparent pixels: the file has alpha, or some frame does not cover the whole
    /// canvas, or a frame's region is cleared or restored after it was shown.
    var mayBeTransparent: Bool {
        hasAlphaInFile || frames.contains { frame in
            frame.size != canvasSize || frame.disposal != .none
        }
    }

    /// What `acTL` says.
    struct AnimationControl: Sendable, Hashable {
        var frameCount: Int
        var loopCount: Int
    }

    /// Reads an `acTL` chunk.
    static func readAnimationControl(_ chunk: PNGChunk, in bytes: UnsafeRawBufferPointer) throws(WebImageError) -> AnimationControl {
        guard chunk.data.count == 8 else {
            throw .badImageData(.png, "the acTL chunk has \(chunk.data.count) bytes instead of 8")
        }
        try chunk.checkCRC(in: bytes)
        let frames = bytes.bigEndianUInt32(at: chunk.data.lowerBound)
        let plays = bytes.bigEndianUInt32(at: chunk.data.lowerBound + 4)
        guard frames > 0, frames <= 0x7FFF_FFFF, plays <= 0x7FFF_FFFF else {
            throw .badImageData(.png, "the acTL chunk declares \(frames) frames and \(plays) plays")
        }
        return AnimationControl(frameCount: Int(frames), loopCount: Int(plays))
    }

    /// Reads the animation of the PNG file in `bytes`, or returns nil when it is not animated (no `acTL` before
    /// the first `IDAT`).
    ///
    /// - Throws: `badImageData` for a damaged animation: a chunk that breaks the sequence, a frame outside the
    ///   canvas, a frame without data, a frame count that differs from `acTL`'s, a missing `IEND`.
    init?(parsing bytes: UnsafeRawBufferPointer, header: PNGHeader) throws(WebImageError) {
        var reader = PNGChunkReader(bytes)
        _ = try reader.next()   // IHDR, read by the header.
        let canvas = header.size

        var control: AnimationControl?
        var shared: [Range<Int>] = []
        var hasTransparentColor = false
        var frames: [APNGFrame] = []
        var pending: APNGFrame?          // the frame whose data chunks are being collected
        var nextSequence: UInt32 = 0
        var seenImageData = false
        var ended = false

        func checkSequence(_ chunk: PNGChunk) throws(WebImageError) {
            guard chunk.data.count >= 4 else {
                throw .badImageData(.png, "an \(chunk.name) chunk is too short for its sequence number")
            }
            let sequence = bytes.bigEndianUInt32(at: chunk.data.lowerBound)
            guard sequence == nextSequence else {
                throw .badImageData(.png, "an \(chunk.name) chunk has sequence number \(sequence) where \(nextSequence) was due")
            }
            nextSequence &+= 1
        }

        func finish(_ frame: APNGFrame?) throws(WebImageError) {
            guard let frame else { return }
            guard !frame.dataRanges.isEmpty else {
                throw .badImageData(.png, "APNG frame \(frames.count) has no image data")
            }
            frames.append(frame)
        }

        while let chunk = try reader.next() {
            switch chunk.type {
            case PNGChunk.iend:
                ended = true
            case PNGChunk.idat:
                guard control != nil else { return nil }   // a still PNG: nothing more to learn here
                if let frame = pending {
                    // Only the default image's frame collects IDAT data; IDAT after a later fcTL is misplaced.
                    guard frame.isDefaultImage else {
                        throw .badImageData(.png, "an IDAT chunk follows the frame control of a later frame")
                    }
                    pending?.dataRanges.append(chunk.data)
                }
                seenImageData = true
            case PNGChunk.actl where !seenImageData:
                guard control == nil else { throw .badImageData(.png, "the file has more than one acTL chunk") }
                control = try APNGAnimation.readAnimationControl(chunk, in: bytes)
            case PNGChunk.fctl where control != nil:
                try chunk.checkCRC(in: bytes)
                try checkSequence(chunk)
                try finish(pending)
                var frame = try APNGFrame(control: chunk, in: bytes, canvas: canvas)
                if !seenImageData {
                    guard frames.isEmpty, frame.size == canvas, frame.x == 0, frame.y == 0 else {
                        throw .badImageData(.png, "the frame of the default image does not cover the canvas")
                    }
                    frame.isDefaultImage = true
                }
                pending = frame
            case PNGChunk.fdat where control != nil:
                try chunk.checkCRC(in: bytes)
                try checkSequence(chunk)
                guard seenImageData, pending != nil, pending?.isDefaultImage == false else {
                    throw .badImageData(.png, "an fdAT chunk does not follow a frame control")
                }
                pending?.dataRanges.append((chunk.data.lowerBound + 4)..<chunk.data.upperBound)
            case PNGChunk.plte, PNGChunk.trns, PNGChunk.gama, PNGChunk.chrm, PNGChunk.srgb, PNGChunk.iccp, PNGChunk.sbit:
                if !seenImageData {
                    shared.append(chunk.whole)
                    if chunk.type == PNGChunk.trns { hasTransparentColor = true }
                }
            default:
                break
            }
            if ended { break }
        }

        guard let control else { return nil }
        guard ended else { throw .badImageData(.png, "the data ends before the IEND chunk") }
        guard seenImageData else { throw .badImageData(.png, "the file has no IDAT chunk") }
        try finish(pending)
        guard !frames.isEmpty else { throw .badImageData(.png, "the animation has no frames") }
        guard frames.count == control.frameCount else {
            throw .badImageData(.png, "the acTL chunk declares \(control.frameCount) frames but the file has \(frames.count)")
        }
        self.header = header
        self.frames = frames
        self.loopCount = control.loopCount
        self.sharedChunks = shared
        self.hasAlphaInFile = header.hasAlphaChannel || hasTransparentColor
    }
}
