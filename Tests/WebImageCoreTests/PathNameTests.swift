import Foundation
import Testing
@testable import WebImageCore

/// `NSString`'s extension rules, read over Unicode scalars: a `/` or `.` that a combining mark follows is still a
/// separator or a dot.
@Suite struct PathNameTests {
    @Test(arguments: [
        ("photo.jpg", "jpg"), ("/a/b/photo.jpg", "jpg"), ("/a/b/photo.jpg/", "jpg"), ("/a.b/photo", ""),
        (".hidden", ""), ("name.", ""), ("/", ""), ("", ""), ("a.tar.gz", "gz"), ("//x.png//", "png"),
    ])
    func extensionsAsNSStringGivesThem(path: String, expected: String) {
        #expect(PathName.pathExtension(path) == expected)
    }

    @Test func aSlashThatACombiningMarkFollowsStillEndsAComponent() {
        // "/" + U+0747 is one Character; the extension must not reach back past the slash.
        let path = "x.jpg/\u{0747}evil"
        #expect(PathName.pathExtension(path) == "")
        #expect(PathName.pathExtension("a/\u{0747}b.c") == "c")
        #expect(PathName.deletingPathExtension("x.y/\u{0747}b.c") == "x.y/\u{0747}b")
    }

    @Test func aDotThatACombiningMarkFollowsStillStartsTheExtension() {
        #expect(PathName.pathExtension("name.\u{0301}png") == "\u{0301}png")
        #expect(PathName.deletingPathExtension("dir/name.\u{0301}png") == "dir/name")
    }

    @Test func noFileNameHoldsASlash() {
        let key = "\u{FFFD}htv\u{0}XXXX.XXXX_XXX/\u{0747}\u{FFFD}m`l"
        let name = DiskCache.fileName(forKey: key)
        #expect(!name.contains("/") && !name.unicodeScalars.contains("/"))
        #expect(name.utf8.count <= 255)
    }
}
