#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the coder needs from a JPEG's marker structure, found by walking its segments without decoding: the
/// EXIF block, whether an Adobe APP14 segment is present, the frame header and the first scan's components (for
/// the memory libjpeg will take), and whether the data reaches the end-of-image marker.
///
/// The walk follows libjpeg's reading: segments are skipped by their length; bytes where a marker should be are
/// skipped up to the next `FF`; after a start-of-scan segment, the entropy-coded data runs to the first `FF`
/// that is followed by neither a stuffed `00`, a fill `FF` nor a restart marker. Every read is bounded by the
/// data and every step moves forward, so the walk ends after at most one pass over the bytes.
struct JPEGMarkerScan {
    /// How far the walk goes.
    enum Extent {
        /// Up to the first start-of-scan segment: enough for the EXIF block and the Adobe segment.
        case header
        /// To the end-of-image marker, through every scan: also tells whether the file is complete.
        case wholeImage
    }

    /// The TIFF structure of the first APP1 `Exif\0\0` segment (the bytes after those six), as offsets into the data.
    private(set) var exif: Range<Int>?
    /// Whether an APP14 segment starting with `Adobe` is present; CMYK values are then stored inverted.
    private(set) var hasAdobeSegment = false
    /// Whether the walk met the end-of-image marker (only looked for with ``Extent/wholeImage``).
    private(set) var reachesEndOfImage = false
    /// Whether the frame header is progressive (SOF2, SOF6, SOF10, SOF14).
    private(set) var isProgressive = false
    /// The start-of-scan segments met (all of them only with ``Extent/wholeImage``).
    private(set) var scanCount = 0
    /// The first start-of-frame segment, when it was whole.
    private(set) var frame: JPEGFrameHeader?
    /// The number of components in the first scan.
    private(set) var firstScanComponentCount: Int?

    /// Whether libjpeg will keep the coefficients of the whole image while decoding, by its own rule
    /// (`has_multiple_scans`): the file is progressive, or its first scan does not hold every component. It then
    /// allocates 2 bytes per stored sample at the start, whatever the DCT scaling (see ``JPEGFrameHeader``), so
    /// the stored size is what the pixel limit must allow.
    var needsWholeImageCoefficients: Bool {
        if isProgressive { return true }
        guard let frame, let firstScanComponentCount else { return scanCount > 1 }
        return firstScanComponentCount < frame.components.count
    }

    /// The frame header, or one that assumes the most memory for the size TurboJPEG read when the segment was not
    /// read (`componentCount` components at full resolution).
    func frameHeader(size: PixelSize, componentCount: Int) -> JPEGFrameHeader {
        frame ?? JPEGFrameHeader(size: size, componentCount: componentCount, isProgressive: isProgressive)
    }

    /// When `bytes` are the first bytes of longer data: how many bytes from the start the walk needs to go on,
    /// where it stopped because they ended (nil when the walk was decided within them).
    private(set) var bytesNeeded: Int?

    /// Walks the segments of `bytes`.
    ///
    /// - Parameter totalByteCount: The length of the data when `bytes` holds only its first bytes: where the
    ///   walk would run past them, it stops and says how many it needs (``bytesNeeded``) instead of finding the
    ///   data truncated. Nil when `bytes` is all the data.
    /// - Throws: `badImageData` when the data does not start with a start-of-image marker, when a segment
    ///   declares a length below 2, or when the data ends inside a segment.
    init(_ bytes: UnsafeRawBufferPointer, extent: Extent, totalByteCount: Int? = nil) throws(WebImageError) {
        let n = bytes.count
        let total = max(n, totalByteCount ?? n)
        // Whether the data goes on to `end`, past the bytes held.
        func continues(to end: Int) -> Bool { end > n && end <= total }
        if n < 2, continues(to: 2) {
            bytesNeeded = 2
            return
        }
        guard n >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw .badImageData(.jpeg, "the data does not start with a start-of-image marker")
        }
        var i = 2
        while i < n {
            guard bytes[i] == 0xFF else {
                // Stray bytes between segments: libjpeg warns and looks for the next marker.
                i = JPEGMarkerScan.nextFF(in: bytes, from: i)
                continue
            }
            // Any number of FF fill bytes may precede the marker code.
            while i + 1 < n, bytes[i + 1] == 0xFF { i += 1 }
            guard i + 1 < n else {
                if continues(to: i + 2) { bytesNeeded = i + 2 }
                return
            }
            let marker = bytes[i + 1]
            i += 2
            switch marker {
            case 0xD9:
                reachesEndOfImage = true
                return
            case 0x00, 0x01, 0xD0...0xD7:
                continue    // no length: TEM, restart markers, a stray stuffed zero
            default:
                break
            }
            guard i + 2 <= n else {
                if continues(to: i + 2) {
                    bytesNeeded = i + 2
                    return
                }
                throw .badImageData(.jpeg, "the data ends inside the marker segment FF \(marker.hexDigits(uppercase: true)) (truncated)")
            }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2 else {
                throw .badImageData(.jpeg, "the marker segment FF \(marker.hexDigits(uppercase: true)) has a length of \(length)")
            }
            let end = i + length
            guard end <= n else {
                if continues(to: end) {
                    bytesNeeded = end
                    return
                }
                throw .badImageData(.jpeg, "the data ends inside the marker segment FF \(marker.hexDigits(uppercase: true)) (truncated)")
            }
            let payload = (i + 2)..<end
            if marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE {
                isProgressive = true
            }
            if frame == nil, JPEGFrameHeader.isStartOfFrame(marker) {
                frame = JPEGFrameHeader(marker: marker, payload: UnsafeRawBufferPointer(rebasing: bytes[payload]))
            }
            if marker == 0xDA, firstScanComponentCount == nil, !payload.isEmpty {
                firstScanComponentCount = Int(bytes[payload.lowerBound])
            }
            if marker == 0xE1, exif == nil, JPEGMarkerScan.starts(bytes, payload, with: [0x45, 0x78, 0x69, 0x66, 0, 0]) {
                exif = (payload.lowerBound + 6)..<end
            } else if marker == 0xEE, JPEGMarkerScan.starts(bytes, payload, with: [0x41, 0x64, 0x6F, 0x62, 0x65]) {
                hasAdobeSegment = true
            }
            i = end
            if marker == 0xDA {
                scanCount += 1
                if extent == .header { return }
                i = JPEGMarkerScan.endOfEntropyCodedData(in: bytes, from: i)
            }
        }
        if continues(to: n + 1) { bytesNeeded = n + 1 }
    }

    /// The offset of the marker that ends the entropy-coded data starting at `start`, or the data's end.
    private static func endOfEntropyCodedData(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        let n = bytes.count
        while true {
            i = nextFF(in: bytes, from: i)
            guard i + 1 < n else { return n }
            switch bytes[i + 1] {
            case 0x00, 0xD0...0xD7:
                i += 2      // a stuffed FF inside the data, or a restart marker between intervals
            case 0xFF:
                i += 1      // fill byte
            default:
                return i
            }
        }
    }

    /// The offset of the next `FF` at or after `start`, or the data's end.
    private static func nextFF(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard start < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        guard let found = memchr(base + start, 0xFF, bytes.count - start) else { return bytes.count }
        return UnsafeRawPointer(found) - base
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, with prefix: [UInt8]) -> Bool {
        guard range.count >= prefix.count else { return false }
        for (k, byte) in prefix.enumerated() where bytes[range.lowerBound + k] != byte { return false }
        return true
    }
}

extension JPEGMarkerScan {
    /// The EXIF orientation, `up` when there is no readable one.
    func orientation(in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        guard let exif else { return .up }
        return JPEGExifOrientation.orientation(inTIFF: UnsafeRawBufferPointer(rebasing: bytes[exif])) ?? .up
    }
}
