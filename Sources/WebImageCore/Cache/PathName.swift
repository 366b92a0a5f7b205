/// Path extension rules of Foundation's `NSString` path methods, for plain strings: the extension is what
/// follows the last `.` of the last path component, unless that dot starts or ends the component.
package enum PathName {
    /// The extension of the last path component, without the dot; empty when there is none.
    package static func pathExtension(_ path: String) -> String {
        guard let (component, _) = lastComponent(path), let dot = extensionDot(in: component) else { return "" }
        return String(component[component.index(after: dot)...])
    }

    /// `path` without the extension of its last component (and without trailing slashes).
    package static func deletingPathExtension(_ path: String) -> String {
        guard let (component, trimmed) = lastComponent(path), let dot = extensionDot(in: component) else {
            return path
        }
        let kept = trimmed.utf8.count - component[dot...].utf8.count
        return String(decoding: trimmed.utf8.prefix(kept), as: UTF8.self)
    }

    /// The last path component and the path without trailing slashes; nil for an empty path.
    private static func lastComponent(_ path: String) -> (Substring, Substring)? {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty, trimmed != "/" else { return nil }
        let component = trimmed.lastIndex(of: "/").map { trimmed[trimmed.index(after: $0)...] } ?? trimmed
        return (component, trimmed)
    }

    /// The dot that starts the extension: the last one, unless it is the component's first or last character.
    private static func extensionDot(in component: Substring) -> Substring.Index? {
        guard let dot = component.lastIndex(of: "."), dot != component.startIndex,
              component.index(after: dot) != component.endIndex else { return nil }
        return dot
    }
}
