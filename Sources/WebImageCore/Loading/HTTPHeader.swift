/// One header field.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether the field is called `name`, compared without regard to case, as HTTP compares field names.
    public func hasName(_ name: String) -> Bool {
        self.name.lowercased() == name.lowercased()
    }
}

extension [HTTPHeader] {
    /// The value of the first field called `name`, compared without regard to case.
    public func value(named name: String) -> String? {
        first { $0.hasName(name) }?.value
    }
}
