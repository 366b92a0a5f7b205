import Testing
import WebImage
@testable import webimage

/// `--thumbnail WxH` or `N`: the one parser every command's thumbnail box goes through.
@Suite struct PixelSizeArgumentTests {
    /// The message `text` is refused with, or nil when it parses.
    private func failure(_ text: String) -> String? {
        do {
            _ = try PixelSizeArgument(parsing: text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [("256", 256, 256), ("40x30", 40, 30), ("40X30", 40, 30), ("1x1", 1, 1)])
    func sizesParse(text: String, width: Int, height: Int) throws {
        let parsed = try PixelSizeArgument(parsing: text)
        #expect(parsed.size == PixelSize(width: width, height: height))
        #expect(PixelSizeArgument(argument: text) == parsed)
    }

    @Test func aSquareIsNamedByOneNumber() throws {
        #expect(try PixelSizeArgument(parsing: "64").name == "64")
        #expect(try PixelSizeArgument(parsing: "64x64").name == "64")
        #expect(try PixelSizeArgument(parsing: "64x48").name == "64x48")
    }

    @Test(arguments: ["0", "0x10", "10x0", "-5", "10x-5"])
    func sidesBelowOneAreRefused(text: String) throws {
        let message = try #require(failure(text))
        #expect(message.contains("at least 1"), "\(message)")
        #expect(message.contains("'\(text)'"))
    }

    @Test(arguments: ["abc", "", "x", "10x", "x10", "1.5", "10x10x10", "ten", "10 x 10"])
    func textThatIsNotASizeIsRefused(text: String) throws {
        let message = try #require(failure(text))
        #expect(message.contains("is not 'WxH' or 'N'"), "\(message)")
        #expect(PixelSizeArgument(argument: text) == nil)
    }

    @Test func absurdlyLargeSidesAreRefused() throws {
        let over = PixelSizeArgument.maxSide + 1
        for text in ["\(over)", "10x\(over)", "99999999999999999999999"] {
            let message = try #require(failure(text), "\(text)")
            #expect(message.contains("at most \(PixelSizeArgument.maxSide)"), "\(message)")
        }
        #expect(try PixelSizeArgument(parsing: "\(PixelSizeArgument.maxSide)").size.width == PixelSizeArgument.maxSide)
    }
}
