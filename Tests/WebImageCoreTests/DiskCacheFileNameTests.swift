import Foundation
import Testing
@testable import WebImageCore

/// SDWebImage's file names: the vectors of its test suite, and the corner cases of the extension rule.
@Suite struct DiskCacheFileNameTests {
    @Test(arguments: [
        ("https://placehold.co/50x50.jpg", "e9936aba8d7f7fcca7813d72290de957.jpg"),
        ("TestImageKey.jpg", "f77fd0b2d2c9780cce3b1cf4f047030a.jpg"),
        (
            "https://maps.googleapis.com/maps/api/staticmap?center=48.8566,2.3522&format=png&maptype=roadmap&scale=2&size=375x200&zoom=15",
            "e71fc3239f5147046b9e7f07ad7e7d61"
        ),
    ])
    func sdWebImageVectors(key: String, name: String) {
        #expect(DiskCache.fileName(forKey: key) == name)
    }

    @Test func theDigestStopsAtTheFirstNul() {
        // MD5("abc"); the extension still comes from the whole key.
        #expect(DiskCache.fileName(forKey: "abc\0def.png") == "900150983cd24fb0d6963f7d28e17f72.png")
        #expect(DiskCache.digestName(forKey: "abc\0anything") == DiskCache.digestName(forKey: "abc"))
    }

    @Test func percentDecodedNulIsRemovedFromTheExtension() {
        let key = "https://example.com/images/a1ec5d81e.jpg00%00"
        #expect(DiskCache.fileName(forKey: key) == "f47a668d33e97c0929b03998cc3ab76d.jpg00")
    }

    @Test func colonsAreRemovedAndTheQueryIgnored() {
        let key = "https://example.com/photo.jp:g?x=1"
        #expect(DiskCache.fileName(forKey: key) == "fd6475a7d3699175ccfe8db871e43569.jpg")
    }

    @Test func anExtensionLongerThan222CharactersIsDropped() {
        let kept = "https://example.com/a." + String(repeating: "x", count: 222)
        let dropped = "https://example.com/a." + String(repeating: "x", count: 223)
        #expect(DiskCache.fileExtension(forKey: kept).count == 222)
        #expect(DiskCache.fileName(forKey: kept).count == 32 + 1 + 222)
        #expect(DiskCache.fileName(forKey: dropped) == DiskCache.digestName(forKey: dropped))
    }

    /// File names are limited to 255 bytes, not characters: the extension's limit counts UTF-8 bytes.
    @Test(arguments: [
        // (extension, kept)
        (String(repeating: "é", count: 150), false),
        (String(repeating: "é", count: 111), true),
        (String(repeating: "é", count: 111) + "x", false),
        (String(repeating: "😀", count: 55) + "xx", true),
        (String(repeating: "😀", count: 56), false),
        (String(repeating: "x", count: 222), true),
    ])
    func theExtensionLimitCountsBytes(ext: String, kept: Bool) {
        for key in ["x." + ext, "https://example.com/x." + ext] {
            let name = DiskCache.fileName(forKey: key)
            #expect(name == (kept ? DiskCache.digestName(forKey: key) + "." + ext : DiskCache.digestName(forKey: key)), "\(key)")
            #expect(name.utf8.count <= 255)
        }
    }

    /// Every name the cache makes from a key fits in a file name: the entry, the temporary files and the sidecar.
    @Test(arguments: [
        "x." + String(repeating: "é", count: 150),
        "x." + String(repeating: "é", count: 111),
        "x." + String(repeating: "x", count: 222),
        "https://example.com/" + String(repeating: "a", count: 4000) + "." + String(repeating: "ü", count: 200),
    ])
    func everyNameFitsInAFileName(key: String) {
        let names = DiskCacheFileName.Names(key: key)
        var all = names.lookupOrder
        all.append(DiskCacheFileName.temporary(forDigest: names.digest))
        all.append(DiskCacheFileName.sidecar(forDigest: names.digest))
        for name in all {
            #expect(name.utf8.count <= 255, "\(name)")
        }
    }

    @Test func keysWithoutExtension() {
        #expect(DiskCache.fileName(forKey: "").count == 32)
        #expect(DiskCache.fileName(forKey: "https://example.com/") == DiskCache.digestName(forKey: "https://example.com/"))
        #expect(DiskCache.fileName(forKey: "plain-key") == DiskCache.digestName(forKey: "plain-key"))
        #expect(DiskCache.fileName(forKey: "https://example.com/a.b/c") == DiskCache.digestName(forKey: "https://example.com/a.b/c"))
    }

    @Test func namesTheCacheMakesAreRecognised() {
        let digest = DiskCache.digestName(forKey: "k")
        #expect(DiskCacheFileName.kind(of: digest + ".png") == .entry)
        #expect(DiskCacheFileName.kind(of: DiskCacheFileName.temporary(forDigest: digest)) == .temporary)
        #expect(DiskCacheFileName.kind(of: DiskCacheFileName.sidecar(forDigest: digest)) == .sidecar)
        #expect(DiskCacheFileName.kind(of: ".hidden") == .other)
        #expect(DiskCacheFileName.digest(ofEntry: digest + ".png") == digest)
        #expect(DiskCacheFileName.digest(ofEntry: digest) == digest)
        #expect(DiskCacheFileName.digest(ofEntry: digest + "x") == nil)
        #expect(DiskCacheFileName.digest(ofEntry: "notes.txt") == nil)
        #expect(DiskCacheFileName.temporary(forDigest: digest) != DiskCacheFileName.temporary(forDigest: digest))
    }

    /// The path read straight from a plain `http(s)` key is the one Foundation's parser finds, so that the fast
    /// path names files exactly as the slow one.
    @Test(arguments: [
        "https://placehold.co/50x50.jpg",
        "http://example.com",
        "https://example.com/",
        "https://example.com?x=a.png",
        "https://example.com#a.png",
        "https://user:pw@example.com:8080/a/b/photo.webp?size=2&fmt=png#frag.gif",
        "https://example.com/a.jpg/",
        "https://example.com/dir.v2/file",
        "https://example.com/.hidden",
        "https://example.com/a..b",
        "https://example.com/a.",
        "https://example.com/x/y.tar.gz?download=1",
        "https://cdn.example.com/img/~user/(1)*+,!$&'=@2x.png",
        "https://example.com/a:b.c:d",
        "https://example.com/p?q=/x.jpg#y.png",
    ])
    func thePlainURLPathMatchesFoundation(key: String) throws {
        let path = try #require(DiskCache.plainURLPath(key))
        let url = try #require(URL(string: key))
        // Foundation drops trailing slashes from the path, which the extension rule ignores anyway.
        var trimmed = String(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        #expect(trimmed == url.path)
        #expect(DiskCache.fileExtension(forKey: key) == PathName.pathExtension(url.path).replacingOccurrences(of: ":", with: ""))
    }

    @Test(arguments: [
        "https://example.com/a%20b.jpg", "https://example.com/a b.jpg", "https://example.com/é.jpg",
        "https://example.com/a;p.jpg", "https://[::1]/a.jpg", "https://example.com/a#b#c.jpg", "ftp://example.com/a.jpg",
        "TestImageKey.jpg",
    ])
    func otherKeysGoToFoundation(key: String) {
        #expect(DiskCache.plainURLPath(key) == nil)
    }
}
