import TileViewCore

/// Why an image request (IIIF or Deep Zoom) cannot be answered: the HTTP status to answer with and a one-line
/// plain-text reason that names the bad part, e.g. `region "10,10,0,5": width and height must be greater than 0`.
public struct ImageRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status of the answer.
    public enum Status: Int, Hashable, Sendable {
        /// 400: the request is malformed or asks for something impossible (a zero size, a region outside the image).
        case badRequest = 400
        /// 404: the request is well formed but names nothing that exists (a Deep Zoom tile out of range).
        case notFound = 404
        /// 501: the request is valid for the API but asks for a feature this service does not offer.
        case notImplemented = 501
    }

    /// The HTTP status to answer with.
    public let status: Status
    /// One line of plain text saying what was wrong.
    public let reason: String

    public init(_ status: Status, _ reason: String) { (self.status, self.reason) = (status, reason) }

    /// The reason, as the body of the answer.
    public var description: String { reason }

    public static func badRequest(_ part: String, _ text: some StringProtocol, _ problem: String) -> ImageRequestError {
        ImageRequestError(.badRequest, "\(part) \"\(text)\": \(problem)")
    }

    static func notImplemented(_ part: String, _ text: some StringProtocol, _ problem: String) -> ImageRequestError {
        ImageRequestError(.notImplemented, "\(part) \"\(text)\": \(problem)")
    }
}

/// The number forms of the IIIF Image API (section 4.7): integers are ASCII digits only; decimals are ASCII
/// digits with at most one `.` and at least one digit (no sign, no exponent, no `nan` or `inf`).
enum IIIFNumber {
    static func isDigit(_ c: Character) -> Bool { c >= "0" && c <= "9" }

    /// A non-negative integer, or nil when the text is not one or does not fit in an `Int`.
    static func integer(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy(isDigit) else { return nil }
        return Int(text)
    }

    /// A non-negative finite decimal, or nil when the text is not one.
    static func decimal(_ text: Substring) -> Double? {
        guard text.contains(where: isDigit), text.allSatisfy({ isDigit($0) || $0 == "." }),
            text.count(where: { $0 == "." }) <= 1
        else { return nil }
        guard let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// Formats a decimal without a trailing `.0` for whole values (for messages and canonical forms).
    static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
