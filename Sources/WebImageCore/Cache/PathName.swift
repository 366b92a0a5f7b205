/// Path extension rules of Foundation's `NSString` path methods, for plain strings: the extension is what
/// follows the last `.` of the last path component, unless that dot starts or ends the component.
///
/// The rules read Unicode scalars, as `NSString` reads UTF-16 units, not characters: a `/` or a `.` followed by a
/// combining mark is one `Character` with it, yet it still separates components or starts the extension, so
/// that no extension taken from a key can hold a `/`.
package enum PathName {
    private typealias Scalars = Substring.UnicodeScalarView

    /// The extension of the last path component, without the dot; empty when there is none.
    package static func pathExtension(_ path: String) -> String {
        guard let (component, _) = lastComponent(path), let dot = extensionDot(in: component) else { return "" }
        return string(component[component.index(after: dot)...])
    }

    /// `path` without the extension of its last component (and without trailing slashes).
    package static func deletingPathExtension(_ path: String) -> String {
        guard let (component, trimmed) = lastComponent(path), let dot = extensionDot(in: component) else {
            return path
        }
        return string(trimmed[..<dot])
    }

    /// The last path component and the path without trailing slashes; nil for an empty path.
    private static func lastComponent(_ path: String) -> (Scalars, Scalars)? {
        var trimmed = Substring(path).unicodeScalars
        while trimmed.last == "/", trimmed.index(after: trimmed.startIndex) != trimmed.endIndex {
            trimmed = trimmed.dropLast()
        }
        guard let first = trimmed.first,
              first != "/" || trimmed.index(after: trimmed.startIndex) != trimmed.endIndex else { return nil }
        let component = trimmed.lastIndex(of: "/").map { trimmed[trimmed.index(after: $0)...] } ?? trimmed
        return (component, trimmed)
    }

    /// The dot that starts the extension: the last one, unless it is the component's first or last scalar.
    private static func extensionDot(in component: Scalars) -> Scalars.Index? {
        guard let dot = component.lastIndex(of: "."), dot != component.startIndex,
              component.index(after: dot) != component.endIndex else { return nil }
        return dot
    }

    private static func string(_ scalars: Scalars) -> String {
        String(String.UnicodeScalarView(scalars))
    }
}
