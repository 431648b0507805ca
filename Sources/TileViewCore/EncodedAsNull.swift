/// An optional record field that JSON always carries: `null` when absent, instead of leaving the key out as
/// synthesized `Encodable` does for optionals (`move` of a gallery step record, `peakRSSBytes` of a summary).
@propertyWrapper
public struct EncodedAsNull<Value: Encodable & Hashable & Sendable>: Encodable, Hashable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
