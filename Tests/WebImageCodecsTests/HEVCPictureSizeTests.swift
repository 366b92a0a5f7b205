import Testing
@testable import WebImageCodecs
import WebImageTestSupport

/// The picture size of HEVC sequence parameter sets, from the fixtures' and from parameter sets written bit by
/// bit.
@Suite("HEVC picture size")
struct HEVCPictureSizeTests {
    /// Writes bits most significant first, and Exp-Golomb codes.
    struct BitWriter {
        var bits: [Bool] = []

        mutating func write(_ value: UInt64, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> UInt64(i) & 1 == 1) }
        }

        mutating func expGolomb(_ value: UInt64) {
            let coded = value + 1
            let length = 64 - coded.leadingZeroBitCount
            write(0, length - 1)
            write(coded, length)
        }

        /// The bytes, padded with a stop bit, with emulation prevention bytes where three would start a code.
        func nalUnit(header: [UInt8]) -> [UInt8] {
            var padded = bits + [true]
            while padded.count % 8 != 0 { padded.append(false) }
            var payload: [UInt8] = []
            for i in stride(from: 0, to: padded.count, by: 8) {
                payload.append(padded[i..<(i + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
            }
            var escaped: [UInt8] = []
            var zeros = 0
            for byte in payload {
                if zeros >= 2, byte <= 3 {
                    escaped.append(3)
                    zeros = 0
                }
                escaped.append(byte)
                zeros = byte == 0 ? zeros + 1 : 0
            }
            return header + escaped
        }
    }

    /// A sequence parameter set up to its picture size, with `subLayers` sub-layers that each carry a profile
    /// and a level.
    static func sequenceParameterSet(width: UInt64, height: UInt64, chroma: UInt64 = 1, subLayers: Int = 0) -> [UInt8] {
        var writer = BitWriter()
        writer.write(0, 4)                       // sps_video_parameter_set_id
        writer.write(UInt64(subLayers), 3)       // sps_max_sub_layers_minus1
        writer.write(1, 1)                       // sps_temporal_id_nesting_flag
        writer.write(0, 96)                      // general profile and level, all zero
        for _ in 0..<subLayers { writer.write(0b11, 2) }
        if subLayers > 0 { writer.write(0, 2 * (8 - subLayers)) }
        for _ in 0..<subLayers { writer.write(0, 88 + 8) }
        writer.expGolomb(0)                      // sps_seq_parameter_set_id
        writer.expGolomb(chroma)
        if chroma == 3 { writer.write(0, 1) }
        writer.expGolomb(width)
        writer.expGolomb(height)
        return writer.nalUnit(header: [33 << 1, 1])
    }

    @Test("sizes written bit by bit are read back", arguments: [
        (64, 48, 1, 0), (320, 240, 1, 0), (60_000, 60_000, 1, 0), (8_192, 4_320, 3, 0), (1, 1, 0, 2), (4_000, 3_000, 2, 6),
    ])
    func written(_ width: Int, _ height: Int, _ chroma: Int, _ subLayers: Int) {
        let nal = Self.sequenceParameterSet(width: UInt64(width), height: UInt64(height), chroma: UInt64(chroma), subLayers: subLayers)
        let size = nal.withUnsafeBytes { HEVCPictureSize.ofSequenceParameterSet($0) }
        #expect(size == PixelSize(width: width, height: height))
    }

    @Test("the all-zero profile is escaped, and the escapes are dropped when read")
    func emulationPrevention() {
        let nal = Self.sequenceParameterSet(width: 640, height: 480)
        #expect(nal.count > 14 && nal[2..<14].contains(3))
        #expect(nal.withUnsafeBytes { HEVCPictureSize.ofSequenceParameterSet($0) } == PixelSize(width: 640, height: 480))
    }

    @Test("other NAL units, cut parameter sets and empty sizes give nothing")
    func notASize() {
        let nal = Self.sequenceParameterSet(width: 640, height: 480)
        var otherType = nal
        otherType[0] = 34 << 1
        #expect(otherType.withUnsafeBytes { HEVCPictureSize.ofSequenceParameterSet($0) } == nil)
        for cut in [0, 1, 2, 8, 14] {
            #expect(Array(nal.prefix(cut)).withUnsafeBytes { HEVCPictureSize.ofSequenceParameterSet($0) } == nil, "\(cut)")
        }
        let empty = Self.sequenceParameterSet(width: 0, height: 480)
        #expect(empty.withUnsafeBytes { HEVCPictureSize.ofSequenceParameterSet($0) } == nil)
    }

    @Test("the fixtures' items: canvases, tiles, thumbnails and alpha planes")
    func fixtureItems() {
        func scan(_ name: String) -> HEIFItemSizes {
            Fixtures.data("heif/\(name).heic").withUnsafeBytes { HEIFItemSizes($0) }
        }
        // heif-enc writes a grid (item 2 here) of one tile (item 1).
        let quad = scan("quad")
        #expect(quad.isComplete)
        #expect(quad.canvas(of: 2, declared: PixelSize(width: 1, height: 1)) == PixelSize(width: 64, height: 48))
        #expect(quad.largestCodedPicture(of: 2) == PixelSize(width: 64, height: 64))
        // An image and its thumbnail: each is bounded by its own picture.
        let photo = scan("photo-thumb")
        #expect(photo.isComplete)
        let pictures = Set((1...8).compactMap { photo.largestCodedPicture(of: UInt32($0)) })
        #expect(pictures.contains(PixelSize(width: 320, height: 240)) && pictures.contains(PixelSize(width: 96, height: 72)))
        #expect(scan("quad-alpha").isComplete)
    }

    @Test("reference cycles through tiles and alpha planes are found, and the fixtures have none")
    func referenceCycles() {
        // Grid 6 is the alpha plane of grid 4 and has grid 4 as its tile; grid 2 stands apart.
        let cycle = Fixtures.data("heif/alpha-grid-cycle.heic").withUnsafeBytes { HEIFItemSizes($0) }
        #expect(cycle.hasReferenceCycle(from: 4) && cycle.hasReferenceCycle(from: 6))
        #expect(!cycle.hasReferenceCycle(from: 2))
        for name in HEIFBadInputTests.all + ["photo"] {
            let sizes = Fixtures.data("heif/\(name).heic").withUnsafeBytes { HEIFItemSizes($0) }
            #expect((1...8).allSatisfy { !sizes.hasReferenceCycle(from: UInt32($0)) }, "\(name)")
        }
    }
}
