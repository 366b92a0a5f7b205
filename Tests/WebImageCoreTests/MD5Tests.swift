import Crypto
import Testing
@testable import WebImageCore

/// The disk cache's own MD5, against RFC 1321's test suite and swift-crypto.
@Suite struct MD5Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private func digest(_ text: String) -> String {
        hex(Array(text.utf8).withUnsafeBytes { MD5.digest($0) })
    }

    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func theRFCTestSuite(input: String, expected: String) {
        #expect(digest(input) == expected)
    }

    @Test func agreesWithSwiftCryptoAcrossBlockBoundaries() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...200) + [511, 512, 513, 4_095, 4_096, 10_000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let ours = bytes.withUnsafeBytes { MD5.digest($0) }
            let theirs = Array(Insecure.MD5.hash(data: bytes))
            #expect(ours == theirs, "\(length) bytes")
        }
    }

    @Test func fileNamesAreTheSameAsBefore() {
        #expect(DiskCache.fileName(forKey: "https://placehold.co/50x50.jpg") == "e9936aba8d7f7fcca7813d72290de957.jpg")
    }
}
