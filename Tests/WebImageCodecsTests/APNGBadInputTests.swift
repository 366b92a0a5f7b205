#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("PNG coder: damaged APNG structure")
struct APNGBadInputTests {
    let coder = PNGCoder()

    /// A 32 x 24 animation: the default image (blue) as frame 0, then `frame` frames as the closure writes them.
    private static func animation(frames: UInt32 = 2, _ rest: (inout APNGCraft) -> Void) -> Data {
        var file = APNGCraft(width: 32, height: 24, frames: frames)
        file.control(width: 32, height: 24)
        file.defaultImage(PNGCraft.solid(width: 32, height: 24, .blue))
        rest(&file)
        return file.finished()
    }

    private static let red8 = PNGCraft.solid(width: 8, height: 8, .red)

    /// Built afresh on each use: kept in a static constant, the data would look leaked to LeakSanitizer.
    static var cases: [(String, Data)] { [
        ("a frame outside the canvas", animation { file in
            file.control(width: 16, height: 16, x: 20, y: 10)
            file.frameData(PNGCraft.solid(width: 16, height: 16, .red))
        }),
        ("a frame offset that wraps around", animation { file in
            file.control(width: 8, height: 8, x: 0xFFFF_FFF8, y: 0)
            file.frameData(red8)
        }),
        ("an empty frame", animation { file in
            file.control(width: 0, height: 8)
            file.frameData(red8)
        }),
        ("a skipped sequence number", animation { file in
            file.control(width: 8, height: 8)
            file.append(PNGCraft.chunk("fdAT", PNGCraft.bigEndian(9) + red8))
        }),
        ("a repeated sequence number", animation { file in
            file.append(PNGCraft.chunk("fcTL", PNGCraft.frameControl(sequence: 0, width: 8, height: 8)))
            file.append(PNGCraft.chunk("fdAT", PNGCraft.bigEndian(1) + red8))
        }),
        ("more frames declared than present", animation(frames: 3) { file in
            file.control(width: 8, height: 8)
            file.frameData(red8)
        }),
        ("fewer frames declared than present", animation(frames: 1) { file in
            file.control(width: 8, height: 8)
            file.frameData(red8)
        }),
        ("a frame control without data", animation { file in
            file.control(width: 8, height: 8)
        }),
        ("an unknown dispose operation", animation { file in
            file.control(width: 8, height: 8, dispose: 3)
            file.frameData(red8)
        }),
        ("an unknown blend operation", animation { file in
            file.control(width: 8, height: 8, blend: 2)
            file.frameData(red8)
        }),
        ("an fcTL chunk of 25 bytes", animation { file in
            file.append(PNGCraft.chunk("fcTL", Array(PNGCraft.frameControl(sequence: 1, width: 8, height: 8).prefix(25))))
            file.frameData(red8)
        }),
        ("an fdAT chunk too short for its sequence number", animation { file in
            file.control(width: 8, height: 8)
            file.append(PNGCraft.chunk("fdAT", [0, 0]))
        }),
        ("an fdAT chunk with a wrong CRC", {
            var data = animation { file in
                file.control(width: 8, height: 8)
                file.frameData(red8)
            }
            data[data.count - 13] ^= 0xFF      // the last byte of fdAT's CRC, before IEND's 12 bytes
            return data
        }()),
        ("frame data that is not zlib", animation { file in
            file.control(width: 8, height: 8)
            file.frameData([0x12, 0x34, 0x56, 0x78, 0x9A])
        }),
        ("frame data for fewer rows than the frame has", animation { file in
            file.control(width: 8, height: 8)
            file.frameData(PNGCraft.solid(width: 8, height: 3, .red))
        }),
        ("a zero frame count", {
            var file = APNGCraft(width: 32, height: 24, frames: 0)
            file.defaultImage(PNGCraft.solid(width: 32, height: 24, .blue))
            return file.finished()
        }()),
        ("a default image frame smaller than the canvas", {
            var file = APNGCraft(width: 32, height: 24, frames: 1)
            file.control(width: 16, height: 24)
            file.defaultImage(PNGCraft.solid(width: 32, height: 24, .blue))
            return file.finished()
        }()),
        ("an fdAT chunk with no frame control", {
            var file = APNGCraft(width: 32, height: 24, frames: 1)
            file.defaultImage(PNGCraft.solid(width: 32, height: 24, .blue))
            file.frameData(PNGCraft.solid(width: 32, height: 24, .red))
            return file.finished()
        }()),
        ("two acTL chunks", {
            var file = APNGCraft(width: 32, height: 24, frames: 1)
            file.append(PNGCraft.chunk("acTL", PNGCraft.bigEndian(1) + PNGCraft.bigEndian(0)))
            file.control(width: 32, height: 24)
            file.defaultImage(PNGCraft.solid(width: 32, height: 24, .blue))
            return file.finished()
        }()),
    ] }

    @Test("each damage is badImageData from decode and from the provider", arguments: cases.indices)
    func damaged(_ index: Int) {
        let (name, data) = Self.cases[index]
        do {
            let image = try coder.decode(data)
            Issue.record("\(name): decoded \(image)")
        } catch {
            #expect(error.code == .badImageData, "\(name): \(error)")
        }
        do {
            let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
            for frame in 0..<provider.frameCount { _ = try provider.frame(at: frame) }
            Issue.record("\(name): the provider played every frame")
        } catch {
            #expect(error.code == .badImageData, "\(name): \(error)")
        }
    }

    @Test("the crafted animation is valid when undamaged")
    func undamagedControl() throws {
        let data = Self.animation { file in
            file.control(width: 8, height: 8, x: 24, y: 16, blend: 1)
            file.frameData(Self.red8)
        }
        let image = try coder.decode(data)
        #expect(image.frames.count == 2)
        #expect(image.frames[1].pixels[x: 31, y: 23] == .red)
        #expect(image.frames[1].pixels[x: 23, y: 23] == .blue)
    }

    @Test("a frame outside the canvas says so")
    func outsideMessage() {
        #expect {
            try coder.decode(Self.cases[0].1)
        } throws: { error in
            guard let error = error as? WebImageError else { return false }
            return error.code == .badImageData && error.message.contains("outside")
        }
    }
}
