/// How stored pixels must be turned to appear upright, as the EXIF `Orientation` tag (values 1 to 8) says.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: turned half a turn.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// 6: must be turned a quarter turn clockwise to be upright.
    case right = 6
    /// 7: mirrored along the top-right to bottom-left diagonal (transversed).
    case rightMirrored = 7
    /// 8: must be turned a quarter turn anticlockwise to be upright.
    case left = 8

    /// The orientation for an EXIF value; values outside 1...8 mean `up`, as readers do in practice.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }

    /// Whether making the pixels upright exchanges width and height (orientations 5 to 8).
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// The upright size of stored pixels of `size`.
    public func uprightSize(of size: PixelSize) -> PixelSize {
        swapsWidthAndHeight ? size.transposed : size
    }

    public var description: String {
        switch self {
        case .up: "up"
        case .upMirrored: "up-mirrored"
        case .down: "down"
        case .downMirrored: "down-mirrored"
        case .leftMirrored: "left-mirrored"
        case .right: "right"
        case .rightMirrored: "right-mirrored"
        case .left: "left"
        }
    }
}
