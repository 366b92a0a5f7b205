import WebImageCore

/// The compositing state of one GIF whose data is arriving: the canvas after the last complete frame, where the
/// records of the next frame start, and the frames completed so far.
///
/// Each call first finds the frames whose data has fully arrived: giflib reads each frame's records up to its
/// image descriptor, then the image data's sub-blocks are followed, without decoding them, from where the last
/// call stopped, so the bytes of a large frame are walked once however many updates it takes to arrive. Then
/// only the complete frames are decoded, onto the kept canvas, as ``GIFAnimationDecoder`` does (same renderer,
/// snapshots and disposal). A frame is never decoded twice, and a frame cut short is never drawn.
///
/// Not thread-safe: one call at a time, which its owner guarantees.
final class GIFIncrementalSession: @unchecked Sendable {
    // Sendable because it is only ever used by one thread at a time: ``PhasedIncrementalDecoder`` takes it out of
    // its locked state for the length of one update, and reads ``image`` only between updates; its callers never
    // overlap calls (``IncrementalImageDecoding``'s contract). It may move between threads between calls.

    private let options: ImageDecodeOptions
    private let canvas: AnimationCanvas
    /// The frames completed so far, counted as the one-shot decode's scan counts them (alpha, frame areas).
    private var structure: GIFStructure
    private var frames: [ImageFrame] = []
    /// The size ``frames`` have.
    private var frameSize: PixelSize
    /// The offset of the first record of the next frame.
    private var nextRecord: Int
    /// The next frame, whose records have been read but whose image data has not all arrived, and the offset
    /// of its next image data sub-block.
    private var pending: (info: GIFFrameInfo, nextBlock: Int)?
    /// The NETSCAPE2.0 loop count, once its extension has been read.
    private var loopCount: Int?
    /// Whether the trailer has been read, or the only frame wanted is complete: nothing more to decode.
    private var isComplete = false
    /// The frames completed so far as a partial image: still with one frame, animated with more; nil before
    /// the first frame is complete.
    private(set) var image: Image?

    /// Starts on a GIF whose logical screen is `canvasSize` and whose header (up to the global colour table)
    /// is `headerLength` bytes.
    ///
    /// - Throws: `imageTooLarge` when the canvas cannot be allocated.
    init(canvasSize: PixelSize, headerLength: Int, options: ImageDecodeOptions) throws(WebImageError) {
        self.options = options
        canvas = try AnimationCanvas(size: canvasSize)
        structure = GIFStructure(canvasSize: canvasSize, headerLength: headerLength)
        frameSize = canvasSize
        nextRecord = headerLength
    }

    /// Decodes the frames of `bytes` (the file so far) whose data has arrived since the last call.
    ///
    /// - Throws: `badImageData` for malformed data; `imageTooLarge` when the frames so far are over the limits
    ///   of ``ImageDecodeOptions`` (frame count, pixels, a frame larger than the canvas, the decode memory budget
    ///   for the session beside the one-shot decode).
    func advance(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        // Nothing new (or, against the contract, less data than before: never read a frame twice).
        guard !isComplete, bytes.count > nextRecord else { return }
        let complete = try completeFrames(in: bytes)
        guard !complete.isEmpty else { return }

        var grown = structure
        for frame in complete {
            grown.add(frame.info, keeping: grown.frameCount == 0)
        }
        try grown.checkFrameAreas(options)
        let size = try partialFrameSize(frameCount: grown.frameCount)
        try options.checkDecodeMemory(Self.memory(grown, frameSize: size), format: .gif)
        try resize(to: size)
        try decode(complete, in: bytes)
        if options.firstFrameOnly { isComplete = true }
        image = makeImage()
    }

    /// The frames after the last complete one whose records and image data lie wholly in `bytes`, with the
    /// offset just past each; reads the trailer too.
    private func completeFrames(in bytes: UnsafeRawBufferPointer) throws(WebImageError) -> [(info: GIFFrameInfo, end: Int)] {
        // One frame past what the limits allow is enough to refuse the file, however many have arrived.
        var wanted = options.firstFrameOnly ? 1 : Int.max
        if options.maxFrameCount > 0 { wanted = min(wanted, options.maxFrameCount + 1 - structure.frameCount) }
        if options.maxPixelCount > 0 {
            wanted = min(wanted, options.maxPixelCount / GIFStructure.minimumFrameCost + 1 - structure.frameCount)
        }
        var found: [(info: GIFFrameInfo, end: Int)] = []
        while !isComplete, found.count < wanted {
            if pending == nil {
                let offset = found.last?.end ?? nextRecord
                let index = structure.frameCount + found.count
                guard let frame = try readRecords(at: offset, frameIndex: index, in: bytes) else { break }
                pending = frame
            }
            guard let end = walkImageData(in: bytes) else { break }
            found.append((pending!.info, end))
            pending = nil
        }
        return found
    }

    /// Reads with giflib the records of the frame that starts at `offset`, up to its image data; nil when the
    /// data ends first, or at the trailer (which completes the file).
    private func readRecords(
        at offset: Int,
        frameIndex: Int,
        in bytes: UnsafeRawBufferPointer
    ) throws(WebImageError) -> (info: GIFFrameInfo, nextBlock: Int)? {
        let resume = GIFRecordReader.ResumePoint(
            headerLength: structure.headerLength,
            recordOffset: offset,
            frameIndex: frameIndex
        )
        return try GIFRecordReader.read(bytes, resumingAt: resume) { reader throws(WebImageError) in
            defer { if let count = reader.loopCount { loopCount = count } }
            do throws(WebImageError) {
                guard let frame = try reader.nextFrame() else {
                    // The trailer: no frame follows.
                    isComplete = true
                    return nil
                }
                // giflib has read the image descriptor, the local colour table and the LZW code size: the image
                // data's sub-blocks come next.
                return (frame, reader.position)
            } catch {
                // giflib ran out of data inside the records: they have not all arrived.
                guard reader.position >= bytes.count else { throw error }
                return nil
            }
        }
    }

    /// Follows the image data sub-blocks of ``pending`` from where the last call stopped; the offset just past
    /// their terminator, or nil when it has not arrived yet. The data is not decoded.
    private func walkImageData(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard var offset = pending?.nextBlock else { return nil }
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 { return offset + 1 }
            offset += 1 + length
        }
        pending?.nextBlock = offset
        return nil
    }

    /// Decodes `complete`, the frames from ``nextRecord`` on, onto the canvas and keeps a snapshot of each.
    private func decode(_ complete: [(info: GIFFrameInfo, end: Int)], in bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        let resume = structure.resumePoint(at: nextRecord)
        try GIFFrameRenderer.withRenderer(canvasWidth: canvas.size.width) { renderer throws(WebImageError) in
            try GIFRecordReader.read(bytes, resumingAt: resume) { reader throws(WebImageError) in
                for expected in complete {
                    guard let frame = try reader.nextFrame() else {
                        throw .badImageData(.gif, "frame \(frames.count) is missing")
                    }
                    structure.add(frame, keeping: structure.frameCount == 0)
                    try renderer.draw(frame, from: &reader, onto: canvas)
                    let pixels = try canvas.snapshot(size: frameSize, hasAlpha: structure.hasAlpha)
                    frames.append(ImageFrame(pixels: pixels, duration: frame.duration))
                    canvas.dispose(frame.rect, frame.control.disposal)
                    nextRecord = expected.end
                }
            }
        }
    }

    /// The size frames are kept at once there are `frameCount`, after checking the limits for that many, as
    /// ``ImageDecodeOptions/targetSize(for:frameCount:format:)`` and the one-shot decode's scan check them.
    ///
    /// Without a scale-down limit that is the one-shot decode's size. With one, the size shrinks as frames come
    /// and the file's frame count is unknown until it ends: frames are sized for the next power of two of the
    /// count, so kept frames are resampled at most log2(n) times.
    private func partialFrameSize(frameCount: Int) throws(WebImageError) -> PixelSize {
        let canvasSize = canvas.size
        let target = try options.targetSize(for: canvasSize, frameCount: frameCount, format: .gif)
        if options.maxPixelCount > 0, !options.firstFrameOnly {
            let (cost, overflow) = frameCount.multipliedReportingOverflow(by: GIFStructure.minimumFrameCost)
            if overflow || cost > options.maxPixelCount {
                throw WebImageError(
                    .imageTooLarge,
                    "GIF: \(frameCount) frames of at least \(GIFStructure.minimumFrameCost) pixels each are over the "
                        + "limit of \(options.maxPixelCount) pixels"
                )
            }
        }
        guard options.scaleDownLimitBytes != nil, !options.firstFrameOnly, frameCount > 1 else { return target }
        var sizing = options
        sizing.maxPixelCount = 0
        sizing.maxFrameCount = 0
        let rounded = 1 << (Int.bitWidth - (frameCount - 1).leadingZeroBitCount)
        return (try? sizing.targetSize(for: canvasSize, frameCount: rounded, format: .gif)) ?? target
    }

    /// Resamples the kept frames to `size` when it differs from theirs (frames that share a buffer still do).
    private func resize(to size: PixelSize) throws(WebImageError) {
        guard size != frameSize else { return }
        frameSize = size
        var resized: [ObjectIdentifier: PixelBuffer] = [:]
        var result: [ImageFrame] = []
        result.reserveCapacity(frames.count)
        for frame in frames {
            let key = ObjectIdentifier(frame.pixels)
            if let pixels = resized[key] {
                result.append(ImageFrame(pixels: pixels, duration: frame.duration))
                continue
            }
            let pixels = try frame.pixels.resampled(to: size, hasAlpha: structure.hasAlpha)
            resized[key] = pixels
            result.append(ImageFrame(pixels: pixels, duration: frame.duration))
        }
        frames = result
    }

    /// What a session with the frames of `structure` at `frameSize` holds, with the one-shot decode of the same
    /// frames that runs beside it once the data is finished: the canvas (and its copy for frames disposed to the
    /// previous canvas) and the frames, twice.
    static func memory(_ structure: GIFStructure, frameSize: PixelSize) -> DecodeMemoryEstimate {
        let frames = max(1, structure.frameCount)
        let decode = GIFMemoryEstimate.animation(structure, target: frameSize, keptFrames: frames)
        var memory = DecodeMemoryEstimate()
        for part in decode.parts { memory.add("partial images' \(part.name)", bytes: part.bytes) }
        memory.add(decode)
        return memory
    }

    /// The frames so far as a partial image.
    private func makeImage() -> Image? {
        guard let first = frames.first else { return nil }
        if frames.count == 1 {
            return Image(
                pixels: first.pixels,
                scale: options.effectiveScale,
                format: .gif,
                hasAlpha: structure.hasAlpha,
                isIncremental: true
            )
        }
        return Image(
            frames: frames,
            loopCount: loopCount ?? 1,
            scale: options.effectiveScale,
            format: .gif,
            hasAlpha: structure.hasAlpha,
            isIncremental: true
        )
    }
}

extension GIFStructure {
    /// Where decoding resumes to read the frame whose records start at `recordOffset`, the next one counted.
    fileprivate func resumePoint(at recordOffset: Int) -> GIFRecordReader.ResumePoint {
        GIFRecordReader.ResumePoint(headerLength: headerLength, recordOffset: recordOffset, frameIndex: frameCount)
    }
}
