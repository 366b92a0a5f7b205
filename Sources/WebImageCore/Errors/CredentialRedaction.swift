#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Hides the credentials that URLs carry in their user information (`http://user:secret@host/`) wherever a URL is
/// written out: error messages, the tool's lines and JSON, log lines.
///
/// A password becomes `***` and the user name stays (`http://user:***@host/`), so that a message still says which
/// account was used. A user name without a password is masked whole (`https://***@host/`): that form usually
/// carries a token. Header values are never written out, so they need no redaction.
package enum CredentialRedaction {
    /// What a masked password or token reads as.
    package static let mask = "***"

    /// `text` with the user information of every URL in it masked; `text` itself when it holds none.
    ///
    /// A URL is recognised by its `://`; its authority runs to the next `/`, `?`, `#`, space, `"`, `<` or `>`, and
    /// its user information to the authority's last `@`. Costs one scan for `@` when there is none, which is the usual case.
    package static func redacting(_ text: String) -> String {
        let bytes = text.utf8
        guard bytes.contains(UInt8(ascii: "@")), bytes.contains(UInt8(ascii: ":")) else { return text }
        let input = Array(bytes)
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        while let separator = nextSeparator(in: input, from: index) {
            let start = separator + 3
            var end = start
            while end < input.count, !endsAuthority(input[end]) { end += 1 }
            index = end
            guard let at = input[start..<end].lastIndex(of: UInt8(ascii: "@")), at > start else { continue }
            let masked = input[start..<at].firstIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? start
            if output.isEmpty { output.reserveCapacity(input.count) }
            output.append(contentsOf: input[copied..<masked])
            output.append(contentsOf: mask.utf8)
            copied = at
        }
        guard copied > 0 else { return text }
        output.append(contentsOf: input[copied...])
        return String(decoding: output, as: UTF8.self)
    }

    /// `url`'s string with its user information masked.
    package static func redacting(_ url: URL) -> String {
        redacting(url.absoluteString)
    }

    /// The index of the next `://` at or after `index`.
    private static func nextSeparator(in bytes: [UInt8], from index: Int) -> Int? {
        var index = index
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Whether `byte` ends a URL's authority in running text: only what user information cannot hold unencoded,
    /// so that a password with a comma or a parenthesis is masked whole (a closing parenthesis after a URL then
    /// belongs to its authority, which only matters when it holds an `@`).
    private static func endsAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: " "), UInt8(ascii: "\t"),
             UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"):
            true
        default:
            false
        }
    }
}
