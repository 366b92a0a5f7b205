import Foundation
import Testing
import WebImageCore

@Suite struct ImageFormatTests {
    private func bytes(_ values: [UInt8], padTo count: Int = 16) -> Data {
        Data(values + [UInt8](repeating: 0, count: max(0, count - values.count)))
    }

    private func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func detectsEachSignature() {
        #expect(ImageFormat.detect(bytes([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
        #expect(ImageFormat.detect(bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) == .png)
        #expect(ImageFormat.detect(bytes(ascii("GIF87a"))) == .gif)
        #expect(ImageFormat.detect(bytes(ascii("GIF89a"))) == .gif)
        #expect(ImageFormat.detect(bytes(ascii("RIFF") + [0x10, 0, 0, 0] + ascii("WEBPVP8 "))) == .webp)
        #expect(ImageFormat.detect(bytes([0x49, 0x49, 0x2A, 0x00])) == .tiff)
        #expect(ImageFormat.detect(bytes([0x4D, 0x4D, 0x00, 0x2A])) == .tiff)
        #expect(ImageFormat.detect(bytes(ascii("BM"))) == .bmp)
        #expect(ImageFormat.detect(bytes(ascii("%PDF-1.7"))) == .pdf)
    }

    @Test func firstByteAloneIsNotEnough() {
        // SDWebImage calls all of these by their first byte; only full signatures count here.
        #expect(ImageFormat.detect(bytes([0xFF, 0xD8, 0x00])) == .undefined)
        #expect(ImageFormat.detect(bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B])) == .undefined)
        #expect(ImageFormat.detect(bytes(ascii("GIF90a"))) == .undefined)
        #expect(ImageFormat.detect(bytes(ascii("RIFF") + [0, 0, 0, 0] + ascii("WAVE"))) == .undefined)
        #expect(ImageFormat.detect(bytes(ascii("II*x"))) == .undefined)
        #expect(ImageFormat.detect(bytes(ascii("MM*\0"))) == .undefined)
        #expect(ImageFormat.detect(bytes(ascii("Bx"))) == .undefined)
        #expect(ImageFormat.detect(bytes(ascii("%PDx"))) == .undefined)
    }

    @Test func emptyAndShortDataAreUndefined() {
        #expect(ImageFormat.detect(Data()) == .undefined)
        #expect(ImageFormat.detect(Data([0xFF])) == .undefined)
        #expect(ImageFormat.detect(Data([0xFF, 0xD8])) == .undefined)
        #expect(ImageFormat.detect(Data([0x89, 0x50, 0x4E])) == .undefined)
        #expect(ImageFormat.detect(Data(ascii("RIFF") + [0, 0, 0, 0] + ascii("WEB")))  == .undefined)
        #expect(ImageFormat.detect(Data([0x00])) == .undefined)
        #expect(ImageFormat.detect(Data(ascii("hello world, not an image"))) == .undefined)
    }

    private func ftyp(_ major: String, _ compatible: [String] = []) -> Data {
        let size = 16 + 4 * compatible.count
        var out: [UInt8] = [0, 0, UInt8(size >> 8), UInt8(size & 0xFF)] + ascii("ftyp") + ascii(major) + [0, 0, 0, 0]
        for brand in compatible { out += ascii(brand) }
        return Data(out + [0, 0, 0, 8] + ascii("meta"))
    }

    @Test func isoMediaBrands() {
        for brand in ["heic", "heix", "hevc", "hevx"] {
            #expect(ImageFormat.detect(ftyp(brand)) == .heic, "\(brand)")
        }
        #expect(ImageFormat.detect(ftyp("mif1")) == .heif)
        #expect(ImageFormat.detect(ftyp("msf1")) == .heif)
        #expect(ImageFormat.detect(ftyp("avif")) == .avif)
        #expect(ImageFormat.detect(ftyp("avis")) == .avif)
        #expect(ImageFormat.detect(ftyp("mif1", ["mif1", "avif"])) == .avif)
        #expect(ImageFormat.detect(ftyp("mif1", ["mif1", "heic"])) == .heic)
        #expect(ImageFormat.detect(ftyp("isom", ["mp41"])) == .undefined)
        #expect(ImageFormat.detect(ftyp("qt  ")) == .undefined)
    }

    @Test func jpegXLCodestreamAndContainer() {
        #expect(ImageFormat.detect(bytes([0xFF, 0x0A, 0xFA, 0x1F])) == .jpegxl)
        #expect(ImageFormat.detect(Data([0xFF, 0x0A])) == .jpegxl)
        let container: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        #expect(ImageFormat.detect(bytes(container + [0, 0, 0, 0x14] + ascii("ftypjxl "), padTo: 32)) == .jpegxl)
        // One byte off, or cut short, is not JPEG XL.
        #expect(ImageFormat.detect(Data([0xFF, 0x0B, 0x00])) == .undefined)
        #expect(ImageFormat.detect(Data(container.dropLast())) == .undefined)
        var damaged = container
        damaged[11] = 0x0B
        #expect(ImageFormat.detect(bytes(damaged, padTo: 32)) == .undefined)
        // JPEG's signature still wins its own first byte.
        #expect(ImageFormat.detect(bytes([0xFF, 0xD8, 0xFF, 0x0A])) == .jpeg)
    }

    @Test func jpegXLNames() {
        #expect(ImageFormat.jpegxl.rawValue == 17)
        #expect(ImageFormat.jpegxl.name == "jxl")
        #expect(ImageFormat(name: "JXL") == .jpegxl)
        #expect(ImageFormat.jpegxl.fileExtension == "jxl")
        #expect(ImageFormat.jpegxl.mimeType == "image/jxl")
        #expect(ImageFormat.known.contains(.jpegxl))
    }

    @Test func svgNeedsAnOpeningAngleAndAClosingTag() {
        let svg = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>\n"
        #expect(ImageFormat.detect(Data(svg.utf8)) == .svg)
        #expect(ImageFormat.detect(Data(("\u{FEFF}  " + svg).utf8)) == .svg)
        #expect(ImageFormat.detect(Data("<html><body></body></html>".utf8)) == .undefined)
        let longTail = "<svg>" + "</svg>" + String(repeating: "<!-- padding -->", count: 20)
        #expect(ImageFormat.detect(Data(longTail.utf8)) == .undefined)
        #expect(ImageFormat.detect(Data("svg></svg>".utf8)) == .undefined)
    }

    @Test func namesAndExtensionsRoundTrip() {
        for format in ImageFormat.known {
            #expect(ImageFormat(name: format.name) == format)
            if let ext = format.fileExtension {
                #expect(ImageFormat(name: ext) == format)
            }
        }
        #expect(ImageFormat(name: "JPG") == .jpeg)
        #expect(ImageFormat(name: "bogus") == nil)
        #expect(ImageFormat.undefined.fileExtension == nil)
        #expect(ImageFormat(rawValue: 500).name == "format(500)")
        #expect(ImageFormat.jpeg.rawValue == 0 && ImageFormat.webp.rawValue == 4 && ImageFormat.undefined.rawValue == -1)
    }
}
